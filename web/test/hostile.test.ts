// Hostile input through every export of the wasm package, from a fixed seed: wrong types,
// extreme numbers, huge and deeply nested values, getters that throw or call back into the
// object. Every refusal must be a TypeError or RangeError naming the parameter (never a trap,
// never the glue's internals), every call must return within a fixed bound, and after a refusal
// the object must answer the next valid call exactly as an untouched twin does.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { prng } from './prng.ts';

const { Coordinator, Simulation, initSync } = wasm;

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

function nested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

function throwingGetter(): object {
  return Object.defineProperty({}, 'groupId', {
    enumerable: true,
    get() {
      throw new Error('getter says no');
    },
  });
}

const HUGE = 'x'.repeat(1 << 20);

/** Values of every kind a JavaScript caller can pass by mistake or on purpose. */
function hostileValues(reenter: () => unknown): unknown[] {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  return [
    undefined,
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    0.5,
    NaN,
    Infinity,
    -Infinity,
    2 ** 53,
    -(2 ** 53),
    2 ** 31,
    1e308,
    Number.MIN_VALUE,
    '',
    'g',
    '-1',
    'range',
    HUGE,
    '\u0000\ud800',
    Symbol('s'),
    10n,
    {},
    [],
    [[]],
    { api: 'JoinGroup' },
    cyclic,
    nested(100_000),
    throwingGetter(),
    Object.defineProperty({}, 'x', { enumerable: true, get: reenter }),
    new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('proxy says no');
        },
      },
    ),
    () => 1,
    new Date(0),
    new Uint8Array(4),
    new Array(1_000_000).fill(0),
    {
      toString() {
        return 'g';
      },
      valueOf() {
        return 1;
      },
    },
  ];
}

/** An error as the API promises it: a TypeError or RangeError with a short message. */
function expectRefusal(e: unknown, where: string): void {
  if (!(e instanceof TypeError || e instanceof RangeError)) {
    throw new Error(`${where}: threw ${(e as Error)?.constructor?.name}: ${String((e as Error)?.message ?? e)}`);
  }
  expect(e).not.toBeInstanceOf(WebAssembly.RuntimeError);
  expect(e.message.length, `${where}: ${e.message.slice(0, 300)}`).toBeLessThan(700);
  for (const glue of ['Cannot read properties', 'is not a function', 'charCodeAt', 'recursive use', 'null pointer']) {
    expect(e.message, where).not.toContain(glue);
  }
}

const BOUND_MS = 2000; // generous for a loaded CI machine; the slowest call measured is reported
let slowest = { ms: 0, where: '' };

