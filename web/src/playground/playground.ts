// The playground: pick a scenario, watch it step by step or play it, act on the group at any
// moment (acting in the past forks the run), in linked views drawn from the model's frames.
// This module assembles the parts: the store, the playback, the views and the shell features.

import { html } from 'lit-html';
import type { Player, Scenario, ScenarioInfo, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { type Lang, setDocumentLang } from '../common/i18n.ts';
import { isBrokerTrace } from '../common/live-feed.ts';
import { liveStatus } from '../common/live-text.ts';
import { clipped } from '../common/quote.ts';
import { AssignmentView } from './assignments.ts';
import { CompareView } from './compare.ts';
import { ConsumersView, MetricsView, UpcomingView } from './consumers.ts';
import { ControlsView } from './controls.ts';
import { element } from './element.ts';
import { importRun, type RunFile } from './exchange.ts';
import { LiveFeed } from './live.ts';
import { OwnershipView } from './ownership.ts';
import { Playback } from './playback.ts';
import { NeedsModule } from './recorded.ts';
import type { ConsumerPages } from './rows.ts';
import { MAX_REACH, type PlayerFactory, type Reaching, Run, STEPS_PAST_END, type TimedAction } from './run.ts';
import { applyDiff, type ConfigKey, isEmpty, type SettingsDiff, SettingsView } from './settings.ts';
import { decodeShare, encodeShare, type ShareState } from './share.ts';
import { downloadHtml, downloadJson } from './shell/download.ts';
import { applyEmbed, EMBED_STEP_ROWS, type EmbedOptions } from './shell/embed.ts';
import { installKeyboard } from './shell/keyboard.ts';
import { type PlaygroundTest, testSurface } from './shell/testing.ts';
import { StateMachineView } from './statemachine.ts';
import { StepTableView } from './steptable.ts';
import { Store } from './store.ts';
import { errorText, reachedEarly, reaching, reachStopped, reading, t } from './text.ts';
import { TimelineView } from './timeline.ts';
import { YourGroupView } from './your-group.ts';

export interface PlaygroundDeps {
  /** A simulation run straight to its end (compare). */
  newSimulation: (scenario: Scenario) => Simulation;
  /** The run the page plays, steps and forks. */
  newPlayer: PlayerFactory;
  /** A run that follows group-broker (`Player.live()`). */
  newLivePlayer?: () => Player;
  scenarios: ScenarioInfo[];
  scenario: (name: string) => Scenario;
  lang: Lang;
  onLang?: (lang: Lang) => void;
  /** Embedded in another page: no picker or side panels, only these views. */
  embed?: EmbedOptions;
  /** Where share links point (the page's own address by default). */
  baseUrl?: string;
  /** The address bar follows the run (the page itself; not an embed, an exported file or a
   * live run): its scenario, step, actions and language, so that a reload opens the same step
   * and Back returns to the scenario before. */
  followAddress?: boolean;
  brokerKeys?: ConfigKey[];
  consumerKeys?: ConfigKey[];
  /** Loads the WebAssembly module, when the page started from a recording (recorded.ts): after
   * it resolves, `newPlayer` makes the model's players. */
  loadModule?: () => Promise<void>;
  /** Adds the run's recording in `lang`, if there is one (false: the model is needed). */
  loadLanguage?: (lang: Lang) => Promise<boolean>;
  /** The model's reader of a real group's description (`importGroup`): with it, the "Your
   * group" panel. */
  importGroup?: (text: string) => Scenario;
}

/** A link's, a file's or an embed's far step: the first FIRST_SLICE_MS of the way are taken
 * before the page is first drawn (a near step is reached in them, as before), the rest in slices
 * of SLICE_MS with the page answering in between. */
const FIRST_SLICE_MS = 40;
const SLICE_MS = 40;

export class PlaygroundView {
  readonly root: HTMLElement;
  readonly test: PlaygroundTest;
  private readonly store: Store;
  private readonly playback: Playback;
  private readonly controls: ControlsView;
  private readonly settings: SettingsView;
  private readonly compare: CompareView;
  private readonly yourGroup: YourGroupView | null;
  /** Settings changed from the built-in scenario. */
  private diff: SettingsDiff = {};
  /** What the closed side panels were last drawn for (they are redrawn when it changes). */
  private panelsKey = '';
  /** The address the run last wrote (or opened with), and its scenario. */
  private address = '';
  private addressScenario = '';
  private addressTimer: ReturnType<typeof setTimeout> | null = null;
  /** A followed live run's feed, and the bar that says how following stands. */
  private live: LiveFeed | null = null;
  private readonly liveBar: HTMLElement;
  private readonly liveText: HTMLElement;
  /** Resolves once the run the page opened on is at the step its link or embed asked for (a
   * far step is reached in slices, `reachInSlices`). */
  opening: Promise<void> = Promise.resolve();
  /** Bumped when another run is loaded: a reach under way for the old one is dropped. */
  private reachTicket = 0;
  /** The reader's "Stop here": a reach under way ends where it is. */
  private stopAsked = false;
  private readonly reachBar: HTMLElement;
  private readonly reachText: HTMLElement;
  /** Handing a recorded run over to the model: the module's load, and what waits for it. */
  private handing: Promise<void> | null = null;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly deps: PlaygroundDeps,
    query?: string,
  ) {
    const store = (this.store = new Store(deps.lang));
    if (deps.embed?.autoHeight) store.wants.stepsSpan = EMBED_STEP_ROWS;
    if (deps.loadModule) store.needsModule = (need, retry) => this.handOver(need, retry);
    const playback = (this.playback = new Playback(store, deps.newPlayer));
    const select = (index: number) => {
      store.selected = index;
      // The step table shows the selection, wherever it was made.
      store.wants.stepsFrom = null;
      store.wants.stepsAround = index;
      store.refresh();
    };
    const redraw = () => store.refresh();
    this.controls = new ControlsView(store, playback, deps.scenarios, {
      load: (name) => this.controls.safely(() => this.load(name)),
      loadAtKey: (name) =>
        this.controls.safely(() => {
          this.load(name);
          const missing = this.reachKey();
          if (missing) throw new Error(missing);
        }),
      setLang: (lang) => this.setLang(lang),
      share: () => {
        if (store.run.scenario.live) throw new Error(t('liveNoShare', store.lang));
        return this.shareUrl();
      },
      exportJson: () => downloadJson(store.run),
      exportHtml: () =>
        downloadHtml(store.run, `${store.run.scenario.title[store.lang]} — Kafka group playground`).catch((err: Error) =>
          this.controls.say(err.message),
        ),
      importFile: (file) => {
        // A large file's reading and the model's building of it are long tasks (about half a
        // second each for 18 MB): said first, and drawn, before they start.
        const large = file.size > 1_000_000;
        if (large) this.setReaching(reading(this.store.lang, file.name, file.size), false);
        void file.text().then((text) => {
          if (!large) return this.importText(text, file.name);
          // (A moment for the bar to be drawn.)
          setTimeout(() => {
            this.setReaching(null);
            this.importText(text, file.name, true);
          }, 50);
        });
      },
      keepActions: (keep) => this.keepActions(keep),
    });
    const act = (action: Parameters<Playback['act']>[0]) => this.controls.safely(() => playback.act(action));
    // One page for the consumers' rows (their table, their state machines, their assignments
    // and their timeline lanes), so that a row is the same consumer in each.
    const pages: ConsumerPages = {
      from: () => store.wants.rowsFrom,
      go: (from) => {
        store.wants.rowsFrom = Math.max(0, from);
        store.refresh();
      },
    };
    const sm = new StateMachineView(select, pages);
    const timeline = new TimelineView(store, select, redraw, pages);
    const assignments = new AssignmentView(
      select,
      (show) => {
        store.wants.changedOnly = !show;
        store.refresh();
      },
      pages,
    );
    const ownership = new OwnershipView();
    const steps = new StepTableView(store, select, (k) => this.controls.safely(() => playback.goto(k)), redraw);
    const inScenario = (name: string) => store.run.scenario.consumers.some((c) => c.name === name);
    const consumers = new ConsumersView({
      act,
      inScenario,
      configure: deps.embed ? undefined : (name) => this.settings.openFor(name),
      pages,
      // (A consumer is the scenario's or one the user added.)
      names: () => [
        ...store.run.scenario.consumers.map((c) => c.name),
        ...store.run.actions.flatMap(({ action }) => (action.type === 'addConsumer' ? [action.name] : [])),
      ],
    });
    const metrics = new MetricsView();
    const upcoming = new UpcomingView(act);
    this.settings = new SettingsView({
      brokerKeys: deps.brokerKeys ?? [],
      consumerKeys: deps.consumerKeys ?? [],
      apply: (diff) => this.applySettings(diff),
    });
    this.compare = new CompareView({
      factory: deps.newSimulation,
      current: () => ({
        scenario: structuredClone(store.run.scenario),
        builtIn: this.isBuiltIn(store.run.scenario.name),
        diff: this.diff,
      }),
      builtIn: (n) => deps.scenario(n),
      link: (name, diff) => this.linkTo(name, diff),
      lang: () => store.lang,
    });
    const importGroup = deps.importGroup;
    this.yourGroup = importGroup
      ? new YourGroupView({
          importGroup,
          factory: deps.newSimulation,
          open: (s) => {
            this.loadScenario(s);
            this.diff = {};
            this.renderPanels(true);
            this.root.focus();
          },
          current: () => store.run.importGroup(),
          application: () => this.compare.application(),
          lang: () => store.lang,
        })
      : null;
    store.subscribe('controls', (frame) => this.controls.render(frame));
    store.subscribe('sm', (frame) => sm.render(frame, store.lang));
    store.subscribe(
      'timeline',
      (frame) => frame.timeline && timeline.render(frame.timeline, store.lang, store.selected, frame.upcoming, frame.nowMs),
    );
    store.subscribe('tables', (frame, full) => {
      if (!full) return;
      if (frame.assignments) assignments.render(frame.assignments, store.lang, store.selected);
      if (frame.steps) steps.render(frame.steps, store.lang, store.selected);
      if (frame.consumers)
        consumers.render(
          frame.consumers,
          frame.consumerCount ?? frame.consumers.length,
          frame.topics ?? [],
          store.lang,
          frame.partitionCounts ?? [],
        );
      if (frame.metrics) metrics.render(frame.metrics, store.lang);
      if (frame.upcoming) upcoming.render(frame.upcoming, store.lang);
      ownership.render(store.lang, () => store.run.ownership(), frame.nowMs);
      this.renderPanels();
    });
    this.liveText = element(html`<p id="pg-live-status" role="status"></p>`);
    const stopLive = () => {
      this.live?.stop();
      this.renderLive();
    };
    // "What if this group restarts now?": the live group, taken into the Your group panel.
    const whatIf = this.yourGroup
      ? html`<button id="pg-live-what-if" type="button" @click=${() => this.yourGroup?.takeCurrent()}></button>`
      : null;
    this.liveBar = element(
      html`<section id="pg-live" class="live-bar" hidden>${this.liveText}<button id="pg-stop-live" type="button" @click=${stopLive}></button>${whatIf}</section>`,
    );
    store.subscribe('live', () => this.renderLive());
    this.reachText = element(html`<p id="pg-reach-status" role="status"></p>`);
    const stopReach = () => {
      this.stopAsked = true;
    };
    // The button first: the status before it would move it at every slice as its count grows.
    this.reachBar = element(
      html`<section id="pg-reach" class="live-bar" hidden><button id="pg-stop-reach" type="button" @click=${stopReach}>${t('stopReaching', deps.lang)}</button>${this.reachText}</section>`,
    );
    playback.onChange = () => this.controls.draw();
    playback.onHalt = (why) => this.controls.say(t(why, store.lang), false);
    this.root = element(html`<div class="playground" id="playground" tabindex="-1">
      ${this.reachBar}${this.liveBar}${this.controls.root}
      <div class="pg-views">${sm.root}<div class="side">${assignments.root}${ownership.root}</div></div>
      ${timeline.root}
      <div class="pg-bottom">${steps.root}<div class="side">${consumers.root}${upcoming.root}${metrics.root}</div></div>
      ${this.settings.root}${this.compare.root}${this.yourGroup?.root}
    </div>`);
    installKeyboard(
      {
        toggle: () => playback.toggle(),
        step: () => this.controls.safely(() => playback.stepOnce()),
        back: () => this.controls.safely(() => playback.back()),
        restart: () => this.controls.safely(() => playback.goto(0)),
        keyMoment: () => this.controls.keyMoment(),
        nextMoment: () => this.controls.moment(true),
        prevMoment: () => this.controls.moment(false),
        faster: () => this.controls.setSpeed(playback.speed + 1),
        slower: () => this.controls.setSpeed(playback.speed - 1),
        switchLang: () => this.setLang(store.lang === 'en' ? 'zh' : 'en'),
      },
      // (Not while a far step is being reached: the page is inert but for its stop button.)
      () => this.root.isConnected && this.reachBar.hidden !== false,
    );
    this.test = testSurface(store, playback, act);
    this.open(query);
    if (!deps.embed) this.addSkipLink();
    if (deps.followAddress) {
      this.address = this.shareUrl();
      this.addressScenario = store.run.scenario.name;
      store.subscribe('address', () => this.noteAddress());
      // Back and forward: the run the address holds, in the language it names.
      window.addEventListener('popstate', () => {
        const lang = new URLSearchParams(location.search).get('lang');
        if ((lang === 'en' || lang === 'zh') && lang !== store.lang) this.setLang(lang);
        this.open(location.search);
        this.address = this.shareUrl();
        this.addressScenario = store.run.scenario.name;
      });
    }
    if (deps.embed) {
      applyEmbed(this.root, deps.embed, {
        views: { sm: sm.root, timeline: timeline.root, assignments: assignments.root, steps: steps.root },
        hidden: [
          consumers.root,
          // (What happens next is the playground's side panel too: not a view an embed asks for.)
          upcoming.root,
          metrics.root,
          this.settings.root,
          this.compare.root,
          ...(this.yourGroup ? [this.yourGroup.root] : []),
          ...(deps.embed.views.has('assignments') ? [] : [ownership.root]),
        ],
      });
      this.controls.root.querySelector<HTMLElement>('#help')?.setAttribute('hidden', '');
      // Views it does not have are named above the ones it does (or above the narration).
      if (deps.embed.unknownViews.length) {
        const note = t('unknownViews', store.lang).replace('{views}', deps.embed.unknownViews.map((v) => `"${clipped(v)}"`).join(', '));
        this.root.prepend(element(html`<p class="embed-error message error" role="alert" id="embed-views-error">${note}</p>`));
      }
      if (deps.embed.autoplay && !this.root.classList.contains('refused')) playback.toggle();
    }
  }

  /** Loads the module and goes on with the model from the same step, then does what the
   * recording could not (`retry`); what the user asks meanwhile waits its turn. Another
   * language first tries that language's recording of the run. */
  private handOver(need: NeedsModule, retry: () => void): void {
    const { lang } = need;
    if (lang && this.deps.loadLanguage && !this.handing) {
      this.deps.loadLanguage(lang).then(
        (found) => (found ? retry() : this.handOver(new NeedsModule('the other language'), retry)),
        () => this.handOver(new NeedsModule('the other language'), retry),
      );
      return;
    }
    this.waiting.push(retry);
    const load = this.deps.loadModule;
    if (this.handing || !load) return;
    this.playback.stop();
    this.controls.say(t('loadingModel', this.store.lang), false);
    document.body.dataset.model = 'loading';
    this.handing = load().then(
      () => {
        this.store.run.upgrade(this.deps.newPlayer);
        this.store.needsModule = null;
        document.body.dataset.model = 'module';
        this.controls.clear();
        this.store.refresh();
        for (const f of this.waiting.splice(0)) f();
      },
      (err: Error) => {
        this.handing = null;
        this.waiting.length = 0;
        document.body.dataset.model = 'recorded';
        // The views go back to what the recording can draw; the run stays where it is.
        const lang = this.store.lang;
        this.store.revert();
        if (this.store.lang !== lang) this.setLang(this.store.lang);
        else this.store.refresh();
        this.controls.say(`${t('modelFailed', this.store.lang)} ${err.message}`);
      },
    );
  }

  /** Opens a shared run (`?scenario=...&actions=...&step=...`), or the first scenario with the
   * reason when the link cannot be loaded. */
  open(query?: string): void {
    const decoded = decodeShare(new URLSearchParams(query ?? ''), (n) => this.deps.scenarios.some((x) => x.name === n));
    if (!decoded.state) {
      this.load(this.deps.scenarios[0].name);
      if (decoded.error && this.deps.embed) this.refuseEmbed(decoded.error);
      else if (decoded.error) this.controls.say(decoded.error);
      return;
    }
    const { scenario, actions, step, seed, settings, moment } = decoded.state;
    const refused = (err: unknown) => {
      this.load(scenario);
      this.controls.say(`This link cannot be loaded: one of its actions is refused (${errorText(err, this.store.lang)})`);
    };
    try {
      this.load(scenario, actions, { ...(settings ?? {}), ...(seed !== undefined ? { seed } : {}) });
      // A named moment (`moment=key`) opens the run there; a step given too is ignored.
      if (moment === 'key') {
        const said = [decoded.notice, this.reachKey()].filter(Boolean).join(' ');
        if (said) this.controls.say(said);
        return;
      }
      this.reach(
        this.store.run,
        step,
        (early, stopped) => {
          this.store.refresh();
          const said = [decoded.notice, early].filter(Boolean).join(' ');
          if (said) this.controls.say(said, !stopped);
        },
        refused,
      );
    } catch (err) {
      refused(err);
    }
  }

  /** Takes `run` to a step a link, a file or an embed asked for, as far as it can go: at once
   * when that takes at most FIRST_SLICE_MS, otherwise in slices (`reachInSlices`, `opening`
   * resolving at the end). `done` is told what to say (null: nothing; the step reached short of
   * the one asked for, or where the reader stopped it) and whether the reader stopped it. */
  private reach(
    run: Run,
    step: number,
    done: (said: string | null, stopped: boolean) => void,
    refused: (err: unknown) => void,
    dropped?: () => void,
  ): void {
    const r = run.startReach(step);
    const finish = (stopped: boolean) => {
      const lang = this.store.lang;
      if (stopped) done(reachStopped(lang, run.cursor, r.target), true);
      else done(run.cursor < step ? reachedEarly(lang, run.cursor, step, MAX_REACH, STEPS_PAST_END) : null, false);
    };
    if (run.reachOn(r, performance.now() + FIRST_SLICE_MS)) finish(false);
    else this.opening = this.reachInSlices(run, r, finish, refused, dropped);
  }

  /** Takes `r` on in slices of SLICE_MS, the page drawn and answering between them, with its
   * progress shown and a button that stops it where it is: `done(stopped)` when it ends there
   * or at its target, `refused` when the model refuses an action on the way, `dropped` when
   * another run was loaded meanwhile. A link to step 50,000 of the 50-consumer group was one
   * 2.5 s task. */
  private reachInSlices(
    run: Run,
    r: Reaching,
    done: (stopped: boolean) => void,
    refused: (err: unknown) => void,
    dropped: () => void = () => {},
  ): Promise<void> {
    const ticket = ++this.reachTicket;
    this.stopAsked = false;
    const lang = this.store.lang;
    this.setReaching(reaching(lang, run.cursor, r.target));
    return new Promise((resolve) => {
      let arrived = false;
      const slice = () => {
        try {
          if (ticket !== this.reachTicket) {
            this.setReaching(null);
            dropped();
          } else if (!this.stopAsked && !run.reachOn(r, performance.now() + SLICE_MS)) {
            this.setReaching(reaching(lang, run.cursor, r.target));
            setTimeout(slice, 0);
            return;
          } else if (!arrived) {
            // The run is drawn in a task of its own: the last slice and the first drawing of a
            // large group (its frame, its timeline's lanes) were one task of 400 ms.
            arrived = true;
            setTimeout(slice, 0);
            return;
          } else {
            this.setReaching(null);
            done(this.stopAsked);
          }
        } catch (err) {
          this.setReaching(null);
          refused(err);
        }
        resolve();
      };
      setTimeout(slice, 0);
    });
  }

  /** Shows a long reach's progress (`text`), the rest of the page inert meanwhile; null: done. */
  private setReaching(text: string | null, stoppable = true): void {
    this.reachBar.hidden = text === null;
    const stop = this.reachBar.querySelector<HTMLButtonElement>('#pg-stop-reach');
    if (stop) stop.hidden = !stoppable;
    if (text !== null) this.reachText.textContent = text;
    for (const child of Array.from(this.root.children)) if (child !== this.reachBar) (child as HTMLElement).inert = text !== null;
  }

  load(name: string, actions: TimedAction[] = [], diff: SettingsDiff = {}): void {
    this.loadScenario(applyDiff(this.deps.scenario(name), diff), actions);
    this.diff = diff;
    this.renderPanels(true);
  }

  /** Loads any scenario (a built-in one, or one from an imported file). Throws if the model
   * refuses it or one of its actions; the current run is then kept. */
  loadScenario(scenario: Scenario, actions: TimedAction[] = []): void {
    this.useRun(new Run(this.deps.newPlayer, scenario, actions));
  }

  private useRun(run: Run, live: LiveFeed | null = null): void {
    // A reach under way on the run this one replaces stops.
    this.reachTicket++;
    this.playback.stop();
    this.live?.stop();
    this.live = live;
    this.root?.classList.toggle('following', live !== null);
    this.store.run?.free();
    this.store.run = run;
    this.store.selected = null;
    this.store.wants.stepsFrom = null;
    this.store.wants.stepsAround = null;
    this.store.refresh();
    this.playback.lookAhead();
  }

  /** Follows group-broker's live feed at `url` (ws:// or wss://): its clients' requests, as
   * the broker took them, drive this page's own model, and every view draws the group they
   * make. A bad address is said, and the current run stays. */
  followLive(url: string): void {
    this.controls.safely(() => {
      const run = this.liveRun();
      const feed = LiveFeed.connect(run, url, () => this.store.refresh(), this.store.lang);
      this.useRun(run, feed);
    });
  }

  /** A trace file group-broker wrote (`--trace`), followed to its end. */
  readTrace(text: string, name: string): void {
    this.controls.safely(() => {
      const run = this.liveRun();
      this.useRun(run, new LiveFeed(run, name, () => {}));
      const feed = LiveFeed.read(run, text, name, () => this.store.refresh());
      this.live = feed;
      this.store.refresh();
    });
  }

  private liveRun(): Run {
    if (!this.deps.newLivePlayer) throw new Error('this page cannot follow a broker');
    return Run.live(this.deps.newLivePlayer());
  }

  private renderLive(): void {
    const live = this.live;
    this.liveBar.hidden = live === null;
    if (!live) return;
    const lang = this.store.lang;
    this.liveText.textContent = liveStatus(live.status, live.source, live.closed, lang, live.end);
    this.liveText.classList.toggle('error', live.stopped || (live.end !== null && live.end.kind !== 'closed'));
    const stop = this.liveBar.querySelector<HTMLButtonElement>('#pg-stop-live');
    if (stop) {
      stop.textContent = t('stopFollowing', lang);
      stop.hidden = live.closed;
    }
    const whatIf = this.liveBar.querySelector<HTMLButtonElement>('#pg-live-what-if');
    if (whatIf) whatIf.textContent = t('liveWhatIf', lang);
  }

  /** Replays the run with only the user's actions `keep` accepts (by their index), and returns to
   * the step it was at (as far as the new run goes). */
  keepActions(keep: (index: number) => boolean): void {
    const run = this.store.run;
    const step = run.cursor;
    const actions = run.actions.filter((_, i) => keep(i));
    this.loadScenario(run.scenario, actions);
    this.store.run.goto(step);
    this.store.refresh();
  }

  /** An exported run, read back: the page keeps the current run if the file is refused. A
   * large file is read in one task and built by the model in the next (`apart`): together they
   * were a task of over a second for 18 MB, which a slower machine took past it. */
  importText(text: string, name = 'trace', apart = false): void {
    if (isBrokerTrace(text)) {
      this.readTrace(text, name);
      return;
    }
    const { run, error } = importRun(text);
    if (!run) {
      this.controls.say(error ?? '');
      return;
    }
    if (apart) setTimeout(() => this.buildImported(run), 0);
    else this.buildImported(run);
  }

  /** Builds an imported run and takes it to its step, apart from the page's run. */
  private buildImported(run: RunFile): void {
    // Built and taken to its step apart from the page's run (in slices when far, the page's own
    // run shown meanwhile), which it replaces only once all of it is accepted: an action refused
    // on the way once left the page on the half-loaded file while it said the current run was kept.
    let imported: Run | null = null;
    const refused = (err: unknown) => {
      imported?.free();
      this.controls.say(`This file is not a playground run the simulator accepts: ${errorText(err, this.store.lang)}`);
    };
    try {
      imported = new Run(this.deps.newPlayer, run.scenario, run.actions);
      this.reach(
        imported,
        run.step,
        (said, stopped) => {
          const taken = imported as Run;
          imported = null;
          this.useRun(taken);
          if (said) this.controls.say(said, !stopped);
        },
        refused,
        () => imported?.free(),
      );
    } catch (err) {
      refused(err);
    }
  }

  /** The page's first stop for the keyboard: past the header, the picker and the cases, to
   * the run's Play button. */
  private addSkipLink(): void {
    document.getElementById('skip-to-run')?.remove();
    const skip = (e: Event) => {
      e.preventDefault();
      this.root.querySelector<HTMLElement>('#play')?.focus();
    };
    document.body.prepend(
      element(html`<a href="#play" id="skip-to-run" class="skip-link" @click=${skip}>${t('skipToRun', this.store.lang)}</a>`),
    );
  }

  /** An embed whose link cannot open its run says so, in place of the run: nothing plays
   * beneath the error (a reader would take the default scenario for the one asked for). */
  private refuseEmbed(error: string): void {
    this.playback.stop();
    this.root.classList.add('refused');
    this.root.prepend(element(html`<p class="embed-error message error" role="alert" id="embed-error">${error}</p>`));
  }

  /** The run moved: its address is written at most every 250 ms (a browser throttles a page
   * that rewrites its address on every step of a fast play). */
  private noteAddress(): void {
    if (this.addressTimer !== null) return;
    this.addressTimer = setTimeout(() => {
      this.addressTimer = null;
      this.writeAddress();
    }, 250);
  }

  /** A new step, action or setting replaces the address; a new scenario pushes one (Back
   * returns to the one before). A run no address can hold (an imported file's own scenario, a
   * live group) leaves the address of the page alone, without a run. */
  private writeAddress(): void {
    const run = this.store.run;
    const name = run.scenario.name;
    const held = !run.scenario.live && this.deps.scenarios.some((s) => s.name === name);
    let url: string;
    if (held) url = this.shareUrl();
    else {
      const bare = new URL(location.href);
      bare.search = '';
      const lang = new URL(location.href).searchParams.get('lang');
      if (lang) bare.searchParams.set('lang', lang);
      url = bare.toString();
    }
    if (url === this.address) return;
    const pushed = name !== this.addressScenario;
    this.address = url;
    this.addressScenario = name;
    if (pushed) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** The link that reopens this run at this step. */
  shareUrl(): string {
    const run = this.store.run;
    const state: ShareState = { scenario: run.scenario.name, step: run.cursor, actions: run.actions };
    if (!isEmpty(this.diff)) state.settings = this.diff;
    return this.urlOf(state);
  }

  /** A link opening the built-in scenario `name` with `diff`, from its start. */
  private linkTo(name: string, diff: SettingsDiff): string {
    return this.urlOf({ scenario: name, step: 0, actions: [], settings: isEmpty(diff) ? undefined : diff });
  }

  private isBuiltIn(name: string): boolean {
    try {
      this.deps.scenario(name);
      return true;
    } catch {
      return false;
    }
  }

  private urlOf(state: ShareState): string {
    const url = new URL(this.deps.baseUrl ?? location.href);
    const keep = new URLSearchParams();
    const lang = url.searchParams.get('lang');
    if (lang) keep.set('lang', lang);
    url.search = encodeShare(state, keep).toString();
    return url.toString();
  }

  setLang(lang: Lang): void {
    this.store.lang = lang;
    setDocumentLang(lang);
    const skip = document.getElementById('skip-to-run');
    if (skip) skip.textContent = t('skipToRun', lang);
    if (this.deps.followAddress) {
      // The language is part of the address (and of the links made from it).
      const url = new URL(location.href);
      url.searchParams.set('lang', lang);
      history.replaceState(null, '', url);
      this.address = '';
    }
    this.deps.onLang?.(lang);
    this.store.refresh();
  }

  /** Restarts the run with changed settings; a refused setting is named and nothing changes. */
  applySettings(diff: SettingsDiff): void {
    const name = this.store.run.scenario.name;
    try {
      this.loadScenario(applyDiff(this.deps.scenario(name), diff));
      this.diff = diff;
      this.renderPanels(true);
      // (A refusal said before is answered: its field was fixed.)
      this.controls.clear();
    } catch (err) {
      // Said once: at the field the model refused, or on the message line when no field is it.
      const { message, path } = err as Error & { path?: string };
      const atField = this.settings.refuse(
        message,
        path ?? '',
        this.deps.scenario(name).consumers.map((c) => c.name),
      );
      if (!atField) this.controls.say(message);
    }
  }

  /** Takes the run to its key moment (a link's or an embed's `moment=key`); returns what to say
   * when the scenario names none. */
  private reachKey(): string | null {
    const found = this.store.run.seekKey();
    this.store.refresh();
    return found === null ? t('noKeyMoment', this.store.lang) : null;
  }

  /** The settings and compare panels are redrawn when what they show changed (language,
   * scenario, settings); an open one is left alone, with what the user is typing. */
  private renderPanels(force = false): void {
    const name = this.store.run.scenario.name;
    const key = `${this.store.lang}|${name}|${JSON.stringify(this.diff)}`;
    if (!force && key === this.panelsKey) return;
    this.panelsKey = key;
    if (this.deps.scenarios.some((s) => s.name === name) && (force || !this.settings.root.open)) {
      this.settings.render(this.store.lang, this.deps.scenario(name), this.diff);
    }
    if (!this.compare.root.open) this.compare.render();
    if (this.yourGroup && !this.yourGroup.root.open) this.yourGroup.render();
  }
}
