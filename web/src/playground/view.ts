// The playground: pick a scenario, watch it step by step or play it, act on the group at any
// moment (acting in the past forks the run), in three linked views plus the step table.

import type { Action, Scenario, ScenarioInfo, Simulation, StepMark, TraceEntry } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren, replaceChildrenIfChanged, setText } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { lifeName, memberStateName, pauseName } from '../vocabulary.ts';
import { AssignmentModel, AssignmentView } from './assignments.ts';
import { CompareView } from './compare.ts';
import { exportRun, importRun } from './exchange.ts';
import { OwnershipView } from './ownership.ts';
import { MAX_REACH, type PlayerFactory, Run, STEPS_PAST_END, type TimedAction } from './run.ts';
import { applyDiff, type ConfigKey, isEmpty, type SettingsDiff, SettingsView } from './settings.ts';
import { decodeShare, encodeShare, type ShareState } from './share.ts';
import { standaloneHtml } from './standalone.ts';
import { StateMachineView, stateMachineModel } from './statemachine.ts';
import { StepTableView } from './steptable.ts';
import { reachedEarly, SHORTCUTS, t } from './text.ts';
import { TimelineModel, TimelineView } from './timeline.ts';

export interface PlaygroundDeps {
  /** A simulation run straight to its end (compare). */
  newSimulation: (scenario: Scenario) => Simulation;
  /** The run the page plays, steps and forks. */
  newPlayer: PlayerFactory;
  scenarios: ScenarioInfo[];
  scenario: (name: string) => Scenario;
  lang: Lang;
  onLang?: (lang: Lang) => void;
  /** Embedded in another page: no picker or side panels, only these views. */
  embed?: { views: Set<string>; autoplay: boolean };
  /** Where share links point (the page's own address by default). */
  baseUrl?: string;
  brokerKeys?: ConfigKey[];
  consumerKeys?: ConfigKey[];
}

export type ViewName = 'sm' | 'timeline' | 'assignments' | 'steps';
export const ALL_VIEWS: ViewName[] = ['sm', 'timeline', 'assignments', 'steps'];

/** Steps per second for the speed dial (log scale); the last is "as fast as frames allow". */
const SPEEDS = [1, 2, 5, 10, 25, 50, 100, 250, 1000, Infinity];

export class PlaygroundView {
  readonly root: HTMLElement;
  run!: Run;
  lang: Lang;
  selected: number | null = null;
  playing = false;
  speed = 3;
  private timelineModel = new TimelineModel();
  private assignmentModel = new AssignmentModel();
  private readonly ownership = new OwnershipView();
  private readonly sm = new StateMachineView();
  private readonly timeline = new TimelineView();
  private readonly assignments = new AssignmentView();
  private readonly stepTable = new StepTableView();
  private readonly compare: CompareView;
  private readonly settings: SettingsView;
  /** Settings changed from the built-in scenario. */
  private diff: SettingsDiff = {};
  private readonly els;
  /** The whole scenario run once ahead (no user actions): the scrubber's length and marks. */
  private preview: { steps: number; marks: { step: number; kind: string }[] } = { steps: 0, marks: [] };
  private frame = 0;
  private tablesDrawn = 0;
  private smSeen = 0;
  /** Where frame time goes while playing (ms, summed and the largest in one frame), for the
   * frame-time measurement. */
  readonly parts: Record<string, number> = {};
  readonly partsMax: Record<string, number> = {};
  private lastFrame = 0;
  private budget = 0;
  /** When the text that follows every step was last written while playing, and whether a
   * step has happened since (see `tick`). */
  private textDrawn = 0;
  private textStale = false;
  /** Script time per frame while playing (ms), and the frames' timestamps (their intervals are
   * the achieved frame times, paint included): the page's own measurement, read by the e2e test. */
  readonly frameTimes: number[] = [];
  readonly frameStamps: number[] = [];

