// What a change would cost a real group: the scenario `importGroup` read from a group's
// description, restarted member by member in the order and at the pace the reader sets, under
// the group's own settings and under the alternatives an operator weighs (the cooperative
// assignor, static membership, the consumer protocol, the rolling upgrade to it).

import type { Scenario, Settings } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';

/** The order the members restart in: as the description lists them, the other way round, or
 * shuffled (the same shuffle every time: the runs stay reproducible). */
export type RestartOrder = 'listed' | 'reversed' | 'shuffled';

export interface RestartPlan {
  order: RestartOrder;
  /** From one member's restart to the next's. */
  gapMs: number;
  /** How long a member is down (closed to started again). */
  downMs: number;
}

/** When the first restart comes: the group has joined and settled by then (the initial
 * rebalance delay, the joins, the first assignment). */
export const FIRST_RESTART_MS = 30_000;
/** How long a run goes on after the last member is back: a session timeout (a static member
 * that does not come back is only removed then) and the rebalance that follows. */
export const TAIL_MS = 60_000;

/** The members' names in restart order. */
export function restartOrder(names: string[], order: RestartOrder): string[] {
  if (order === 'listed') return [...names];
  if (order === 'reversed') return [...names].reverse();
  // Fisher–Yates with a fixed linear congruential sequence.
  const out = [...names];
  let x = 20_261_204;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** `base` with its members restarted one after another; with `upgrade`, each switches to the
 * consumer protocol just before its restart (the rolling upgrade). */
export function rollingRestart(base: Scenario, plan: RestartPlan, upgrade = false): Scenario {
  const s = structuredClone(base);
  const names = restartOrder(
    s.consumers.map((c) => c.name),
    plan.order,
  );
  s.script = names.flatMap((consumer, i) => {
    const atMs = FIRST_RESTART_MS + i * plan.gapMs;
    const restart = { atMs, action: { type: 'restart' as const, consumer, downMs: plan.downMs } };
    if (!upgrade) return [restart];
    const config: Settings = { 'group.protocol': 'consumer' };
    return [{ atMs: atMs - 1, action: { type: 'setConfig' as const, consumer, config } }, restart];
  });
  s.durationMs = FIRST_RESTART_MS + (names.length - 1) * plan.gapMs + plan.downMs + TAIL_MS;
  return s;
}

/** The classic consumer settings the consumer protocol has no use for (the Java client refuses
 * them with `group.protocol=consumer`; the broker's group.consumer.* settings take their place). */
const CLASSIC_ONLY = ['partition.assignment.strategy', 'session.timeout.ms', 'heartbeat.interval.ms'];

function onConsumerProtocol(base: Scenario): Scenario {
  const s = structuredClone(base);
  const consumer = { ...(s.consumer ?? {}) };
  for (const key of CLASSIC_ONLY) delete consumer[key];
  consumer['group.protocol'] = 'consumer';
  s.consumer = consumer;
  for (const c of s.consumers) {
    if (c.config) delete c.config['group.protocol'];
  }
  return s;
}

function onClassic(base: Scenario, strategy: string): Scenario {
  const s = structuredClone(base);
  const consumer = { ...(s.consumer ?? {}) };
  delete consumer['group.protocol'];
  delete consumer['group.remote.assignor'];
  consumer['partition.assignment.strategy'] = strategy;
  s.consumer = consumer;
  for (const c of s.consumers) {
    if (c.config) delete c.config['group.protocol'];
  }
  return s;
}

/** Every member its own group.instance.id (the ones it had kept). */
function withStaticIds(base: Scenario): Scenario {
  const s = structuredClone(base);
  for (const c of s.consumers) {
    c.config = { ...(c.config ?? {}) };
    if (typeof c.config['group.instance.id'] !== 'string') c.config['group.instance.id'] = `instance-${c.name}`;
  }
  return s;
}

export type WhatIfKey = 'asDescribed' | 'cooperative' | 'eager' | 'static' | 'consumer' | 'upgrade' | 'classic';

export interface WhatIf {
  key: WhatIfKey;
  scenario: Scenario;
}

/** Whether the imported group speaks the consumer protocol. */
export function isConsumerGroup(s: Scenario): boolean {
  return s.consumer?.['group.protocol'] === 'consumer';
}

/** The options compared for an imported group, each restarted by `plan`: the group as
 * described, then what an operator would weigh against it. A classic group: the other
 * rebalance protocol (cooperative-sticky, or eager range for a cooperative group), static
 * membership, the consumer protocol, and the rolling upgrade to it. A consumer group: static
 * membership and the classic protocol with cooperative-sticky. */
export function whatIfs(base: Scenario, plan: RestartPlan): WhatIf[] {
  const roll = (s: Scenario, upgrade = false) => rollingRestart(s, plan, upgrade);
  if (isConsumerGroup(base)) {
    return [
      { key: 'asDescribed', scenario: roll(base) },
      { key: 'static', scenario: roll(withStaticIds(base)) },
      { key: 'classic', scenario: roll(onClassic(base, 'cooperative-sticky')) },
    ];
  }
  const strategy = base.consumer?.['partition.assignment.strategy'];
  const cooperative = strategy === 'cooperative-sticky';
  return [
    { key: 'asDescribed', scenario: roll(base) },
    cooperative
      ? { key: 'eager', scenario: roll(onClassic(base, 'range')) }
      : { key: 'cooperative', scenario: roll(onClassic(base, 'cooperative-sticky')) },
    { key: 'static', scenario: roll(withStaticIds(base)) },
    { key: 'consumer', scenario: roll(onConsumerProtocol(base)) },
    { key: 'upgrade', scenario: roll(base, true) },
  ];
}

/** The columns' names. */
export const WHAT_IF_LABELS: Record<WhatIfKey, Record<Lang, string>> = {
  asDescribed: { en: 'As described', zh: '按描述' },
  cooperative: { en: 'cooperative-sticky', zh: 'cooperative-sticky' },
  eager: { en: 'eager (range)', zh: 'eager（range）' },
  static: { en: 'Static membership', zh: '静态成员' },
  consumer: { en: 'Consumer protocol', zh: 'consumer 协议' },
  upgrade: { en: 'Rolling upgrade to the consumer protocol', zh: '滚动升级到 consumer 协议' },
  classic: { en: 'Classic, cooperative-sticky', zh: '经典协议，cooperative-sticky' },
};

/** A setting the description did not carry, as the panel edits it: where it lives in the
 * scenario and its value there. */
export interface Assumed {
  key: string;
  value: number;
}

/** The assumed settings' values in `s` (`consumer.<key>`, `broker.<key>`, `processingMs`). */
export function assumedValues(s: Scenario): Assumed[] {
  return (s.imported?.assumed ?? []).map((key) => {
    let value: unknown;
    if (key === 'processingMs') value = s.consumers[0]?.processingMs ?? 100;
    else if (key.startsWith('consumer.')) value = s.consumer?.[key.slice('consumer.'.length)];
    else if (key.startsWith('broker.')) value = s.broker?.[key.slice('broker.'.length)];
    return { key, value: typeof value === 'number' ? value : Number(value) };
  });
}

/** `s` with the assumed settings given new values. */
export function withAssumed(s: Scenario, values: Assumed[]): Scenario {
  const out = structuredClone(s);
  for (const { key, value } of values) {
    if (key === 'processingMs') for (const c of out.consumers) c.processingMs = value;
    else if (key.startsWith('consumer.')) out.consumer = { ...(out.consumer ?? {}), [key.slice('consumer.'.length)]: value };
    else if (key.startsWith('broker.')) out.broker = { ...(out.broker ?? {}), [key.slice('broker.'.length)]: value };
  }
  return out;
}
