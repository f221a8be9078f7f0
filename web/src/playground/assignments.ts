// Partition assignment per generation: consumers × generations, what each got, what it added
// and what it revoked; the leader of each generation marked. Built incrementally from the trace.

import type { Tp, TraceEntry, WorldView } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildrenIfChanged } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { lifeName } from '../vocabulary.ts';
import { generationLabel, t } from './text.ts';

interface Cell {
  assigned: Tp[];
  added: Tp[];
  revoked: Tp[];
  index: number;
}

export class AssignmentModel {
  /** generation -> consumer -> cell */
  readonly generations = new Map<number, Map<string, Cell>>();
  /** generation -> leader's member id */
  readonly leaders = new Map<number, string>();
  /** member id -> consumer name */
  readonly names = new Map<string, string>();
  readonly consumers: string[] = [];
  private seen = 0;

  update(entries: readonly TraceEntry[]): void {
    if (entries.length < this.seen) {
      this.generations.clear();
      this.leaders.clear();
      this.consumers.length = 0;
      this.seen = 0;
    }
    for (let i = this.seen; i < entries.length; i++) {
      const e = entries[i];
      if (e.type === 'assigned') {
        if (!this.consumers.includes(e.consumer)) this.consumers.push(e.consumer);
        let g = this.generations.get(e.generationId);
        if (!g) this.generations.set(e.generationId, (g = new Map()));
        g.set(e.consumer, { assigned: e.assigned, added: e.added, revoked: e.revoked, index: i });
      } else if (e.type === 'responseSent' && e.api === 'JoinGroup' && e.response?.api === 'JoinGroup' && e.errorCode === 0) {
        const r = e.response;
        this.names.set(r.memberId, e.consumer);
        if (r.leader === r.memberId) this.leaders.set(r.generationId, e.consumer);
      } else if (e.type === 'requestSent' && e.memberId) {
        this.names.set(e.memberId, e.consumer);
      }
    }
    this.seen = entries.length;
  }

  nameOf(memberId: string | null): string {
    if (!memberId) return '';
    return this.names.get(memberId) ?? memberId;
  }
}

export function tps(list: readonly Tp[]): string {
  const byTopic = new Map<string, number[]>();
  for (const [topic, p] of list) byTopic.set(topic, [...(byTopic.get(topic) ?? []), p]);
  return [...byTopic].map(([topic, ps]) => `${topic}-${ps.join(',')}`).join(' ');
}

export class AssignmentView {
  readonly root = h('section', { class: 'panel assignments', id: 'assignments', 'aria-labelledby': 'as-title' });
  maxColumns = 8;
  private scrollTop = 0;

  constructor() {
    // Scroll events do not bubble: caught on the way down.
    this.root.addEventListener(
      'scroll',
      (ev) => {
        if ((ev.target as Element).classList?.contains('as-scroll')) this.scrollTop = (ev.target as Element).scrollTop;
      },
      true,
    );
  }

  render(lang: Lang, model: AssignmentModel, view: WorldView, selected: number | null, onSelect: (i: number) => void): void {
    const gens = [...model.generations.keys()].sort((a, b) => a - b).slice(-this.maxColumns);
    const names = [...new Set([...view.consumers.map((c) => c.name), ...model.consumers])];
    const table = h(
      'table',
      { id: 'assignment-table' },
      // The panel's heading names the table; the caption stays for screen readers.
      h('caption', { class: 'sr-only' }, `${t('assignments', lang)} (${t('generation', lang)})`),
    );
    const head = h('tr', {}, h('th', { scope: 'col' }, t('consumer', lang)));
    for (const g of gens) head.append(h('th', { scope: 'col' }, generationLabel(g, lang)));
    head.append(h('th', { scope: 'col' }, t('now', lang)));
    table.append(h('thead', {}, head));
    const body = h('tbody');
    for (const name of names) {
      const row = h('tr', {}, h('th', { scope: 'row' }, name));
      for (const g of gens) {
        const cell = model.generations.get(g)?.get(name);
        const leader = model.leaders.get(g) === name;
        const td = h(
          'td',
          {
            class:
              [cell?.revoked.length ? 'revoking' : '', cell?.added.length ? 'added' : '', cell && selected === cell.index ? 'selected' : '']
                .filter(Boolean)
                .join(' ') || undefined,
            'data-gen': String(g),
            'data-index': cell ? String(cell.index) : undefined,
          },
          leader ? h('span', { class: 'leader', title: t('leader', lang) }, '★ ') : null,
          cell ? tps(cell.assigned) || '—' : '',
        );
        if (cell?.revoked.length) td.append(h('div', { class: 'revoked' }, `− ${tps(cell.revoked)}`));
        if (cell) td.addEventListener('click', () => onSelect(cell.index));
        row.append(td);
      }
      const c = view.consumers.find((x) => x.name === name);
      const owned = c ? c.owned.map((tp) => `${tp.topic}-${tp.partitions.join(',')}`).join(' ') : '';
      row.append(
        h('td', { class: 'now-col', 'data-consumer': name }, c && c.life !== 'running' ? `(${lifeName(c.life, lang)})` : owned || '—'),
      );
      body.append(row);
    }
    table.append(body);
    // A large group's table is long: it scrolls inside the panel instead of pushing the
    // timeline off the screen. Unchanged (most steps), the table stays as it is; changed, it
    // keeps its scroll position (known from scroll events: reading scrollTop here would force a
    // layout mid-render).
    if (replaceChildrenIfChanged(this.root, h('h2', { id: 'as-title' }, t('assignments', lang)), h('div', { class: 'as-scroll' }, table))) {
      const scroller = this.root.querySelector('.as-scroll');
      if (scroller && this.scrollTop) scroller.scrollTop = this.scrollTop;
    }
  }
}
