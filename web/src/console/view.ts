// The protocol console: compose a request (or step through a scripted example), send it at a
// virtual time or move the clock, and see the responses, the group and the events.

import type { ConfigKeyInfo, Player, Request } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../common/dom.ts';
import { type Lang, setDocumentLang } from '../common/i18n.ts';
import { type FeedEnd, liveFeedUrl, openLiveFeed } from '../common/live-feed.ts';
import { badLiveUrl, liveStatus } from '../common/live-text.ts';
import { EXAMPLES } from './examples.ts';
import { LiveRun } from './live.ts';
import { type ModelWords, renderGroup, renderLog } from './panels.ts';
import { ScriptRunner } from './script.ts';
import { type CoordinatorFactory, type Exchange, Session } from './session.ts';
import { badAt, type ConsoleTextKey, ct, exchanged, loaded } from './text.ts';

export interface ConsoleDeps {
  factory: CoordinatorFactory;
  /** The model's follower of a live run, which checks it (`Player.live()`). */
  newLivePlayer: () => Player;
  /** A member's assignment bytes (base64) in words, when they are the consumer protocol's. */
  assignment?: (base64: string) => string | null;
  /** Error names, requests in one line and short member ids, in the model's words. */
  words: ModelWords;
  apis: { name: string; maxVersion: number }[];
  configKeys: ConfigKeyInfo[];
  lang: Lang;
  /** Told when the user switches the language. */
  onLang?: (lang: Lang) => void;
}

/** How long the console applies a live feed's lines in one frame. */
const LIVE_BUDGET_MS = 25;

/** A live run the console follows: the run, where it comes from, and whether (and why) its feed
 * ended. */
interface ConsoleLive {
  run: LiveRun;
  /** Lines received and not yet applied (see `liveLine`). */
  queue: string[];
  source: string;
  closed: boolean;
  end: FeedEnd | null;
  socket?: WebSocket;
}

export class ConsoleView {
  session: Session;
  lang: Lang;
  runner: ScriptRunner;
  readonly root: HTMLElement;
  private readonly els: {
    example: HTMLSelectElement;
    steps: HTMLOListElement;
    stepButton: HTMLButtonElement;
    api: HTMLSelectElement;
    version: HTMLSelectElement;
    at: HTMLInputElement;
    body: HTMLTextAreaElement;
    message: HTMLElement;
    group: HTMLElement;
    log: HTMLElement;
    config: HTMLElement;
    clock: HTMLElement;
    persistError: HTMLSelectElement;
    live: HTMLElement;
    liveStatus: HTMLElement;
    openTrace: HTMLInputElement;
  };
  /** A followed live run (group-broker's feed or trace file), when there is one. */
  private live: ConsoleLive | null = null;
  private renderQueued = false;

