// The simulator benchmark of crates/simulator/benches/simulation.rs through the JS API of the
// wasm build, in Node: simulated seconds per wall-clock second for one simulated hour of the
// same large group (10, 100, 1,000 consumers; classic and consumer protocol), with its trace
// kept (as the playground keeps it) and without (`keepTrace(false)`, as a comparison runs it).
// Run after `npm run build:wasm`: `node bench/wasm-simulation.mjs [consumers]`.
import { readFileSync } from 'node:fs';
import { initSync, largeGroupScenario, Simulation } from '../web/pkg/group_coordinator_wasm.js';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

const only = process.argv[2] ? Number(process.argv[2]) : null;
// A warm-up first: V8 runs a module's code from its baseline compiler until the optimising one
// has compiled it, in the background (measured: the first hour of 100 consumers 0.63 s, the
// same hour again 0.46 s). The figures are the optimised code's; the page pays the warm-up once.
// Each protocol has code of its own (an hour of 100 consumer-protocol consumers after a classic
// warm-up only: 0.40 s, against 0.27 s warm), so the warm-up runs an hour of each, trace kept.
const coldHours = [];
for (const protocol of ['classic', 'consumer']) {
  const scenario = largeGroupScenario(100, 10, 3_600_000);
  scenario.consumer['group.protocol'] = protocol;
  const warmUp = new Simulation(scenario);
  const start = performance.now();
  while (warmUp.now() < 3_600_000) warmUp.runUntil(3_600_000);
  coldHours.push(`${protocol} ${((performance.now() - start) / 1000).toFixed(2)} s`);
  warmUp.free();
}
console.log(`(warm-up: the first hour of 100 consumers, code not yet optimised: ${coldHours.join(', ')})`);
for (const [n, protocol, kept] of [10, 100, 1000].flatMap((n) => [
  [n, 'classic', true],
  [n, 'consumer', true],
  [n, 'classic', false],
  [n, 'consumer', false],
])) {
  if (only !== null && only !== n) continue;
  const scenario = largeGroupScenario(n, 10, 3_600_000);
  scenario.consumer['group.protocol'] = protocol;
  const sim = new Simulation(scenario);
  if (!kept) sim.keepTrace(false);
  const start = performance.now();
  // runUntil processes a bounded number of events per call: call it until the hour is run.
  while (sim.now() < 3_600_000) sim.runUntil(3_600_000);
  const wall = (performance.now() - start) / 1000;
  const m = sim.metrics();
  if (m.invariantViolations !== 0) throw new Error(`${n} consumers: ${m.invariantViolations} invariant violations`);
  console.log(
    `BENCH wasm ${n}-${protocol}${kept ? '' : '-metrics-only'} ${(3600 / wall).toFixed(0)} ${sim.traceLength()} (wall ${wall.toFixed(2)} s, ${m.rebalances} rebalances, ${m.messagesSent} messages)`,
  );
  sim.free();
}
