import { Transform, type Readable } from 'node:stream';

/**
 * `source` at no more than `bytesPerSecond` (a token bucket with one second of burst): one download
 * of a large file never takes the event loop's core for the kernel's copying at loopback or LAN speed
 * (a 19 MB PDF read at 1.4 GB/s cost other readers 13% of their throughput; issue 17, point 8).
 * Set far above what a client's network takes, so no person downloading an article notices it.
 * 0 or less: unpaced.
 */
export function paced(source: Readable, bytesPerSecond: number): Readable {
  if (!(bytesPerSecond > 0)) return source;
  const start = Date.now();
  let sent = 0;
  const pacer = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      // When this chunk is due, with one second's worth allowed at once.
      const due = start + ((sent - bytesPerSecond) / bytesPerSecond) * 1000;
      const wait = due - Date.now();
      if (wait > 0) setTimeout(() => done(null, chunk), wait);
      else done(null, chunk);
    },
  });
  source.on('error', (err) => pacer.destroy(err));
  pacer.on('close', () => source.destroy());
  return source.pipe(pacer);
}