  constructor(
    private readonly deps: ConsoleDeps,
    exampleId = EXAMPLES[0].id,
  ) {
    this.lang = deps.lang;
    this.session = new Session(deps.factory);
    this.runner = new ScriptRunner(EXAMPLES.find((e) => e.id === exampleId) ?? EXAMPLES[0]);
    const els = {
      example: h('select', { id: 'example', 'data-ct-aria': 'example' }),
      steps: h('ol', { id: 'steps', class: 'steps' }),
      stepButton: h('button', { id: 'next-step', type: 'button', class: 'primary', 'data-ct': 'nextStep' }),
      api: h('select', { id: 'api', 'data-ct-aria': 'requestType' }),
      version: h('select', { id: 'api-version', 'data-ct-aria': 'apiVersion' }),
      at: h('input', { id: 'at', type: 'number', min: '0', step: '1', 'data-ct-aria': 'atAria' }),
      body: h('textarea', { id: 'request', spellcheck: 'false', rows: '14', 'data-ct-aria': 'requestJson' }),
      message: h('p', { id: 'message', class: 'message', role: 'status' }),
      group: h('section', { id: 'group', class: 'panel', 'aria-live': 'polite' }),
      log: h('section', { id: 'log', class: 'panel' }),
      config: h('div', { class: 'config' }),
      clock: h('span', { id: 'clock', class: 'clock' }),
      persistError: h('select', { id: 'persist-error', 'data-ct-aria': 'persistError' }),
      live: h('section', { id: 'live', class: 'panel live-panel', hidden: '' }),
      liveStatus: h('p', { id: 'live-status', role: 'status' }),
      openTrace: h('input', { id: 'open-trace', type: 'file', accept: '.jsonl,.json,.txt', 'data-ct-aria': 'openTrace' }),
    };
    const stop = h('button', { id: 'stop-live', type: 'button', 'data-ct': 'stopLive' });
    stop.addEventListener('click', () => this.restart());
    els.live.append(h('h2', { 'data-ct': 'liveTitle' }), els.liveStatus, stop);
    els.openTrace.addEventListener('change', () => {
      const file = els.openTrace.files?.[0];
      if (file) void file.text().then((text) => this.readTrace(text, file.name));
    });
    this.els = els;
    for (const e of EXAMPLES) els.example.append(h('option', { value: e.id }, e.title[this.lang]));
    els.example.value = this.runner.example.id;
    for (const a of deps.apis) els.api.append(h('option', { value: a.name }, a.name));
    for (const code of [6, 7, 19, 56, 10]) {
      els.persistError.append(h('option', { value: String(code) }, `${deps.words.errorName(code)} (${code})`));
    }
    for (const k of deps.configKeys) {
      if (k.name === 'flavour') continue;
      els.config.append(
        h(
          'label',
          { 'data-doc-en': k.doc, 'data-doc-zh': k.docZh },
          h('span', {}, k.name),
          h('input', { name: k.name, value: k.default, 'data-default': k.default, 'aria-label': k.name }),
        ),
      );
    }

    const button = (id: string, label: ConsoleTextKey, onClick: () => void, cls = '') => {
      const b = h('button', { id, type: 'button', class: cls, 'data-ct': label });
      b.addEventListener('click', onClick);
      return b;
    };
    els.stepButton.addEventListener('click', () => this.runStep());
    els.example.addEventListener('change', () => this.restart());
    // What the user composes stays in the editor until they run a step of the example or reset.
    const own = () => {
      this.ownRequest = true;
    };
    els.api.addEventListener('change', () => {
      own();
      this.fillVersions(true);
    });
    els.version.addEventListener('change', () => {
      own();
      this.fillTemplate();
    });
    els.body.addEventListener('input', own);

    this.root = h(
      'div',
      { class: 'console' },
      h(
        'section',
        { class: 'panel compose' },
        h('h2', { 'data-ct': 'example' }),
        h(
          'div',
          { class: 'row' },
          els.example,
          els.stepButton,
          button('reset', 'reset', () => this.restart()),
          button('console-lang', 'otherLang', () => this.setLang(this.lang === 'en' ? 'zh' : 'en')),
        ),
        els.steps,
        h('h2', { 'data-ct': 'request' }),
        h(
          'div',
          { class: 'row' },
          els.api,
          els.version,
          h('label', {}, h('span', { 'data-ct': 'at' }), ' ', els.at, ' ms'),
          button('template', 'fillDefaults', () => {
            this.ownRequest = true;
            this.fillTemplate();
          }),
        ),
        els.body,
        h(
          'div',
          { class: 'row' },
          button('send', 'send', () => this.sendComposed(), 'primary'),
          button('advance', 'advance', () => this.advanceTo()),
          button('next-deadline', 'nextDeadline', () => this.nextDeadline()),
        ),
        els.message,
        h(
          'details',
          { class: 'faults' },
          h('summary', { 'data-ct': 'faults' }),
          h(
            'div',
            { class: 'row' },
            button('unload', 'unload', () => this.after(this.session.unload())),
            button('load', 'load', () => this.after(this.session.load())),
          ),
          h(
            'div',
            { class: 'row' },
            button('fail-persist', 'failPersist', () => this.after(this.session.failNextPersist(Number(els.persistError.value)))),
            els.persistError,
          ),
          h('label', { class: 'row' }, h('span', { 'data-ct': 'openTrace' }), ' ', els.openTrace),
          h('h3', { 'data-ct': 'brokerSettings' }),
          els.config,
          h(
            'div',
            { class: 'row' },
            h('label', {}, h('input', { type: 'checkbox', id: 'kafka3' }), h('span', { 'data-ct': 'kafka3' })),
            button('apply-config', 'applyConfig', () => this.restart()),
          ),
        ),
      ),
      h(
        'div',
        { class: 'side' },
        els.live,
        h('div', { class: 'clockbar' }, h('span', { 'data-ct': 'virtualTime' }), els.clock),
        els.group,
        els.log,
      ),
    );
    this.relabel();
    this.restart();
  }

  /** Follows group-broker's live feed at `url` (ws:// or wss://): every line of its trace,
   * from the start, through this page's own model. A bad address is said; the console stays. */
  followLive(url: string): void {
    let href: string;
    try {
      href = liveFeedUrl(url, this.lang);
    } catch (e) {
      this.say((e as Error).message, true);
      return;
    }
    const live = this.startLive(href);
    try {
      live.socket = openLiveFeed(
        href,
        (line) => this.liveLine(line),
        (why) => {
          live.closed = true;
          live.end = why;
          this.queueRender();
        },
      );
    } catch (e) {
      this.say(`${badLiveUrl(url, this.lang)} (${(e as Error).message})`, true);
    }
  }

