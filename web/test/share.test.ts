// Share links and settings diffs: what a link carries comes back the same; a tampered link is
// refused with a reason, never thrown, and whatever a link gets past the shape check is either
// run or refused by the simulation with a message.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, Simulation, scenario } from '../pkg/group_coordinator_wasm.js';
import { applyDiff, isSettingsDiff, type SettingsDiff } from '../src/playground/settings.ts';
import { decodeShare, encodeShare } from '../src/playground/share.ts';

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const known = (n: string) => n === 'normal-rebalance';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('settings in share links', () => {
  it("a diff with one consumer's settings and link comes back the same", () => {
    const settings: SettingsDiff = {
      broker: { 'group.initial.rebalance.delay.ms': 0 },
      consumers: { A: { config: { 'group.instance.id': 'A', 'session.timeout.ms': 12000 }, network: { latencyMs: 40 } } },
    };
    const params = encodeShare({ scenario: 'normal-rebalance', step: 7, actions: [], settings });
    const decoded = decodeShare(new URLSearchParams(params.toString()), known);
    expect(decoded.error).toBeNull();
    expect(decoded.state?.settings).toEqual(settings);
  });

  it("applies one consumer's settings over its own and the scenario's", () => {
    const base = scenario('normal-rebalance');
    const name = base.consumers[0].name;
    const applied = applyDiff(base, { consumers: { [name]: { config: { 'group.instance.id': name }, network: { latencyMs: 40 } } } });
    const c = applied.consumers[0];
    expect(c.config?.['group.instance.id']).toBe(name);
    expect(c.network?.latencyMs).toBe(40);
    expect(applied.consumers.slice(1)).toEqual(base.consumers.slice(1));
    new Simulation(applied).free();
  });

  it('refuses settings of the wrong shape, naming the part', () => {
    for (const bad of [
      [],
      'x',
      { consumers: [] },
      { consumers: { A: 1 } },
      { consumers: { A: { config: { x: {} } } } },
      { consumers: { A: { config: {}, other: {} } } },
      { broker: { a: [1] } },
      { seed: 1.5 },
      { unknown: {} },
    ]) {
      expect(isSettingsDiff(bad)).toBe(false);
      const params = new URLSearchParams({ v: '1', scenario: 'normal-rebalance', cfg: b64(JSON.stringify(bad)) });
      expect(decodeShare(params, known).error).toMatch(/settings are malformed/);
    }
  });

  it('never throws on random settings; the simulation refuses what it cannot run, with a reason', () => {
    // A fixed-seed generator of JSON values close to real diffs (so some pass the shape check).
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keys = [
      'session.timeout.ms',
      'group.instance.id',
      'heartbeat.interval.ms',
      'partition.assignment.strategy',
      'latencyMs',
      'loss',
      'x',
    ];
    const scalar = () => [rnd(100000) - 50000, `s${rnd(9)}`, rnd(2) === 0, 0.5, '', 'range,roundrobin', null][rnd(7)];
    const flat = () => Object.fromEntries(Array.from({ length: rnd(3) }, () => [keys[rnd(keys.length)], scalar()]));
    const value = (): unknown => {
      switch (rnd(6)) {
        case 0:
          return { broker: flat(), consumer: flat() };
        case 1:
          return { consumers: { [['A', 'B', 'Z'][rnd(3)]]: { config: flat(), network: flat() } } };
        case 2:
          return { network: flat(), seed: rnd(3) === 0 ? -1 : rnd(1000) };
        case 3:
          return { consumers: { A: { config: { 'group.instance.id': 'same' } }, B: { config: { 'group.instance.id': 'same' } } } };
        case 4:
          return [flat()];
        default:
          return flat();
      }
    };
    let ran = 0;
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const text = JSON.stringify(value());
      const params = new URLSearchParams({ v: '1', scenario: 'normal-rebalance', cfg: b64(text) });
      const decoded = decodeShare(params, known);
      if (!decoded.state) {
        expect(decoded.error).toBeTruthy();
        continue;
      }
      try {
        const sim = new Simulation(applyDiff(scenario('normal-rebalance'), decoded.state.settings ?? {}));
        sim.runUntil(5000);
        sim.free();
        ran++;
      } catch (e) {
        expect((e as Error).message.length).toBeGreaterThan(0);
        refused++;
      }
    }
    expect(ran).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

describe('what a link says back', () => {
  it('quotes at most 100 characters of any value it refuses, however long the link', () => {
    const huge = 'y'.repeat(1_500_000);
    const cases: Record<string, string>[] = [
      { scenario: huge },
      { scenario: 'normal-rebalance', v: `9${huge}` },
      { scenario: 'normal-rebalance', v: `x${huge}` },
      { scenario: 'normal-rebalance', seed: huge },
      { scenario: 'normal-rebalance', step: huge },
      { scenario: 'normal-rebalance', moment: huge },
    ];
    for (const params of cases) {
      const decoded = decodeShare(new URLSearchParams(params), known);
      const said = `${decoded.error ?? ''}${decoded.notice ?? ''}`;
      expect(said.length, Object.keys(params).join()).toBeGreaterThan(0);
      expect(said.length, Object.keys(params).join()).toBeLessThan(400);
    }
  });
});

describe('an error the page caught, as the reader is told it', () => {
  it('says a trapped module cannot go on, in either language, and leaves a refusal as it is', async () => {
    const { errorText } = await import('../src/playground/text.ts');
    expect(errorText(new TypeError('groupId must be a string, got a number (0)'), 'en')).toBe('groupId must be a string, got a number (0)');
    for (const trap of [
      new WebAssembly.RuntimeError('unreachable'),
      new Error('recursive use of an object detected which would lead to unsafe aliasing in rust'),
    ]) {
      expect(errorText(trap, 'en')).toMatch(/^The model stopped on an internal error \(.*\) and cannot go on: reload the page\.$/);
      expect(errorText(trap, 'zh')).toContain('请重新加载页面');
      expect(errorText(trap, 'en').length).toBeLessThan(250);
    }
  });
});
