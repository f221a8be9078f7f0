// Compare: the same scenario under several configurations, run to their end, side by side with
// the metrics PLAYGROUND.md names (rebalances, time partitions sat unowned, partitions moved,
// time to a stable group).

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { METRICS, type MetricKey, metricValue } from './metrics-text.ts';
import { parseSetting } from './settings.ts';
import { t } from './text.ts';

export interface Column {
  label: string;
  scenario: Scenario;
}

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
  const consumers = base.consumers.map((c) =>
    consumer['group.instance.id'] === '*' ? { ...c, config: { ...(c.config ?? {}), 'group.instance.id': `instance-${c.name}` } } : c,
  );
  if (consumer['group.instance.id'] === '*') delete consumer['group.instance.id'];
  return { label, scenario: { ...base, consumer, consumers } };
}

/** Runs a scenario to its end in one bounded call (`runUntil` processes at most its event
 * budget, so a long or busy scenario cannot freeze the page); throws, naming how far it got,
 * if the end is further than that. */
export function runToEnd(factory: (s: Scenario) => Simulation, scenario: Scenario): Metrics {
  const sim = factory(scenario);
  try {
    const end = scenario.durationMs ?? 60_000;
    const reached = sim.runUntil(end);
    if (reached < end) {
      throw new RangeError(
        `"${scenario.name}" reached only ${reached} ms of its ${end} ms within one run's event budget: shorten durationMs to compare it`,
      );
    }
    return sim.metrics();
  } finally {
    sim.free();
  }
}

/** The metrics compared, in this order (names, explanations and units from METRICS). */
const ROWS: MetricKey[] = [
  'rebalances',
  'generations',
  'partitionsMoved',
  'unownedPartitionMs',
  'maxUnownedPartitionMs',
  'unsettledMs',
  'settledSinceMs',
  'overlapPartitionMs',
  'messagesSent',
  'invariantViolations',
];

export function compareTable(lang: Lang, columns: { label: string; metrics: Metrics }[]): HTMLTableElement {
  const table = h(
    'table',
    { id: 'compare-table' },
    h('caption', {}, t('compareCaption', lang)),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), ...columns.map((c) => h('th', { scope: 'col' }, c.label)))),
  );
  const body = h('tbody');
  for (const key of ROWS) {
    const values = columns.map((c) => c.metrics[key] as number | null);
    const numbers = values.filter((v): v is number => typeof v === 'number');
    const best = numbers.length ? Math.min(...numbers) : null;
    const { name, doc, ms } = METRICS[key];
    body.append(
      h(
        'tr',
        { 'data-metric': key },
        h('th', { scope: 'row' }, name[lang], h('div', { class: 'metric-doc muted' }, doc[lang])),
        ...values.map((v) =>
          h(
            'td',
            {
              class: typeof v === 'number' && v === best && numbers.length > 1 && key !== 'settledSinceMs' ? 'best' : undefined,
              title: ms && typeof v === 'number' ? `${v} ms` : undefined,
            },
            metricValue(key, v, lang),
          ),
        ),
      ),
    );
  }
  table.append(body);
  return table;
}

export class CompareView {
  readonly root = h('details', { class: 'panel compare', id: 'compare' });
  private readonly a = h('textarea', { id: 'compare-a', rows: '3', spellcheck: 'false', 'aria-label': t('compareA', 'en') });
  private readonly b = h('textarea', { id: 'compare-b', rows: '3', spellcheck: 'false', 'aria-label': t('compareB', 'en') });
  private readonly out = h('div', { id: 'compare-out', role: 'status' });

  constructor(
    private readonly deps: {
      factory: (s: Scenario) => Simulation;
      current: () => Scenario;
      builtIn: (name: string) => Scenario;
      lang: () => Lang;
    },
  ) {
    this.a.value = 'partition.assignment.strategy=range';
    this.b.value = 'partition.assignment.strategy=cooperative-sticky';
  }

  render(): void {
    const lang = this.deps.lang();
    const runBoth = h('button', { type: 'button', id: 'compare-run' }, t('compareRunBoth', lang));
    runBoth.addEventListener('click', () =>
      this.run(() => {
        const base = this.deps.current();
        return [withSettings(base, this.a.value, 'A'), withSettings(base, this.b.value, 'B')];
      }),
    );
    const preset = h('button', { type: 'button', id: 'compare-rolling' }, t('compareRolling', lang));
    preset.addEventListener('click', () =>
      this.run(() => [
        { label: 'eager (range)', scenario: this.deps.builtIn('rolling-restart-eager') },
        { label: 'cooperative-sticky', scenario: this.deps.builtIn('rolling-restart-cooperative') },
        { label: t('staticMembership', lang), scenario: this.deps.builtIn('rolling-restart-static') },
      ]),
    );
    this.a.setAttribute('aria-label', t('compareA', lang));
    this.b.setAttribute('aria-label', t('compareB', lang));
    replaceChildren(
      this.root,
      h('summary', {}, h('h2', { class: 'inline' }, t('compare', lang))),
      h('p', { class: 'muted' }, t('compareHint', lang)),
      h('div', { class: 'compare-inputs' }, h('label', {}, 'A', this.a), h('label', {}, 'B', this.b)),
      h('div', { class: 'row' }, runBoth, preset),
      this.out,
    );
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
