// The order a comparison's workers take its runs in (compare-pool.ts, RunOrder): each column's
// first run first, then the costliest columns' runs, so that the comparison does not end with
// one worker alone on a long run.
import { describe, expect, it } from 'vitest';
import { RunOrder } from '../src/playground/compare-pool.ts';

/** `columns` × `seeds` runs, column by column, as the page lists them. */
const jobs = (columns: number, seeds: number) =>
  Array.from({ length: columns * seeds }, (_, j) => ({ column: Math.floor(j / seeds), index: j % seeds }));

/** Runs `jobs` on `workers` workers taking them in `order` (each run costing its column's
 * `cost`); returns when the last one ends and the order they started in. */
function schedule(
  list: ReturnType<typeof jobs>,
  cost: number[],
  workers: number,
  order: { next(): number | undefined; finished(job: number, ms: number): void },
) {
  const free = Array.from({ length: workers }, () => 0);
  const running: { job: number; end: number }[] = [];
  const started: number[] = [];
  let end = 0;
  for (;;) {
    // The worker free first takes the next run.
    const w = free.indexOf(Math.min(...free));
    // Runs finished by then are known to the order.
    for (const r of running.filter((r) => r.end <= free[w])) order.finished(r.job, cost[list[r.job].column]);
    running.splice(0, running.length, ...running.filter((r) => r.end > free[w]));
    const job = order.next();
    if (job === undefined) break;
    started.push(job);
    free[w] += cost[list[job].column];
    running.push({ job, end: free[w] });
    end = Math.max(end, free[w]);
  }
  return { end, started };
}

/** Column by column: the order the page used before. */
const inTurn = (n: number) => {
  let k = 0;
  return { next: () => (k < n ? k++ : undefined), finished: () => {} };
};

describe('RunOrder', () => {
  it("hands out each column's first run first, then every other run once", () => {
    const list = jobs(3, 4);
    const order = new RunOrder(list);
    const firsts = [order.next(), order.next(), order.next()];
    expect(firsts.map((j) => list[j as number])).toEqual([0, 1, 2].map((column) => ({ column, index: 0 })));
    const rest: number[] = [];
    for (let j = order.next(); j !== undefined; j = order.next()) rest.push(j);
    expect([...firsts, ...rest].sort((a, b) => (a as number) - (b as number))).toEqual(list.map((_, j) => j));
  });

  it('takes the costliest column measured next, an unmeasured one as the costliest', () => {
    const list = jobs(3, 3);
    const order = new RunOrder(list);
    for (let k = 0; k < 3; k++) order.next();
    order.finished(0, 100);
    order.finished(6, 900);
    // Column 1 is still under way: counted as costly as the costliest known (900), after it in
    // the list's order.
    expect(list[order.next() as number].column).toBe(1);
    // Column 1 measured cheapest: its last run goes last.
    order.finished(3, 50);
    const rest = [order.next(), order.next(), order.next(), order.next(), order.next()];
    expect(rest.map((j) => list[j as number].column)).toEqual([2, 2, 0, 0, 1]);
    expect(order.next()).toBeUndefined();
  });

  it('ends a 5 × 5 comparison on two workers sooner than column by column, the short runs last', () => {
    // A 300-consumer "Your group" in wasm: as described, eager, static, consumer protocol,
    // upgrade (s per run).
    const cost = [0.91, 1.23, 0.46, 0.54, 1.14];
    const list = jobs(5, 5);
    const total = list.reduce((a, j) => a + cost[j.column], 0);
    const before = schedule(list, cost, 2, inTurn(list.length));
    const after = schedule(list, cost, 2, new RunOrder(list));
    expect(after.end).toBeLessThan(before.end);
    expect(after.end - total / 2).toBeLessThan(0.3);
    const last = after.started.slice(-4).map((j) => list[j].column);
    expect(last.every((c) => cost[c] <= 0.54)).toBe(true);
  });
});
