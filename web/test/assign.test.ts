// The assign widget's group text and its runs, against the real wasm module.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { fromCompact, toCompact } from '../src/assign/compact.ts';
import { moves, parseGroup } from '../src/assign/group-text.ts';
import { EXAMPLE, isLarge, run, STRATEGIES, WORKER_CHARS, WORKER_PARTITIONS } from '../src/assign/widget.ts';

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const fns = { assign: wasm.assign, assignCompact: wasm.assignCompact, serverAssign: wasm.serverAssign };

describe('the group text', () => {
  it('reads topics, members, options and owned partitions', () => {
    const parsed = parseGroup(
      'topics: orders=6, my-topic=2\n# a comment\nc1 gen=3 instance=h1 rack=a: orders my-topic | owns orders-0, my-topic-1\nc2: orders',
    );
    expect(parsed).toEqual({
      ok: true,
      notes: [],
      input: {
        topics: { orders: 6, 'my-topic': 2 },
        members: [
          {
            memberId: 'c1',
            topics: ['orders', 'my-topic'],
            generationId: 3,
            groupInstanceId: 'h1',
            rackId: 'a',
            ownedPartitions: [
              { topic: 'orders', partitions: [0] },
              { topic: 'my-topic', partitions: [1] },
            ],
          },
          { memberId: 'c2', topics: ['orders'] },
        ],
      },
    });
  });

  it('refuses what it cannot read, naming the line', () => {
    const cases: [string, number, RegExp][] = [
      ['c1: orders', 1, /topics/],
      ['topics: orders=x\nc1: orders', 1, /topic=partitions/],
      ['topics: orders=2\nc1 gen=x: orders', 2, /gen=N/],
      ['topics: orders=2\nc1: orders\nc1: orders', 3, /twice/],
      ['topics: orders=2\nc1: orders | has orders-0', 2, /owns/],
      ['topics: orders=2\nc1: orders | owns orders', 2, /topic-partition/],
      ['topics: orders=2\nc1:', 2, /nothing/],
      ['topics: orders=2\nno colon here', 2, /member line/],
      ['topics: orders=2', 1, /no member/],
      ['topics: orders=2, orders=3\nc1: orders', 1, /orders is listed twice/],
      ['topics: orders=2\nc1: orders\ntopics: orders=4', 3, /orders is listed twice/],
    ];
    for (const [text, line, message] of cases) {
      const parsed = parseGroup(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) {
        expect(parsed.line, text).toBe(line);
        expect(parsed.message.en, text).toMatch(message);
        // Every message in Chinese too, with the same names in it.
        expect(parsed.message.zh, text).toMatch(/[\u4e00-\u9fff]/);
        for (const name of text.match(/orders|c1/g) ?? []) {
          if (parsed.message.en.includes(name)) expect(parsed.message.zh, text).toContain(name);
        }
      }
    }
  });

  it('notes what Kafka accepts but is likely a slip, with its line: an unlisted topic, a partition that does not exist, two owners', () => {
    const parsed = parseGroup(
      'topics: orders=3\nc1: orders, oders | owns orders-2, orders-3, orders-7, refunds-0\nc2: oders\nc3: orders | owns orders-0, orders-2',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.notes.map((n) => n.en)).toEqual([
      'line 2: oders (subscribed by c1, c2) is not on the topics line: without its metadata nobody is assigned its partitions, as in Kafka',
      'line 2: c1 owns orders-3, orders-7, which orders does not have (it has 3 partitions)',
      'line 2: c1 owns refunds-0, but refunds is not on the topics line',
      'line 4: orders-2 is owned by c1, c3: the sticky assignors give it to the claim of the highest generation, and when those are equal, to neither (then it is assigned afresh)',
    ]);
    expect(parsed.notes.map((n) => n.zh)).toEqual([
      '第 2 行：oders（c1、c2 订阅了它）不在 topics 行里：没有它的元数据，谁也分不到它的分区，与 Kafka 相同',
      '第 2 行：c1 拥有 orders-3、orders-7，但 orders 只有 3 个分区',
      '第 2 行：c1 拥有 refunds-0，但 refunds 不在 topics 行里',
      '第 4 行：orders-2 同时被 c1、c3 拥有：粘性分配器把它留给代最高的声明；代相同时谁也不保留（重新分配）',
    ]);
    // What the note says of the unlisted topic is what the assignors do.
    const r = run(fns, 'range', 'topics: orders=3\nc1: orders, oders\nc2: oders');
    expect(r.ok && r.rows).toEqual([
      ['c1', undefined, [{ topic: 'orders', partitions: [0, 1, 2] }]],
      ['c2', undefined, []],
    ]);
    expect(r.ok && r.notes.length).toBe(1);
    // A well-formed group has none.
    const example = parseGroup(EXAMPLE);
    expect(example.ok && example.notes).toEqual([]);
  });

  it('tells kept, new and given-up partitions apart', () => {
    expect(moves([{ topic: 'o', partitions: [0, 1] }], [{ topic: 'o', partitions: [1, 2] }])).toEqual({
      kept: ['o-1'],
      added: ['o-2'],
      revoked: ['o-0'],
      counts: { kept: 1, added: 1, revoked: 1 },
    });
    // Capped lists, whole counts: a million partitions are counted, a hundred named.
    const all = Array.from({ length: 1_000_000 }, (_, i) => i);
    const big = moves([{ topic: 'o', partitions: all.slice(0, 400_000) }], [{ topic: 'o', partitions: all.slice(300_000) }], 100);
    expect(big.counts).toEqual({ kept: 100_000, added: 600_000, revoked: 300_000 });
    expect([big.kept.length, big.added.length, big.revoked.length]).toEqual([100, 100, 100]);
    expect([big.kept[0], big.added[0], big.revoked[0]]).toEqual(['o-300000', 'o-400000', 'o-0']);
  });

  it('sends a group to the worker by its partitions or its length, and keeps an ordinary one on the page', () => {
    expect(isLarge(EXAMPLE)).toBe(false);
    expect(isLarge(`topics: a=${WORKER_PARTITIONS - 1}\nc: a`)).toBe(false);
    expect(isLarge(`topics: a=${WORKER_PARTITIONS / 2}, b = ${WORKER_PARTITIONS / 2}\nc: a`)).toBe(true);
    expect(isLarge(`Topics : a=${WORKER_PARTITIONS}\nc: a`)).toBe(true);
    expect(isLarge(`topics: a=1\n${'c: a\n'.repeat(WORKER_CHARS / 5)}`)).toBe(true);
  });

  it('reads a group of a million partitions and a member that owns them all (no spread of a million arguments)', () => {
    const topics = Array.from({ length: 100 }, (_, i) => `t${i}=10000`).join(', ');
    const subscribed = Array.from({ length: 100 }, (_, i) => `t${i}`).join(', ');
    const r = run(fns, 'range', `topics: ${topics}\nc1: ${subscribed}\nc2: t0`);
    expect(r.ok).toBe(true);
    const owns = Array.from({ length: 200_000 }, (_, p) => `t0-${p % 10_000}`).join(', ');
    const claims = run(fns, 'cooperative-sticky', `topics: t0=10000\nc1: t0 | owns ${owns}\nc2: t0`);
    expect(claims.ok).toBe(true);
  });
});

