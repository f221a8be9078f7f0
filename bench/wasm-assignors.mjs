// The assignor grid of crates/coordinator/benches/assignors.rs through the JS API of the wasm
// build, in Node. `node bench/wasm-assignors.mjs [filter...]`; prints `BENCH key,ms` lines.
import { readFileSync } from 'node:fs';
import { assign, assignCompact, initSync } from '../web/pkg/group_coordinator_wasm.js';

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

/** The compact form of an `assign` input (what a caller with a large group would hold). */
function compact(i) {
  const topics = Object.keys(i.topics);
  const index = new Map(topics.map((t, k) => [t, k]));
  const subscriptions = [];
  const owned = [];
  for (const m of i.members) {
    subscriptions.push(m.topics.length, ...m.topics.map((t) => index.get(t)));
    const claims = (m.ownedPartitions ?? []).flatMap((tp) => tp.partitions.map((p) => [index.get(tp.topic), p]));
    owned.push(claims.length);
    for (const [t, p] of claims) owned.push(t, p);
  }
  return {
    topics,
    partitions: Int32Array.from(topics.map((t) => i.topics[t])),
    members: i.members.map((m) => m.memberId),
    subscriptions: Int32Array.from(subscriptions),
    owned: Int32Array.from(owned),
    generations: Int32Array.from(i.members.map((m) => m.generationId ?? -1)),
  };
}

/** The compact result in `assign`'s shape, to check the two agree. */
function expand(c, out) {
  const result = {};
  let at = 0;
  for (const m of c.members) {
    const n = out[at];
    const byTopic = new Map();
    for (let k = 0; k < n; k++) {
      const t = c.topics[out[at + 1 + 2 * k]];
      if (!byTopic.has(t)) byTopic.set(t, []);
      byTopic.get(t).push(out[at + 2 + 2 * k]);
    }
    at += 1 + 2 * n;
    result[m] = [...byTopic.keys()].sort().map((t) => ({ topic: t, partitions: byTopic.get(t) }));
  }
  return result;
}

function median(run) {
  run();
  const samples = [];
  const started = performance.now();
  while (samples.length < 3 || (performance.now() - started < 1500 && samples.length < 100)) {
    const t = performance.now();
    run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
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
          const ms = median(() => assign(strategy, i));
          console.log(`BENCH ${key},${ms.toFixed(4)}`);
          // The compact form: the same assignment (checked once), then timed.
          const c = compact(i);
          const json = JSON.stringify(assign(strategy, i));
          if (JSON.stringify(expand(c, assignCompact(strategy, c))) !== json) {
            throw new Error(`${key}: assignCompact disagrees with assign`);
          }
          const compactMs = median(() => assignCompact(strategy, c));
          console.log(`COMPACT ${key},${compactMs.toFixed(4)}`);
        }
      }
    }
  }
}
