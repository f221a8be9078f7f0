// What a page that shows the playground downloads, from the built site (`web/dist`, after
// `npx vite build`): each asset raw, gzip (level 9) and brotli (quality 11), and the total for
// the page and for an embed. Both load what index.html names; the page then fetches the full
// module, an embedded scenario the embed module (scripts/build-wasm.sh). The target for an
// embed is 200 KB gzip in all (issue 13); the line says how far from it the build is.
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
    // The page's entry loads what index.html names; it fetches one of the wasm modules.
    loaded: html.includes(name) ? 'both' : name.startsWith('group_coordinator_embed_bg') ? 'embed' : name.endsWith('.wasm') ? 'page' : '',
    raw: statSync(join(dist, 'assets', name)).size,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  });
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const by = { both: 'the page and an embed', page: 'the page', embed: 'an embed', '': 'on demand' };
console.log(`${'asset'.padEnd(48)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)} ${'brotli'.padStart(11)}  loaded by`);
for (const r of rows) {
  console.log(`${r.name.padEnd(48)} ${kb(r.raw).padStart(11)} ${kb(r.gzip).padStart(11)} ${kb(r.brotli).padStart(11)}  ${by[r.loaded]}`);
}
const total = (who) => {
  const loaded = rows.filter((r) => r.loaded === 'both' || r.loaded === who);
  const sum = (k) => loaded.reduce((a, r) => a + r[k], 0);
  return { raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') };
};
for (const [who, label] of [
  ['page', 'the page, in all'],
  ['embed', 'an embed, in all'],
]) {
  const t = total(who);
  console.log(`${label.padEnd(48)} ${kb(t.raw).padStart(11)} ${kb(t.gzip).padStart(11)} ${kb(t.brotli).padStart(11)}`);
}
const page = total('page');
const embed = total('embed');
console.log(`BENCH size page_gzip_bytes ${page.gzip}`);
console.log(`BENCH size embed_gzip_bytes ${embed.gzip} (target 204800: ${(embed.gzip / 204800).toFixed(2)}x)`);
console.log(`BENCH size embed_brotli_bytes ${embed.brotli}`);