describe('running the assignors', () => {
  it('range splits a topic into ranges; a newcomer takes the extra', () => {
    const r = run(fns, 'range', 'topics: orders=5\na: orders\nb: orders');
    expect(r).toEqual({
      ok: true,
      rows: [
        ['a', undefined, [{ topic: 'orders', partitions: [0, 1, 2] }]],
        ['b', undefined, [{ topic: 'orders', partitions: [3, 4] }]],
      ],
      notes: [],
    });
  });

  it('cooperative-sticky keeps what members own and holds back what changes owner', () => {
    const r = run(fns, 'cooperative-sticky', EXAMPLE);
    if (!r.ok) throw new Error(JSON.stringify(r.message));
    const c3 = r.rows.find(([id]) => id === 'c3');
    // c3 is new: nothing moves to it straight from another owner in this round.
    expect(c3?.[2].flatMap((tp) => tp.partitions)).toEqual([]);
    for (const [, owned, assigned] of r.rows) expect(moves(owned, assigned).added).toEqual([]);
  });

  it('every assignor runs the example; a bad input is an error to show, not a throw', () => {
    for (const s of STRATEGIES) expect(run(fns, s, EXAMPLE).ok, s).toBe(true);
    const r = run(fns, 'server-uniform', 'topics: orders=2000000\na: orders');
    expect(r.ok).toBe(false);
  });
});

