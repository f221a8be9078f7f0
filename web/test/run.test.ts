// The playground's run model against the real wasm module in Node: going back replays the same
// steps, acting in the past forks the run.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, Player, Simulation, scenario } from '../pkg/group_coordinator_wasm.js';
import { Run } from '../src/playground/run.ts';

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const newRun = (name: string) => new Run((s, actions) => new Player(s, actions), scenario(name));

describe('entries and narration, the cheap read of the trace', () => {
  it('entries(from) is trace(from) without text, and narration(i) is its text', () => {
    const sim = new Simulation(scenario('leave-while-completing-rebalance'));
    for (let i = 0; i < 150 && sim.stepTime() != null; i++) {
      /* step */
    }
    const narrated = sim.trace(10);
    expect(narrated.length).toBeGreaterThan(100);
    expect(sim.entries(10)).toEqual(narrated.map(({ text: _, ...entry }) => entry));
    for (const e of narrated) expect(sim.narration(e.index)).toEqual(e.text);
    expect(sim.narration(sim.traceLength())).toBeNull();
    expect(() => sim.entries(-1)).toThrow(/fromIndex must be a whole number >= 0, got -1/);
    expect(() => sim.narration(1.5)).toThrow(/index must be a whole number >= 0, got 1.5/);
    sim.free();
  });

  it('stepTime() takes the same steps as step(), returning their times', () => {
    const a = new Simulation(scenario('rolling-restart-cooperative'));
    const b = new Simulation(scenario('rolling-restart-cooperative'));
    for (let i = 0; i < 2000; i++) {
      const event = a.step();
      expect(event).not.toBeNull();
      expect(b.stepTime()).toBe(event?.atMs);
    }
    expect(b.now()).toBeGreaterThan(30_000);
    expect(b.traceHash()).toBe(a.traceHash());
    a.free();
    b.free();
  });
});

describe('the run model and its frames', () => {
  const full = {
    lang: 'en' as const,
    timeline: { windowMs: 3_600_000 },
    assignments: 8,
    steps: { span: 40 },
    world: true,
  };
  const lines = (run: Run) => run.entries().map((e) => e.index);

  it('steps back and forward through the same frames', () => {
    const run = newRun('leave-while-preparing-rebalance');
    run.goto(120);
    const at120 = JSON.stringify(run.frame(full));
    const entries = lines(run);
    run.goto(40);
    expect(run.cursor).toBe(40);
    expect(run.frame(full).cursor).toBe(40);
    expect(run.entries().length).toBe(run.frame({}).traceLength);
    run.goto(120);
    expect(JSON.stringify(run.frame(full))).toBe(at120);
    expect(lines(run)).toEqual(entries);
  });

  it('acting in the past forks the run and the fork replays', () => {
    const run = newRun('leave-while-stable');
    run.goto(60);
    run.act({ type: 'crash', consumer: 'A' });
    run.goto(80);
    const forked = JSON.stringify(run.frame(full));
    run.goto(30);
    run.goto(80);
    expect(JSON.stringify(run.frame(full))).toBe(forked);
    run.goto(50);
    run.act({ type: 'crash', consumer: 'B' });
    expect(run.actions).toEqual([{ step: 50, action: { type: 'crash', consumer: 'B' } }]);
    run.goto(80);
    const consumers = run.frame({ world: true }).consumers!;
    expect(consumers.find((c) => c.name === 'A')?.life).toBe('running');
    expect(consumers.find((c) => c.name === 'B')?.life).toBe('crashed');
  });

  it('a refused action throws and changes nothing', () => {
    const run = newRun('normal-join');
    run.goto(10);
    const before = run.frame({}).traceLength;
    expect(() => run.act({ type: 'resume', consumer: 'A' })).toThrow(/not paused/);
    expect(run.frame({}).traceLength).toBe(before);
    expect(run.actions).toEqual([]);
  });

  it('the frame draws the seed case: leave while PreparingRebalance', () => {
    const run = newRun('leave-while-preparing-rebalance');
    while (!run.entries().some((e) => e.type === 'requestDelivered' && e.api === 'LeaveGroup')) run.forward();
    const f = run.frame(full);
    expect(f.machine.state).toBe('CompletingRebalance');
    expect(f.machine.last).toMatchObject({ from: 'PreparingRebalance', to: 'CompletingRebalance' });
    expect(f.timeline!.lanes).toEqual(['A', 'B', 'C', 'D']);
    const c = f.timeline!.lanes.indexOf('C') + 1;
    expect(f.timeline!.bars.some((b) => b.api === 'LeaveGroup' && b.lane === c)).toBe(true);
    run.goto(run.cursor + 30);
    const table = run.frame(full).assignments!;
    expect(table.generations.map((g) => g.generationId)).toEqual([1, 2]);
    expect(table.generations[1].leader).toBe('A');
    const took = table.rows.filter((r) => r.cells[1] !== null).map((r) => r.consumer);
    expect(took.sort()).toEqual(['A', 'B', 'D']);
  });

  it('forward(count, toEnd) stops at the scenario end; frame() refuses what it does not know', () => {
    const run = newRun('normal-join');
    let taken = 0;
    while (!run.pastEnd) taken += run.forward(500, true);
    expect(run.cursor).toBe(taken);
    expect(run.forward(500, true)).toBe(0);
    expect(run.forward(3)).toBe(3);
    expect(() => run.frame({ colour: 'red' } as never)).toThrow(/unknown field `colour`/);
    expect(() => run.frame({ lang: 'fr' } as never)).toThrow(/unknown variant `fr`, expected `en` or `zh`/);
  });
});
