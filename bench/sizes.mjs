// What a page that shows the playground downloads, from the built site (`web/dist`, after
// `npx vite build`): each asset raw, gzip (level 9) and brotli (quality 11), and the total for
// the page and for an embed (the same assets: an embed is the page in a frame). The target for
// an embed is 200 KB gzip in all (issue 13); the line says how far from it the build is.
// `node bench/sizes.mjs [dist]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? 'web/dist';
const assets = readdirSync(join(dist, 'assets'))
  .filter((f) => /\.(js|css|wasm)$/.test(f))
  .sort();
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const rows = [];
for (const name of assets) {
  const bytes = readFileSync(join(dist, 'assets', name));
  rows.push({
    name,
    // The page's entry loads what index.html names; the wasm module is fetched by it.
    loaded: html.includes(name) || name.endsWith('.wasm'),
    raw: statSync(join(dist, 'assets', name)).size,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  });
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`${'asset'.padEnd(48)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)} ${'brotli'.padStart(11)}  loaded by the page`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(48)} ${kb(r.raw).padStart(11)} ${kb(r.gzip).padStart(11)} ${kb(r.brotli).padStart(11)}  ${r.loaded ? 'yes' : 'on demand'}`,
  );
}
const loaded = rows.filter((r) => r.loaded);
const sum = (k) => loaded.reduce((a, r) => a + r[k], 0);
console.log(
  `${'the page / an embed, in all'.padEnd(48)} ${kb(sum('raw')).padStart(11)} ${kb(sum('gzip')).padStart(11)} ${kb(sum('brotli')).padStart(11)}`,
);
console.log(`BENCH size embed_gzip_bytes ${sum('gzip')} (target 204800: ${(sum('gzip') / 204800).toFixed(2)}x)`);
