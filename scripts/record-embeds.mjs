// Recordings of the built-in scenarios, for embeds (web/src/playground/recorded.ts reads them):
// every step of each scenario up to where playing stops, as the model's own frames, so that a
// documentation page can draw and step an embedded scenario before (and without) loading the
// WebAssembly module. The module still made every frame: this runs the full module in Node, at
// build time, after `build-wasm.sh`; an embed loads it as soon as the reader asks for anything
// the recording does not hold (an action, another zoom, a step past the end; another language is its own recording).
//
//   node scripts/record-embeds.mjs [OUT_DIR]     (default: web/public/recordings)
//
// One file per scenario and language, `NAME.LANG.json`: see `Recording` in recorded.ts. Frames are
// stored as changes from the step before, and the bars, marks, coming events and step rows they
// list are stored once each (a scenario's frames repeat most of the step before's), which
// takes the longest built-in scenario from 274 KB to about 127 KB gzip.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DERIVED_KEYS, GONE, RECORDING_FORMAT, recordedRequest } from '../web/src/common/recording-format.js';

export { recordedRequest };

const DERIVED = new Set(DERIVED_KEYS);

/** The recording of scenario `name` in `lang`, made with the package `pkg` (initialised). */
export function record(pkg, name, lang) {
  const scenario = pkg.scenario(name);
  const info = pkg.scenarios().find((s) => s.name === name);
  const request = recordedRequest(lang);
  const table = [];
  const ids = new Map();
  const id = (value) => {
    const json = JSON.stringify(value);
    let i = ids.get(json);
    if (i === undefined) {
      i = table.length;
      table.push(value);
      ids.set(json, i);
    }
    return i;
  };
  const player = new pkg.Player(scenario, []);
  const frames = [];
  const ownership = [];
  const last = {};
  let lastOwnership = '';
  for (;;) {
    const frame = player.frame(request);
    const patch = {};
    const gone = Object.keys(last).filter((k) => !(k in frame));
    for (const k of gone) delete last[k];
    if (gone.length) patch[GONE] = gone;
    for (const [k, v] of Object.entries(frame)) {
      if (DERIVED.has(k)) continue;
      let value = v;
      if (k === 'timeline') value = { ...v, bars: v.bars.map(id), marks: v.marks.map(id) };
      else if (k === 'upcoming') value = v.map(id);
      const json = JSON.stringify(value);
      if (last[k] !== json) {
        patch[k] = value;
        last[k] = json;
      }
    }
    frames.push(patch);
    const owned = JSON.stringify(player.ownership());
    if (owned !== lastOwnership) {
      ownership.push([player.cursor(), JSON.parse(owned)]);
      lastOwnership = owned;
    }
    // (A run whose events end before its duration stops with no play stop: the step that
    // finds nothing is the model's to take, and the reader leaves it to the model.)
    if (player.playStop() !== null || frames.length > 5_000 || player.forward(1, true) === 0) break;
  }
  const end = player.cursor();
  // Every step's row of the step table (rows do not change once their step is taken).
  const rows = end > 0 ? player.frame({ lang, steps: { from: 0, span: end } }).steps.rows : [];
  const moments = player.moments(1);
  player.free();
  const keyed = new pkg.Player(scenario, []);
  const key = keyed.seekKey() ?? null;
  keyed.free();
  return { format: RECORDING_FORMAT, version: pkg.version(), vocabulary: pkg.vocabulary(), lang, request, scenario, info, table, frames, rows, moments, key, ownership };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? 'web/public/recordings';
  const pkgDir = new URL('../web/pkg/', import.meta.url);
  const pkg = await import(new URL('group_coordinator_wasm.js', pkgDir).href);
  pkg.initSync({ module: readFileSync(new URL('group_coordinator_wasm_bg.wasm', pkgDir)) });
  mkdirSync(out, { recursive: true });
  let files = 0;
  for (const { name } of pkg.scenarios()) {
    for (const lang of ['en', 'zh']) {
      writeFileSync(`${out}/${name}.${lang}.json`, JSON.stringify(record(pkg, name, lang)));
      files++;
    }
  }
  console.log(`record-embeds: ${files} recordings in ${out}`);
}
