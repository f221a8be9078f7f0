// "Your group": a real group's description (what kafka-consumer-groups.sh --describe prints,
// or an admin client's JSON) read by the model into a scenario, opened in the playground or
// compared under a rolling restart at its real size: as described, and under the changes an
// operator weighs. The runs go off the page's main thread (compare-pool.ts).

import { html, nothing, render } from 'lit-html';
import example from '../../../crates/simulator/tests/import/kafka4-example.txt?raw';
import type { Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { type Column, compareNotes, compareTable, labelledField, numberField, runColumns, setupLine } from './compare.ts';
import type { CompareHandle } from './compare-pool.ts';
import { element } from './element.ts';
import type { SettingsDiff } from './settings.ts';
import { t } from './text.ts';
import { type Assumed, assumedValues, type RestartOrder, WHAT_IF_LABELS, whatIfs, withAssumed } from './what-if.ts';

export interface YourGroupDeps {
  /** The model's reader (`importGroup`): a scenario, or a SyntaxError with the line. */
  importGroup: (text: string) => Scenario;
  factory: (s: Scenario) => Simulation;
  /** Opens a scenario in the playground (throws if the model refuses it). */
  open: (s: Scenario) => void;
  /** The playground's group as it is now (`Player.importGroup`): a live group, or any run's. */
  current: () => Scenario;
  /** The application's listener timing set in the compare panel, for every run. */
  application: () => SettingsDiff;
  lang: () => Lang;
}

/** Bounds of the plan's fields: [min, max, default]. */
const PLAN = {
  gapMs: [1_000, 600_000, 10_000],
  downMs: [0, 600_000, 5_000],
  seeds: [1, 20, 5],
} as const;

export class YourGroupView {
  readonly root = element<HTMLDetailsElement>(html`<details class="panel your-group" id="your-group"></details>`);
  private readonly text = element<HTMLTextAreaElement>(html`<textarea id="yg-text" rows="8" spellcheck="false" wrap="off"></textarea>`);
  private readonly order = element<HTMLSelectElement>(html`<select id="yg-order"></select>`);
  private readonly plan = {
    gapMs: numberField('yg-gap', PLAN.gapMs[0], PLAN.gapMs[1], 1000, PLAN.gapMs[2]),
    downMs: numberField('yg-down', PLAN.downMs[0], PLAN.downMs[1], 1000, PLAN.downMs[2]),
    seeds: numberField('yg-seeds', PLAN.seeds[0], PLAN.seeds[1], 1, PLAN.seeds[2]),
  };
  private readonly summary = element<HTMLDivElement>(html`<div id="yg-summary" role="status"></div>`);
  private readonly out = element<HTMLDivElement>(html`<div id="yg-out" role="status"></div>`);
  /** The group read, and the assumed settings' fields. */
  private group: Scenario | null = null;
  private assumedFields: { key: string; input: HTMLInputElement }[] = [];
  private handle: CompareHandle | null = null;

  constructor(private readonly deps: YourGroupDeps) {
    this.text.addEventListener('input', () => {
      // What was read no longer matches the text: it must be read again.
      if (this.group) {
        this.group = null;
        this.handle?.cancel();
        this.render();
      }
    });
  }

  render(): void {
    const lang = this.deps.lang();
    this.text.setAttribute('aria-label', t('ygText', lang));
    this.text.placeholder = t('ygPlaceholder', lang);
    const paste = () => {
      this.text.value = example.replace(/^\n/, '');
      this.read();
    };
    const chosen = this.order.value || 'listed';
    const orderName = (o: RestartOrder) =>
      t(o === 'listed' ? 'ygOrderListed' : o === 'reversed' ? 'ygOrderReversed' : 'ygOrderShuffled', lang);
    render(
      html`${(['listed', 'reversed', 'shuffled'] as RestartOrder[]).map((o) => html`<option value=${o} ?selected=${o === chosen}>${orderName(o)}</option>`)}`,
      this.order,
    );
    render(
      html`<summary><h2 class="inline">${t('ygTitle', lang)}</h2></summary><p class="muted">${t('ygHint', lang)}</p>${this.text}<div class="row"><button type="button" id="yg-read" @click=${() => this.read()}>${t('ygRead', lang)}</button><button type="button" id="yg-example" @click=${paste}>${t('ygExample', lang)}</button><button type="button" id="yg-take" @click=${() => this.takeCurrent()}>${t('ygTake', lang)}</button></div>${this.summary}`,
      this.root,
    );
    this.drawSummary();
  }

  /** Reads the text; a fault is shown with its line, which is selected in the text. */
  private read(): void {
    const lang = this.deps.lang();
    this.handle?.cancel();
    render(nothing, this.out);
    try {
      this.group = this.deps.importGroup(this.text.value);
    } catch (err) {
      this.group = null;
      const line = (err as { line?: unknown }).line;
      this.cannotRead(err, lang);
      if (typeof line === 'number' && line > 0) this.selectLine(line);
      return;
    }
    this.drawSummary();
  }

  /** The playground's group as it is now, in the panel (opened and in sight): "what if this
   * group restarts now?". */
  takeCurrent(): void {
    const lang = this.deps.lang();
    this.handle?.cancel();
    render(nothing, this.out);
    if (!this.summary.isConnected) this.render();
    this.root.open = true;
    try {
      this.group = this.deps.current();
      this.text.value = '';
    } catch (err) {
      this.group = null;
      this.cannotRead(err, lang);
      return;
    }
    this.drawSummary();
    this.root.scrollIntoView({ block: 'start' });
  }

  private cannotRead(err: unknown, lang: Lang): void {
    render(html`<p class="error" id="yg-error">${t('ygCannotRead', lang)} ${(err as Error).message ?? String(err)}</p>`, this.summary);
  }

  private selectLine(line: number): void {
    const lines = this.text.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    this.text.focus();
    this.text.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  }

  /** What was read: the group, what was assumed (editable), the notes, and the comparison. */
  private drawSummary(): void {
    const lang = this.deps.lang();
    const s = this.group;
    if (!s?.imported) {
      render(nothing, this.summary);
      return;
    }
    const i = s.imported;
    const partitions = Object.values(s.topics).reduce((a, b) => a + b, 0);
    const facts: [string, string][] = [
      [t('ygGroup', lang), s.groupId ?? ''],
      [t('ygMembers', lang), String(s.consumers.length)],
      [
        t('ygTopics', lang),
        Object.entries(s.topics)
          .map(([name, n]) => `${name} (${n})`)
          .join(', '),
      ],
      [t('ygPartitions', lang), String(partitions)],
      [t('ygProtocol', lang), i.protocol],
      [t('ygAssignor', lang), i.assignor ?? '—'],
      [t('ygState', lang), i.state ?? '—'],
      [t('ygSources', lang), i.sources.join('; ')],
    ];
    this.assumedFields = assumedValues(s).map(({ key, value }) => ({
      key,
      input: element<HTMLInputElement>(
        html`<input type="number" min="0" step="1" value=${value} data-key=${key} id=${`yg-assumed-${key.replace(/[^a-z0-9]+/gi, '-')}`} />`,
      ),
    }));
    const open = () => {
      try {
        this.deps.open(this.withAssumed());
      } catch (err) {
        render(html`<p class="error">${(err as Error).message}</p>`, this.out);
      }
    };
    const options = whatIfs(s, { order: 'listed', gapMs: 1, downMs: 0 }).map((w) => WHAT_IF_LABELS[w.key][lang]);
    const ms = t('msUnit', lang);
    render(
      html`<dl class="yg-facts" id="yg-facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${(i.notes ?? []).map(
        (n) => html`<p class="muted yg-note">${n[lang]}</p>`,
      )}<fieldset class="compare-app" id="yg-assumed"><legend>${t('ygAssumed', lang)}</legend>${this.assumedFields.map(({ key, input }) =>
        labelledField(input, key, ms),
      )}<p class="muted">${t('ygAssumedHint', lang)}</p></fieldset><fieldset class="compare-app" id="yg-plan"><legend>${t('ygPlan', lang)}</legend>${labelledField(
        this.order,
        t('ygOrder', lang),
      )}${labelledField(this.plan.gapMs, t('setupGap', lang))}${labelledField(this.plan.downMs, t('ygDown', lang), ms)}${labelledField(
        this.plan.seeds,
        t('setupSeeds', lang),
      )}</fieldset><div class="row"><button type="button" id="yg-open" @click=${open}>${t('ygOpen', lang)}</button><button type="button" id="yg-compare" @click=${() => this.compare()}>${`${t('compareRollingWord', lang)}: ${options.join(' · ')}`}</button></div>${this.out}`,
      this.summary,
    );
  }

  /** The group with the assumed settings as the reader set them (each a whole number of ms). */
  private withAssumed(): Scenario {
    const s = this.group as Scenario;
    const values: Assumed[] = this.assumedFields.map(({ key, input }) => {
      const n = Number(input.value);
      if (input.value.trim() === '' || !Number.isSafeInteger(n) || n < 0)
        throw new Error(`${key}: "${input.value}" is not a whole number of ms`);
      return { key, value: n };
    });
    return withAssumed(s, values);
  }

  private readPlan(): { order: RestartOrder; gapMs: number; downMs: number; seeds: number } {
    const read = (key: keyof typeof PLAN) => {
      const field = this.plan[key];
      const n = Number(field.value);
      const [lo, hi] = PLAN[key];
      if (field.value.trim() === '' || !Number.isSafeInteger(n) || n < lo || n > hi)
        throw new Error(`${key}: "${field.value}" is not a whole number from ${lo} to ${hi}`);
      return n;
    };
    return { order: (this.order.value || 'listed') as RestartOrder, gapMs: read('gapMs'), downMs: read('downMs'), seeds: read('seeds') };
  }

  private compare(): void {
    const lang = this.deps.lang();
    this.handle?.cancel();
    let cols: Column[];
    let seeds: number;
    let application: SettingsDiff;
    try {
      const plan = this.readPlan();
      seeds = plan.seeds;
      application = this.deps.application();
      const base = this.withAssumed();
      base.application = { ...(base.application ?? {}), ...(application.application ?? {}) };
      cols = whatIfs(base, plan).map((w) => ({ label: WHAT_IF_LABELS[w.key][lang], scenario: w.scenario }));
    } catch (err) {
      render(html`<p class="error">${(err as Error).message}</p>`, this.out);
      return;
    }
    this.handle = runColumns(
      this.out,
      cols,
      seeds,
      lang,
      this.deps.factory,
      (results) => [
        setupLine(cols[0].scenario, seeds, application, lang, 'yg'),
        html`<div class="table-scroll">${compareTable(lang, results, 'yg')}</div>`,
        ...compareNotes(results, lang, 'yg'),
      ],
      'yg',
    );
  }
}