  constructor(
    private readonly deps: PlaygroundDeps,
    query?: string,
  ) {
    this.lang = deps.lang;
    this.els = {
      picker: h('select', { id: 'scenario', 'aria-label': 'Scenario' }),
      title: h('h2', { id: 'scenario-title' }),
      description: h('p', { id: 'scenario-description', class: 'muted' }),
      narration: h('p', { id: 'narration', class: 'narration', role: 'status', 'aria-live': 'polite' }),
      restart: h('button', { type: 'button', id: 'restart' }),
      back: h('button', { type: 'button', id: 'back' }),
      play: h('button', { type: 'button', id: 'play', class: 'primary' }),
      step: h('button', { type: 'button', id: 'step' }),
      speed: h('input', { type: 'range', id: 'speed', min: '0', max: String(SPEEDS.length - 1), step: '1', value: String(this.speed) }),
      speedLabel: h('span', { id: 'speed-label', class: 'muted' }),
      clock: h('span', { id: 'sim-time', class: 'clock' }),
      stepNo: h('span', { id: 'step-no', class: 'muted' }),
      scrubber: h('input', { type: 'range', id: 'scrubber', min: '0', max: '0', step: '1', value: '0', 'aria-label': 'Step' }),
      scrubMarks: h('div', { id: 'scrub-marks', class: 'scrub-marks', 'aria-hidden': 'true' }),
      consumers: h('section', { id: 'consumers', class: 'panel' }),
      metrics: h('section', { id: 'metrics', class: 'panel' }),
      message: h('p', { id: 'pg-message', class: 'message', role: 'alert' }),
      help: h('details', { id: 'help', class: 'help' }),
      langButton: h('button', { type: 'button', id: 'lang' }),
      share: h('button', { type: 'button', id: 'share' }),
      shareLink: h('input', { id: 'share-link', readonly: true, 'aria-label': 'Share link', class: 'share-link' }),
      exportButton: h('button', { type: 'button', id: 'export' }),
      exportHtml: h('button', { type: 'button', id: 'export-html' }),
      importInput: h('input', { type: 'file', id: 'import', accept: '.json,application/json', 'aria-label': 'Import a run' }),
      importLabel: h('label', { for: 'import', class: 'button-like', id: 'import-label' }),
    };
    for (const info of deps.scenarios) this.els.picker.append(h('option', { value: info.name }));
    const e = this.els;
    e.picker.addEventListener('change', () => this.safely(() => this.load(e.picker.value)));
    e.restart.addEventListener('click', () => this.goto(0));
    e.back.addEventListener('click', () => this.goto(this.run.cursor - 1));
    e.step.addEventListener('click', () => this.stepOnce());
    e.play.addEventListener('click', () => this.toggle());
    e.speed.addEventListener('input', () => {
      this.speed = Number(e.speed.value);
      this.renderControls();
    });
    e.scrubber.addEventListener('input', () => this.goto(Number(e.scrubber.value)));
    e.langButton.addEventListener('click', () => this.setLang(this.lang === 'en' ? 'zh' : 'en'));
    e.share.addEventListener('click', () => {
      const url = this.shareUrl();
      e.shareLink.value = url;
      e.shareLink.hidden = false;
      e.shareLink.select();
      navigator.clipboard?.writeText(url).catch(() => {
        /* the link stays selectable in the field */
      });
    });
    e.shareLink.hidden = true;
    e.exportButton.addEventListener('click', () => {
      const text = exportRun(this.run.scenario, this.run.actions, this.run.cursor);
      const a = h('a', {
        href: URL.createObjectURL(new Blob([text], { type: 'application/json' })),
        download: `${this.run.scenario.name}-step-${this.run.cursor}.json`,
      });
      a.click();
      URL.revokeObjectURL(a.href);
    });
    e.exportHtml.addEventListener('click', () => {
      const run = exportRun(this.run.scenario, this.run.actions, this.run.cursor);
      standaloneHtml(run, `${this.run.scenario.title[this.lang]} — Kafka group playground`).then(
        (html) => {
          const a = h('a', {
            href: URL.createObjectURL(new Blob([html], { type: 'text/html' })),
            download: `${this.run.scenario.name}-step-${this.run.cursor}.html`,
          });
          a.click();
          URL.revokeObjectURL(a.href);
        },
        (err: Error) => this.showError(err.message),
      );
    });
    e.importInput.addEventListener('change', () => {
      const file = e.importInput.files?.[0];
      if (file) void file.text().then((text) => this.importText(text));
      e.importInput.value = '';
    });
    this.compare = new CompareView({
      factory: deps.newSimulation,
      current: () => structuredClone(this.run.scenario),
      builtIn: (n) => deps.scenario(n),
      lang: () => this.lang,
    });
    this.settings = new SettingsView({
      brokerKeys: deps.brokerKeys ?? [],
      consumerKeys: deps.consumerKeys ?? [],
      apply: (diff) => this.applySettings(diff),
    });
    this.root = h(
      'div',
      { class: 'playground', id: 'playground', tabindex: '-1' },
      h(
        'div',
        { class: 'pg-top panel' },
        h(
          'div',
          { class: 'row' },
          h('label', { for: 'scenario', id: 'scenario-label' }),
          e.picker,
          e.langButton,
          e.share,
          e.exportButton,
          e.exportHtml,
          e.importInput,
          e.importLabel,
          e.shareLink,
        ),
        e.title,
        e.description,
        e.narration,
        h(
          'div',
          { class: 'row controls' },
          e.restart,
          e.back,
          e.play,
          e.step,
          h('label', { for: 'speed', id: 'speed-name' }),
          e.speed,
          e.speedLabel,
          e.clock,
          e.stepNo,
        ),
        h('div', { class: 'scrub' }, e.scrubber, e.scrubMarks),
        e.message,
        e.help,
      ),
      h('div', { class: 'pg-views' }, this.sm.root, h('div', { class: 'side' }, this.assignments.root, this.ownership.root)),
      this.timeline.root,
      h('div', { class: 'pg-bottom' }, this.stepTable.root, h('div', { class: 'side' }, e.consumers, e.metrics)),
      this.settings.root,
      this.compare.root,
    );
    // On the document: the shortcuts work as soon as the page opens, before anything in the
    // playground has the focus.
    document.addEventListener('keydown', (ev) => {
      if (this.root.isConnected) this.key(ev);
    });
    if (deps.embed) this.embed(deps.embed.views);
    this.open(query);
    if (deps.embed?.autoplay) this.toggle();
  }

