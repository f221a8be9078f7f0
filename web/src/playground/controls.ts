// The top panel: the scenario picker and the shell's buttons, the title and narration, the time
// controls, the scrubber painted with the run's marks, and the message line.

import { html, render } from 'lit-html';
import { keyed } from 'lit-html/directives/keyed.js';
import type { Frame, MomentAt, ScenarioInfo, StepMark } from '../../pkg/group_coordinator_wasm.js';
import { duration } from '../common/duration.ts';
import type { Lang } from '../common/i18n.ts';
import { type Playback, SPEEDS } from './playback.ts';
import { NeedsModule } from './recorded.ts';
import type { Store } from './store.ts';
import { errorText, SHORTCUTS, t } from './text.ts';

/** What the shell's buttons do (share, export, import, language). */
export interface ShellActions {
  load(name: string): void;
  /** Loads a scenario at its key moment (the picker's one-click list). */
  loadAtKey(name: string): void;
  setLang(lang: Lang): void;
  share(): string;
  exportJson(): void;
  exportHtml(): void;
  importFile(file: File): void;
  /** Replays the run with these of the user's actions (the others removed). */
  keepActions(keep: (index: number) => boolean): void;
}

/** The moments' marks, most telling first (the order of the model's `StepMark`): a tick on the
 * scrubber shows the most telling of the moments under it. */
const MARKS: StepMark[] = ['key', 'fault', 'migration', 'leave', 'rebalance', 'stable', 'generation', 'assigned', 'join', 'expiry'];
/** At most this many ticks on the scrubber: one per 0.4 % of its width. */
const TICKS = 250;

/** The moments to draw as ticks over `max` steps: in each slice of the scrubber, the most
 * telling one (the first of them in a tie). */
function ticks(moments: MomentAt[], max: number): MomentAt[] {
  const rank = (m: MomentAt) => MARKS.indexOf(m.mark);
  const best = new Map<number, MomentAt>();
  for (const m of moments) {
    const slot = Math.floor((m.step / Math.max(1, max)) * TICKS);
    const held = best.get(slot);
    if (!held || rank(m) < rank(held)) best.set(slot, m);
  }
  return [...best.values()];
}