  /** Reads a trace file group-broker wrote (`--trace`), as a live run that has ended. */
  readTrace(text: string, name: string): void {
    const live = this.startLive(name);
    for (const line of text.split('\n')) {
      if (line.trim() !== '') this.liveLine(line);
    }
    live.closed = true;
    this.queueRender();
  }

  private startLive(source: string): ConsoleLive {
    this.live?.socket?.close();
    this.live?.run.free();
    const live: ConsoleLive = {
      run: new LiveRun(this.deps.factory, this.deps.newLivePlayer()),
      queue: [],
      source,
      closed: false,
      end: null,
    };
    this.live = live;
    this.root.classList.add('following');
    this.els.live.hidden = false;
    this.queueRender();
    return live;
  }

  /** Queues a line of the feed: lines are applied once per frame, for at most LIVE_BUDGET_MS
   * (the rest in the next frame), so a busy broker (thousands of lines a second, each an
   * exchange in the console's own session) never holds the page for long. */
  private liveLine(text: string): void {
    const live = this.live;
    if (!live) return;
    live.queue.push(text);
    if (live.queue.length === 1) requestAnimationFrame(() => this.applyQueued(live));
  }

  private applyQueued(live: ConsoleLive): void {
    if (live !== this.live) return;
    const until = performance.now() + LIVE_BUDGET_MS;
    let taken = 0;
    while (taken < live.queue.length && performance.now() < until) live.run.apply(live.queue[taken++]);
    live.queue.splice(0, taken);
    if (live.run.session) this.session = live.run.session;
    if (live.queue.length > 0) requestAnimationFrame(() => this.applyQueued(live));
    this.queueRender();
  }

  /** One render per frame however many lines arrive (a busy group sends hundreds a second). */
  private queueRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  /** Writes every label in the current language (the elements say which text they take). */
  private relabel(): void {
    const lang = this.lang;
    for (const el of this.root.querySelectorAll<HTMLElement>('[data-ct]')) el.textContent = ct(el.dataset.ct as ConsoleTextKey, lang);
    for (const el of this.root.querySelectorAll<HTMLElement>('[data-ct-aria]')) {
      el.setAttribute('aria-label', ct(el.dataset.ctAria as ConsoleTextKey, lang));
    }
    this.root.querySelector('#console-lang')?.setAttribute('aria-label', ct('switchLang', lang));
    for (const el of this.root.querySelectorAll<HTMLElement>('[data-doc-en]')) {
      el.title = (lang === 'zh' ? el.dataset.docZh : el.dataset.docEn) ?? '';
    }
    for (const option of Array.from(this.els.example.options)) {
      const example = EXAMPLES.find((e) => e.id === option.value);
      if (example) option.textContent = example.title[lang];
    }
  }

  /** Switches the console's language (the session and the editor stay as they are). */
  setLang(lang: Lang): void {
    this.lang = lang;
    setDocumentLang(lang);
    this.deps.onLang?.(lang);
    this.relabel();
    this.render();
  }

  /** The editor holds the user's own request (kept over renders until a step of the example
   * runs, or a reset). */
  private ownRequest = false;
  /** The user sent a request of their own: the example's remaining steps no longer apply to this
   * group (they would send the example's requests into it), until a reset. */
  private leftScript = false;

  private configValues(): Record<string, number | string | boolean> {
    const config: Record<string, number | string | boolean> = {};
    for (const input of this.els.config.querySelectorAll('input')) {
      if (input.value !== input.dataset.default) config[input.name] = input.value.trim();
    }
    const kafka3 = this.root?.querySelector<HTMLInputElement>('#kafka3');
    if (kafka3?.checked) config['group.coordinator.new.enable'] = false;
    return config;
  }

  /** A fresh coordinator (with the settings) and the chosen example from its first step. */
  restart(): void {
    if (this.live) {
      // Leaves the live run: the console is the user's again.
      this.live.socket?.close();
      this.live.run.free();
      this.live = null;
      this.root.classList.remove('following');
      this.els.live.hidden = true;
    }
    const example = EXAMPLES.find((e) => e.id === this.els.example.value) ?? EXAMPLES[0];
    try {
      this.session = new Session(this.deps.factory, this.configValues());
    } catch (e) {
      this.say(e instanceof Error ? `${ct('settingsRefused', this.lang)}${e.message}` : String(e), true);
      return;
    }
    this.runner = new ScriptRunner(example);
    this.ownRequest = false;
    this.leftScript = false;
    this.els.api.value = 'JoinGroup';
    this.fillVersions(false);
    this.render();
    this.say(loaded(example.title[this.lang], this.lang));
  }

