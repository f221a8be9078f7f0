// What a page that shows the playground downloads, from the built site (`web/dist`, after
// `npx vite build`): each asset raw, gzip (level 9) and brotli (quality 11), and the total for
// the page and for an embed. Both load what index.html names; the page then fetches the full
// module, an embedded scenario its recording (web/src/playground/recorded.ts), and the embed
// module only once the reader asks for more than the recording holds (scripts/build-wasm.sh).
// The target for what a docs page loads to show one scenario is 200 KB gzip (issue 13).
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
console.log(`BENCH size embed_module_gzip_bytes ${embed.gzip}`);
console.log(`BENCH size embed_module_brotli_bytes ${embed.brotli}`);

// An embed of a built-in scenario: the entry script, the style sheet, index.html and the
// scenario's recording; the module follows only when the reader asks for more.
const shell = total('none');
const htmlGzip = gzipSync(html, { level: 9 }).length;
const recordings = readdirSync(join(dist, 'recordings'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, gzip: gzipSync(readFileSync(join(dist, 'recordings', f)), { level: 9 }).length }))
  .sort((a, b) => a.gzip - b.gzip);
const shown = (r) => shell.gzip + htmlGzip + r.gzip;
console.log();
console.log(`${'an embed from its recording (gzip)'.padEnd(48)} ${'recording'.padStart(11)} ${'in all'.padStart(11)}`);
const book = ['leave-while-preparing-rebalance', 'leave-while-completing-rebalance', 'leave-while-stable', 'last-member-leaves'];
const picked = [
  ...book.map((n) => recordings.find((r) => r.name === `${n}.en.json`)),
  recordings[Math.floor(recordings.length / 2)],
  recordings[recordings.length - 1],
].filter(Boolean);
for (const r of picked) console.log(`${r.name.padEnd(48)} ${kb(r.gzip).padStart(11)} ${kb(shown(r)).padStart(11)}`);
const largest = recordings[recordings.length - 1];
console.log(
  `BENCH size embed_recorded_gzip_bytes ${shown(largest)} (the largest recording, ${largest.name}; target 204800: ${(shown(largest) / 204800).toFixed(2)}x)`,
);
for (const n of book) {
  const r = recordings.find((x) => x.name === `${n}.en.json`);
  if (r) console.log(`BENCH size embed_recorded_gzip_bytes ${n} ${shown(r)}`);
}
