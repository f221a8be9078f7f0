// Partition assignment per generation: consumers × generations, what each got, what it added
// and what it revoked; the leader of each generation marked. Drawn from the frame's table.

import { html, render } from 'lit-html';
import { ifDefined } from 'lit-html/directives/if-defined.js';
import type { AssignmentTable } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { type ConsumerPages, pager } from './rows.ts';
import { generationLabel, t } from './text.ts';

/** Tables of more consumers than this show counts instead of partition lists. */
const COMPACT_OVER = 12;

/** A compact cell: how many partitions, and how many of them are new (the caption says what
 * the numbers are). */
function partitionCount(count: number, added: number): string {
  return added ? `${count} (+${added})` : String(count);
}

/** A partition list that wraps only after a comma or between topics, never inside a name
 * (a zero-width space after each comma). */
function breakable(list: string): string {
  return list.replaceAll(',', ',\u200b');
}

export class AssignmentView {
  /** Whether the generations in which nothing moved are shown too (the user asked). */
  private all = false;

  readonly root = document.createElement('section');

  constructor(
    private readonly onSelect: (index: number) => void,
    /** Shows (or leaves out again) the generations in which nothing moved. */
    private readonly showUnchanged: (show: boolean) => void,
    /** The page of consumers shown (the model gives only its rows). */
    private readonly pages: ConsumerPages,
  ) {
    this.root.className = 'panel assignments';
    this.root.id = 'assignments';
    this.root.setAttribute('aria-labelledby', 'as-title');
  }

  /** "2 generations in which nothing moved are left out: show them", or the way back. */
  private unchangedNote(table: AssignmentTable, lang: Lang) {
    const toggle = (show: boolean) => () => {
      this.all = show;
      this.showUnchanged(show);
    };
    if (table.unchanged.length) {
      return html`<p class="muted as-note" id="as-unchanged">${t('unchangedLeftOut', lang).replace('{n}', String(table.unchanged.length))}
        (${table.unchanged.map((g) => generationLabel(g, lang, table.epochs)).join(', ')})
        <button type="button" class="link" id="as-show-all" @click=${toggle(true)}>${t('showThem', lang)}</button></p>`;
    }
    return this.all
      ? html`<p class="muted as-note"><button type="button" class="link" id="as-changed-only" @click=${toggle(false)}>${t('onlyChanged', lang)}</button></p>`
      : null;
  }

  /** A large group's table is long: it scrolls inside the panel (and keeps its place: the
   * table's nodes stay from render to render) instead of pushing the timeline off the screen. */
  render(table: AssignmentTable, lang: Lang, selected: number | null): void {
    // A large group's lists would fill every cell with wrapped partition numbers (and cost the
    // browser ~20 ms of layout whenever they change): its cells show counts, the lists on hover.
    const compact = table.totalRows > COMPACT_OVER;
    const cell = (c: AssignmentTable['rows'][number]['cells'][number], g: number, leader: boolean) => {
      const cls = [c?.revoked ? 'revoking' : '', c?.added ? 'added' : '', c && selected === c.index ? 'selected' : '']
        .filter(Boolean)
        .join(' ');
      const taken = c ? (compact ? partitionCount(c.count, c.added) : breakable(c.assigned) || '—') : '';
      const revoked = c?.revoked ? `− ${compact ? c.revokedCount : breakable(c.revoked)}` : '';
      const full = compact && c ? `${c.assigned}${c.revoked ? ` − ${c.revoked}` : ''}` : undefined;
      return html`<td class=${cls} data-gen=${g} data-index=${ifDefined(c ? String(c.index) : undefined)} title=${ifDefined(full)}
        @click=${() => c && this.onSelect(c.index)}
        >${leader ? html`<span class="leader" title=${t('leader', lang)}>★ </span>` : null}${taken}${
          revoked ? html`<div class="revoked">${revoked}</div>` : null
        }</td>`;
    };
    render(
      html`<h2 id="as-title">${t('assignments', lang)}</h2>
        ${compact ? html`<p class="muted as-note">${t('compactAssignments', lang)}</p>` : null}
        ${this.unchangedNote(table, lang)}
        <div class="as-scroll">
          <table id="assignment-table" class=${compact ? 'compact' : ''}>
            <caption class="sr-only">${t('assignments', lang)} (${t('generation', lang)})</caption>
            <thead><tr><th scope="col">${t('consumer', lang)}</th>
              ${table.generations.map((g) => html`<th scope="col">${generationLabel(g.generationId, lang, table.epochs)}</th>`)}
              <th scope="col">${t('now', lang)}</th></tr></thead>
            <tbody>
              ${table.rows.map(
                (row) => html`<tr><th scope="row">${row.consumer}</th>
                  ${row.cells.map((c, i) => cell(c, table.generations[i].generationId, table.generations[i].leader === row.consumer))}
                  <td class="now-col" data-consumer=${row.consumer} title=${ifDefined(compact && row.running ? (row.now ?? undefined) : undefined)}
                    >${row.running ? (compact && row.now ? partitionCount(row.ownedCount, 0) : breakable(row.now ?? '—')) : row.now ? `(${row.now})` : '—'}</td></tr>`,
              )}
            </tbody>
          </table>
        </div>
        ${pager('as-pages', this.pages.from(), table.totalRows, this.pages.go, lang)}`,
      this.root,
    );
  }
}
