// The comparison's rolling restarts reshaped to a reader's setup: the group, the restarts and
// the protocol switches of the built-in scenarios, for any number of consumers.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, Simulation, scenario } from '../pkg/group_coordinator_wasm.js';
import { protocolOf, reshape, runToEnd } from '../src/playground/compare.ts';

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

describe('reshape', () => {
  it('keeps a built-in rolling restart as it is at its own size', () => {
    const base = scenario('rolling-restart-eager');
    const same = reshape(base, 4, 12, 20_000);
    expect(same.consumers.map((c) => [c.name, c.startMs])).toEqual(base.consumers.map((c) => [c.name, c.startMs]));
    expect(same.script).toEqual(base.script);
    expect(same.durationMs).toBe(base.durationMs);
    expect(same.topics).toEqual(base.topics);
  });

  it('restarts every consumer in turn, a gap apart, each with its own static id', () => {
    const s = reshape(scenario('rolling-restart-static'), 30, 120, 10_000);
    expect(s.consumers.length).toBe(30);
    expect(new Set(s.consumers.map((c) => c.name)).size).toBe(30);
    expect(new Set(s.consumers.map((c) => c.config?.['group.instance.id'])).size).toBe(30);
    expect(Object.values(s.topics)).toEqual([120]);
    const script = s.script ?? [];
    expect(script.length).toBe(30);
    expect(script[1].atMs - script[0].atMs).toBe(10_000);
    expect(script.map((st) => (st.action && 'consumer' in st.action ? st.action.consumer : null))).toEqual(s.consumers.map((c) => c.name));
    // It runs to its end, every consumer restarted, and the group's invariants hold.
    const metrics = runToEnd((x) => new Simulation(x), s);
    expect(metrics.invariantViolations).toBe(0);
  });

  it('carries the upgrade: each consumer switches to the consumer protocol before its restart', () => {
    const s = reshape(scenario('rolling-upgrade-to-consumer-protocol'), 6, 24, 15_000);
    const switched = (s.script ?? [])
      .filter((st) => st.action?.type === 'setConfig')
      .map((st) => (st.action as { consumer: string }).consumer);
    expect(switched).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(protocolOf(s)).toBe('mixed');
    expect(protocolOf(scenario('rolling-restart-eager'))).toBe('classic');
    expect(runToEnd((x) => new Simulation(x), s).invariantViolations).toBe(0);
  });
});
