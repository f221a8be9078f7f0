// A tiny static server for web/dist on 127.0.0.1 and a random port (no background process to
// manage). `.wasm` is served as application/wasm.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Serves `root` at `prefix` (a sub-path such as '/docs/kafka/', as a static host may); with
 * `gzip`, compressed (level 9) to a client that accepts it, as most static hosts serve. */
export async function serve(root, prefix = '/', { gzip = false } = {}) {
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!url.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    const path = normalize(`/${url.slice(prefix.length)}`).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    try {
      let body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: 9 }));
        body = compressed.get(file);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}${prefix}`, close: () => server.close() };
}
