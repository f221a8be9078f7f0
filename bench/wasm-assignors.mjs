// The assignor grid of crates/coordinator/benches/assignors.rs through the JS API of the wasm
// build, in Node. `node bench/wasm-assignors.mjs [filter...]`; prints `BENCH key,ms` lines.
import { readFileSync } from 'node:fs';
import { assign, initSync } from '../web/pkg/group_coordinator_wasm.js';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

function input(members, topics, subs, perTopic) {
  const names = Array.from({ length: topics }, (_, t) => `topic-${t}`);
  const bucketTopics = Math.ceil(topics / 5);
  return {
    topics: Object.fromEntries(names.map((n) => [n, perTopic])),
    members: Array.from({ length: members }, (_, m) => ({
      memberId: `member-${String(m).padStart(5, '0')}`,
      topics: subs === 'homogeneous' ? names : names.slice((m % 5) * bucketTopics, ((m % 5) + 1) * bucketTopics),
    })),
  };
}

function joinInput(strategy, members, topics, subs) {
  const i = input(members - 1, topics, subs, Math.max(1, Math.floor((members * 10) / topics)));
  const out = assign(strategy === 'cooperative-sticky' ? 'sticky' : strategy, i);
  for (const m of i.members) {
    m.ownedPartitions = out[m.memberId];
    m.generationId = 1;
  }
  i.members.push({ memberId: 'member-new', topics: i.members.at(-1).topics });
  return i;
}

const filter = process.argv.slice(2);
console.log(`wasm (Node ${process.version})`);
for (const members of [100, 1000, 10000]) {
  for (const topics of [10, 100, 1000]) {
    for (const subs of ['homogeneous', 'heterogeneous']) {
      for (const mode of ['fresh', 'join']) {
        for (const strategy of ['range', 'roundrobin', 'sticky', 'cooperative-sticky']) {
          const key = `${strategy},${members},${topics},${subs},${mode}`;
          if (filter.length && !filter.some((f) => key.includes(f))) continue;
          const i =
            mode === 'fresh'
              ? input(members, topics, subs, Math.max(1, Math.floor((members * 10) / topics)))
              : joinInput(strategy, members, topics, subs);
          assign(strategy, i);
          const samples = [];
          const started = performance.now();
          while (samples.length < 3 || (performance.now() - started < 1500 && samples.length < 100)) {
            const t = performance.now();
            assign(strategy, i);
            samples.push(performance.now() - t);
          }
          samples.sort((a, b) => a - b);
          const ms = samples[Math.floor(samples.length / 2)];
          console.log(`BENCH ${key},${ms.toFixed(4)}`);
        }
      }
    }
  }
}
