// The assign widget's group text and its runs, against the real wasm module.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { moves, parseGroup } from '../src/assign/group-text.ts';
import { EXAMPLE, run, STRATEGIES } from '../src/assign/widget.ts';

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const fns = { assign: wasm.assign, serverAssign: wasm.serverAssign };

describe('the group text', () => {
  it('reads topics, members, options and owned partitions', () => {
    const parsed = parseGroup(
      'topics: orders=6, my-topic=2\n# a comment\nc1 gen=3 instance=h1 rack=a: orders my-topic | owns orders-0, my-topic-1\nc2: orders',
    );
    expect(parsed).toEqual({
      ok: true,
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
    ];
    for (const [text, line, message] of cases) {
      const parsed = parseGroup(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) {
        expect(parsed.line, text).toBe(line);
        expect(parsed.message, text).toMatch(message);
      }
    }
  });

  it('tells kept, new and given-up partitions apart', () => {
    expect(moves([{ topic: 'o', partitions: [0, 1] }], [{ topic: 'o', partitions: [1, 2] }])).toEqual({
      kept: ['o-1'],
      added: ['o-2'],
      revoked: ['o-0'],
    });
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
    });
  });

  it('cooperative-sticky keeps what members own and holds back what changes owner', () => {
    const r = run(fns, 'cooperative-sticky', EXAMPLE);
    if (!r.ok) throw new Error(r.message);
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
