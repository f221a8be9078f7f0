// "Your group": a real group's description read by the model (importGroup), and the options
// compared on it (what-if.ts), run to their end as the comparison's workers run them.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { importGroup, initSync, Simulation } from '../pkg/group_coordinator_wasm.js';
import { runToEnd } from '../src/playground/runs.ts';
import { assumedValues, restartOrder, rollingRestart, whatIfs, withAssumed } from '../src/playground/what-if.ts';

const fixture = (name: string) => readFileSync(new URL(`../../crates/simulator/tests/import/${name}`, import.meta.url), 'utf8');

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

describe('importGroup', () => {
  it('reads the page example into a scenario that says what it assumed', () => {
    const s = importGroup(fixture('kafka4-example.txt'));
    expect(s.consumers.length).toBe(30);
    expect(s.topics).toEqual({ orders: 48, payments: 12 });
    expect(s.imported?.protocol).toBe('classic');
    expect(s.imported?.assumed).toEqual([
      'consumer.session.timeout.ms',
      'consumer.heartbeat.interval.ms',
      'consumer.max.poll.interval.ms',
      'processingMs',
    ]);
    // A scenario like any other: a Simulation takes it.
    const sim = new Simulation(s);
    sim.runUntil(20_000);
    expect(sim.metrics().invariantViolations).toBe(0);
    sim.free();
  });

  it('reads admin JSON', () => {
    const s = importGroup(fixture('java-describe.json'));
    expect(s.groupId).toBe('orders-app');
    expect(s.consumer?.['group.protocol']).toBe('consumer');
  });

  it('refuses what it cannot read with a SyntaxError naming the line', () => {
    const text = fixture('kafka4-members-verbose-consumer.txt').replace('payments:0 ', 'payments:x ');
    let error: unknown;
    try {
      importGroup(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as SyntaxError & { line: number }).line).toBe(3);
    expect((error as Error).message).toMatch(/^line 3: "x" is not a partition number/);
    expect(() => importGroup(42 as unknown as string)).toThrow(TypeError);
    expect(() => importGroup('{"members": 3}')).toThrow(/members/);
  });
});

describe('what if', () => {
  let base: ReturnType<typeof importGroup>;
  beforeAll(() => {
    base = importGroup(fixture('kafka4-example.txt'));
  });
  const plan = { order: 'listed' as const, gapMs: 8_000, downMs: 4_000 };

  it('restarts every member once, a gap apart, in the order asked', () => {
    const s = rollingRestart(base, plan);
    const restarts = (s.script ?? []).map((st) => st.action);
    expect(restarts.length).toBe(30);
    expect(restarts.map((a) => (a && 'consumer' in a ? a.consumer : null))).toEqual(base.consumers.map((c) => c.name));
    expect((s.script ?? [])[1].atMs - (s.script ?? [])[0].atMs).toBe(8_000);
    expect(s.durationMs).toBe(30_000 + 29 * 8_000 + 4_000 + 60_000);
    const names = base.consumers.map((c) => c.name);
    expect(restartOrder(names, 'reversed')).toEqual([...names].reverse());
    const shuffled = restartOrder(names, 'shuffled');
    expect([...shuffled].sort()).toEqual([...names].sort());
    expect(shuffled).not.toEqual(names);
    expect(restartOrder(names, 'shuffled')).toEqual(shuffled);
  });

  it('offers a classic group five options, each run to its end without a broken invariant', () => {
    const options = whatIfs(base, plan);
    expect(options.map((o) => o.key)).toEqual(['asDescribed', 'eager', 'static', 'consumer', 'upgrade']);
    const consumer = options[3].scenario;
    expect(consumer.consumer?.['group.protocol']).toBe('consumer');
    expect(consumer.consumer?.['session.timeout.ms']).toBeUndefined();
    const upgrade = (options[4].scenario.script ?? []).filter((st) => st.action?.type === 'setConfig');
    expect(upgrade.length).toBe(30);
    expect(options[2].scenario.consumers.every((c) => typeof c.config?.['group.instance.id'] === 'string')).toBe(true);
    const metrics = options.map((o) => runToEnd((s) => new Simulation(s), o.scenario));
    for (const m of metrics) expect(m.invariantViolations).toBe(0);
    // Static members come back within their session: no rebalance after the first join.
    expect(metrics[2].rebalances).toBe(1);
    expect(metrics[0].rebalances).toBeGreaterThan(30);
  });

  it('offers a consumer group three options', () => {
    const group = importGroup(fixture('kafka4-members-verbose-consumer.txt'));
    expect(whatIfs(group, plan).map((o) => o.key)).toEqual(['asDescribed', 'static', 'classic']);
    const classic = whatIfs(group, plan)[2].scenario;
    expect(classic.consumer?.['group.protocol']).toBeUndefined();
    expect(classic.consumer?.['partition.assignment.strategy']).toBe('cooperative-sticky');
  });

  it('changes the assumed settings where they live', () => {
    const values = assumedValues(base);
    expect(values).toEqual([
      { key: 'consumer.session.timeout.ms', value: 45_000 },
      { key: 'consumer.heartbeat.interval.ms', value: 3_000 },
      { key: 'consumer.max.poll.interval.ms', value: 300_000 },
      { key: 'processingMs', value: 100 },
    ]);
    const changed = withAssumed(base, [
      { key: 'consumer.session.timeout.ms', value: 10_000 },
      { key: 'processingMs', value: 250 },
    ]);
    expect(changed.consumer?.['session.timeout.ms']).toBe(10_000);
    expect(changed.consumers.every((c) => c.processingMs === 250)).toBe(true);
    expect(base.consumer?.['session.timeout.ms']).toBe(45_000);
  });
});
