// serverAssignCompact (the server assignors, KIP-848, in the compact form) against serverAssign
// (JSON) on random groups: the same target for every member, topics without metadata and
// previous targets included; what it refuses, named; and a typed array that lies about its
// length copied by its real length (the reading is assignCompact's).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { fromCompact } from '../src/assign/compact.ts';

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

type Held = { topic: string; partitions: number[] }[];
interface JsonInput {
  topics: Record<string, number>;
  members: { memberId: string; instanceId?: string | null; subscribedTopics: string[]; assignment?: Held }[];
}

function random(seed: number): JsonInput {
  let s = seed;
  const next = (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  };
  const names = Array.from({ length: 1 + next(6) }, (_, t) => `t${t}`);
  const topics = Object.fromEntries(names.map((n) => [n, next(8)]));
  const members = Array.from({ length: 1 + next(7) }, (_, m) => ({
    memberId: `m${next(1000)}-${m}`,
    instanceId: next(3) === 0 ? `i${m}` : null,
    // Sometimes a name without metadata (`gone`).
    subscribedTopics: [...names.filter(() => next(3) > 0), ...(next(4) === 0 ? ['gone'] : [])],
  }));
  return { topics, members };
}

function toCompact(i: JsonInput) {
  const table = [...new Set([...Object.keys(i.topics), ...i.members.flatMap((m) => m.subscribedTopics)])].sort();
  const index = new Map(table.map((t, k) => [t, k]));
  const subscriptions: number[] = [];
  const owned: number[] = [];
  for (const m of i.members) {
    subscriptions.push(m.subscribedTopics.length, ...m.subscribedTopics.map((t) => index.get(t) ?? -1));
    const pairs = (m.assignment ?? []).flatMap((tp) => tp.partitions.flatMap((p) => [index.get(tp.topic) ?? -1, p]));
    owned.push(pairs.length / 2, ...pairs);
  }
  return {
    topics: table,
    partitions: Int32Array.from(table.map((t) => i.topics[t] ?? -1)),
    members: i.members.map((m) => m.memberId),
    instanceIds: i.members.map((m) => m.instanceId ?? null),
    subscriptions: Int32Array.from(subscriptions),
    owned: Int32Array.from(owned),
  };
}

describe('serverAssignCompact', () => {
  it('gives serverAssign’s targets on random groups, over two rounds (the first round’s targets fed back)', () => {
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      for (const name of ['uniform', 'range'] as const) {
        const input = random(seed);
        for (let round = 0; round < 2; round++) {
          const json = wasm.serverAssign(name, input as never) as Record<string, Held>;
          const c = toCompact(input);
          const out = wasm.serverAssignCompact(name, c as never);
          // (The page's reading of assignCompact's result reads this one too.)
          expect(fromCompact(c as never, out), `${name} seed ${seed} round ${round}`).toEqual(json);
          const assigned = Object.values(json).reduce((n, held) => n + held.reduce((k, tp) => k + tp.partitions.length, 0), 0);
          expect(out.length, 'a count per member, a pair per partition, nothing more').toBe(c.members.length + 2 * assigned);
          compared++;
          for (const m of input.members) m.assignment = json[m.memberId];
        }
      }
    }
    expect(compared).toBe(1200);
  });

  it('names what it refuses', () => {
    const good = { topics: ['t'], partitions: Int32Array.of(2), members: ['m'], subscriptions: Int32Array.of(1, 0) };
    const refused = (change: Record<string, unknown>) => {
      try {
        wasm.serverAssignCompact('range', { ...good, ...change } as never);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect([...wasm.serverAssignCompact('range', good as never)]).toEqual([2, 0, 0, 0, 1]);
    expect(refused({ partitions: Int32Array.of(-2) })).toContain('outside -1..=1000000');
    expect(refused({ subscriptions: Int32Array.of(1, 5) })).toContain('names topic 5');
    expect(refused({ generations: Int32Array.of(3) })).toContain('generations');
    expect(refused({ nope: 1 })).toContain('unknown field');
    expect(() => wasm.serverAssignCompact('sticky' as never, good as never)).toThrow(/uniform or range/);
  });

  it('reads a typed array by its own length, whatever its length property says', () => {
    const subscriptions = Int32Array.of(1, 0);
    let reads = 0;
    Object.defineProperty(subscriptions, 'length', { get: () => (++reads <= 2 ? 1 : 4096) });
    const input = { topics: ['t'], partitions: Int32Array.of(2), members: ['m'], subscriptions };
    expect([...wasm.serverAssignCompact('uniform', input as never)]).toEqual([2, 0, 0, 0, 1]);
    // The module still works afterwards.
    expect([...wasm.serverAssignCompact('range', { ...input, subscriptions: Int32Array.of(1, 0) } as never)]).toEqual([2, 0, 0, 0, 1]);
  });
});
