// The assignor grid (bench/assignor-grid.mjs) through the JS API of the wasm build, in Node.
// `node bench/wasm-assignors.mjs [filter...]`; prints `BENCH key,ms` (assign, the JSON form) and
// `COMPACT key,ms` (assignCompact) lines.
import { readFileSync } from 'node:fs';
import { assign, assignCompact, initSync } from '../web/pkg/group_coordinator_wasm.js';
import { runGrid } from './assignor-grid.mjs';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
console.log(`wasm (Node ${process.version})`);
runGrid({ assign, assignCompact }, process.argv.slice(2), (line) => console.log(line));
