// Compare: the same scenario under several configurations, run to their end, side by side with
// the metrics PLAYGROUND.md names (rebalances, time partitions sat unowned, partitions moved,
// time to a stable group).

import { html, render, type TemplateResult } from 'lit-html';
import { ifDefined } from 'lit-html/directives/if-defined.js';
import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { duration } from '../common/duration.ts';
import type { Lang } from '../common/i18n.ts';
import { type CompareHandle, type CompareJob, runJobs } from './compare-pool.ts';
import { element } from './element.ts';
import { METRICS, type MetricKey, metricValue } from './metrics-text.ts';
import { COMPARE_APPLICATION, runToEnd } from './runs.ts';
import { applyDiff, parseSetting, type SettingsDiff } from './settings.ts';
import { t } from './text.ts';

export { runToEnd };

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

/** One column's results: every seed's metrics, and the protocol its consumers speak. */
export interface ColumnResult {
  label: string;
  link?: string;
  /** One per seed run. */
  runs: Metrics[];
  /** `consumer`: every member speaks the consumer protocol; `mixed`: some switch to it. */
  protocol: 'classic' | 'consumer' | 'mixed';
}

/** The middle value of `values` (the lower middle of an even count: a run that happened). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function compareTable(lang: Lang, columns: ColumnResult[], prefix = 'compare'): TemplateResult {
  // Each run opens in a playground of its own (a new tab: put two side by side to compare
  // their timelines step by step).
  const head = (c: ColumnResult) =>
    html`<th scope="col">${c.label}${
      c.link
        ? html`<a class="open-run" href=${c.link} target="_blank" rel="noopener" title=${t('openRunHelp', lang)}> ${t('openRun', lang)} ↗</a>`
        : ''
    }</th>`;
  const seeds = Math.max(...columns.map((c) => c.runs.length));
  const rows = ROWS.map((key) => {
    const per = columns.map((c) => c.runs.map((m) => m[key] as number | null).filter((v): v is number => typeof v === 'number'));
    const medians = per.map((vs) => (vs.length ? median(vs) : null));
    const numbers = medians.filter((v): v is number => v !== null);
    const best = numbers.length ? Math.min(...numbers) : null;
    const { name, doc, ms } = METRICS[key];
    // The consumer protocol has no PreparingRebalance: what it counts are group epochs.
    const epochs = key === 'rebalances' && columns.some((c) => c.protocol !== 'classic');
    const cells = medians.map((v, i) => {
      const vs = per[i];
      const lo = vs.length ? Math.min(...vs) : null;
      const hi = vs.length ? Math.max(...vs) : null;
      const spread = lo !== null && hi !== null && lo !== hi ? `${metricValue(key, lo, lang)} – ${metricValue(key, hi, lang)}` : '';
      const isBest = v !== null && v === best && numbers.length > 1 && key !== 'settledSinceMs';
      const value = `${metricValue(key, v, lang)}${epochs && columns[i].protocol !== 'classic' ? ' †' : ''}`;
      return html`<td class=${ifDefined(isBest ? 'best' : undefined)} title=${ifDefined(ms && v !== null ? `${v} ms` : undefined)}><span class="value">${value}</span>${
        spread ? html`<div class="spread muted">${spread}</div>` : ''
      }</td>`;
    });
    return html`<tr data-metric=${key}><th scope="row">${name[lang]}${
      epochs ? html`<div class="metric-doc" id=${`${prefix}-epochs`}>${t('compareEpochs', lang)}</div>` : ''
    }<div class="metric-doc muted">${doc[lang]}</div></th>${cells}</tr>`;
  });
  const caption = seeds > 1 ? t('compareCaptionSeeds', lang).replace('{n}', String(seeds)) : t('compareCaption', lang);
  return html`<table id=${`${prefix}-table`}><caption>${caption}</caption><thead><tr><th scope="col"></th>${columns.map(head)}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A rolling restart of `consumers` consumers on `partitions` partitions, one restart every
 * `gapMs`: the scenario `base` (a rolling restart or upgrade of four) with its first consumer's
 * settings for all, its first consumer's script (the restart, and a protocol switch before it)
 * for each in turn, and the same tail after the last. */