  private fillVersions(template: boolean): void {
    const api = this.deps.apis.find((a) => a.name === this.els.api.value) ?? this.deps.apis[0];
    replaceChildren(this.els.version);
    for (let v = api.maxVersion; v >= 0; v--) this.els.version.append(h('option', { value: String(v) }, `v${v}`));
    this.els.version.value = String(api.maxVersion);
    if (template) this.fillTemplate();
  }

  fillTemplate(): void {
    const request = this.session.template(this.els.api.value as Request['api'], Number(this.els.version.value));
    this.els.body.value = JSON.stringify(request, null, 2);
    this.els.at.value = String(this.session.now);
  }

  private runStep(): void {
    if (this.leftScript) return;
    this.ownRequest = false;
    const exchange = this.runner.step(this.session);
    if (exchange) this.after(exchange);
  }

  private sendComposed(): void {
    let request: Request;
    try {
      request = JSON.parse(this.els.body.value) as Request;
    } catch (e) {
      this.say(`${ct('notJson', this.lang)}${(e as Error).message}`, true);
      return;
    }
    const at = this.atValue();
    if (at === null) return;
    this.ownRequest = true;
    const exchange = this.session.send(at, request);
    if (!exchange.error) this.leftScript = true;
    this.after(exchange);
  }

  private atValue(): number | null {
    const at = Number(this.els.at.value === '' ? this.session.now : this.els.at.value);
    if (!Number.isInteger(at) || at < 0) {
      this.say(badAt(this.els.at.value, this.lang), true);
      return null;
    }
    return at;
  }

  private advanceTo(): void {
    const at = this.atValue();
    if (at !== null) this.after(this.session.advance(at));
  }

  private nextDeadline(): void {
    const exchange = this.session.advanceToNextDeadline();
    if (exchange) this.after(exchange);
    else this.say(ct('noTimer', this.lang));
  }

  private after(exchange: Exchange): void {
    if (exchange.error) this.say(exchange.error, true);
    else this.say(exchanged(exchange.responses.length, exchange.events.length, exchange.atMs, this.lang));
    this.render();
  }

  private say(text: string, isError = false): void {
    // A sentence, not a stack trace's first line ("TypeError: …").
    this.els.message.textContent = text.replace(/^(?:[A-Z][A-Za-z]*)?Error: /, '');
    this.els.message.classList.toggle('error', isError);
  }

  render(): void {
    const lang = this.lang;
    this.els.clock.textContent = `${this.session.now} ms`;
    if (this.live) {
      const status = this.live.run.status;
      const end = this.live.end;
      this.els.liveStatus.textContent = liveStatus(status, this.live.source, this.live.closed, lang, end);
      const stopped = status.kind === 'diverged' || status.kind === 'refused';
      this.els.liveStatus.classList.toggle('error', stopped || (end !== null && end.kind !== 'closed'));
    }
    replaceChildren(
      this.els.steps,
      ...this.runner.example.steps.map((s, i) =>
        h(
          'li',
          { class: i < this.runner.index ? 'done' : i === this.runner.index ? 'current' : '' },
          h('span', { class: 'at' }, `${s.atMs} ms`),
          ' ',
          s.note[lang],
        ),
      ),
    );
    this.els.stepButton.disabled = this.runner.done || this.leftScript;
    if (this.leftScript) {
      this.els.steps.append(h('li', { class: 'left-script' }, ct('leftScript', this.lang)));
    }
    // The composer shows the user's own request, else the script's next request, or a template
    // with the current defaults.
    const preview = this.ownRequest ? null : this.runner.preview(this.session);
    if (this.ownRequest) {
      // The user's request is kept; its time follows the clock (a time behind it is refused as
      // "time went backwards": after one advance every request sent by hand was).
      if (Number(this.els.at.value) < this.session.now) this.els.at.value = String(this.session.now);
    } else if (preview) {
      this.els.api.value = preview.api;
      this.fillVersions(false);
      this.els.version.value = String(preview.apiVersion);
      this.els.body.value = JSON.stringify(preview, null, 2);
      this.els.at.value = String(Math.max(this.runner.next?.atMs ?? 0, this.session.now));
    } else {
      const next = this.runner.next;
      this.fillTemplate();
      if (next?.advance) this.els.at.value = String(Math.max(next.atMs, this.session.now));
    }
    renderGroup(
      this.els.group,
      this.session.groupId,
      this.session.view(),
      this.session.now,
      lang,
      this.deps.words.shortIds,
      this.deps.assignment,
    );
    renderLog(this.els.log, this.session.log, this.deps.words, lang);
  }
}