  /** Opens a shared run (`?scenario=...&actions=...&step=...`), or the scenario's defaults with
   * the reason when the link cannot be loaded. */
  open(query?: string): void {
    const decoded = decodeShare(new URLSearchParams(query ?? ''), (n) => this.deps.scenarios.some((x) => x.name === n));
    const fallback = this.deps.scenarios[0].name;
    if (!decoded.state) {
      this.load(fallback);
      if (decoded.error) this.showError(decoded.error);
      return;
    }
    const { scenario, actions, step, seed, settings } = decoded.state;
    try {
      this.load(scenario, actions, { ...(settings ?? {}), ...(seed !== undefined ? { seed } : {}) });
      this.reachStep(step);
    } catch (err) {
      this.load(scenario);
      this.showError(`This link cannot be loaded: one of its actions is refused (${(err as Error).message})`);
    }
  }

  load(name: string, actions: TimedAction[] = [], diff: SettingsDiff = {}): void {
    this.loadScenario(applyDiff(this.deps.scenario(name), diff), actions);
    this.diff = diff;
    this.settings.render(this.lang, this.deps.scenario(name), diff);
  }

  /** Loads any scenario (a built-in one, or one from an imported file). Throws if the
   * simulation refuses it or one of the actions; the current run is then kept. */
  loadScenario(scenario: Scenario, actions: TimedAction[] = []): void {
    const run = new Run(this.deps.newPlayer, scenario, actions);
    this.stop();
    this.run?.free();
    this.selected = null;
    if (this.deps.scenarios.some((x) => x.name === scenario.name)) this.els.picker.value = scenario.name;
    this.timelineModel = new TimelineModel();
    this.assignmentModel = new AssignmentModel();
    this.run = run;
    this.lookAhead();
    this.render();
  }

  /** An exported run, read back: the page keeps the current run if the file is refused. */
  importText(text: string): void {
    const { run, error } = importRun(text);
    if (!run) {
      this.showError(error ?? '');
      return;
    }
    try {
      this.loadScenario(run.scenario, run.actions);
      this.reachStep(run.step);
    } catch (err) {
      this.showError(`This file is not a playground run the simulator accepts: ${(err as Error).message}`);
    }
  }