export function reshape(base: Scenario, consumers: number, partitions: number, gapMs: number): Scenario {
  const s = structuredClone(base);
  const topic = Object.keys(s.topics)[0];
  if (topic !== undefined) s.topics = { [topic]: partitions };
  const template = base.consumers[0];
  const name = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `C${i + 1}`);
  s.consumers = Array.from({ length: consumers }, (_, i) => {
    const c = structuredClone(template);
    c.name = name(i);
    c.startMs = i * 700;
    if (c.config && 'group.instance.id' in c.config) c.config['group.instance.id'] = `instance-${c.name}`;
    return c;
  });
  const script = base.script ?? [];
  const first = script.find((st) => st.action && 'consumer' in st.action)?.atMs ?? 20_000;
  const firstName = template.name;
  const own = script.filter((st) => st.action && 'consumer' in st.action && st.action.consumer === firstName);
  const last = script.length ? script[script.length - 1].atMs : first;
  const tail = Math.max(0, (base.durationMs ?? last + 30_000) - last);
  s.script = [];
  for (let i = 0; i < consumers; i++) {
    for (const st of own) {
      const action = structuredClone(st.action) as NonNullable<typeof st.action> & { consumer: string };
      action.consumer = name(i);
      s.script.push({ ...st, atMs: st.atMs + i * gapMs, action, narrate: null });
    }
  }
  const lastNew = s.script.reduce((m, st) => Math.max(m, st.atMs), first);
  s.durationMs = lastNew + tail;
  return s;
}

/** Whether a scenario's consumers speak the consumer protocol: all, some (a script switches
 * them), or none. */
export function protocolOf(s: Scenario): ColumnResult['protocol'] {
  if (s.consumer?.['group.protocol'] === 'consumer') return 'consumer';
  const switches = (s.script ?? []).some((st) => st.action?.type === 'setConfig' && st.action.config?.['group.protocol'] === 'consumer');
  return switches ? 'mixed' : 'classic';
}

