// Long tables drawn a page at a time. A group of 1,000 consumers drew 22,000 elements in the
// consumers, member-state, member and assignment tables (a 400 ms layout when a run reached it,
// and again at every step it played), from a frame of 2 MB.

import { html, type TemplateResult } from 'lit-html';
import type { Lang } from '../common/i18n.ts';
import { t } from './text.ts';

/** The rows a long table shows at once (the built-in groups, of up to 50, fit in one page). */
export const ROWS_PER_PAGE = 50;

/** The first row of the page holding row `from`, in a table of `total` rows: a table that
 * shrank (another run) keeps a page that exists. */
export function pageStart(from: number, total: number): number {
  const last = Math.max(0, Math.ceil(total / ROWS_PER_PAGE) - 1);
  return Math.min(Math.floor(Math.max(0, from) / ROWS_PER_PAGE), last) * ROWS_PER_PAGE;
}

/** "Rows 51–100 of 1000" between buttons to the pages before and after (`go` is given the
 * first row of the page to show); nothing for a table that fits one page. */
export function pager(id: string, from: number, total: number, go: (from: number) => void, lang: Lang): TemplateResult | null {
  if (total <= ROWS_PER_PAGE) return null;
  const first = pageStart(from, total);
  const to = Math.min(total, first + ROWS_PER_PAGE);
  const n = String(ROWS_PER_PAGE);
  return html`<div class="row-pager" id=${id}>
    <button type="button" data-page="before" ?disabled=${first === 0} aria-label=${t('rowsBefore', lang).replace('{n}', n)}
      @click=${() => go(first - ROWS_PER_PAGE)}>‹</button>
    <span class="muted" aria-live="polite">${t('rowsShown', lang)
      .replace('{from}', String(first + 1))
      .replace('{to}', String(to))
      .replace('{total}', String(total))}</span>
    <button type="button" data-page="after" ?disabled=${to >= total} aria-label=${t('rowsAfter', lang).replace('{n}', n)}
      @click=${() => go(first + ROWS_PER_PAGE)}>›</button>
  </div>`;
}

/** The page of the consumers' tables (the consumers, their own state machines and the
 * assignment table, one page for all three): the model gives only its rows (`FrameRequest.rows`). */
export interface ConsumerPages {
  /** The first row shown. */
  from(): number;
  /** Shows the page starting at row `from`. */
  go(from: number): void;
}

/** A list the page holds whole, shown a page at a time. */
export class RowPages {
  private from = 0;

  constructor(
    /** The pager's id. */
    private readonly id: string,
    /** Draws the list again (the reader turned the page). */
    private readonly redraw: () => void,
  ) {}

  /** The rows of the page shown (call it before `pager`). */
  rows<T>(all: readonly T[]): T[] {
    this.from = pageStart(this.from, all.length);
    return all.slice(this.from, this.from + ROWS_PER_PAGE);
  }

  pager(total: number, lang: Lang): TemplateResult | null {
    return pager(
      this.id,
      this.from,
      total,
      (from) => {
        this.from = from;
        this.redraw();
      },
      lang,
    );
  }
}