  /** The link that reopens this run at this step. */
  shareUrl(): string {
    const state: ShareState = { scenario: this.els.picker.value, step: this.run.cursor, actions: this.run.actions };
    if (!isEmpty(this.diff)) state.settings = this.diff;
    const url = new URL(this.deps.baseUrl ?? location.href);
    const keep = new URLSearchParams();
    const lang = url.searchParams.get('lang');
    if (lang) keep.set('lang', lang);
    url.search = encodeShare(state, keep).toString();
    return url.toString();
  }

  /** Takes the run to a step a link, a file or an embed asked for, as far as it can go, and
   * says so when that is short of the step. */
  private reachStep(step: number): void {
    const reached = this.run.reach(step);
    this.render();
    if (reached < step) this.showError(reachedEarly(this.lang, reached, step, MAX_REACH, STEPS_PAST_END));
  }

  private showError(message: string): void {
    this.els.message.textContent = message;
    this.els.message.classList.add('error');
  }

  /** Embedded: only the chosen views and the time controls. */
  private embed(views: Set<string>): void {
    this.root.classList.add('embedded');
    const keep: Record<ViewName, HTMLElement> = {
      sm: this.sm.root,
      timeline: this.timeline.root,
      assignments: this.assignments.root,
      steps: this.stepTable.root,
    };
    for (const [name, el] of Object.entries(keep)) el.hidden = !views.has(name);
    this.ownership.root.hidden = !views.has('assignments');
    this.els.consumers.hidden = true;
    this.els.metrics.hidden = true;
    this.els.help.hidden = true;
    this.els.picker.parentElement!.hidden = true;
    this.els.description.hidden = true;
    this.compare.root.hidden = true;
    this.settings.root.hidden = true;
  }

  /** Restarts the run with changed settings; a refused setting is named and nothing changes. */
  applySettings(diff: SettingsDiff): void {
    const name = this.els.picker.value;
    try {
      this.loadScenario(applyDiff(this.deps.scenario(name), diff));
      this.diff = diff;
      this.settings.render(this.lang, this.deps.scenario(name), this.diff);
    } catch (err) {
      this.showError((err as Error).message);
    }
  }

  /** Runs the scenario to its end once, to size and paint the scrubber: in slices of ~8 ms
   * between frames (a 50-consumer group's look-ahead is 20,000 steps, a second of work that
   * used to freeze the page on loading it). A newer load cancels an older look-ahead. */
  private lookAhead(): void {
    const ticket = ++this.lookAheadTicket;
    this.preview = { steps: 0, marks: [] };
    const ahead = new Run(this.deps.newPlayer, this.run.scenario);
    const end = this.run.scenario.durationMs ?? 60_000;
    // Idle time between frames where the browser offers it (playing is not slowed down).
    const later = (f: (budget: number) => void) =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback((d) => f(Math.max(1, d.timeRemaining())), { timeout: 200 })
        : setTimeout(() => f(8), 0);
    const slice = (budget: number) => {
      if (ticket !== this.lookAheadTicket) {
        ahead.free();
        return;
      }
      const start = performance.now();
      let more = true;
      try {
        while ((more = ahead.now < end && ahead.cursor < 20_000 && ahead.forward()) && performance.now() - start < budget) {
          /* run ahead */
        }
      } catch {
        more = false;
      }
      if (more) {
        later(slice);
        return;
      }
      this.preview = { steps: ahead.cursor, marks: scrubMarks(ahead) };
      ahead.free();
      this.renderControls();
      this.renderScrubMarks();
    };
    slice(8);
  }

  private lookAheadTicket = 0;

  setLang(lang: Lang): void {
    this.lang = lang;
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    this.deps.onLang?.(lang);
    this.render();
  }

  stepOnce(): void {
    this.stop();
    this.safely(() => this.run.forward());
    this.render();
  }

  goto(step: number): void {
    this.stop();
    this.safely(() => this.run.goto(step));
    this.render();
  }

  act(action: Action): void {
    this.safely(() => this.run.act(action));
    this.render();
  }

  toggle(): void {
    if (this.playing) this.stop();
    else this.playStart();
    this.renderControls();
  }

  private playStart(): void {
    if (this.run.pastEnd) return;
    this.playing = true;
    // The narration changes every frame while playing: a screen reader is told when the run
    // pauses or steps, not 60 times a second.
    this.els.narration.setAttribute('aria-live', 'off');
    this.lastFrame = performance.now();
    this.budget = 0;
    this.frame = requestAnimationFrame((ts) => this.tick(ts));
  }

