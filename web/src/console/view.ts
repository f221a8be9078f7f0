// The protocol console: compose a request (or step through a scripted example), send it at a
// virtual time or move the clock, and see the responses, the group and the events.

import type { Request } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { EXAMPLES } from './examples.ts';
import type { ErrorNamer } from './format.ts';
import { renderGroup, renderLog } from './panels.ts';
import { ScriptRunner } from './script.ts';
import { type CoordinatorFactory, type Exchange, Session } from './session.ts';

export interface ConsoleDeps {
  factory: CoordinatorFactory;
  errorName: ErrorNamer;
  apis: { name: string; maxVersion: number }[];
  configKeys: { name: string; default: string; doc: string }[];
  lang: Lang;
}

export class ConsoleView {
  session: Session;
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
  };

  constructor(
    private readonly deps: ConsoleDeps,
    exampleId = EXAMPLES[0].id,
  ) {
    this.session = new Session(deps.factory);
    this.runner = new ScriptRunner(EXAMPLES.find((e) => e.id === exampleId) ?? EXAMPLES[0]);
    const els = {
      example: h('select', { id: 'example', 'aria-label': 'Example' }),
      steps: h('ol', { id: 'steps', class: 'steps' }),
      stepButton: h('button', { id: 'next-step', type: 'button', class: 'primary' }, 'Next step'),
      api: h('select', { id: 'api', 'aria-label': 'Request type' }),
      version: h('select', { id: 'api-version', 'aria-label': 'API version' }),
      at: h('input', { id: 'at', type: 'number', min: '0', step: '1', 'aria-label': 'Virtual time (ms)' }),
      body: h('textarea', { id: 'request', spellcheck: 'false', rows: '14', 'aria-label': 'Request (JSON)' }),
      message: h('p', { id: 'message', class: 'message', role: 'status' }),
      group: h('section', { id: 'group', class: 'panel', 'aria-live': 'polite' }),
      log: h('section', { id: 'log', class: 'panel' }),
      config: h('div', { class: 'config' }),
      clock: h('span', { id: 'clock', class: 'clock' }),
      persistError: h('select', { id: 'persist-error', 'aria-label': 'Persist error' }),
    };
    this.els = els;
    for (const e of EXAMPLES) els.example.append(h('option', { value: e.id }, e.title[deps.lang]));
    els.example.value = this.runner.example.id;
    for (const a of deps.apis) els.api.append(h('option', { value: a.name }, a.name));
    for (const code of [6, 7, 19, 56, 10]) {
      els.persistError.append(h('option', { value: String(code) }, `${deps.errorName(code)} (${code})`));
    }
    for (const k of deps.configKeys) {
      if (k.name === 'flavour') continue;
      els.config.append(
        h(
          'label',
          { title: k.doc },
          h('span', {}, k.name),
          h('input', { name: k.name, value: k.default, 'data-default': k.default, 'aria-label': k.name }),
        ),
      );
    }

    const button = (id: string, label: string, onClick: () => void, cls = '') => {
      const b = h('button', { id, type: 'button', class: cls }, label);
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
        h('h2', {}, 'Example'),
        h(
          'div',
          { class: 'row' },
          els.example,
          els.stepButton,
          button('reset', 'Reset', () => this.restart()),
        ),
        els.steps,
        h('h2', {}, 'Request'),
        h(
          'div',
          { class: 'row' },
          els.api,
          els.version,
          h('label', {}, 'at ', els.at, ' ms'),
          button('template', 'Fill defaults', () => {
            this.ownRequest = true;
            this.fillTemplate();
          }),
        ),
        els.body,
        h(
          'div',
          { class: 'row' },
          button('send', 'Send', () => this.sendComposed(), 'primary'),
          button('advance', 'Advance clock to “at”', () => this.advanceTo()),
          button('next-deadline', 'Advance to next timer', () => this.nextDeadline()),
        ),
        els.message,
        h(
          'details',
          { class: 'faults' },
          h('summary', {}, 'Faults and settings'),
          h(
            'div',
            { class: 'row' },
            button('unload', 'Unload group (failover)', () => this.after(this.session.unload())),
            button('load', 'Load group from its record', () => this.after(this.session.load())),
          ),
          h(
            'div',
            { class: 'row' },
            button('fail-persist', 'Fail next persist with', () =>
              this.after(this.session.failNextPersist(Number(els.persistError.value))),
            ),
            els.persistError,
          ),
          h('h3', {}, 'Broker settings (Kafka names, defaults shown)'),
          els.config,
          h(
            'div',
            { class: 'row' },
            h('label', {}, h('input', { type: 'checkbox', id: 'kafka3' }), ' Kafka 3.x coordinator (group.coordinator.new.enable=false)'),
            button('apply-config', 'Restart with these settings', () => this.restart()),
          ),
        ),
      ),
      h('div', { class: 'side' }, h('div', { class: 'clockbar' }, 'Virtual time ', els.clock), els.group, els.log),
    );
    this.restart();
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
    const example = EXAMPLES.find((e) => e.id === this.els.example.value) ?? EXAMPLES[0];
    try {
      this.session = new Session(this.deps.factory, this.configValues());
    } catch (e) {
      this.say(e instanceof Error ? `Settings refused: ${e.message}` : String(e), true);
      return;
    }
    this.runner = new ScriptRunner(example);
    this.ownRequest = false;
    this.leftScript = false;
    this.els.api.value = 'JoinGroup';
    this.fillVersions(false);
    this.render();
    this.say(`Loaded “${example.title[this.deps.lang]}”. Press “Next step”, or compose your own request.`);
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
      this.say(`The request is not valid JSON: ${(e as Error).message}`, true);
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
      this.say(`“at” must be a whole number of milliseconds, got ${this.els.at.value}`, true);
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
    else this.say('No timer is armed.');
  }

  private after(exchange: Exchange): void {
    if (exchange.error) this.say(exchange.error, true);
    else this.say(`${exchange.responses.length} response(s), ${exchange.events.length} event(s) at ${exchange.atMs} ms.`);
    this.render();
  }

  private say(text: string, isError = false): void {
    this.els.message.textContent = text;
    this.els.message.classList.toggle('error', isError);
  }

  render(): void {
    const lang = this.deps.lang;
    this.els.clock.textContent = `${this.session.now} ms`;
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
      this.els.steps.append(
        h('li', { class: 'left-script' }, 'You sent a request of your own: the example stops here. Reset to run it again.'),
      );
    }
    // The composer shows the user's own request, else the script's next request, or a template
    // with the current defaults.
    const preview = this.ownRequest ? null : this.runner.preview(this.session);
    if (this.ownRequest) {
      /* the user's, kept */
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
    renderGroup(this.els.group, this.session.view(), lang);
    renderLog(this.els.log, this.session.log, this.deps.errorName, this.deps.lang);
  }
}
