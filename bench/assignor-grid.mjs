// The assignor grid of crates/coordinator/benches/assignors.rs through the JS API of the wasm
// build: one module for every JavaScript host (Node: bench/wasm-assignors.mjs; Chromium:
// bench/chromium-assignors.mjs), so that both time exactly the same inputs and calls.
import { compactOf } from './compact-input.mjs';

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

/** `assign`'s result, or the module's reason when the input is over the JSON form's limits (on
 * its length as JSON text and its count of elements: the module's guard against a page handing
 * it a runaway value); such cells run in the compact form only. */
function assignJson(assign, strategy, i) {
  try {
    return { out: assign(strategy, i) };
  } catch (e) {
    if (e instanceof RangeError && /the limit is/.test(e.message)) return { refused: e.message };
    throw e;
  }
}

/** `assign`'s result, through the compact form when the input is too large for the JSON form. */
function assignAny({ assign, assignCompact }, strategy, i) {
  const { out } = assignJson(assign, strategy, i);
  if (out) return out;
  const c = compact(i);
  return expand(c, assignCompact(strategy, c));
}

function joinInput(api, strategy, members, topics, subs) {
  const i = input(members - 1, topics, subs, Math.max(1, Math.floor((members * 10) / topics)));
  const out = assignAny(api, strategy === 'cooperative-sticky' ? 'sticky' : strategy, i);
  for (const m of i.members) {
    m.ownedPartitions = out[m.memberId];
    m.generationId = 1;
  }
  i.members.push({ memberId: 'member-new', topics: i.members.at(-1).topics });
  return i;
}

/** The compact form of an `assign` input (what a caller with a large group would hold). */
function compact(i) {
  return compactOf(
    i,
    (m) => m.topics,
    (m) => m.ownedPartitions,
    (m) => m.generationId ?? -1,
  );
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

/** The median time of one run, in ms. A sample times enough runs to last 10 ms at least: a
 * browser's clock ticks in steps of 0.1 ms (5 µs when cross-origin isolated), which would
 * otherwise round the small cells away. */
function median(run) {
  const t0 = performance.now();
  run();
  const once = Math.max(performance.now() - t0, 0.001);
  const reps = Math.min(1000, Math.max(1, Math.ceil(10 / once)));
  const samples = [];
  const started = performance.now();
  while (samples.length < 3 || (performance.now() - started < 1500 && samples.length < 100)) {
    const t = performance.now();
    for (let r = 0; r < reps; r++) run();
    samples.push((performance.now() - t) / reps);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/** Calls every strategy in both forms for about two seconds before anything is timed: an engine
 * runs a module's code first from a baseline compile and swaps in optimised code once it is hot
 * (in Chromium, compiled in the background), so the first cells would otherwise time the
 * baseline. Kafka's Java figures are timed after the JIT warms up, likewise. */
function warmUp({ assign, assignCompact }) {
  const inputs = [input(100, 10, 'heterogeneous', 10), input(1000, 100, 'homogeneous', 100)];
  const started = performance.now();
  while (performance.now() - started < 2000) {
    for (const strategy of ['range', 'roundrobin', 'sticky', 'cooperative-sticky']) {
      for (const i of inputs) {
        assign(strategy, i);
        assignCompact(strategy, compact(i));
      }
    }
  }
}

/** Runs every cell whose key (`strategy,members,topics,subscriptions,mode`) contains one of
 * `filter` (all when empty) with the module's `assign` and `assignCompact`, checking once that the
 * two agree, and hands `BENCH`/`COMPACT key,ms` lines (`tag` in front: `BENCH`, or `CHROMIUM`) to
 * `print`. */
export function runGrid(api, filter, print, tags = { json: 'BENCH', compact: 'COMPACT' }) {
  const { assign, assignCompact } = api;
  warmUp(api);
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
                : joinInput(api, strategy, members, topics, subs);
            const c = compact(i);
            const { out, refused } = assignJson(assign, strategy, i);
            if (out) {
              if (tags.json) print(`${tags.json} ${key},${median(() => assign(strategy, i)).toFixed(4)}`);
              // The compact form: the same assignment (checked once), then timed.
              if (JSON.stringify(expand(c, assignCompact(strategy, c))) !== JSON.stringify(out)) {
                throw new Error(`${key}: assignCompact disagrees with assign`);
              }
            } else {
              print(`# ${key}: the JSON form refuses it (${refused}); compact form only`);
            }
            print(`${tags.compact} ${key},${median(() => assignCompact(strategy, c)).toFixed(4)}`);
          }
        }
      }
    }
  }
}