export class CompareView {
  readonly root = element<HTMLDetailsElement>(html`<details class="panel compare" id="compare"></details>`);
  private readonly a = element<HTMLTextAreaElement>(html`<textarea id="compare-a" rows="3" spellcheck="false"></textarea>`);
  private readonly b = element<HTMLTextAreaElement>(html`<textarea id="compare-b" rows="3" spellcheck="false"></textarea>`);
  /** The application's listener and poll timing, for every run compared: what a rebalance
   * costs a real application (eager pays the revoke for every partition, cooperative for the
   * partitions that move). */
  private readonly app: Record<(typeof APP_FIELDS)[number], HTMLInputElement> = {
    revokeMsPerPartition: numberField('compare-revoke', 0, null, 1, COMPARE_APPLICATION.revokeMsPerPartition),
    assignMsPerPartition: numberField('compare-assign', 0, null, 1, COMPARE_APPLICATION.assignMsPerPartition),
    processingJitterMs: numberField('compare-jitter', 0, null, 1, COMPARE_APPLICATION.processingJitterMs),
  };
  private readonly out = element<HTMLDivElement>(html`<div id="compare-out" role="status"></div>`);

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
  application(): SettingsDiff {
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

  /** The rolling restarts' setup, which the reader may change: consumers, partitions, the gap
   * between restarts, and how many seeds each column runs. */
  private readonly setup = {
    consumers: numberField('compare-consumers', 1, 200, 1, 4),
    partitions: numberField('compare-partitions', 1, 10_000, 1, 12),
    gapMs: numberField('compare-gap', 1000, 600_000, 1000, 20_000),
    seeds: numberField('compare-seeds', 1, 20, 1, 5),
  };
  /** The comparison under way, which a new one stops. */
  private handle: CompareHandle | null = null;

  /** The setup fields, each a whole number within its bounds (or why not). */
  private readSetup(): { consumers: number; partitions: number; gapMs: number; seeds: number } {
    const read = (key: keyof typeof this.setup) => {
      const field = this.setup[key];
      const n = Number(field.value);
      const [lo, hi] = [Number(field.min), Number(field.max)];
      if (!Number.isSafeInteger(n) || n < lo || n > hi)
        throw new Error(`${key}: "${field.value}" is not a whole number from ${lo} to ${hi}`);
      return n;
    };
    return { consumers: read('consumers'), partitions: read('partitions'), gapMs: read('gapMs'), seeds: read('seeds') };
  }

  /** A preset's column: the built-in rolling scenario `name` reshaped to the setup, with `diff`. */
  private rolling(label: string, name: string, diff: SettingsDiff, staticIds = false): Column {
    const { consumers, partitions, gapMs } = this.readSetup();
    const shaped = reshape(this.deps.builtIn(name), consumers, partitions, gapMs);
    // (Static membership: every consumer its own group.instance.id, as `group.instance.id=*`.)
    const ids = staticIds ? settingsLines(shaped, 'group.instance.id=*') : {};
    const full = mergeDiffs(mergeDiffs(diff, ids), this.application());
    const scenario = applyDiff(shaped, full);
    // (A link can hold the built-in run only: the reshaped one opens as it was built in.)
    const builtInShape = consumers === 4 && partitions === 12 && gapMs === 20_000;
    return { label, scenario, link: builtInShape ? this.deps.link(name, full) : undefined };
  }

  render(): void {
    const lang = this.deps.lang();
    const runBoth = () =>
      this.run(() => {
        const base = this.deps.current().scenario;
        return [this.column('A', null, settingsLines(base, this.a.value)), this.column('B', null, settingsLines(base, this.b.value))];
      });
    // Each preset's button lists the columns it makes, in their own words.
    const rollingColumns = (): Column[] => [
      this.rolling('eager (range)', 'rolling-restart-eager', {}),
      this.rolling('cooperative-sticky', 'rolling-restart-cooperative', {}),
      this.rolling(t('staticMembership', lang), 'rolling-restart-static', {}),
      // The consumer protocol (KIP-848) on the eager run's consumers and script.
      this.rolling(t('consumerProtocol', lang), 'rolling-restart-eager', { consumer: { 'group.protocol': 'consumer' } }),
      this.rolling(
        `${t('consumerProtocol', lang)}, ${t('staticMembership', lang)}`,
        'rolling-restart-eager',
        { consumer: { 'group.protocol': 'consumer' } },
        true,
      ),
    ];
    const upgradeColumns = (): Column[] => [
      this.rolling('cooperative-sticky', 'rolling-restart-cooperative', {}),
      this.rolling(t('upgradeColumn', lang), 'rolling-upgrade-to-consumer-protocol', {}),
      // The same restarts once every member speaks the consumer protocol.
      this.rolling(t('consumerProtocol', lang), 'rolling-restart-cooperative', { consumer: { 'group.protocol': 'consumer' } }),
    ];
    const labels = (cols: string[]) => cols.join(' · ');
    const rollingLabel = `${t('compareRollingWord', lang)}: ${labels(['eager (range)', 'cooperative-sticky', t('staticMembership', lang), t('consumerProtocol', lang), `${t('consumerProtocol', lang)}, ${t('staticMembership', lang)}`])}`;
    const upgradeLabel = `${t('compareUpgradeWord', lang)}: ${labels(['cooperative-sticky', t('upgradeColumn', lang), t('consumerProtocol', lang)])}`;
    this.a.setAttribute('aria-label', t('compareA', lang));
    this.b.setAttribute('aria-label', t('compareB', lang));
    const appField = (key: (typeof APP_FIELDS)[number], label: 'appRevoke' | 'appAssign' | 'appJitter') =>
      labelledField(this.app[key], t(label, lang), t('msUnit', lang));
    const setupField = (key: keyof typeof this.setup, label: 'setupConsumers' | 'setupPartitions' | 'setupGap' | 'setupSeeds') =>
      labelledField(this.setup[key], t(label, lang));
    render(
      html`<summary><h2 class="inline">${t('compare', lang)}</h2></summary><p class="muted">${t('compareHint', lang)}</p><div class="compare-inputs"><label>A${this.a}</label><label>B${this.b}</label></div><fieldset class="compare-app" id="compare-setup"><legend>${t('compareSetup', lang)}</legend>${setupField('consumers', 'setupConsumers')}${setupField('partitions', 'setupPartitions')}${setupField('gapMs', 'setupGap')}${setupField('seeds', 'setupSeeds')}</fieldset><fieldset class="compare-app" id="compare-app"><legend>${t('compareApp', lang)}</legend>${appField('revokeMsPerPartition', 'appRevoke')}${appField('assignMsPerPartition', 'appAssign')}${appField('processingJitterMs', 'appJitter')}<p class="muted">${t('compareAppHint', lang)}</p></fieldset><div class="row"><button type="button" id="compare-run" @click=${runBoth}>${t('compareRunBoth', lang)}</button><button type="button" id="compare-rolling" @click=${() => this.run(rollingColumns)}>${rollingLabel}</button><button type="button" id="compare-upgrade" @click=${() => this.run(upgradeColumns)}>${upgradeLabel}</button></div>${this.out}`,
      this.root,
    );
  }

  /** Runs every column once per seed (seeds 1, 2, …) off the page's main thread, its
   * progress shown and a Cancel button; then the table, with the setup it ran and notes on what
   * it shows. */
  private run(columns: () => Column[]): void {
    const lang = this.deps.lang();
    this.handle?.cancel();
    let cols: Column[];
    let seeds: number;
    try {
      cols = columns();
      seeds = this.readSetup().seeds;
    } catch (err) {
      render(html`<p class="error">${(err as Error).message}</p>`, this.out);
      return;
    }
    const application = this.application();
    this.handle = runColumns(this.out, cols, seeds, lang, this.deps.factory, (results) => [
      setupLine(cols[0].scenario, seeds, application, lang),
      html`<div class="table-scroll">${compareTable(lang, results)}</div>`,
      ...compareNotes(results, lang),
    ]);
  }
}

/** Runs `columns` with seeds 1 to `seeds` (compare-pool.ts), showing their progress in `out`
 * with a Cancel button, then what `draw` makes of the results. */
export function runColumns(
  out: HTMLElement,
  cols: Column[],
  seeds: number,
  lang: Lang,
  factory: (s: Scenario) => Simulation,
  draw: (results: ColumnResult[]) => TemplateResult[],
  prefix = 'compare',
): CompareHandle {
  const total = cols.length * seeds;
  let handle: CompareHandle | null = null;
  const cancel = () => {
    handle?.cancel();
    out.removeAttribute('aria-busy');
    render(html`<p class="muted">${t('compareCancelled', lang)}</p>`, out);
  };
  const busy = (done: number) =>
    render(
      html`<p class="compare-busy"><progress id=${`${prefix}-bar`} max=${total} .value=${done}></progress> <span id=${`${prefix}-progress`}>${
        done ? t('compareProgress', lang).replace('{done}', String(done)).replace('{total}', String(total)) : ''
      }</span> <button type="button" id=${`${prefix}-cancel`} @click=${cancel}>${t('cancel', lang)}</button></p>`,
      out,
    );
  busy(0);
  out.setAttribute('aria-busy', 'true');
  const results: ColumnResult[] = cols.map((c) => ({ label: c.label, link: c.link, runs: [], protocol: protocolOf(c.scenario) }));
  const jobs: CompareJob[] = cols.flatMap((c, column) =>
    Array.from({ length: seeds }, (_, index) => ({ column, index, scenario: { ...c.scenario, seed: index + 1 } })),
  );
  handle = runJobs(
    jobs,
    {
      result: (job, metrics) => {
        results[job.column].runs[job.index] = metrics;
      },
      progress: busy,
      failed: (message) => {
        out.removeAttribute('aria-busy');
        render(html`<p class="error">${message}</p>`, out);
      },
      finished: () => {
        out.removeAttribute('aria-busy');
        render(html`${draw(results)}`, out);
      },
    },
    factory,
  );
  return handle;
}

/** What the comparison ran: the group, the restarts and the application, so that a reader can
 * tell what was compared. */
export function setupLine(s: Scenario, seeds: number, app: SettingsDiff, lang: Lang, prefix = 'compare'): TemplateResult {
  const partitions = Object.values(s.topics).reduce((a, b) => a + b, 0);
  const restarts = (s.script ?? []).filter((st) => st.action?.type === 'restart' || st.action?.type === 'close').map((st) => st.atMs);
  const gap = restarts.length > 1 ? restarts[1] - restarts[0] : null;
  const a = (app.application ?? {}) as Record<string, number>;
  const text = t('compareSetupLine', lang)
    .replace('{consumers}', String(s.consumers.length))
    .replace('{partitions}', String(partitions))
    .replace('{topics}', Object.keys(s.topics).join(', '))
    .replace('{gap}', gap === null ? '—' : duration(gap, lang))
    .replace('{seeds}', lang === 'en' ? `${seeds} seed${seeds === 1 ? '' : 's'}` : String(seeds))
    .replace('{revoke}', String(a.revokeMsPerPartition ?? 0))
    .replace('{assign}', String(a.assignMsPerPartition ?? 0))
    .replace('{jitter}', String(a.processingJitterMs ?? 0));
  return html`<p id=${`${prefix}-setup-line`} class="muted">${text}</p>`;
}

/** Why the numbers are what they are, where a reader would ask: the consumer protocol's counts
 * and its longer unowned time. */
export function compareNotes(results: ColumnResult[], lang: Lang, prefix = 'compare'): TemplateResult[] {
  if (!results.some((r) => r.protocol !== 'classic')) return [];
  return [html`<p id=${`${prefix}-why`} class="muted">${t('compareWhyConsumer', lang)}</p>`];
}

/** A number field that lives as long as its view (it keeps what the reader typed). */
export function numberField(id: string, min: number, max: number | null, step: number, value: number): HTMLInputElement {
  return element<HTMLInputElement>(
    html`<input id=${id} type="number" min=${min} max=${ifDefined(max === null ? undefined : max)} step=${step} value=${value} />`,
  );
}

/** A field with its name (and its unit, for a time). */
export function labelledField(input: HTMLElement, label: string, unit?: string): TemplateResult {
  return html`<label class="app-field"><span>${label}</span>${input}${unit ? html`<span class="muted">${unit}</span>` : ''}</label>`;
}
