import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { preferredEncoding } from '../lib/response-cache.js';
import { varyOn } from '../lib/vary.js';

/**
 * How much is kept in memory: a file larger than `file`, or past `total` for the whole build, is read
 * from disk per request instead (today's build is ~3 MB with its compressed copies).
 */
export const IN_MEMORY_LIMITS = { file: 8 * 1024 * 1024, total: 64 * 1024 * 1024 };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml',
};

/** One file of the build, with the compressed copies `npm run build` wrote beside it. */
export interface StaticFile {
  type: string;
  etag: string;
  cacheControl: string;
  /** The bytes by encoding; `read` instead when the file is kept on disk. */
  identity?: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** For a file too large to keep: its path (and its copies' paths), read per request. */
  onDisk?: { identity: string; br?: string; gzip?: string; sizes: Record<string, number> };
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Every file of the built web app by its URL path, read once at start (a new build means a new
 * process). The `.br` and `.gz` copies are not files of their own but encodings of the file.
 */
export function loadStaticFiles(dist: string, limits = IN_MEMORY_LIMITS): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let total = 0;
  for (const full of filesUnder(dist)) {
    if (/\.(br|gz)$/.test(full)) continue;
    const urlPath = `/${path.relative(dist, full).split(path.sep).join('/')}`;
    const copies = { br: `${full}.br`, gzip: `${full}.gz` } as const;
    const present = {
      br: fs.existsSync(copies.br) ? copies.br : undefined,
      gzip: fs.existsSync(copies.gzip) ? copies.gzip : undefined,
    };
    const sizes = {
      identity: fs.statSync(full).size,
      ...(present.br ? { br: fs.statSync(present.br).size } : {}),
      ...(present.gzip ? { gzip: fs.statSync(present.gzip).size } : {}),
    };
    const size = Object.values(sizes).reduce((a, b) => a + b, 0);
    const keep = sizes.identity <= limits.file && total + size <= limits.total;
    const identity = fs.readFileSync(full);
    const file: StaticFile = {
      type: TYPES[path.extname(full).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(identity).digest('base64url').slice(0, 27)}"`,
      // Hashed names change with their content: cached for a year; the rest for five minutes.
      cacheControl: urlPath.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=300',
    };
    if (keep) {
      total += size;
      file.identity = identity;
      if (present.br) file.br = fs.readFileSync(present.br);
      if (present.gzip) file.gzip = fs.readFileSync(present.gzip);
    } else {
      file.onDisk = { identity: full, ...present, sizes };
    }
    files.set(urlPath, file);
  }
  return files;
}

/**
 * Serves the built web app's files from memory, pre-compressed (decision 032): a static file costs
 * no file-system call and no compression, only the event loop's turn, so it stays fast while the
 * thread pool is busy. `@fastify/static` stat-ed and opened the file through libuv's pool for
 * every request.
 */
export function registerStaticFiles(app: FastifyInstance, dist: string, limits = IN_MEMORY_LIMITS): void {
  const files = loadStaticFiles(dist, limits);
  for (const [urlPath, file] of files) {
    const encodings = file.br || file.gzip || file.onDisk?.br || file.onDisk?.gzip;
    // Hidden from the OpenAPI document: it describes the API, not the app's files.
    app.get(urlPath, { compress: false, schema: { hide: true } }, (request, reply) => {
      void reply.header('Cache-Control', file.cacheControl).header('ETag', file.etag).type(file.type);
      if (encodings) void varyOn(reply, 'Accept-Encoding');
      if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
      const wanted = preferredEncoding(request.headers['accept-encoding']);
      const encoding = wanted && (file[wanted] ?? file.onDisk?.[wanted]) ? wanted : null;
      if (encoding) void reply.header('Content-Encoding', encoding);
      if (file.onDisk) {
        const key = encoding ?? 'identity';
        const onDiskPath = file.onDisk[key] ?? file.onDisk.identity;
        return reply
          .header('Content-Length', String(file.onDisk.sizes[key]))
          .send(fs.createReadStream(onDiskPath));
      }
      return reply.send((encoding && file[encoding]) ?? file.identity);
    });
  }
}
