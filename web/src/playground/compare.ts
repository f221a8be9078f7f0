// Compare: the same scenario under several configurations, run to their end, side by side with
// the metrics PLAYGROUND.md names (rebalances, time partitions sat unowned, partitions moved,
// time to a stable group).

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { METRICS, type MetricKey, metricValue } from './metrics-text.ts';
import { applyDiff, parseSetting, type SettingsDiff } from './settings.ts';
import { t } from './text.ts';

export interface Column {
  label: string;
  scenario: Scenario;
  /** A link that opens this run in a playground of its own (absent for an imported scenario). */
  link?: string;
}

/** `key=value` lines (Kafka consumer property names) as a settings diff over a scenario's
 * consumer defaults; `group.instance.id=*` gives every consumer its own static id. */
export function settingsLines(base: Scenario, lines: string): SettingsDiff {
  const consumer: Record<string, number | string | boolean> = {};
  for (const raw of lines.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`"${line}" is not key=value`);
    const key = line.slice(0, eq).trim();
    consumer[key] = parseSetting(line.slice(eq + 1).trim());
  }
  const diff: SettingsDiff = { consumer };
  // Static membership needs a distinct group.instance.id per consumer.
  if (consumer['group.instance.id'] === '*') {
    delete consumer['group.instance.id'];
    diff.consumers = Object.fromEntries(base.consumers.map((c) => [c.name, { config: { 'group.instance.id': `instance-${c.name}` } }]));
  }
  return diff;
}

/** `over` applied on top of `under` (each group's keys merged, `over`'s winning). */
export function mergeDiffs(under: SettingsDiff, over: SettingsDiff): SettingsDiff {
  const merged: SettingsDiff = structuredClone(under);
  for (const group of ['broker', 'consumer', 'network', 'application'] as const) {
    if (over[group]) merged[group] = { ...(merged[group] ?? {}), ...over[group] } as never;
  }
  if (over.seed !== undefined) merged.seed = over.seed;
  for (const [name, d] of Object.entries(over.consumers ?? {})) {
    const held = ((merged.consumers ??= {})[name] ??= {});
    if (d.config) held.config = { ...(held.config ?? {}), ...d.config };
    if (d.network) held.network = { ...(held.network ?? {}), ...d.network };
  }
  return merged;
}

/** The application's timing the comparison runs with, from its fields. */
export const APP_FIELDS = ['revokeMsPerPartition', 'assignMsPerPartition', 'processingJitterMs'] as const;

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