function timed<T>(where: string, f: () => T): T {
  const start = performance.now();
  try {
    return f();
  } finally {
    const ms = performance.now() - start;
    if (ms > slowest.ms) slowest = { ms, where };
    expect(ms, `${where} took ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
  }
}

/** Calls `call` with `value` in position `position` and valid values elsewhere. */
function poke(where: string, f: () => unknown): 'refused' | 'accepted' {
  try {
    timed(where, f);
    return 'accepted';
  } catch (e) {
    if (e instanceof Error && e.message.includes(' took ')) throw e;
    expectRefusal(e, where);
    return 'refused';
  }
}

const LEAVE = { api: 'LeaveGroup', apiVersion: 3, correlationId: 9, groupId: 'g', members: [{ memberId: 'nobody' }] };
const join = (id: number) => ({
  api: 'JoinGroup',
  apiVersion: 9,
  correlationId: id,
  groupId: 'g',
  sessionTimeoutMs: 10000,
  rebalanceTimeoutMs: 60000,
  memberId: '',
  groupInstanceId: null,
  protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: '' }],
});

describe('hostile input through every export', () => {
  it('free functions refuse every wrong value by name and keep working', () => {
    const random = prng(10);
    const values = hostileValues(() => wasm.scenarios());
    const input = {
      topics: { t: 3 },
      members: [
        { memberId: 'a', topics: ['t'] },
        { memberId: 'b', topics: ['t'] },
      ],
    };
    const serverInput = {
      topics: { t: 3 },
      members: [
        { memberId: 'a', subscribedTopics: ['t'] },
        { memberId: 'b', subscribedTopics: ['t'], assignment: [{ topic: 't', partitions: [2] }] },
      ],
    };
    const sub = wasm.encodeSubscription({ version: 1, topics: ['t'], userData: null, ownedPartitions: [] } as never);
    const asg = wasm.encodeAssignment({ version: 1, assignedPartitions: [{ topic: 't', partitions: [0] }], userData: null } as never);
    const valid = {
      version: () => wasm.version(),
      scenarios: () => wasm.scenarios(),
      consumerConfigKeys: () => wasm.consumerConfigKeys(),
      brokerConfigKeys: () => wasm.brokerConfigKeys(),
      apis: () => wasm.apis(),
      scenario: () => wasm.scenario('normal-join'),
      errorName: () => wasm.errorName(27),
      assign: () => wasm.assign('range', input as never),
      decodeSubscription: () => wasm.decodeSubscription(sub),
      decodeAssignment: () => wasm.decodeAssignment(asg),
      largeGroupScenario: () => wasm.largeGroupScenario(3, 2, 1000),
      serverAssign: () => wasm.serverAssign('uniform', serverInput as never),
      requestText: () =>
        wasm.requestText({ api: 'Heartbeat', apiVersion: 4, correlationId: 1, groupId: 'g', generationId: 1, memberId: 'm' } as never),
      shortIds: () => wasm.shortIds('c-088712be-8a58-4fca-bbff-7c596e26ce46'),
    };
    const expected = Object.fromEntries(Object.entries(valid).map(([k, f]) => [k, JSON.stringify(f())]));
    const calls: [string, (v: unknown) => unknown][] = [
      ['scenario(name)', (v) => wasm.scenario(v as never)],
      ['errorName(code)', (v) => wasm.errorName(v as never)],
      ['assign(strategy)', (v) => wasm.assign(v as never, input as never)],
      ['assign(input)', (v) => wasm.assign('cooperative-sticky', v as never)],
      ['encodeSubscription', (v) => wasm.encodeSubscription(v as never)],
      ['decodeSubscription', (v) => wasm.decodeSubscription(v as never)],
      ['encodeAssignment', (v) => wasm.encodeAssignment(v as never)],
      ['decodeAssignment', (v) => wasm.decodeAssignment(v as never)],
      ['largeGroupScenario(consumers)', (v) => wasm.largeGroupScenario(v as never, 2, 1000)],
      ['largeGroupScenario(partitionsPerConsumer)', (v) => wasm.largeGroupScenario(3, v as never, 1000)],
      ['largeGroupScenario(durationMs)', (v) => wasm.largeGroupScenario(3, 2, v as never)],
      ['serverAssign(name)', (v) => wasm.serverAssign(v as never, serverInput as never)],
      ['serverAssign(input)', (v) => wasm.serverAssign('range', v as never)],
      ['requestText(request)', (v) => wasm.requestText(v as never)],
      ['shortIds(text)', (v) => wasm.shortIds(v as never)],
    ];
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      for (const [name, call] of calls) {
        for (const v of values) {
          if (poke(`${name} with ${label(v)}`, () => call(v)) === 'refused') refused++;
          // Any export, valid, answers as before.
          const [k, f] = Object.entries(valid)[Math.floor(random() * Object.keys(valid).length)];
          expect(JSON.stringify(f()), `${k} after ${name}(${label(v)})`).toBe(expected[k]);
        }
      }
    }
    expect(refused).toBeGreaterThan(calls.length * values.length * 2);
  });

  it('the messages name the parameter and what it must be', () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
      return 'no error';
    };
    expect(message(() => wasm.scenario(0 as never))).toBe('TypeError: name must be a string, got a number (0)');
    expect(message(() => wasm.assign(-1 as never, {} as never))).toBe('TypeError: strategy must be a string, got a number (-1)');
    expect(message(() => wasm.decodeAssignment(null as never))).toBe('TypeError: base64 must be a base64 string, got null');
    expect(message(() => new Coordinator().describe(Symbol('x') as never))).toBe('TypeError: groupId must be a string, got a symbol');
    expect(message(() => new Coordinator().advance(10n as never))).toBe('TypeError: nowMs must be a number, got a BigInt');
    expect(message(() => new Coordinator().advance(-0.5))).toMatch(/^RangeError: nowMs must be a whole number of milliseconds/);
    expect(message(() => new Coordinator().handle(0, nested(100_000) as never))).toMatch(/^TypeError: request cannot be read as JSON/);
    expect(message(() => new Coordinator().handle(0, throwingGetter() as never))).toContain('getter says no');
    // The examples the issue named, one by one.
    expect(message(() => new Coordinator().unload(-1 as never))).toBe('TypeError: groupId must be a string, got a number (-1)');
    expect(message(() => new Coordinator().load({} as never))).toBe('TypeError: groupId must be a string, got an object');
    expect(message(() => wasm.decodeSubscription(0 as never))).toBe('TypeError: base64 must be a base64 string, got a number (0)');
    expect(message(() => new Coordinator().describe(undefined as never))).toBe('TypeError: groupId must be a string, got undefined');
    // Misused fault hooks: a RangeError naming the group.
    expect(message(() => new Coordinator().unload('nope'))).toMatch(/^RangeError: .*nope/);
    expect(message(() => new Coordinator().load('nope'))).toMatch(/^RangeError: .*nope/);
    const long = message(() => wasm.scenario(`a${HUGE.slice(0, 30000)}`));
    expect(long.length).toBeLessThan(700);
    expect(message(() => wasm.scenario(HUGE))).toMatch(/^RangeError: name is 1048576 characters long/);
    const request = message(() => new Coordinator().handle(0, { ...join(1), protocolType: HUGE } as never));
    expect(request.length).toBeLessThan(700);
  });

  it('Coordinator: every method refuses wrong values, and the object answers as its twin', () => {
    type C = InstanceType<typeof Coordinator>;
    const random = prng(11);
    const c = new Coordinator({ 'group.initial.rebalance.delay.ms': 0 });
    const twin = new Coordinator({ 'group.initial.rebalance.delay.ms': 0 });
    let id = 0;
    /** What a call answers: its result, or its error's kind and message. */
    const outcome = (f: () => unknown) => {
      try {
        return JSON.stringify(f());
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    };
    const both = (f: (x: C) => unknown, where: string) =>
      expect(
        outcome(() => f(c)),
        where,
      ).toBe(outcome(() => f(twin)));
    const step = (where: string) => {
      const now = c.now() + Math.floor(random() * 4000);
      const r = random();
      const corr = ++id;
      if (r < 0.3) both((x) => x.handle(now, join(corr) as never), where);
      else if (r < 0.5) both((x) => x.advance(now), where);
      else if (r < 0.6) both((x) => x.handle(now, { ...LEAVE, correlationId: corr } as never), where);
      else both((x) => [x.describe('g'), x.events(), x.nextDeadline(), x.now(), x.groupIds(), x.lastRecord('g')], where);
    };
    const values = hostileValues(() => c.describe('g'));
    const methods: [string, (x: C, v: unknown) => unknown][] = [
      ['handle(nowMs)', (x, v) => x.handle(v as never, join(id) as never)],
      ['handle(request)', (x, v) => x.handle(x.now(), v as never)],
      ['advance(nowMs)', (x, v) => x.advance(v as never)],
      ['describe(groupId)', (x, v) => x.describe(v as never)],
      ['unload(groupId)', (x, v) => x.unload(v as never)],
      ['load(groupId)', (x, v) => x.load(v as never)],
      ['lastRecord(groupId)', (x, v) => x.lastRecord(v as never)],
      ['failNextPersist(errorCode)', (x, v) => x.failNextPersist(v as never)],
      ['updateMetadata(nowMs)', (x, v) => x.updateMetadata(v as never, { topics: [{ name: 'orders', partitions: 6 }] } as never)],
      ['updateMetadata(update)', (x, v) => x.updateMetadata(x.now(), v as never)],
      [
        'handle(heartbeat)',
        (x, v) =>
          x.handle(x.now(), { api: 'ConsumerGroupHeartbeat', apiVersion: 0, groupId: 'cg', memberId: 'm', memberEpoch: v } as never),
      ],
    ];
    for (const v of hostileValues(() => 0)) {
      // The constructor refuses or builds; either way nothing leaks into the next one.
      const result = poke(`new Coordinator(${label(v)})`, () => new Coordinator(v as never)?.free());
      if (v === undefined || v === null) expect(result).toBe('accepted');
    }
    let accepted = 0;
    for (let round = 0; round < 3; round++) {
      for (const [name, call] of methods) {
        for (const v of values) {
          const where = `Coordinator.${name} with ${label(v)} at ${c.now()}`;
          step(where);
          const observe = () => JSON.stringify([c.describe('g'), c.describe('cg'), c.nextDeadline(), c.now(), c.groupIds(), c.topics()]);
          const before = observe();
          if (poke(where, () => call(c, v)) === 'refused') {
            expect(observe(), where).toBe(before);
          } else {
            // A value the method accepts after all: the twin gets it too, and they stay equal.
            accepted++;
            call(twin, v);
          }
          step(where);
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
    c.free();
    twin.free();
  });

  it('Simulation: every method refuses wrong values, and the object answers as its twin', () => {
    const random = prng(12);
    let sim = new Simulation(wasm.scenario('leave-while-stable'));
    let twin = new Simulation(wasm.scenario('leave-while-stable'));
    type S = InstanceType<typeof Simulation>;
    const values = hostileValues(() => sim.step());
    let target = 0;
    const methods: [string, (x: S, v: unknown) => unknown][] = [
      ['runUntil(tMs)', (x, v) => x.runUntil(v as never)],
      ['runUntil(maxEvents)', (x, v) => x.runUntil(target, v as never)],
      ['apply(action)', (x, v) => x.apply(v as never)],
      ['trace(fromIndex)', (x, v) => x.trace(v as never)],
      ['entries(fromIndex)', (x, v) => x.entries(v as never)],
      ['narration(index)', (x, v) => x.narration(v as never)],
    ];
    for (const v of hostileValues(() => 0)) {
      poke(`new Simulation(${label(v)})`, () => new Simulation(v as never).free());
    }
    const observe = (s: InstanceType<typeof Simulation>) => JSON.stringify([s.now(), s.traceLength(), s.traceHash(), s.nextEventTime()]);
    let accepted = 0;
    for (const [name, call] of methods) {
      for (const v of values) {
        for (let i = Math.floor(random() * 5); i > 0; i--) expect(sim.stepTime()).toBe(twin.stepTime());
        if (sim.traceLength() > 5000) {
          // A far-future runUntil was accepted: start a fresh pair, so that reading the whole
          // trace stays cheap.
          sim.free();
          twin.free();
          sim = new Simulation(wasm.scenario('leave-while-stable'));
          twin = new Simulation(wasm.scenario('leave-while-stable'));
        }
        const where = `Simulation.${name} with ${label(v)} at ${sim.now()}`;
        target = sim.now() + 1000;
        const before = observe(sim);
        if (poke(where, () => call(sim, v)) === 'refused') {
          expect(observe(sim), where).toBe(before);
        } else {
          // A value the method accepts after all: the twin gets it too, and they stay equal.
          accepted++;
          call(twin, v);
        }
        expect(observe(sim), where).toBe(observe(twin));
        expect(JSON.stringify(sim.snapshot()), where).toBe(JSON.stringify(twin.snapshot()));
      }
    }
    expect(accepted).toBeGreaterThan(0);
    sim.free();
    twin.free();
  });

  it('Player: every method refuses wrong values, and the object answers as its twin', () => {
    type P = InstanceType<typeof wasm.Player>;
    const random = prng(13);
    const make = () => new wasm.Player(wasm.scenario('leave-while-stable'));
    let player = make();
    let twin = make();
    const values = hostileValues(() => player.forward());
    let target = 0;
    const methods: [string, (x: P, v: unknown) => unknown][] = [
      ['seek(step)', (x, v) => x.seek(v as never)],
      ['act(action)', (x, v) => x.act(v as never)],
      ['entries(fromIndex)', (x, v) => x.entries(v as never)],
      ['narration(index)', (x, v) => x.narration(v as never)],
      ['forward(count)', (x, v) => x.forward(v as never)],
      ['forward(1, toEnd)', (x, v) => x.forward(1, v as never)],
      ['frame(request)', (x, v) => x.frame(v as never)],
      ['moments(from)', (x, v) => x.moments(v as never)],
      ['seekMoment(forward)', (x, v) => x.seekMoment(v as never)],
    ];
    for (const v of hostileValues(() => 0)) {
      poke(`new Player(${label(v)})`, () => new wasm.Player(v as never).free());
      poke(`new Player(scenario, ${label(v)})`, () => new wasm.Player(wasm.scenario('normal-join'), v as never).free());
    }
    const observe = (x: P) => JSON.stringify([x.cursor(), x.now(), x.traceHash(), x.pastEnd(), x.actions(), x.group()]);
    let accepted = 0;
    for (const [name, call] of methods) {
      for (const v of values) {
        if (player.cursor() > 5000) {
          player.free();
          twin.free();
          player = make();
          twin = make();
        }
        for (let i = Math.floor(random() * 5); i > 0; i--) expect(JSON.stringify(player.forward())).toBe(JSON.stringify(twin.forward()));
        // Now and then back in time, the same on both.
        if (random() < 0.2) {
          target = Math.floor(random() * player.cursor());
          expect(JSON.stringify(player.seek(target))).toBe(JSON.stringify(twin.seek(target)));
        }
        const where = `Player.${name} with ${label(v)} at step ${player.cursor()}`;
        const before = observe(player);
        if (poke(where, () => call(player, v)) === 'refused') {
          expect(observe(player), where).toBe(before);
        } else {
          accepted++;
          call(twin, v);
        }
        expect(observe(player), where).toBe(observe(twin));
      }
    }
    expect(accepted).toBeGreaterThan(0);
    player.free();
    twin.free();
  });

  it('oversized requests are answered or refused quickly', () => {
    const c = new Coordinator();
    const states = timed('ListGroups with 90,000 statesFilter entries', () =>
      c.handle(0, {
        api: 'ListGroups',
        apiVersion: 4,
        correlationId: 1,
        statesFilter: new Array(90_000).fill('Stable'),
      } as never),
    );
    expect(Array.isArray(states)).toBe(true);
    // 100,000 is past the model's bound on a request's items: refused quickly, naming it.
    expect(() =>
      c.handle(0, { api: 'ListGroups', apiVersion: 4, correlationId: 2, statesFilter: new Array(100_000).fill('Stable') } as never),
    ).toThrow(/request holds about 100004 array elements and object members; the limit is 100000/);
    poke('JoinGroup with a million protocols', () =>
      c.handle(0, {
        ...join(2),
        protocols: Array.from({ length: 1_000_000 }, (_, i) => ({ name: `p${i}`, metadata: '' })),
      } as never),
    );
    poke('DescribeGroups of a million groups', () =>
      c.handle(0, {
        api: 'DescribeGroups',
        apiVersion: 5,
        correlationId: 3,
        groups: new Array(1_000_000).fill('g'),
      } as never),
    );
    poke('assign with a topic of two billion partitions', () =>
      wasm.assign('range', {
        topics: { t: 2 ** 31 - 1 },
        members: [{ memberId: 'a', topics: ['t'] }],
      } as never),
    );
    c.free();
  });

  it('assignCompact and serverAssignCompact: typed arrays that lie about their length, Proxies and subclasses, in every typed-array field', () => {
    // The reproducer once wrote past the module's copy: later calls, even on another
    // object, trapped with "memory access out of bounds".
    const valid = () => ({
      topics: ['t'],
      partitions: Int32Array.of(3),
      members: ['m', 'n'],
      subscriptions: Int32Array.of(1, 0, 1, 0),
      owned: Int32Array.of(1, 0, 2, 0),
      generations: Int32Array.of(-1, -1),
    });
    // Both read their typed arrays with one reader; each is given every lie in each of its
    // typed-array fields, and the honest input's answer is what a lie that changes nothing gives.
    const apis: [string, (input: unknown) => Int32Array, string[]][] = [
      ['assignCompact', (i) => wasm.assignCompact('range', i as never), ['partitions', 'subscriptions', 'owned', 'generations']],
      ['serverAssignCompact', (i) => wasm.serverAssignCompact('range', i as never), ['partitions', 'subscriptions', 'owned']],
    ];
    const coordinator = new Coordinator();
    const before = JSON.stringify(coordinator.handle(0, join(1) as never));
    const lies: [string, (real: Int32Array) => unknown, 'same' | 'refused'][] = [
      ['a length getter, short then long', (r) => lying(Int32Array.from(r), (n) => (n <= 2 ? 1 : 4096)), 'same'],
      ['a length getter of a billion', (r) => lying(Int32Array.from(r), () => 1e9), 'same'],
      ['a length getter of -1', (r) => lying(Int32Array.from(r), () => -1), 'same'],
      [
        'a length getter that throws',
        (r) =>
          lying(Int32Array.from(r), () => {
            throw new Error('no');
          }),
        'same',
      ],
      [
        'a subclass with its own length',
        (r) => {
          class Lying extends Int32Array {
            override get length(): number {
              return 4096;
            }
          }
          return Lying.from(r);
        },
        'same',
      ],
      ['4,096 elements that say they are one', () => lying(new Int32Array(4096).fill(0x41414141), (n) => (n <= 2 ? 1 : 4096)), 'refused'],
      ['a Proxy of one', (r) => new Proxy(Int32Array.from(r), { get: (t, k) => (k === 'length' ? 4096 : Reflect.get(t, k)) }), 'refused'],
      [
        'a Proxy whose traps throw',
        (r) =>
          new Proxy(Int32Array.from(r), {
            get: () => {
              throw new Error('no');
            },
            getPrototypeOf: () => Int32Array.prototype,
          }),
        'refused',
      ],
      ['an object that inherits from Int32Array.prototype', (r) => lying(Object.create(Int32Array.prototype), () => r.length), 'refused'],
    ];
    const server = ({ generations: _, ...rest }: ReturnType<typeof valid>) => rest;
    for (const [api, call, fields] of apis) {
      const honest = () => (api === 'assignCompact' ? valid() : server(valid()));
      const expected = [...call(honest())];
      expect(expected.length, `${api} assigns the honest input`).toBe(8);
      if (api === 'assignCompact') expect(expected).toEqual([2, 0, 0, 0, 1, 1, 0, 2]);
      for (const field of fields) {
        for (const [what, make, outcome] of lies) {
          for (const slow of [false, true]) {
            const input: Record<string, unknown> = honest();
            input[field] = make(input[field] as Int32Array);
            // An array with a toJSON sends the whole input down the field-by-field path.
            if (slow) (input.members as unknown as { toJSON: () => string[] }).toJSON = () => ['m', 'n'];
            const where = `${api}, ${field}: ${what}${slow ? ' (field by field)' : ''}`;
            if (outcome === 'same') {
              expect([...timed(where, () => call(input))], where).toEqual(expected);
            } else {
              expect(
                poke(where, () => call(input)),
                where,
              ).toBe('refused');
            }
          }
        }
      }
      // The module is whole: the honest input gives the same assignment.
      expect([...call(honest())]).toEqual(expected);
    }
    // ... and another object the same answer.
    const twin = new Coordinator();
    expect(JSON.stringify(twin.handle(0, join(1) as never))).toBe(before);
    coordinator.free();
    twin.free();
  });

  it('runUntil a far-future time returns within its event budget and says how far it got', () => {
    const sim = new Simulation(wasm.largeGroupScenario(50, 2, 3_600_000));
    const reached = timed('runUntil(2**31)', () => sim.runUntil(2 ** 31));
    expect(reached).toBeLessThan(2 ** 31);
    expect(reached).toBe(sim.now());
    expect(sim.runUntil(sim.now(), 1)).toBe(reached);
    // Within the budget, the target itself is reached.
    const quiet = new Simulation(wasm.scenario('normal-join'));
    expect(quiet.runUntil(60_000)).toBe(60_000);
    expect(quiet.now()).toBe(60_000);
    sim.free();
    quiet.free();
    console.log(`slowest call: ${slowest.ms.toFixed(1)} ms (${slowest.where})`);
  });
});

/** `array` with an own `length` getter giving `length(n)` on the n-th read (1-based). */
function lying<T extends object>(array: T, length: (n: number) => number): T {
  let reads = 0;
  return Object.defineProperty(array, 'length', { get: () => length(++reads) });
}

function label(v: unknown): string {
  if (typeof v === 'string') return v.length > 20 ? `a ${v.length}-character string` : JSON.stringify(v);
  if (typeof v === 'symbol' || typeof v === 'bigint') return `${typeof v}`;
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v && typeof v === 'object') return 'an object';
  return String(Object.is(v, -0) ? '-0' : v);
}
