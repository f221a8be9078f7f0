// Time travel in wasm under Node: the same runs and moves as crates/simulator/benches/player.rs
// (a step back at the end, a scrub to the middle, a fork in the middle), through the JS API the
// page uses, each alone and with the full frame the page then draws (`frame-*`), and memory:
// each run in a fresh module instance, once as a plain Simulation (the world and its trace) and
// once as a Player (plus step records, checkpoints and the views' indexes). Run after
// `npm run build:wasm`: `node bench/wasm-player.mjs`. Prints `BENCH wasm player ...` lines.
import { readFileSync } from 'node:fs';

const bytes = readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url));
let instances = 0;
/** A fresh instance of the package (its own module record, so its own wasm memory). */
async function fresh() {
  const pkg = await import(`../web/pkg/group_coordinator_wasm.js?instance=${++instances}`);
  const wasm = pkg.initSync({ module: bytes });
  return { pkg, memory: () => wasm.memory.buffer.byteLength };
}

const median = (f) => Array.from({ length: 7 }, f).sort((a, b) => a - b)[3];
const timed = (f) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const MiB = (n) => (n / 2 ** 20).toFixed(0);
// A seek forward goes at most 20,000 steps a call.
const seek = (p, step) => {
  while (p.seek(step) !== step && !p.finished()) {
    /* on */
  }
};

for (const [label, consumers, per, duration] of [
  ['50x10min', 50, 10, 600_000],
  ['100x1h', 100, 10, 3_600_000],
]) {
  const a = await fresh();
  const sim = new a.pkg.Simulation(a.pkg.largeGroupScenario(consumers, per, duration));
  while (sim.now() < duration) sim.runUntil(duration);
  const alone = a.memory();

  const b = await fresh();
  const p = new b.pkg.Player(b.pkg.largeGroupScenario(consumers, per, duration));
  const t = performance.now();
  while (p.now() < duration && p.forward(1000) > 0) {
    /* play */
  }
  const play = (performance.now() - t) / 1000;
  const end = p.cursor();
  const cp = p.checkpoints();
  console.log(
    `BENCH wasm player ${label} steps ${end} (played in ${play.toFixed(2)} s; ${cp.checkpoints} checkpoints ${cp.spacing} steps apart; ` +
      `module memory: ${MiB(alone)} MiB as a plain simulation, ${MiB(b.memory())} MiB as a player)`,
  );
  console.log(
    `BENCH wasm player ${label} step-back-at-end ${median(() => {
      seek(p, end);
      return timed(() => p.seek(end - 1));
    }).toFixed(3)}`,
  );
  console.log(
    `BENCH wasm player ${label} scrub-to-middle ${median(() => {
      seek(p, end);
      return timed(() => p.seek(Math.floor(end / 2)));
    }).toFixed(3)}`,
  );
  const spacing = p.checkpoints().spacing;
  const worstAt = (Math.floor(end / 2 / spacing) + 1) * spacing - 1;
  console.log(
    `BENCH wasm player ${label} scrub-worst ${median(() => {
      seek(p, end);
      return timed(() => p.seek(worstAt));
    }).toFixed(3)}`,
  );
  console.log(
    `BENCH wasm player ${label} scrub-forward ${median(() => {
      p.seek(Math.floor(end / 2));
      return timed(() => seek(p, end - 1));
    }).toFixed(3)}`,
  );
  // What a paused page asks for after each move (the full frame, a 30 s timeline window).
  const FULL = { lang: 'en', timeline: { windowMs: 30_000, resolutionMs: 30 }, assignments: 8, steps: { span: 60 }, world: true };
  for (const [name, to] of [
    ['step-back-at-end', () => end - 1],
    ['scrub-to-middle', () => Math.floor(end / 2)],
  ]) {
    console.log(
      `BENCH wasm player ${label} frame-${name} ${median(() => {
        seek(p, end);
        return timed(() => {
          p.seek(to());
          p.frame(FULL);
        });
      }).toFixed(3)}`,
    );
  }
  let victim = 0;
  console.log(
    `BENCH wasm player ${label} fork-in-middle ${median(() => {
      p.seek(Math.floor(end / 2));
      victim += 1;
      return timed(() => {
        p.act({ type: 'crash', consumer: `c${victim}` });
        p.seek(Math.floor(end / 2) + 1);
      });
    }).toFixed(3)}`,
  );
  p.free();
  sim.free();
}

// A live run, as crates/simulator/benches/player.rs follows it: one client's heartbeats in
// batches of 2,000 lines (`BENCH wasm follow <lines> <first-batch-ms> <last-batch-ms> <total-ms>`).
for (const n of [20_000, 60_000]) {
  const { pkg } = await fresh();
  const lines = ['{"broker":{"config":{},"seed":0,"settings":[],"topics":[["orders",4]]}}'];
  for (let i = 0; i < n; i++) {
    lines.push(
      `{"at":${1000 + i * 10},"from":"c 1","request":{"api":"Heartbeat","apiVersion":4,"clientId":"c","correlationId":${i + 1},"groupId":"g","generationId":1,"memberId":"m"}}`,
    );
  }
  const p = pkg.Player.live();
  const batches = [];
  const total = timed(() => {
    for (let i = 0; i < lines.length; i += 2000) batches.push(timed(() => p.follow(lines.slice(i, i + 2000).join('\n'))));
  });
  const status = p.follow('');
  if (status.kind !== 'following' || status.inputs !== n) throw new Error(`follow: ${JSON.stringify(status)}`);
  console.log(`BENCH wasm follow ${n} ${batches[0].toFixed(1)} ${batches[batches.length - 2].toFixed(1)} ${total.toFixed(0)}`);
  p.free();
}
