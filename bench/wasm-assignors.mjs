// The assignor grid (bench/assignor-grid.mjs) through the JS API of the wasm build, in Node.
// `node bench/wasm-assignors.mjs [--compact-only] [filter...]`; prints `BENCH key,ms` (assign,
// the JSON form; not with --compact-only) and `COMPACT key,ms` (assignCompact) lines.
import { readFileSync } from 'node:fs';
import { assign, assignCompact, initSync } from '../web/pkg/group_coordinator_wasm.js';
import { runGrid } from './assignor-grid.mjs';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
console.log(`wasm (Node ${process.version}, V8 ${process.versions.v8})`);
const args = process.argv.slice(2);
const tags = args.includes('--compact-only') ? { json: null, compact: 'COMPACT' } : undefined;
runGrid(
  { assign, assignCompact },
  args.filter((a) => a !== '--compact-only'),
  (line) => console.log(line),
  tags,
);
