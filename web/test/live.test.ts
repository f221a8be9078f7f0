// Following a group-broker run: a trace recorded from real kafka-python consumers
// (fixtures/broker-trace.jsonl: two consumers join a group, one closes, then the other) goes
// through the model's own follower (`Player.live()`), which must give every response the broker
// recorded; a tampered trace is caught at the line where it was changed; lines that are not a
// trace are refused. The console shows the run in its session; the playground draws it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { isBrokerTrace } from '../src/common/live-feed.ts';
import { LiveRun } from '../src/console/live.ts';
import { LiveFeed } from '../src/playground/live.ts';
import { Run } from '../src/playground/run.ts';

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const factory = (config: Record<string, number | string | boolean>, seed?: number) =>
  seed ? wasm.Coordinator.withSeed(seed, config) : new wasm.Coordinator(config);
const lines = readFileSync(new URL('./fixtures/broker-trace.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n');
const responses = lines.filter((l) => l.includes('"response"')).length;

describe('a live run', () => {
  it('replays the broker’s trace through this page’s model, every response as recorded', () => {
    const run = new LiveRun(factory, wasm.Player.live());
    for (const line of lines) run.apply(line);
    expect(run.status).toEqual({ kind: 'following', inputs: 25, checked: responses });
    // The group as the model left it: both consumers left, Empty.
    const view = run.session?.view('orders-app');
    expect(view?.type).toBe('classic');
    expect(view?.type === 'classic' && view.state).toBe('Empty');
    expect(run.session?.log.filter((e) => e.request?.api === 'LeaveGroup')).toHaveLength(2);
  });

  it('catches a response the broker did not give', () => {
    const at = lines.findIndex((l) => l.includes('"response":{"api":"SyncGroup"'));
    const tampered = [...lines];
    tampered[at] = tampered[at].replace('"errorCode":0', '"errorCode":27');
    const run = new LiveRun(factory, wasm.Player.live());
    for (const line of tampered) run.apply(line);
    expect(run.status.kind).toBe('diverged');
    expect(run.status.kind === 'diverged' && run.status.line).toBe(at + 1);
  });

  it('refuses what is not a trace, keeping what it did', () => {
    const noHeader = new LiveRun(factory, wasm.Player.live());
    noHeader.apply(lines[1]);
    expect(noHeader.status).toEqual({ kind: 'refused', line: 1, what: "the first line is not the broker's header" });
    const garbage = new LiveRun(factory, wasm.Player.live());
    garbage.apply(lines[0]);
    garbage.apply(lines[1]);
    garbage.apply('{"at": 5, "request": ');
    expect(garbage.status).toEqual({ kind: 'refused', line: 3, what: 'not JSON' });
    expect(garbage.session?.log).toHaveLength(1);
    garbage.apply(lines[2]);
    expect(garbage.session?.log).toHaveLength(1);
    const truncated = new LiveRun(factory, wasm.Player.live());
    truncated.apply(JSON.stringify({ truncated: 'this run is longer than the lines the live feed keeps: open its --trace file instead' }));
    expect(truncated.status.kind === 'refused' && truncated.status.what.includes('--trace')).toBe(true);
    const badConfig = new LiveRun(factory, wasm.Player.live());
    badConfig.apply(JSON.stringify({ broker: { seed: 0, settings: [], topics: [], config: { 'group.max.size': 0 } } }));
    expect(badConfig.status.kind).toBe('refused');
  });

  it('accepts a request both models refused, and no other refusal', () => {
    const bad = JSON.stringify({ at: 9000, request: { api: 'Heartbeat', groupId: 'orders-app' } });
    const note = JSON.stringify({ at: 9000, note: 'the model refused a request: Heartbeat request: apiVersion is required' });
    const both = new LiveRun(factory, wasm.Player.live());
    for (const line of [...lines, bad, note]) both.apply(line);
    expect(both.status).toEqual({ kind: 'following', inputs: 26, checked: responses });
    const onlyHere = new LiveRun(factory, wasm.Player.live());
    for (const line of [...lines, bad, lines.at(-1) ?? '']) onlyHere.apply(line);
    expect(onlyHere.status.kind).toBe('diverged');
    const onlyThere = new LiveRun(factory, wasm.Player.live());
    for (const line of [...lines, note]) onlyThere.apply(line);
    expect(onlyThere.status.kind).toBe('diverged');
  });

  it('builds the model with the broker’s seed', () => {
    const header = JSON.parse(lines[0]);
    const seeded = new LiveRun(factory, wasm.Player.live());
    seeded.apply(JSON.stringify({ broker: { ...header.broker, seed: 7 } }));
    seeded.apply(lines[1]);
    // The first JoinGroup's member id comes from another stream: the broker's response (seed 0)
    // is not this model's.
    const first = lines.findIndex((l) => l.includes('"response"'));
    for (const line of lines.slice(2, first + 1)) seeded.apply(line);
    expect(seeded.status.kind).toBe('diverged');
  });
});

describe('a live run where an admin created a topic (fixtures/broker-trace-regex.jsonl)', () => {
  // Two librdkafka members subscribed to ^ord.* with the consumer protocol; an AdminClient then
  // created orders-apac, which the coordinator resolved into the pattern.
  const regexLines = readFileSync(new URL('./fixtures/broker-trace-regex.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  it('the createTopic line is applied in the console’s session and the follower’s run alike', () => {
    const run = new LiveRun(factory, wasm.Player.live());
    let apacTargeted = false;
    for (const line of regexLines) {
      run.apply(line);
      const view = run.session?.view();
      if (view?.type === 'consumer') {
        apacTargeted ||= view.members.some((m) => m.target.some((t) => t.topic === 'orders-apac'));
      }
    }
    expect(run.status.kind).toBe('following');
    expect(run.status.kind === 'following' && run.status.checked).toBe(regexLines.filter((l) => l.includes('"response"')).length);
    const created = run.session?.log.filter((e) => e.action?.kind === 'createTopic');
    expect(created?.map((e) => e.action)).toEqual([{ kind: 'createTopic', topic: 'orders-apac', partitions: 2 }]);
    expect(run.session?.coordinator.topics().map((t) => t.name)).toContain('orders-apac');
    expect(apacTargeted).toBe(true);
  });
});

describe('a live run through a coordinator failover (fixtures/broker-trace-failover.jsonl)', () => {
  // Three librdkafka members with the consumer protocol; the operator typed `failover g 3000`
  // into group-broker's input.
  const failoverLines = readFileSync(new URL('./fixtures/broker-trace-failover.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  it('the unload and load lines are applied in the console’s session and the follower’s run alike', () => {
    const run = new LiveRun(factory, wasm.Player.live());
    const members = () => {
      const view = run.session?.view();
      return view?.type === 'consumer' ? view.members.map((m) => `${m.memberId}@${m.memberEpoch}`) : [];
    };
    let before: string[] = [];
    let after: string[] = [];
    let unloaded = false;
    for (const line of failoverLines) {
      if (line.includes('"unload":')) before = members();
      run.apply(line);
      const view = run.session?.view();
      if (line.includes('"unload":')) unloaded = view?.type === 'consumer' && view.unloaded;
      // Read right after the load: the clients leave at the end of the trace.
      if (line.includes('"load":')) after = members();
    }
    expect(run.status.kind).toBe('following');
    expect(run.status.kind === 'following' && run.status.checked).toBe(failoverLines.filter((l) => l.includes('"response"')).length);
    const steps = run.session?.log.filter((e) => e.action?.kind === 'unload' || e.action?.kind === 'load');
    expect(steps?.map((e) => [e.action, e.error])).toEqual([
      [{ kind: 'unload', groupId: 'g' }, null],
      [{ kind: 'load', groupId: 'g' }, null],
    ]);
    expect(unloaded).toBe(true);
    expect(before).toHaveLength(3);
    expect(after).toEqual(before);
    expect(members()).toEqual([]);
    // The heartbeats sent while the group was away got NOT_COORDINATOR in the console too.
    const away = run.session?.log.filter((e) => e.responses.some((r) => 'errorCode' in r && r.errorCode === 16));
    expect(away?.length).toBeGreaterThanOrEqual(3);
  });
});

describe('a live run in the playground (the model’s own Player.live())', () => {
  const text = lines.join('\n');

  it('follows a trace file to its end: every answer checked, a lane per client, the views drawn', () => {
    const run = Run.live(wasm.Player.live());
    let changes = 0;
    const feed = LiveFeed.read(run, text, 'broker-trace.jsonl', () => changes++);
    expect(feed.status).toEqual({ kind: 'following', inputs: 25, checked: responses });
    expect(feed.closed).toBe(true);
    expect(changes).toBe(1);
    expect(run.scenario.live).toBe(true);
    expect(run.scenario.groupId).toBe('orders-app');
    const frame = run.frame({ lang: 'en', world: true, assignments: 8, steps: { from: null, span: 30 } });
    expect(frame.consumers?.map((c) => c.name)).toEqual(['consumer-a', 'consumer-b']);
    expect(frame.machine.state).toBe('Empty');
    // Both generations' assignments are in the table, as the clients were given them.
    const held = frame.assignments?.rows.flatMap((r) => r.cells.map((c) => c?.assigned ?? '')).join(' ');
    expect(held).toMatch(/orders/);
    // A live run's inputs are its clients', not the user's.
    expect(frame.actions).toEqual([]);
    run.free();
  });

  it('stops where the console does on a tampered trace', () => {
    const at = lines.findIndex((l) => l.includes('"response":{"api":"SyncGroup"'));
    const tampered = [...lines];
    tampered[at] = tampered[at].replace('"errorCode":0', '"errorCode":27');
    const run = Run.live(wasm.Player.live());
    const feed = LiveFeed.read(run, tampered.join('\n'), 'tampered', () => {});
    const console = new LiveRun(factory, wasm.Player.live());
    for (const line of tampered) console.apply(line);
    expect(feed.status.kind).toBe('diverged');
    expect(feed.status.kind === 'diverged' && feed.status.line).toBe(at + 1);
    expect(console.status.kind === 'diverged' && console.status.line).toBe(at + 1);
    run.free();
  });

  it('tells a broker trace from an exported run', () => {
    expect(isBrokerTrace(text)).toBe(true);
    expect(isBrokerTrace(JSON.stringify({ scenario: {}, actions: [] }))).toBe(false);
    expect(isBrokerTrace('not json\n{}')).toBe(false);
  });
});