  stop(): void {
    const was = this.playing;
    this.playing = false;
    this.els.narration.setAttribute('aria-live', 'polite');
    cancelAnimationFrame(this.frame);
    if (was) this.render();
  }

  private tick(ts: number): void {
    if (!this.playing) return;
    const start = performance.now();
    const rate = SPEEDS[this.speed];
    this.budget += rate === Infinity ? Infinity : ((ts - this.lastFrame) / 1000) * rate;
    this.lastFrame = ts;
    // At full speed, step for 2 ms of script time per frame, the rest of the frame being for
    // drawing and the browser; otherwise the dial's rate. Measured in e2e (50 consumers, a
    // 2-core machine without a GPU, 3 runs each, text throttled as below): 2 ms left 0-2 % of
    // frames late and script time at most 9-16 ms a frame, simulating ~50 s per second; 4 ms:
    // 1-4 % late, frames of up to 25-38 ms, twice the speed. Adapting it to late frames (cut
    // after a late frame, raised while on time) cost speed and saved no frames.
    let moved = false;
    while (this.budget >= 1 && performance.now() - start < 2) {
      if (this.run.pastEnd || !this.run.forward()) break;
      this.budget -= 1;
      moved = true;
    }
    this.spent('step', start);
    if (this.budget === Infinity) this.budget = 0;
    // Stop in the frame that reached the end (drawing everything, as a pause does), so the page
    // never shows the end while playing. Otherwise a frame redraws what moves.
    if (this.run.pastEnd) this.stop();
    else {
      if (moved) this.renderViews();
      this.textStale ||= moved;
      // The text that follows every step (clock, step number, scrubber, narration) is written
      // at most every 125 ms while playing: faster than that it cannot be read, and each write
      // far above the timeline made the browser repaint and composite everything between the
      // two (the damage is one rectangle). Measured in e2e (50 consumers, no GPU): software
      // compositing from 1.3-1.7 s to 0.25-0.43 s per 3 s of play, late frames from 5-7 % to 0-2 %.
      if (this.textStale && start - this.textDrawn >= 125) {
        this.textStale = false;
        this.textDrawn = start;
        const t0 = performance.now();
        this.renderControls();
        this.renderNarration();
        this.spent('text', t0);
      }
    }
    this.frameTimes.push(performance.now() - start);
    this.frameStamps.push(ts);
    if (this.frameTimes.length > 2000) {
      this.frameTimes.shift();
      this.frameStamps.shift();
    }
    if (this.playing) this.frame = requestAnimationFrame((next) => this.tick(next));
  }

  select(index: number): void {
    this.selected = index;
    this.renderViews();
  }

  private safely(f: () => void): void {
    this.els.shareLink.hidden = true;
    try {
      f();
      setText(this.els.message, '');
      this.els.message.classList.remove('error');
    } catch (err) {
      // Written even when the same: a screen reader announces a refusal each time it happens.
      this.els.message.textContent = (err as Error).message;
      this.els.message.classList.add('error');
    }
  }

  private key(ev: KeyboardEvent): void {
    const target = ev.target as HTMLElement;
    if (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'range') return;
    if (target.tagName === 'SELECT' || target.tagName === 'TEXTAREA') return;
    const keys: Record<string, () => void> = {
      ' ': () => this.toggle(),
      ArrowRight: () => this.stepOnce(),
      ArrowLeft: () => this.goto(this.run.cursor - 1),
      Home: () => this.goto(0),
      '+': () => {
        this.speed = Math.min(SPEEDS.length - 1, this.speed + 1);
        this.renderControls();
      },
      '-': () => {
        this.speed = Math.max(0, this.speed - 1);
        this.renderControls();
      },
      l: () => this.setLang(this.lang === 'en' ? 'zh' : 'en'),
    };
    const f = keys[ev.key];
    if (f) {
      ev.preventDefault();
      f();
    }
  }

  // ---- rendering ---------------------------------------------------------------------------

