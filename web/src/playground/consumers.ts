// The consumers panel (each consumer's state, with the actions a user can take on it) and the
// metrics panel, drawn from the frame's world and metrics.

import { html, render } from 'lit-html';
import type { Action, ConsumerRow, MetricsSummary, Upcoming } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { lifeName, memberStateName, pauseName } from '../common/vocabulary.ts';
import { METRICS, type MetricKey, metricValue } from './metrics-text.ts';
import { type ConsumerPages, pager } from './rows.ts';
import { t } from './text.ts';

export interface ConsumerActions {
  act(action: Action): void;
  /** Opens the settings of a consumer of the scenario (absent in an embed). */
  configure?: (name: string) => void;
  /** The consumers the scenario defines (the others were added by the user). */
  inScenario: (name: string) => boolean;
  /** The page of consumers shown. */
  pages: ConsumerPages;
  /** Every consumer's name, on every page (a new consumer's must differ). */
  names: () => Iterable<string>;
}

export class ConsumersView {
  readonly root = document.createElement('section');

  constructor(private readonly actions: ConsumerActions) {
    this.root.className = 'panel';
    this.root.id = 'consumers';
  }

  /** `list`: the page of consumers shown, of `total`; `topics`: what a consumer the user adds
   * subscribes to; `counts`: their partition counts. */
  render(list: ConsumerRow[], total: number, topics: string[], lang: Lang, counts: number[] = []): void {
    const { act, configure, inScenario, pages, names: allNames } = this.actions;
    // Each named for what it does and to whom ("Crash B"): every row has the same buttons.
    const button = (label: string, action: Action, enabled: boolean, consumer: string) =>
      html`<button type="button" ?disabled=${!enabled} data-action=${action.type} data-consumer=${consumer}
        aria-label=${t('actOn', lang).replace('{action}', label).replace('{consumer}', consumer)} @click=${() => act(action)}>${label}</button>`;
    const rows = list.map((c) => {
      const running = c.life === 'running';
      const name = c.name;
      return html`<tr data-consumer=${name}>
        <th scope="row">${name}${c.isLeader ? html`<span class="leader" title=${t('leader', lang)}> ★</span>` : null}${
          c.groupInstanceId
            ? html`<span class="badge static" title=${`group.instance.id = ${c.groupInstanceId}`}>${t('static', lang)}</span>`
            : null
        }</th>
        <td class="client-state" data-life=${c.life} data-state=${c.state}>${running ? memberStateName(c.state, lang) : lifeName(c.life, lang)}${
          c.paused ? ` (${pauseName(c.paused, lang)})` : ''
        }${c.cut ? ' ✂' : ''}</td>
        <td class="mono">${c.generationId >= 0 ? c.generationId : '—'}</td>
        <td class="actions">
          ${button(t('close', lang), { type: 'close', consumer: name }, running, name)}
          ${button(t('crash', lang), { type: 'crash', consumer: name }, running, name)}
          ${
            c.paused
              ? button(t('resume', lang), { type: 'resume', consumer: name }, true, name)
              : button(t('pauseC', lang), { type: 'pause', consumer: name, kind: 'gc' }, running, name)
          }
          ${c.cut ? button(t('heal', lang), { type: 'heal', consumer: name }, true, name) : button(t('cut', lang), { type: 'cut', consumer: name }, true, name)}
          ${button(t('start', lang), { type: 'start', consumer: name }, !running && c.life !== 'closing', name)}
          ${
            configure && inScenario(name)
              ? html`<button type="button" data-action="settings" data-consumer=${name} title=${t('consumerSettings', lang)}
                  aria-label=${t('consumerSettingsOf', lang).replace('{consumer}', name)} @click=${() => configure(name)}>⚙</button>`
              : null
          }
        </td>
      </tr>`;
    });
    const add = () => {
      const names = new Set([...list.map((c) => c.name), ...allNames()]);
      let i = 1;
      while (names.has(`N${i}`)) i++;
      act({ type: 'addConsumer', name: `N${i}`, topics });
    };
    // An admin creates a topic (CreateTopics): a pattern subscription that matches it picks it up.
    const createTopic = (e: SubmitEvent) => {
      e.preventDefault();
      const form = e.currentTarget as HTMLFormElement;
      const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
      act({ type: 'createTopic', topic: field('topic').trim(), partitions: Number(field('partitions')) });
    };
    render(
      html`<h2>${t('consumers', lang)}</h2>
        <table id="consumer-table"><tbody>${rows}</tbody></table>
        ${pager('consumer-pages', pages.from(), total, pages.go, lang)}
        <div class="row">
          <button type="button" id="add-consumer" @click=${add}>+ ${t('addConsumer', lang)}</button>
          <button type="button" id="failover" @click=${() => act({ type: 'failover', downMs: 1000 })}>${t('failover', lang)}</button>
        </div>
        <div class="row" id="add-partitions">${topics.map((topic, i) =>
          counts[i] === undefined
            ? null
            : html`<button type="button" data-topic=${topic} title=${t('addPartitionHint', lang)}
                @click=${() => act({ type: 'createPartitions', topic, count: counts[i] + 1 })}>${t('addPartition', lang).replace('{topic}', topic).replace('{n}', String(counts[i]))}</button>`,
        )}</div>
        <form class="row" id="create-topic" title=${t('createTopicHint', lang)} @submit=${createTopic}>
          <label>${t('createTopicName', lang)} <input name="topic" required maxlength="249" size="10" .value=${newTopic(topics)}></label>
          <label>${t('createTopicPartitions', lang)} <input name="partitions" type="number" min="1" max="1000" .value=${'3'}></label>
          <button type="submit">${t('createTopic', lang)}</button>
        </form>`,
      this.root,
    );
  }
}

