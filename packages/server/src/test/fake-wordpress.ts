import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBehaviour =
  'ok' | 'slow' | 'drip' | 'huge' | 'error' | 'malformed' | 'hostile' | 'ids' | 'down';

/**
 * A small stand-in for a WordPress site: GET /wp-json/wp/v2/pages/{id} answers the real JSON shape
 * (`id`, `title.rendered`, `content.rendered`, …), or misbehaves as told.
 */
export async function startFakeWordPress() {
  let behaviour: FakeBehaviour = 'ok';
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/wp-json\/wp\/v2\/pages\/(\d+)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"rest_no_route"}');
      return;
    }
    const id = Number(m[1]);
    const page = (content: string) =>
      JSON.stringify({
        id,
        date: '2024-01-01T00:00:00',
        slug: `page-${id}`,
        status: 'publish',
        type: 'page',
        title: { rendered: `Page ${id} &#8211; Title` },
        content: { rendered: content, protected: false },
        excerpt: { rendered: '' },
      });
    switch (behaviour) {
      case 'ok':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(page(`<p>Content of page ${id}.</p><a href="https://eflm.eu/">EFLM</a>`));
        return;
      case 'slow':
        setTimeout(
          () => res.writeHead(200, { 'content-type': 'application/json' }).end(page('<p>late</p>')),
          3000,
        );
        return;
      case 'drip': {
        // Headers at once, then the body a few bytes at a time, for longer than any timeout.
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = page('<p>drip</p>');
        let i = 0;
        const timer = setInterval(() => {
          if (res.destroyed || i >= body.length) {
            clearInterval(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(body.slice(i, i + 2));
          i += 2;
        }, 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'huge': {
        // A page far past any sensible size, sent without a length so only counting bytes notices.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(page(`<p>${'x'.repeat(5 * 1024 * 1024)}</p>`));
        return;
      }
      case 'ids':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            page('<h2 id="csrf_token">Clobber</h2><p id="root" lang="en">text</p><a id="x" href="#y">y</a>'),
          );
        return;
      case 'error':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": 10, "title": {');
        return;
      case 'hostile':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            page(
              '<p>Hi</p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">' +
                '<a href="javascript:window.__pwned = 3">click</a><iframe src="https://evil.example/"></iframe>' +
                '<p style="background:url(javascript:alert(1))" onclick="alert(1)">styled</p>',
            ),
          );
        return;
      case 'down':
        req.socket.destroy();
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    set: (b: FakeBehaviour) => {
      behaviour = b;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