  render(): void {
    const lang = this.lang;
    const e = this.els;
    const info = this.deps.scenarios;
    // Written only where the text changed: this runs on every step while paused, and a
    // rewritten text node costs the browser a style, shaping and layout pass.
    for (const opt of Array.from(e.picker.options)) {
      const i = info.find((x) => x.name === opt.value);
      if (i) setText(opt, i.title[lang]);
    }
    const scenario = this.run.scenario;
    setText(e.picker.previousElementSibling as HTMLElement, t('scenario', lang));
    setText(e.title, scenario.title[lang]);
    setText(e.description, scenario.description?.[lang] ?? '');
    setText(e.langButton, t('otherLang', lang));
    e.langButton.setAttribute('aria-label', t('switchLang', lang));
    setText(e.share, t('share', lang));
    e.shareLink.setAttribute('aria-label', t('share', lang));
    setText(e.exportButton, t('exportJson', lang));
    setText(e.exportHtml, t('exportHtml', lang));
    setText(e.importLabel, t('importJson', lang));
    e.importInput.setAttribute('aria-label', t('importRun', lang));
    e.picker.setAttribute('aria-label', t('scenario', lang));
    e.scrubber.setAttribute('aria-label', t('stepSlider', lang));
    setText(e.restart, `|◀ ${t('restart', lang)}`);
    setText(e.back, `◀ ${t('back', lang)}`);
    setText(e.step, `${t('step', lang)} ▶`);
    setText(this.root.querySelector('#speed-name') as HTMLElement, t('speed', lang));
    replaceChildrenIfChanged(
      e.help,
      h('summary', {}, `${t('help', lang)} ⌨`),
      h('ul', {}, ...SHORTCUTS.map(([k, what]) => h('li', {}, h('kbd', {}, k), ' ', what[lang]))),
    );
    this.renderControls();
    this.renderViews();
    // The closed panels are redrawn when what they show changed (language, scenario, settings);
    // an open one is left alone, with what the user is typing.
    if (!this.compare.root.open && this.compareLang !== lang) {
      this.compare.render();
      this.compareLang = lang;
    }
    const settingsKey = `${lang}|${this.els.picker.value}|${JSON.stringify(this.diff)}`;
    if (!this.settings.root.open && this.settingsKey !== settingsKey) {
      this.settings.render(lang, this.deps.scenario(this.els.picker.value), this.diff);
      this.settingsKey = settingsKey;
    }
  }

  private compareLang: Lang | null = null;
  private settingsKey = '';

  private spent(part: string, since: number): void {
    const ms = performance.now() - since;
    this.parts[part] = (this.parts[part] ?? 0) + ms;
    this.partsMax[part] = Math.max(this.partsMax[part] ?? 0, ms);
  }

  private renderControls(): void {
    const lang = this.lang;
    const e = this.els;
    const run = this.run;
    setText(e.play, this.playing ? `❚❚ ${t('pause', lang)}` : `▶ ${t('play', lang)}`);
    setText(e.speedLabel, SPEEDS[this.speed] === Infinity ? t('maxSpeed', lang) : `${SPEEDS[this.speed]}/s`);
    setText(e.clock, `${t('time', lang)} ${run.now} ms`);
    setText(e.stepNo, `${t('stepN', lang)} ${run.cursor}${run.pastEnd ? ` — ${t('end', lang)}` : ''}`);
    if (e.back.disabled !== (run.cursor === 0)) e.back.disabled = run.cursor === 0;
    if (e.step.disabled !== run.finished) e.step.disabled = run.finished;
    const max = String(Math.max(run.cursor, this.preview.steps));
    if (e.scrubber.max !== max) e.scrubber.max = max;
    if (e.scrubber.value !== String(run.cursor)) e.scrubber.value = String(run.cursor);
  }