/** A name for a new topic that no topic has yet (the form's suggestion). */
function newTopic(topics: string[]): string {
  const taken = new Set(topics);
  let i = topics.length;
  while (taken.has(`t${i}`)) i++;
  return `t${i}`;
}

export class MetricsView {
  readonly root = document.createElement('section');

  constructor() {
    this.root.className = 'panel';
    this.root.id = 'metrics';
  }

  render(m: MetricsSummary, lang: Lang): void {
    const row = (key: MetricKey, value: number | null, id: string, shown = metricValue(key, value, lang)) => {
      const { name, doc, ms } = METRICS[key];
      return html`<tr><th scope="row" title=${doc[lang]}>${name[lang]}</th>
        <td id=${id} title=${ms && value !== null ? `${value} ms` : ''}>${shown}</td></tr>`;
    };
    render(
      html`<h2>${t('metrics', lang)}</h2>
        <table id="metrics-table"><tbody>
          ${row('rebalances', m.rebalances, 'm-rebalances')}
          ${row('generationId', m.generationId, 'm-generation')}
          ${row('partitionsMoved', m.partitionsMoved, 'm-moved')}
          ${row('unownedPartitionMs', m.unownedPartitionMs, 'm-unowned')}
          ${row('settledSinceMs', m.settledSinceMs, 'm-settled', m.settled ? metricValue('settledSinceMs', m.settledSinceMs, lang) : t('notSettled', lang))}
          ${row('invariantViolations', m.invariantViolations, 'm-violations')}
        </tbody></table>
        <p class="muted metric-hint">${t('metricsHint', lang)}</p>`,
      this.root,
    );
  }
}

/** How many of the next events the list shows (the timeline's look-ahead draws more). */
const UPCOMING_LISTED = 8;

/** What is about to happen, soonest first; a message first on its link can be made to arrive now
 * or be dropped (the book's cases are races: this plays the other order). */
export class UpcomingView {
  readonly root = document.createElement('section');

  constructor(private readonly act: (action: Action) => void) {
    this.root.className = 'panel';
    this.root.id = 'upcoming';
  }

  render(list: Upcoming[], lang: Lang): void {
    const choose = (u: Upcoming, type: 'deliverNow' | 'drop') => {
      const m = u.message;
      if (m) this.act({ type, consumer: m.consumer, correlationId: m.correlationId, response: m.response });
    };
    render(
      html`<h2>${t('upcoming', lang)}</h2>
        <p class="muted metric-hint">${t('upcomingHint', lang)}</p>
        <ol class="upcoming">
          ${list.slice(0, UPCOMING_LISTED).map(
            // (The soonest event is next already: "first" is offered where it changes the order.)
            (u, i) => html`<li data-correlation=${u.message ? String(u.message.correlationId) : ''}>
              <span class="at">${u.atMs} ms</span> ${u.text}
              ${
                u.message
                  ? html`${
                      i === 0
                        ? null
                        : html`<button type="button" class="link" data-action="deliverNow" ?disabled=${!u.message.firstOnLink}
                        title=${u.message.firstOnLink ? t('deliverNow', lang) : t('inOrder', lang)} @click=${() => choose(u, 'deliverNow')}>⇡ ${t('deliverNow', lang)}</button>`
                    }
                      <button type="button" class="link" data-action="drop" ?disabled=${!u.message.firstOnLink}
                        @click=${() => choose(u, 'drop')}>✕ ${t('drop', lang)}</button>`
                  : null
              }
            </li>`,
          )}
        </ol>`,
      this.root,
    );
  }
}
