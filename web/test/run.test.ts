// The playground's run model against the real wasm module in Node: going back replays the same
// steps, acting in the past forks the run.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, Player, Simulation, scenario } from '../pkg/group_coordinator_wasm.js';
import { AssignmentModel } from '../src/playground/assignments.ts';
import { Run } from '../src/playground/run.ts';
import { stateMachineModel } from '../src/playground/statemachine.ts';
import { TimelineModel } from '../src/playground/timeline.ts';

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

describe('the run model', () => {
  it('steps back and forward through the same states', () => {
    const run = newRun('leave-while-preparing-rebalance');
    run.goto(120);
    const at120 = run.entries.map((e) => run.text(e.index, 'en'));
    const state120 = stateMachineModel(run.steps, run.group).state;
    run.goto(40);
    expect(run.cursor).toBe(40);
    expect(run.entries.length).toBe(run.steps[39].end);
    run.goto(120);
    expect(run.entries.map((e) => run.text(e.index, 'en'))).toEqual(at120);
    expect(stateMachineModel(run.steps, run.group).state).toBe(state120);
  });

  it('acting in the past forks the run and the fork replays', () => {
    const run = newRun('leave-while-stable');
    run.goto(60);
    run.act({ type: 'crash', consumer: 'A' });
    run.goto(80);
    const forked = run.entries.map((e) => run.text(e.index, 'en'));
    run.goto(30);
    run.goto(80);
    expect(run.entries.map((e) => run.text(e.index, 'en'))).toEqual(forked);
    run.goto(50);
    run.act({ type: 'crash', consumer: 'B' });
    expect(run.actions).toEqual([{ step: 50, action: { type: 'crash', consumer: 'B' } }]);
    run.goto(80);
    expect(run.view.consumers.find((c) => c.name === 'A')?.life).toBe('running');
    expect(run.view.consumers.find((c) => c.name === 'B')?.life).toBe('crashed');
  });

  it('a refused action throws and changes nothing', () => {
    const run = newRun('normal-join');
    run.goto(10);
    const before = run.entries.length;
    expect(() => run.act({ type: 'resume', consumer: 'A' })).toThrow(/not paused/);
    expect(run.entries.length).toBe(before);
    expect(run.actions).toEqual([]);
  });

  it('the views read the seed case: leave while PreparingRebalance', () => {
    const run = newRun('leave-while-preparing-rebalance');
    while (!run.entries.some((e) => e.type === 'requestDelivered' && e.api === 'LeaveGroup')) run.forward();
    expect(stateMachineModel(run.steps, run.group).state).toBe('CompletingRebalance');
    const timeline = new TimelineModel();
    timeline.update(run.entries);
    expect(timeline.lanes).toEqual(['A', 'B', 'C', 'D']);
    expect(timeline.bars.some((b) => b.api === 'LeaveGroup' && b.consumer === 'C')).toBe(true);
    run.goto(run.cursor + 30);
    const assignments = new AssignmentModel();
    assignments.update(run.entries);
    expect([...assignments.generations.keys()]).toEqual([1, 2]);
    expect(assignments.leaders.get(2)).toBe('A');
    expect([...assignments.generations.get(2)!.keys()].sort()).toEqual(['A', 'B', 'D']);
  });
});