/** The index of the last moment at or before `step` (-1: none). */
function momentAt(moments: MomentAt[], step: number): number {
  let lo = 0;
  let hi = moments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (moments[mid].step <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export class ControlsView {
  readonly root = document.createElement('div');
  private message = { text: '', error: false, count: 0 };
  private shareLink: string | null = null;
  /** When the text that follows every step was last written while playing (see `render`). */
  private textDrawn = 0;

  constructor(
    private readonly store: Store,
    private readonly playback: Playback,
    private readonly scenarios: ScenarioInfo[],
    private readonly shell: ShellActions,
  ) {
    this.root.className = 'pg-top panel';
  }

  /** Says `text` on the message line (an error stands out; a screen reader announces each). */
  say(text: string, error = true): void {
    // A new text node each time, even for the same text: a screen reader announces a refusal
    // each time it happens.
    this.message = { text, error, count: this.message.count + 1 };
    this.draw();
  }

  /** Clears the message line and the share link (after a successful action). */
  clear(): void {
    this.message = { ...this.message, text: '', error: false };
    this.shareLink = null;
  }

  /** While playing, the text that follows every step (clock, step number, scrubber, narration)
   * is written at most every 125 ms: faster cannot be read, and each write far above the
   * timeline made the browser repaint everything between the two. Measured in e2e (50
   * consumers, no GPU): software compositing from 1.3-1.7 s to 0.25-0.43 s per 3 s of play. */
  render(frame: Frame): void {
    const now = performance.now();
    if (this.store.playing && now - this.textDrawn < 125) return;
    this.textDrawn = now;
    this.draw(frame);
  }

  draw(frame: Frame = this.store.frame): void {
    const { store, playback } = this;
    const lang = store.lang;
    const run = store.run;
    const scenario = run.scenario;
    // The scrubber spans what is known (going back keeps the future it came from), and at least
    // the scenario's run ahead.
    const max = Math.max(frame.knownSteps, playback.preview.steps);
    const moments = playback.moments();
    const here = momentAt(moments, frame.cursor);
    const note = frame.narration.note ?? '';
    // What changed first (state, generation, answers, assignments, actions); the rest beneath.
    const lead = frame.narration.lines
      .filter((l) => l.lead)
      .map((l) => l.text)
      .join(' · ');
    const rest = frame.narration.lines
      .filter((l) => !l.lead)
      .map((l) => l.text)
      .join(' · ');
    const lines = lead || rest;
    const speed = SPEEDS[playback.speed];
    render(
      html`${this.bookCases()}
        <div class="row">
          <label for="scenario" id="scenario-label">${t('scenario', lang)}</label>
          <select id="scenario" aria-label=${t('scenario', lang)} .value=${scenario.name}
            @change=${(e: Event) => this.choose((e.target as HTMLSelectElement).value)}>
            ${
              // A run that is not a built-in scenario (a live run, an imported file) is named too.
              this.scenarios.some((s) => s.name === scenario.name)
                ? null
                : html`<option value=${scenario.name} selected disabled>${scenario.title[lang]}</option>`
            }
            ${this.scenarios.map((s) => html`<option value=${s.name} ?selected=${s.name === scenario.name}>${s.title[lang]}</option>`)}
          </select>
          <button type="button" id="lang" aria-label=${t('switchLang', lang)} @click=${() => this.shell.setLang(lang === 'en' ? 'zh' : 'en')}>${t('otherLang', lang)}</button>
          <button type="button" id="share" @click=${() => this.share()}>${t('share', lang)}</button>
          <button type="button" id="export" @click=${() => this.shell.exportJson()}>${t('exportJson', lang)}</button>
          <button type="button" id="export-html" @click=${() => this.shell.exportHtml()}>${t('exportHtml', lang)}</button>
          <input type="file" id="import" accept=".json,.jsonl,application/json" aria-label=${t('importRun', lang)} @change=${(e: Event) => this.importFile(e)} />
          <label for="import" class="button-like" id="import-label">${t('importJson', lang)}</label>
          <input id="share-link" class="share-link" readonly aria-label=${t('share', lang)} ?hidden=${this.shareLink === null} .value=${this.shareLink ?? ''} />
        </div>
        <h2 id="scenario-title"><span class="title-text">${scenario.title[lang]}</span>
          ${
            scenario.script?.some((st) => st.key)
              ? html`<button type="button" id="key-moment" title=${t('keyMomentHelp', lang)} @click=${() => this.keyMoment()}>» ${t('keyMoment', lang)}</button>`
              : null
          }${this.whoGotWhat(moments, frame.cursor)}</h2>
        <p id="scenario-description" class="muted">${scenario.description?.[lang] ?? ''}</p>
        <p id="narration" class="narration" role="status" aria-live=${store.playing ? 'off' : 'polite'}
          ><strong ?hidden=${!note} class=${frame.narration.noteStale ? 'stale' : ''}
            >${frame.narration.noteStale ? html`<span class="stale-mark">${t('staleNote', lang)}</span> ` : null}${note}</strong
          ><br ?hidden=${!note || !lines} /><span class="lead">${lead}</span><br ?hidden=${!lead || !rest} /><span
            class="rest">${rest}</span>${
              !note && !lines && frame.cursor === 0 ? html`<span class="muted" id="start-hint">${t('startHint', lang)}</span>` : null
            }</p>
        ${failureNote(frame, lang)}
        ${this.actionList(frame)}
        <div class="row controls">
          <button type="button" id="restart" aria-label=${t('restart', lang)} @click=${() => this.safely(() => playback.goto(0))}>|◀ <span class="btn-label">${t('restart', lang)}</span></button>
          <button type="button" id="back" aria-label=${t('back', lang)} ?disabled=${frame.cursor === 0} @click=${() => this.safely(() => playback.back())}>◀ <span class="btn-label">${t('back', lang)}</span></button>
          <button type="button" id="play" class="primary" aria-label=${store.playing ? t('pause', lang) : t('play', lang)} @click=${() => playback.toggle()}>${store.playing ? '❚❚' : '▶'} <span class="btn-label">${store.playing ? t('pause', lang) : t('play', lang)}</span></button>
          <button type="button" id="step" aria-label=${t('step', lang)} ?disabled=${frame.finished} @click=${() => this.safely(() => playback.stepOnce())}><span class="btn-label">${t('step', lang)}</span> ▶|</button>
          <label for="speed" id="speed-name">${t('speed', lang)}</label>
          <input type="range" id="speed" min="0" max=${SPEEDS.length - 1} step="1" .value=${String(playback.speed)}
            @input=${(e: Event) => this.setSpeed(Number((e.target as HTMLInputElement).value))} />
          <span id="speed-label" class="muted">${speed === Infinity ? t('maxSpeed', lang) : `${speed}/s`}</span>
          <span id="sim-time" class="clock" title=${`${frame.nowMs} ms`}>${t('time', lang)} ${duration(frame.nowMs, lang)}</span>
          <span id="step-no" class="muted">${t('stepN', lang)} ${frame.cursor}${frame.pastEnd ? ` — ${t(store.run.scenario.live ? 'liveEdge' : 'end', lang)}` : ''}</span>
        </div>
        <div class="scrub">
          <input type="range" id="scrubber" min="0" step="1" aria-label=${t('stepSlider', lang)} max=${max} .value=${String(frame.cursor)}
            @input=${(e: Event) => this.safely(() => playback.scrub(Number((e.target as HTMLInputElement).value)))} />
          <div id="scrub-marks" class="scrub-marks">
            ${ticks(moments, max).map(
              (m) => html`<button type="button" tabindex="-1" class=${`tick sm-${m.mark}`} data-step=${m.step}
                style=${`left:${(m.step / Math.max(1, max)) * 100}%`} title=${`${t('stepN', lang)} ${m.step}: ${m.label[lang]}`}
                aria-label=${`${t('stepN', lang)} ${m.step}: ${m.label[lang]}`}
                @click=${() => this.safely(() => playback.goto(m.step))}></button>`,
            )}
          </div>
        </div>
        <div class="row moments">
          <button type="button" id="prev-moment" title=${t('prevMomentHelp', lang)} ?disabled=${here < 0 || (here === 0 && moments[0].step >= frame.cursor)}
            aria-label=${t('prevMoment', lang)} @click=${() => this.moment(false)}>◀◀ <span class="btn-label">${t('prevMoment', lang)}</span></button>
          <span id="moment-label" class="moment-label">${this.momentLabel(moments, here, frame.cursor)}</span>
          <button type="button" id="next-moment" title=${t('nextMomentHelp', lang)} aria-label=${t('nextMoment', lang)} @click=${() => this.moment(true)}><span class="btn-label">${t('nextMoment', lang)}</span> ▶▶</button>
        </div>
        <p id="pg-message" class=${this.message.error ? 'message error' : 'message'} role="alert">${keyed(this.message.count, this.message.text)}</p>
        <details id="help" class="help">
          <summary>${t('help', lang)} ⌨</summary>
          <ul>${SHORTCUTS.map(([k, what]) => html`<li><kbd>${k}</kbd> ${what[lang]}</li>`)}</ul>
          <p id="moment-legend">${t('momentLegend', lang)}
            ${MARKS.map((m) => html`<span class="legend-mark"><span class=${`dot sm-${m}`}></span> ${t(`mark_${m}`, lang)}</span>`)}</p>
        </details>`,
      this.root,
    );
  }

  /** Loads the scenario picked, then gives the keys back to the run (a focused picker would take
   * → to load the next scenario). */
  private choose(name: string): void {
    this.shell.load(name);
    this.root.closest<HTMLElement>('#playground')?.focus({ preventScroll: true });
  }

  /** The scenarios that name their key moment, each opened there in one click: the book's
   * (classic) cases, the consumer protocol's, the migrations between the two, then the pattern
   * subscriptions (one per protocol, so named by it). */
  private bookCases() {
    const lang = this.store.lang;
    const pattern = (s: ScenarioInfo) => s.pattern === true;
    const migration = (s: ScenarioInfo) => s.migration === true && !pattern(s);
    const kip848 = (s: ScenarioInfo) => s.protocol === 'consumer' && !s.migration && !pattern(s);
    const book = (s: ScenarioInfo) => s.protocol === 'classic' && !s.migration && !pattern(s);
    // The other rows fold under one control (a first screen of one sentence and four cases),
    // opened when the run is one of theirs.
    const current = this.scenarios.find((s) => s.name === this.store.run.scenario.name);
    const folded = current !== undefined && current.keyMoment !== undefined && !book(current);
    const byProtocol = (s: ScenarioInfo) => (s.protocol === 'classic' ? t('classicProtocol', lang) : t('consumerProtocol', lang));
    return html`<p id="intro" class="intro">${t('intro', lang)}</p>
      ${this.caseRow('book-cases', book, 'openAtMoment')}
      <details id="more-scenarios" class="more-scenarios" ?open=${folded}>
        <summary>${t('moreScenarios', lang)}</summary>
        ${this.caseRow('kip848-cases', kip848, 'openAtMoment848')}
        ${this.caseRow('migration-cases', migration, 'openAtMigration')}
        ${this.caseRow('pattern-cases', pattern, 'openAtPattern', byProtocol)}
      </details>`;
  }

  /** One row of one-click cases; each button says its key moment, or what `name` gives. */
  private caseRow(
    id: string,
    which: (s: ScenarioInfo) => boolean,
    label: 'openAtMoment' | 'openAtMoment848' | 'openAtMigration' | 'openAtPattern',
    name: (s: ScenarioInfo) => string = (s) => s.keyMoment?.[this.store.lang] ?? s.name,
  ) {
    const lang = this.store.lang;
    const cases = this.scenarios.filter((s) => s.keyMoment && which(s));
    if (!cases.length) return null;
    const current = this.store.run.scenario.name;
    return html`<div id=${id} class="row book-cases" role="group" aria-label=${t(label, lang)}>
      <span class="muted">${t(label, lang)}</span>
      ${cases.map(
        (
          c,
          i,
        ) => html`<button type="button" data-scenario=${c.name} title=${c.title[lang]} aria-current=${c.name === current ? 'true' : 'false'}
          @click=${() => this.shell.loadAtKey(c.name)}>${i + 1}. ${name(c)}</button>`,
      )}
    </div>`;
  }

  /** The user's actions, each removable, with undo and "back to the scenario". */
  private actionList(frame: Frame) {
    const lang = this.store.lang;
    const actions = frame.actions;
    if (!actions.length) return null;
    const keep = (f: (i: number) => boolean) => () => this.safely(() => this.shell.keepActions(f));
    return html`<div id="user-actions" class="user-actions">
      <span class="muted">${t('yourActions', lang)}</span>
      <ol>${actions.map(
        (a, i) => html`<li data-step=${a.step}>${t('stepN', lang)} ${a.step}: ${a.text}
          <button type="button" class="link" data-remove=${i} aria-label=${`${t('removeAction', lang)}: ${a.text}`}
            @click=${keep((j) => j !== i)}>✕</button></li>`,
      )}</ol>
      <button type="button" id="undo-action" @click=${keep((j) => j < actions.length - 1)}>↶ ${t('undoAction', lang)}</button>
      <button type="button" id="back-to-scenario" @click=${keep(() => false)}>${t('backToScenario', lang)}</button>
    </div>`;
  }

  /** What the moment at or before the cursor is ("moment 4 of 17, step 89: …"). */
  private momentLabel(moments: MomentAt[], here: number, cursor: number) {
    const lang = this.store.lang;
    if (here < 0) return html`<span class="muted">${t('noMomentYet', lang)}</span>`;
    const m = moments[here];
    const where = m.step === cursor ? '' : ` (${t('since', lang)})`;
    return html`<span class=${`dot sm-${m.mark}`} aria-hidden="true"></span> <b>${here + 1}/${moments.length}</b> ${t('stepN', lang)} ${m.step}${where}: ${m.label[lang]}`;
  }

  /** "Who got what": to the next moment at which the last member waiting for its assignment
   * took it (the new generation beside the old in the assignment table), when there is one
   * ahead among the moments known or previewed. */
  private whoGotWhat(moments: MomentAt[], cursor: number) {
    const lang = this.store.lang;
    const next = moments.find((m) => m.mark === 'assigned' && m.step > cursor);
    if (!next) return null;
    return html`<button type="button" id="who-got-what" title=${`${t('whoGotWhatHelp', lang)} (${t('stepN', lang)} ${next.step})`}
      @click=${() => this.safely(() => this.playback.goto(next.step))}>» ${t('whoGotWhat', lang)}</button>`;
  }

  /** To the next or previous moment (the buttons, the [ and ] keys). */
  moment(forward: boolean): void {
    this.safely(() => {
      if (!this.playback.moment(forward)) throw new Error(t(forward ? 'noNextMoment' : 'noPrevMoment', this.store.lang));
    });
  }

  /** To the scenario's key moment (the button, the K key). */
  keyMoment(): void {
    this.safely(() => {
      if (!this.playback.keyMoment()) throw new Error(t('noKeyMoment', this.store.lang));
    });
  }

  setSpeed(speed: number): void {
    this.playback.speed = Math.min(SPEEDS.length - 1, Math.max(0, speed));
    this.draw();
  }

  /** Runs what the user asked for; a refusal is said on the message line, and what was done
   * before stays done. A success clears the line, unless `f` said something itself (why a step
   * could not be taken). */
  safely(f: () => void): void {
    const said = this.message.count;
    try {
      f();
      if (this.message.count === said) this.clear();
      this.draw();
    } catch (err) {
      if (err instanceof NeedsModule && this.store.needsModule) this.store.needsModule(err, () => this.safely(f));
      else this.say(errorText(err, this.store.lang));
    }
  }

  private share(): void {
    // (Not through `safely`: a success there clears the link it just made.)
    try {
      this.shareLink = this.shell.share();
    } catch (err) {
      this.say((err as Error).message);
      return;
    }
    this.draw();
    const field = this.root.querySelector<HTMLInputElement>('#share-link');
    field?.select();
    // Said either way: copied, or (no clipboard: a page not served over https, a refusal)
    // selected in the field for the reader to copy.
    const selected = () => this.say(t('linkSelected', this.store.lang), false);
    if (!navigator.clipboard) selected();
    else navigator.clipboard.writeText(this.shareLink).then(() => this.say(t('linkCopied', this.store.lang), false), selected);
  }

  private importFile(e: Event): void {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) this.shell.importFile(file);
    input.value = '';
  }
}

/** Consumers that stopped on a non-retriable error, said at the top with the error and the
 * broker setting behind it (a setting that makes every consumer fail shows each as "failed",
 * and the reason was only in the step rows). */
function failureNote(frame: Frame, lang: Lang) {
  const failed = (frame.consumers ?? []).filter((c) => c.life === 'failed' && c.failedWith);
  if (!failed.length) return null;
  const errors = [...new Set(failed.map((c) => c.failedWith as string))];
  return html`<p id="failure-note" class="message error" role="status">${errors.map((error) => {
    const who = failed.filter((c) => c.failedWith === error).map((c) => c.name);
    const why = FAILURE_WHY[error]?.[lang] ?? '';
    return html`${t('consumersFailed', lang).replace('{who}', who.join(', ')).replace('{error}', error)}${why ? ` ${why}` : ''} `;
  })}</p>`;
}

/** What a fatal error means and which setting is behind it, for the errors a setting can cause. */
const FAILURE_WHY: Record<string, { en: string; zh: string }> = {
  INVALID_SESSION_TIMEOUT: {
    en: 'Its session.timeout.ms must lie within the broker’s group.min.session.timeout.ms and group.max.session.timeout.ms (6 s and 30 min by default).',
    zh: '它的 session.timeout.ms 必须在 broker 的 group.min.session.timeout.ms 与 group.max.session.timeout.ms 之间（默认 6 秒到 30 分钟）。',
  },
  GROUP_MAX_SIZE_REACHED: {
    en: 'The group already has the broker’s group.max.size members.',
    zh: '消费组的成员数已达到 broker 的 group.max.size。',
  },
  INCONSISTENT_GROUP_PROTOCOL: {
    en: 'Its partition.assignment.strategy (or protocol type) shares no assignor with the group’s members.',
    zh: '它的 partition.assignment.strategy（或协议类型）与消费组成员没有共同的分配器。',
  },
  FENCED_INSTANCE_ID: {
    en: 'Another member with the same group.instance.id took its place.',
    zh: '另一个使用相同 group.instance.id 的成员取代了它。',
  },
  UNRELEASED_INSTANCE_ID: {
    en: 'Its group.instance.id is still held by a member that has not left.',
    zh: '它的 group.instance.id 仍被一个尚未离开的成员占用。',
  },
  UNSUPPORTED_ASSIGNOR: {
    en: 'Its group.remote.assignor is not one of the broker’s group.consumer.assignors.',
    zh: '它的 group.remote.assignor 不在 broker 的 group.consumer.assignors 之中。',
  },
};
