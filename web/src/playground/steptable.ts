// The step table, in the book's manner: for each step the time, the actor, the request or timer,
// the group state after it, the members and the delayed operations. The accessible text
// equivalent of the diagrams.

import type { TraceEntry } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren, scrollWithin } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { stateLabel } from '../vocabulary.ts';
import type { StepRecord } from './run.ts';
import { generationLabel, stepPaging, t } from './text.ts';

export function actorOf(e: TraceEntry | undefined, lang: Lang): string {
  if (!e) return '';
  switch (e.type) {
    case 'requestSent':
    case 'responseDelivered':
    case 'requestTimedOut':
    case 'clientState':
    case 'assigned':
    case 'revoked':
    case 'clientExpired':
    case 'rejoinRequested':
    case 'consumerFailed':
    case 'assignorQuirk':
    case 'lifecycle':
      return e.consumer;
    case 'requestDelivered':
    case 'responseSent':
    case 'coordinator':
      return t('coordinator', lang);
    case 'messageLost':
      return t('network', lang);
    case 'action':
    case 'actionIgnored':
      return t('youOrScript', lang);
    default:
      return t('scenarioActor', lang);
  }
}

/** Members listed per row before the rest are counted (a 50-member group would fill the row). */
const MEMBERS_SHOWN = 8;

export class StepTableView {
  readonly root = h('section', { class: 'panel steptable', id: 'steps-panel', 'aria-labelledby': 'st-title' });
  /** How many steps are listed at once (the table is a window on the run, paged). */
  span = 60;
  /** The first step listed when the user paged; null = the window follows the current step. */
  private anchor: number | null = null;
  private redraw: () => void = () => {};
  private scrollFrame = 0;

  /** The table stays from render to render; its rows are kept while what they show is the same
   * (a step's record, its entries' end, the language, selected, current): a step adds one row
   * and changes one, where rebuilding all of them cost a 50-consumer group ~20 ms of layout. */
  private readonly title = h('h2', { id: 'st-title' });
  private readonly nav = h('div', { class: 'row st-nav' });
  private readonly body = h('tbody');
  private readonly table = h('table', { id: 'step-table' });
  private tableLang: Lang | null = null;
  private rows = new Map<StepRecord, { key: string; row: HTMLTableRowElement }>();

  constructor() {
    this.root.append(this.title, this.nav, h('div', { class: 'st-scroll' }, this.table));
  }