  /** While playing, the state machine, timeline and narration follow every frame; the tables
   * at most every 300 ms (a 50-consumer group would not fit a frame otherwise). */
  renderViews(): void {
    const lang = this.lang;
    const run = this.run;
    const entries = run.entries;
    const tm = performance.now();
    this.timelineModel.update(entries);
    this.assignmentModel.update(entries);
    this.spent('models', tm);
    const onSelect = (i: number) => this.select(i);
    const nameOf = (id: string | null) => this.assignmentModel.nameOf(id);
    const t0 = performance.now();
    // The state machine only changes with the coordinator's events: skip reading the group
    // when none arrived since the last frame.
    if (!this.playing || entries.length < this.smSeen || lastCoordinatorEvent(entries, this.smSeen) >= 0) {
      this.sm.render(lang, stateMachineModel(run.steps, run.group), run.group, nameOf, onSelect);
    }
    this.smSeen = entries.length;
    this.spent('sm', t0);
    const t1 = performance.now();
    this.timeline.render(lang, this.timelineModel, run.now, this.selected, onSelect);
    this.spent('timeline', t1);
    // While playing, the narration is written with the other text by `tick`.
    if (!this.playing) this.renderNarration();
    const now = performance.now();
    if (this.playing && now - this.tablesDrawn < 300) return;
    this.tablesDrawn = now;
    this.renderMetrics();
    this.spent('metrics', now);
    // A large group's tables are redrawn when the run pauses, not while it plays (they would
    // not fit a frame); its metrics follow.
    if (this.playing && run.scenario.consumers.length > 12) return;
    this.renderScrubMarks();
    this.assignments.render(lang, this.assignmentModel, run.view, this.selected, onSelect);
    this.ownership.render(lang, () => run.ownership(), run.now);
    this.stepTable.render(
      lang,
      entries,
      (i) => run.text(i, lang),
      run.steps,
      this.selected,
      onSelect,
      (k) => this.goto(k),
    );
    this.renderConsumers();
  }

  private narrationSeen = 0;
  private narrationAt = -1;

  private renderNarration(): void {
    const entries = this.run.entries;
    const last = this.run.steps.at(-1);
    // The newest narration, found by looking only at entries that arrived since the last frame
    // (a run went back or restarted when there are fewer).
    if (entries.length < this.narrationSeen || (this.narrationAt >= 0 && entries[this.narrationAt]?.type !== 'narration')) {
      this.narrationSeen = 0;
      this.narrationAt = -1;
    }
    for (let i = this.narrationSeen; i < entries.length; i++) if (entries[i].type === 'narration') this.narrationAt = i;
    this.narrationSeen = entries.length;
    const note = this.narrationAt >= 0 ? entries[this.narrationAt] : undefined;
    const lines = [];
    for (let i = last?.first ?? 0; i < (last?.end ?? 0); i++) lines.push(this.run.text(i, this.lang));
    // The same three nodes every frame, their text written when it changes (new nodes every
    // frame would cost the browser a style and layout pass on them).
    if (this.els.narration.childNodes.length !== 3) replaceChildren(this.els.narration, h('strong'), h('br'), h('span'));
    const [strong, br, span] = Array.from(this.els.narration.childNodes) as HTMLElement[];
    const noteText = note?.type === 'narration' ? note.note[this.lang] : '';
    setText(strong, noteText);
    strong.hidden = !noteText;
    br.hidden = !noteText || lines.length === 0;
    setText(span, lines.join(' · '));
  }