export function compareTable(lang: Lang, columns: { label: string; link?: string; metrics: Metrics }[]): HTMLTableElement {
  // Each run opens in a playground of its own (a new tab: put two side by side to compare
  // their timelines step by step).
  const head = (c: { label: string; link?: string }) =>
    h(
      'th',
      { scope: 'col' },
      c.label,
      c.link
        ? h(
            'a',
            { class: 'open-run', href: c.link, target: '_blank', rel: 'noopener', title: t('openRunHelp', lang) },
            ` ${t('openRun', lang)} ↗`,
          )
        : '',
    );
  const table = h(
    'table',
    { id: 'compare-table' },
    h('caption', {}, t('compareCaption', lang)),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), ...columns.map(head))),
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
  /** The application's listener and poll timing, for every run compared: what a rebalance
   * costs a real application (eager pays the revoke for every partition, cooperative for the
   * partitions that move). */
  private readonly app: Record<(typeof APP_FIELDS)[number], HTMLInputElement> = {
    revokeMsPerPartition: h('input', { id: 'compare-revoke', type: 'number', min: '0', step: '1', value: '200' }),
    assignMsPerPartition: h('input', { id: 'compare-assign', type: 'number', min: '0', step: '1', value: '100' }),
    processingJitterMs: h('input', { id: 'compare-jitter', type: 'number', min: '0', step: '1', value: '30' }),
  };
  private readonly out = h('div', { id: 'compare-out', role: 'status' });

  constructor(
    private readonly deps: {
      factory: (s: Scenario) => Simulation;
      /** The scenario shown: its name, whether it is built in, and the settings changed. */
      current: () => { scenario: Scenario; builtIn: boolean; diff: SettingsDiff };
      builtIn: (name: string) => Scenario;
      /** A link opening `name` with `diff` in a playground of its own. */
      link: (name: string, diff: SettingsDiff) => string;
      lang: () => Lang;
    },
  ) {
    this.a.value = 'partition.assignment.strategy=range';
    this.b.value = 'partition.assignment.strategy=cooperative-sticky';
  }

  /** The application fields as a diff (refusing what is not a whole number of ms). */
  private application(): SettingsDiff {
    const application: Record<string, number> = {};
    for (const key of APP_FIELDS) {
      const text = this.app[key].value.trim();
      const ms = text === '' ? 0 : Number(text);
      if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`${key}: "${text}" is not a whole number of ms`);
      application[key] = ms;
    }
    return { application };
  }

  /** A column: a built-in scenario (or the current one) with `diff` over it. */
  private column(label: string, name: string | null, diff: SettingsDiff): Column {
    const full = mergeDiffs(diff, this.application());
    if (name !== null) {
      return { label, scenario: applyDiff(this.deps.builtIn(name), full), link: this.deps.link(name, full) };
    }
    const current = this.deps.current();
    const over = mergeDiffs(current.diff, full);
    if (!current.builtIn) return { label, scenario: applyDiff(current.scenario, full) };
    const base = this.deps.builtIn(current.scenario.name);
    return { label, scenario: applyDiff(base, over), link: this.deps.link(current.scenario.name, over) };
  }

  render(): void {
    const lang = this.deps.lang();
    const runBoth = h('button', { type: 'button', id: 'compare-run' }, t('compareRunBoth', lang));
    runBoth.addEventListener('click', () =>
      this.run(() => {
        const base = this.deps.current().scenario;
        return [this.column('A', null, settingsLines(base, this.a.value)), this.column('B', null, settingsLines(base, this.b.value))];
      }),
    );
    const preset = h('button', { type: 'button', id: 'compare-rolling' }, t('compareRolling', lang));
    preset.addEventListener('click', () =>
      this.run(() => [
        this.column('eager (range)', 'rolling-restart-eager', {}),
        this.column('cooperative-sticky', 'rolling-restart-cooperative', {}),
        this.column(t('staticMembership', lang), 'rolling-restart-static', {}),
        // The consumer protocol (KIP-848) on the eager run's consumers and script.
        this.column(t('consumerProtocol', lang), 'rolling-restart-eager', { consumer: { 'group.protocol': 'consumer' } }),
        this.column(
          `${t('consumerProtocol', lang)}, ${t('staticMembership', lang)}`,
          'rolling-restart-eager',
          settingsLines(this.deps.builtIn('rolling-restart-eager'), 'group.protocol=consumer\ngroup.instance.id=*'),
        ),
      ]),
    );
    const upgrade = h('button', { type: 'button', id: 'compare-upgrade' }, t('compareUpgrade', lang));
    upgrade.addEventListener('click', () =>
      this.run(() => [
        this.column('cooperative-sticky', 'rolling-restart-cooperative', {}),
        this.column(t('upgradeColumn', lang), 'rolling-upgrade-to-consumer-protocol', {}),
        // The same restarts once every member speaks the consumer protocol.
        this.column(t('consumerProtocol', lang), 'rolling-restart-cooperative', { consumer: { 'group.protocol': 'consumer' } }),
      ]),
    );
    this.a.setAttribute('aria-label', t('compareA', lang));
    this.b.setAttribute('aria-label', t('compareB', lang));
    const appField = (key: (typeof APP_FIELDS)[number], label: 'appRevoke' | 'appAssign' | 'appJitter') =>
      h('label', { class: 'app-field' }, h('span', {}, t(label, lang)), this.app[key], h('span', { class: 'muted' }, t('msUnit', lang)));
    replaceChildren(
      this.root,
      h('summary', {}, h('h2', { class: 'inline' }, t('compare', lang))),
      h('p', { class: 'muted' }, t('compareHint', lang)),
      h('div', { class: 'compare-inputs' }, h('label', {}, 'A', this.a), h('label', {}, 'B', this.b)),
      h(
        'fieldset',
        { class: 'compare-app', id: 'compare-app' },
        h('legend', {}, t('compareApp', lang)),
        appField('revokeMsPerPartition', 'appRevoke'),
        appField('assignMsPerPartition', 'appAssign'),
        appField('processingJitterMs', 'appJitter'),
        h('p', { class: 'muted' }, t('compareAppHint', lang)),
      ),
      h('div', { class: 'row' }, runBoth, preset, upgrade),
      this.out,
    );
  }

  private run(columns: () => Column[]): void {
    const lang = this.deps.lang();
    try {
      const cols = columns();
      const results = cols.map((c) => ({ label: c.label, link: c.link, metrics: runToEnd(this.deps.factory, c.scenario) }));
      replaceChildren(this.out, compareTable(lang, results));
    } catch (err) {
      replaceChildren(this.out, h('p', { class: 'error' }, (err as Error).message));
    }
  }
}