  render(
    lang: Lang,
    entries: readonly TraceEntry[],
    text: (index: number) => string,
    steps: readonly StepRecord[],
    selected: number | null,
    onSelect: (i: number) => void,
    onGoto: (step: number) => void,
  ): void {
    this.redraw = () => this.render(lang, entries, text, steps, selected, onSelect, onGoto);
    if (this.tableLang !== lang) {
      this.tableLang = lang;
      this.rows.clear();
      this.title.textContent = t('stepTable', lang);
      replaceChildren(
        this.table,
        h('caption', { class: 'sr-only' }, t('stepTable', lang)),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, '#'),
            h('th', { scope: 'col' }, 'ms'),
            h('th', { scope: 'col' }, t('actor', lang)),
            h('th', { scope: 'col' }, t('what', lang)),
            h('th', { scope: 'col' }, t('stateAfter', lang)),
            h('th', { scope: 'col' }, t('members', lang)),
            h('th', { scope: 'col' }, t('delayed', lang)),
          ),
        ),
        this.body,
      );
    }
    const latest = Math.max(0, steps.length - this.span);
    const from = Math.min(this.anchor ?? latest, latest);
    const to = Math.min(steps.length, from + this.span);
    const rows: HTMLTableRowElement[] = [];
    const kept = new Map<StepRecord, { key: string; row: HTMLTableRowElement }>();
    for (let k = from; k < to; k++) {
      const st = steps[k];
      const isSelected = selected !== null && selected >= st.first && selected < st.end;
      const isCurrent = k === steps.length - 1;
      const key = `${k}|${st.end}|${isSelected}|${isCurrent}`;
      let cached = this.rows.get(st);
      if (!cached || cached.key !== key)
        cached = { key, row: this.row(lang, k, st, entries, text, isSelected, isCurrent, onSelect, onGoto) };
      kept.set(st, cached);
      rows.push(cached.row);
    }
    this.rows = kept;
    // Only the rows that left go, and only the new ones come in: a row taken out and put back
    // would be laid out and its text shaped again.
    const wanted = new Set(rows);
    for (const child of Array.from(this.body.children)) if (!wanted.has(child as HTMLTableRowElement)) child.remove();
    rows.forEach((row, i) => {
      const at = this.body.children[i];
      if (at !== row) this.body.insertBefore(row, at ?? null);
    });
    const paging = stepPaging(lang, this.span, steps.length ? from + 1 : 0, to, steps.length);
    const page = (label: string, id: string, enabled: boolean, anchor: number | null) => {
      const b = h('button', { type: 'button', id, disabled: !enabled }, label);
      b.addEventListener('click', () => {
        this.anchor = anchor;
        this.redraw();
      });
      return b;
    };
    const following = this.anchor === null || from === latest;
    replaceChildren(
      this.nav,
      page(paging.earlier, 'st-earlier', from > 0, Math.max(0, from - this.span)),
      h('span', { class: 'muted', id: 'st-range' }, paging.range),
      page(paging.later, 'st-later', to < steps.length, to >= latest ? null : from + this.span),
      page(t('followStep', lang), 'st-follow', !following, null),
    );
    // Scrolled to in the next frame, when the browser has laid the table out anyway (scrolling
    // now would force a layout in the middle of the page's render); only the table scrolls, not
    // the page (a step pressed at the top of the page must not carry the reader down here).
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      const current = this.root.querySelector<HTMLElement>('tr.selected') ?? this.root.querySelector<HTMLElement>('tr.current');
      const scroller = this.root.querySelector<HTMLElement>('.st-scroll');
      if (current && scroller) scrollWithin(scroller, current);
    });
  }

  private row(
    lang: Lang,
    k: number,
    st: StepRecord,
    entries: readonly TraceEntry[],
    text: (index: number) => string,
    isSelected: boolean,
    isCurrent: boolean,
    onSelect: (i: number) => void,
    onGoto: (step: number) => void,
  ): HTMLTableRowElement {
    const lines = entries.slice(st.first, st.end);
    const row = h(
      'tr',
      {
        class: [isSelected ? 'selected' : '', isCurrent ? 'current' : ''].filter(Boolean).join(' ') || undefined,
        'data-step': String(k + 1),
      },
      h('td', {}, h('button', { type: 'button', class: 'link', title: t('gotoStep', lang) }, String(k + 1))),
      h('td', { class: 'at' }, String(st.atMs)),
      h('td', {}, actorOf(entries[st.first], lang)),
      h('td', {}, ...lines.map((e) => h('div', { class: `line t-${e.type}`, 'data-index': String(e.index) }, text(e.index)))),
      h(
        'td',
        {},
        h('span', { class: `state state-${st.state}`, 'data-state': st.state }, stateLabel(st.state, lang)),
        ` ${generationLabel(st.generationId, lang)}`,
      ),
      h(
        'td',
        { class: 'members', title: st.members.length > MEMBERS_SHOWN ? st.members.join(', ') : undefined },
        st.members.length > MEMBERS_SHOWN
          ? `${st.members.slice(0, MEMBERS_SHOWN).join(', ')} … (+${st.members.length - MEMBERS_SHOWN})`
          : st.members.join(', '),
      ),
      h('td', { class: 'mono' }, st.timers.filter((k2) => !k2.startsWith('heartbeat') && !k2.startsWith('offsets')).join(', ')),
    );
    row.querySelector('button')?.addEventListener('click', () => onGoto(k + 1));
    for (const line of row.querySelectorAll<HTMLElement>('.line')) {
      line.addEventListener('click', () => onSelect(Number(line.dataset.index)));
    }
    return row;
  }
}