  private renderConsumers(): void {
    const lang = this.lang;
    const view = this.run.view;
    const inScenario = new Set(this.run.scenario.consumers.map((c) => c.name));
    const configure = (name: string) => {
      if (this.deps.embed || !inScenario.has(name)) return null;
      const btn = h(
        'button',
        { type: 'button', 'data-action': 'settings', 'data-consumer': name, title: t('consumerSettings', lang) },
        '⚙',
      );
      btn.addEventListener('click', () => this.settings.openFor(name));
      return btn;
    };
    const rows = view.consumers.map((c) => {
      const running = c.life === 'running';
      const b = (label: string, action: Action, enabled: boolean) => {
        const btn = h('button', { type: 'button', disabled: !enabled, 'data-action': action.type, 'data-consumer': c.name }, label);
        btn.addEventListener('click', () => this.act(action));
        return btn;
      };
      return h(
        'tr',
        { 'data-consumer': c.name },
        h(
          'th',
          { scope: 'row' },
          c.name,
          c.isLeader ? h('span', { class: 'leader', title: t('leader', lang) }, ' ★') : null,
          c.groupInstanceId
            ? h('span', { class: 'badge static', title: `group.instance.id = ${c.groupInstanceId}` }, t('static', lang))
            : null,
        ),
        h(
          'td',
          { class: 'client-state', 'data-life': c.life, 'data-state': c.state },
          c.life === 'running' ? memberStateName(c.state, lang) : lifeName(c.life, lang),
          c.paused ? ` (${pauseName(c.paused, lang)})` : '',
          c.link.cut ? ' ✂' : '',
        ),
        h('td', { class: 'mono' }, c.generationId >= 0 ? String(c.generationId) : '—'),
        h(
          'td',
          { class: 'actions' },
          b(t('close', lang), { type: 'close', consumer: c.name }, running),
          b(t('crash', lang), { type: 'crash', consumer: c.name }, running),
          c.paused
            ? b(t('resume', lang), { type: 'resume', consumer: c.name }, true)
            : b(t('pauseC', lang), { type: 'pause', consumer: c.name, kind: 'gc' }, running),
          c.link.cut
            ? b(t('heal', lang), { type: 'heal', consumer: c.name }, true)
            : b(t('cut', lang), { type: 'cut', consumer: c.name }, true),
          b(t('start', lang), { type: 'start', consumer: c.name }, !running && c.life !== 'closing'),
          configure(c.name),
        ),
      );
    });
    const add = h('button', { type: 'button', id: 'add-consumer' }, `+ ${t('addConsumer', lang)}`);
    add.addEventListener('click', () => {
      // The world at the click (this panel's nodes outlive renders that change nothing in it).
      const now = this.run.view;
      const names = new Set(now.consumers.map((c) => c.name));
      let i = 1;
      while (names.has(`N${i}`)) i++;
      const topics = Object.keys(now.topics);
      this.act({ type: 'addConsumer', name: `N${i}`, topics });
    });
    const failover = h('button', { type: 'button', id: 'failover' }, t('failover', lang));
    failover.addEventListener('click', () => this.act({ type: 'failover', downMs: 1000 }));
    replaceChildrenIfChanged(
      this.els.consumers,
      h('h2', {}, t('consumers', lang)),
      h('table', { id: 'consumer-table' }, h('tbody', {}, ...rows)),
      h('div', { class: 'row' }, add, failover),
    );
  }

  private renderMetrics(): void {
    const lang = this.lang;
    const m = this.run.metrics();
    const row = (k: string, v: string, id: string) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', { id }, v));
    replaceChildrenIfChanged(
      this.els.metrics,
      h('h2', {}, t('metrics', lang)),
      h(
        'table',
        { id: 'metrics-table' },
        h(
          'tbody',
          {},
          row(t('rebalances', lang), String(m.rebalances), 'm-rebalances'),
          row(t('generation', lang), String(m.generationId), 'm-generation'),
          row(t('moved', lang), String(m.partitionsMoved), 'm-moved'),
          row(t('unowned', lang), `${m.unownedPartitionMs} ms`, 'm-unowned'),
          row(t('settled', lang), m.settled ? `${m.settledSinceMs} ms` : t('notSettled', lang), 'm-settled'),
          row(t('violations', lang), String(m.invariantViolations), 'm-violations'),
        ),
      ),
    );
  }

  /** The scrubber painted with generations (green), rebalances (orange) and faults (red): the
   * run ahead's, then this run's own once it has gone past it or forked. */
  private renderScrubMarks(): void {
    const max = Math.max(1, Number(this.els.scrubber.max));
    const own = this.run.actions.length > 0 || this.run.cursor > this.preview.steps;
    const marks = own ? scrubMarks(this.run) : this.preview.marks;
    replaceChildrenIfChanged(
      this.els.scrubMarks,
      ...marks.slice(-400).map((m) => h('span', { class: `sm-${m.kind}`, style: `left:${(m.step / max) * 100}%` })),
    );
  }
}

/** The index of the last coordinator event other than a fired heartbeat timer, looking only
 * at entries from `from` on (-1 if none there). */
function lastCoordinatorEvent(entries: readonly TraceEntry[], from: number): number {
  for (let i = entries.length - 1; i >= from && i >= 0; i--) {
    const e = entries[i];
    if (e.type === 'coordinator' && !(e.event.type === 'TimerFired' && e.event.key.startsWith('heartbeat'))) return i;
  }
  return -1;
}

/** The scrubber's marks: the steps at which a generation began, a rebalance started, or a
 * fault hit, as the model marked them in its step records. */
const MARK_CLASS: Record<StepMark, string> = { generation: 'gen', rebalance: 'rebalance', fault: 'fault' };

function scrubMarks(run: Run): { step: number; kind: string }[] {
  return run.steps.flatMap((st, k) => st.marks.map((m) => ({ step: k + 1, kind: MARK_CLASS[m] })));
}
