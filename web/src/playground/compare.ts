// Compare: the same scenario under several configurations, run to their end, side by side with
// the metrics PLAYGROUND.md names (rebalances, time partitions sat unowned, partitions moved,
// time to a stable group).

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { parseSetting } from './settings.ts';

export interface Column { label: string; scenario: Scenario }

/** `key=value` lines (Kafka consumer property names) over a scenario's consumer defaults. */
export function withSettings(base: Scenario, lines: string, label: string): Column {
  const consumer: Record<string, number | string | boolean> = { ...(base.consumer ?? {}) };
  for (const raw of lines.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`"${line}" is not key=value`);
    const key = line.slice(0, eq).trim();
    consumer[key] = parseSetting(line.slice(eq + 1).trim());
  }
  // Static membership needs a distinct group.instance.id per consumer.
  const consumers = base.consumers.map((c) => (consumer['group.instance.id'] === '*'
    ? { ...c, config: { ...(c.config ?? {}), 'group.instance.id': `instance-${c.name}` } } : c));
  if (consumer['group.instance.id'] === '*') delete consumer['group.instance.id'];
  return { label, scenario: { ...base, consumer, consumers } };
}

export function runToEnd(factory: (s: Scenario) => Simulation, scenario: Scenario): Metrics {
  const sim = factory(scenario);
  try {
    sim.runUntil(scenario.durationMs ?? 60_000);
    return sim.metrics();
  } finally {
    sim.free();
  }
}

const ROWS: [keyof Metrics, string, string, 'ms' | ''][] = [
  ['rebalances', 'Rebalances', '再平衡次数', ''],
  ['generations', 'Generations', '代数', ''],
  ['partitionsMoved', 'Partitions moved', '移动的分区', ''],
  ['unownedPartitionMs', 'Partition-time unowned', '分区无人消费时间', 'ms'],
  ['maxUnownedPartitionMs', 'Longest a partition sat unowned', '单个分区最长无人消费', 'ms'],
  ['unsettledMs', 'Time not stable (after first stable)', '首次稳定后不稳定的时间', 'ms'],
  ['settledSinceMs', 'Stable since', '稳定自', 'ms'],
  ['overlapPartitionMs', 'Partition-time with two owners', '分区双重归属时间', 'ms'],
  ['messagesSent', 'Messages', '消息数', ''],
  ['invariantViolations', 'Invariant violations', '不变式违例', ''],
];

export function compareTable(lang: Lang, columns: { label: string; metrics: Metrics }[]): HTMLTableElement {
  const table = h('table', { id: 'compare-table' },
    h('caption', {}, lang === 'en' ? 'Metrics at the end of each run' : '各次运行结束时的指标'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), ...columns.map((c) => h('th', { scope: 'col' }, c.label)))));
  const body = h('tbody');
  for (const [key, en, zh, unit] of ROWS) {
    const values = columns.map((c) => c.metrics[key] as number | boolean | null);
    const numbers = values.filter((v): v is number => typeof v === 'number');
    const best = numbers.length ? Math.min(...numbers) : null;
    body.append(h('tr', { 'data-metric': key }, h('th', { scope: 'row' }, lang === 'en' ? en : zh),
      ...values.map((v) => h('td', { class: typeof v === 'number' && v === best && numbers.length > 1 && key !== 'settledSinceMs' ? 'best' : undefined },
        v === null ? '—' : `${v}${unit && typeof v === 'number' ? ' ms' : ''}`))));
  }
  table.append(body);
  return table;
}

export class CompareView {
  readonly root = h('details', { class: 'panel compare', id: 'compare' });
  private readonly a = h('textarea', { id: 'compare-a', rows: '3', spellcheck: 'false', 'aria-label': 'Configuration A' });
  private readonly b = h('textarea', { id: 'compare-b', rows: '3', spellcheck: 'false', 'aria-label': 'Configuration B' },);
  private readonly out = h('div', { id: 'compare-out', role: 'status' });

  constructor(private readonly deps: {
    factory: (s: Scenario) => Simulation;
    current: () => Scenario;
    builtIn: (name: string) => Scenario;
    lang: () => Lang;
  }) {
    this.a.value = 'partition.assignment.strategy=range';
    this.b.value = 'partition.assignment.strategy=cooperative-sticky';
  }

  render(): void {
    const lang = this.deps.lang();
    const en = lang === 'en';
    const runBoth = h('button', { type: 'button', id: 'compare-run' }, en ? 'Run both to the end' : '两种配置都运行到结束');
    runBoth.addEventListener('click', () => this.run(() => {
      const base = this.deps.current();
      return [withSettings(base, this.a.value, 'A'), withSettings(base, this.b.value, 'B')];
    }));
    const preset = h('button', { type: 'button', id: 'compare-rolling' },
      en ? 'Rolling restart: eager · cooperative-sticky · static' : '滚动重启：eager · cooperative-sticky · 静态成员');
    preset.addEventListener('click', () => this.run(() => [
      { label: 'eager (range)', scenario: this.deps.builtIn('rolling-restart-eager') },
      { label: 'cooperative-sticky', scenario: this.deps.builtIn('rolling-restart-cooperative') },
      { label: en ? 'static membership' : '静态成员', scenario: this.deps.builtIn('rolling-restart-static') },
    ]));
    replaceChildren(this.root,
      h('summary', {}, h('h2', { class: 'inline' }, en ? 'Compare configurations' : '比较配置')),
      h('p', { class: 'muted' }, en
        ? 'The current scenario with consumer settings A and B (Kafka property names, key=value per line; group.instance.id=* gives every consumer its own static id), each run to its end.'
        : '当前场景分别使用消费者配置 A 和 B（Kafka 属性名，每行 key=value；group.instance.id=* 为每个消费者设置各自的静态 id），各自运行到结束。'),
      h('div', { class: 'compare-inputs' }, h('label', {}, 'A', this.a), h('label', {}, 'B', this.b)),
      h('div', { class: 'row' }, runBoth, preset),
      this.out);
  }

  private run(columns: () => Column[]): void {
    const lang = this.deps.lang();
    try {
      const results = columns().map((c) => ({ label: c.label, metrics: runToEnd(this.deps.factory, c.scenario) }));
      replaceChildren(this.out, compareTable(lang, results));
    } catch (err) {
      replaceChildren(this.out, h('p', { class: 'error' }, (err as Error).message));
    }
  }
}