describe('the compact form the widget takes', () => {
  const CLIENT = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'] as const;

  it('gives exactly the JSON form’s assignment, on groups with claims, generations, static members and unknown topics', () => {
    // A small deterministic generator (the same cases every run).
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let compared = 0;
    for (let round = 0; round < 150; round++) {
      const topics: Record<string, number> = {};
      for (let t = 0; t < 1 + next(4); t++) topics[`t${t}`] = 1 + next(6);
      const names = [...Object.keys(topics), 'gone'];
      const members = Array.from({ length: 1 + next(5) }, (_, m) => {
        const subscribed = names.filter(() => next(3) > 0);
        return {
          memberId: `m${m}`,
          topics: subscribed.length ? subscribed : [names[0]],
          groupInstanceId: next(4) === 0 ? `i${m}` : null,
          generationId: next(2) ? 1 + next(3) : null,
          ownedPartitions: names
            .filter(() => next(2) === 0)
            .map((topic) => ({ topic, partitions: [next(6), 6 + next(3)].filter((p, i, a) => a.indexOf(p) === i).sort((a, b) => a - b) })),
        };
      });
      const input = { topics, members };
      const compact = toCompact(input);
      if (!compact) throw new Error('no racks here');
      for (const s of CLIENT) {
        let json: unknown;
        try {
          json = wasm.assign(s, input);
        } catch {
          // Both forms refuse the same inputs.
          expect(() => wasm.assignCompact(s, compact), `${s} round ${round}`).toThrow();
          continue;
        }
        expect(fromCompact(compact, wasm.assignCompact(s, compact)), `${s} round ${round}`).toEqual(json);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('leaves a rack-aware group to the JSON form', () => {
    expect(toCompact({ topics: { t: 1 }, members: [{ memberId: 'a', topics: ['t'], rackId: 'r1' }] })).toBeNull();
    expect(toCompact({ topics: { t: 1 }, racks: { t: [['r1']] }, members: [{ memberId: 'a', topics: ['t'] }] })).toBeNull();
  });
});

describe('assignCompact on values of the wrong kind', () => {
  const base = { topics: ['t'], partitions: [2], members: ['a', 'b'], subscriptions: [1, 0, 1, 0] };
  const throwing = (values: unknown[]) =>
    new Proxy(values, {
      get(target, key) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key);
      },
    });
  it('names the field and the element, as a TypeError or RangeError, and the module keeps working', () => {
    const cases: [unknown, RegExp, typeof TypeError][] = [
      [{ ...base, members: 5 }, /input\.members must be an array of strings/, TypeError],
      [{ ...base, members: [1, 2] }, /input\.members\[0\] must be a string, got a number/, TypeError],
      [{ ...base, members: [undefined, 'b'] }, /input\.members\[0\] must be a string, got undefined/, TypeError],
      [{ ...base, members: throwing(['a', 'b']) }, /input\.members\[0\] cannot be read \(its getter throws\)/, TypeError],
      [{ ...base, subscriptions: throwing([1, 0, 1, 0]) }, /input\.subscriptions\[0\] cannot be read/, TypeError],
      [{ ...base, members: new Array(20_000).fill('x') }, /input\.members has 20000 entries; the limit is/, RangeError],
    ];
    for (const [input, message, kind] of cases) {
      expect(() => wasm.assignCompact('range', input as never)).toThrow(kind);
      expect(() => wasm.assignCompact('range', input as never)).toThrow(message);
    }
    expect(Array.from(wasm.assignCompact('range', base))).toEqual([1, 0, 0, 1, 0, 1]);
  });
});
