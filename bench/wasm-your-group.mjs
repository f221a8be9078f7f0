// The page's "Your group" comparison through the JS API of the wasm build, in Node, as the
// page's workers run it: a pasted `kafka-consumer-groups.sh --describe --members --verbose` of
// a classic group (300 consumers on 2,400 partitions by default), read by importGroup, each
// option the page compares (web/src/playground/what-if.ts, the page's own code) restarted
// member by member at the page's default pace (10 s apart, 5 s down), run to its end without
// its trace (the page's runToEnd). Prints each option's wall time and the whole comparison's: 5 options × 5 seeds
// on the page's two workers is about (sum of the options) × 5 / 2.
// Run after `npm run build:wasm`: `node bench/wasm-your-group.mjs [consumers] [partitions]
// [--write DIR]`; with `--write`, each option's scenario is also written to DIR as JSON, for the
// native benchmark to run and profile the same runs
// (`cargo bench -p group-simulator --bench simulation -- DIR/*.json`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describeMembers } from '../e2e/describe-members.mjs';
import { importGroup, initSync, Simulation } from '../web/pkg/group_coordinator_wasm.js';
import { COMPARE_APPLICATION, runToEnd } from '../web/src/playground/runs.ts';
import { whatIfs } from '../web/src/playground/what-if.ts';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

const writeAt = process.argv.indexOf('--write');
const writeDir = writeAt > 0 ? process.argv[writeAt + 1] : undefined;
const sizes = process.argv.slice(2).filter((_, i) => writeAt < 0 || (i + 2 !== writeAt && i + 2 !== writeAt + 1));
const consumers = Number(sizes[0] ?? 300);
const partitions = Number(sizes[1] ?? consumers * 8);
const base = importGroup(describeMembers(consumers, partitions));
// With the application's listener time the page compares with by default (its compare panel's
// fields), as the page's "Your group" adds it to every run.
base.application = { ...(base.application ?? {}), ...COMPARE_APPLICATION };
const options = whatIfs(base, { order: 'listed', gapMs: 10_000, downMs: 5_000 });

// As a comparison's worker runs it (web/src/playground/compare-worker.ts).
const run = (scenario) => {
  const m = runToEnd((s) => new Simulation(s), scenario, Number.POSITIVE_INFINITY);
  if (m.invariantViolations !== 0) throw new Error(`${scenario.name}: ${m.invariantViolations} invariant violations`);
  return m;
};

if (writeDir !== undefined) {
  mkdirSync(writeDir, { recursive: true });
  for (const { key, scenario } of options) {
    writeFileSync(`${writeDir}/your-group-${consumers}-${key}.json`, JSON.stringify(scenario));
  }
}

// A warm-up first (V8's optimising tier compiles the module in the background; the page's
// workers pay that once): the first option, once.
run(options[0].scenario);
let total = 0;
for (const { key, scenario } of options) {
  const start = performance.now();
  const m = run(scenario);
  const wall = (performance.now() - start) / 1000;
  total += wall;
  console.log(
    `BENCH wasm your-group-${consumers}-${key} ${wall.toFixed(2)} s (${(scenario.durationMs / 1000).toFixed(0)} simulated s, ${m.rebalances} rebalances, ${m.messagesSent} messages)`,
  );
}
console.log(
  `BENCH wasm your-group-${consumers} ${total.toFixed(2)} s for ${options.length} options, one seed each; ${options.length} seeds on two workers: about ${((total * 5) / 2).toFixed(0)} s (#36 asks about 10 s)`,
);
