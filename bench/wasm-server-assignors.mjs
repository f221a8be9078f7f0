// The server assignors' grid of crates/coordinator/benches/server_assignors.rs through the JS
// API of the wasm build, in Node: `serverAssign` (JSON in and out; `BENCH key,ms` lines) and
// `serverAssignCompact` (names once, Int32Arrays for the rest; `COMPACT key,ms` lines).
// `node bench/wasm-server-assignors.mjs [filter...]`
import { readFileSync } from 'node:fs';
import { initSync, serverAssign, serverAssignCompact } from '../web/pkg/group_coordinator_wasm.js';
import { compactOf } from './compact-input.mjs';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

function input(members, topics, heterogeneous) {
  const names = Array.from({ length: topics }, (_, t) => `topic-${t}`);
  const perTopic = Math.max(1, Math.floor((members * 10) / topics));
  const bucket = Math.ceil(topics / 5);
  return {
    topics: Object.fromEntries(names.map((n) => [n, perTopic])),
    members: Array.from({ length: members }, (_, m) => ({
      memberId: `member-${String(m).padStart(5, '0')}`,
      subscribedTopics: heterogeneous ? names.slice((m % 5) * bucket, ((m % 5) + 1) * bucket) : names,
    })),
  };
}

function incremental(assignor, members, topics, heterogeneous) {
  const i = input(members - 1, topics, heterogeneous);
  const previous = serverAssign(assignor, i);
  for (const m of i.members) m.assignment = previous[m.memberId];
  i.members.push({ memberId: 'member-new', subscribedTopics: i.members.at(-1).subscribedTopics });
  // The topic counts of the full group (as the native bench's).
  const full = input(members, topics, heterogeneous);
  i.topics = full.topics;
  return i;
}

/** The compact form of a JSON input (`owned`: the previous targets). */
const compact = (i) =>
  compactOf(
    i,
    (m) => m.subscribedTopics,
    (m) => m.assignment,
  );

function median(run) {
  const times = [];
  const started = performance.now();
  while (times.length < 5 || (performance.now() - started < 400 && times.length < 500)) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const filters = process.argv.slice(2);
const cells = [
  [100, 10],
  [100, 100],
  [100, 1000],
  [1000, 10],
  [1000, 100],
  [1000, 1000],
  [10000, 100],
];
for (const assignor of ['uniform', 'range']) {
  for (const [members, topics] of cells) {
    for (const heterogeneous of [false, true]) {
      for (const mode of ['full', 'incremental']) {
        const key = `server-${assignor},${members},${topics},${heterogeneous ? 'heterogeneous' : 'homogeneous'},${mode}`;
        if (filters.length && !filters.some((f) => key.includes(f))) continue;
        const i = mode === 'full' ? input(members, topics, heterogeneous) : incremental(assignor, members, topics, heterogeneous);
        console.log(`BENCH ${key},${median(() => serverAssign(assignor, i)).toFixed(4)}`);
        const c = compact(i);
        console.log(`COMPACT ${key},${median(() => serverAssignCompact(assignor, c)).toFixed(4)}`);
      }
    }
  }
}
