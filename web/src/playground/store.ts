// The one store the playground's views read: the run, the language, the selection and the
// latest frame the model drew. A change asks the model for a new frame (one crossing) and hands
// it to every view that subscribed; no view keeps protocol state of its own.

import type { Frame, FrameRequest } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { DEFAULT_ASSIGNMENT_COLUMNS, DEFAULT_CHANGED_ONLY, DEFAULT_UPCOMING, DEFAULT_WINDOW_MS } from '../common/recording-format.js';
import { NeedsModule } from './recorded.ts';
import { pageStart, ROWS_PER_PAGE } from './rows.ts';
import type { Run } from './run.ts';

/** A frame and whether it is full: with the tables (assignments, steps, world, metrics), which a
 * large group's frames leave out while playing. */
export type Listener = (frame: Frame, full: boolean) => void;

/** What the views ask of the next frame (each view sets its own part). */
export interface Wants {
  /** The timeline's window, where it ends (null: following now; else panned back) and its
   * width in pixels (bars closer than a pixel merge). */
  windowMs: number;
  endMs: number | null;
  widthPx: number;
  /** The step table: its first step (null: ending at the current one) and length. */
  stepsFrom: number | null;
  stepsSpan: number;
  /** A selection made elsewhere (a timeline bar): without `stepsFrom`, the table pages to its
   * step (null: none). */
  stepsAround: number | null;
  /** Generations the assignment table shows, and whether those in which nothing moved are
   * left out. */
  columns: number;
  changedOnly: boolean;
  /** The first row shown of the consumers' tables (a page of ROWS_PER_PAGE). */
  rowsFrom: number;
}

export class Store {
  run!: Run;
  lang: Lang;
  /** The selected trace entry (a bar, a mark, a table cell or a step's line). */
  selected: number | null = null;
  playing = false;
  frame!: Frame;
  readonly wants: Wants = {
    windowMs: DEFAULT_WINDOW_MS,
    endMs: null,
    widthPx: 1000,
    stepsFrom: null,
    stepsSpan: 30,
    stepsAround: null,
    columns: DEFAULT_ASSIGNMENT_COLUMNS,
    changedOnly: DEFAULT_CHANGED_ONLY,
    rowsFrom: 0,
  };
  private readonly listeners: [string, Listener][] = [];
  /** Where frame time goes (ms summed, and the largest in one frame), per part. */
  readonly parts: Record<string, number> = {};
  readonly partsMax: Record<string, number> = {};
  /** A recorded run (recorded.ts) hands over to the model through this: it loads the module,
   * upgrades the run and calls `retry` (the page sets it when it can load the module). */
  needsModule: ((need: NeedsModule, retry: () => void) => void) | null = null;
  /** What the last frame was drawn for: `revert` goes back to it when the model cannot come. */
  private drawnFor: { wants: Wants; lang: Lang } | null = null;

  constructor(lang: Lang) {
    this.lang = lang;
  }

  /** `name` labels the listener's share of frame time (`parts`). */
  subscribe(name: string, listener: Listener): void {
    this.listeners.push([name, listener]);
  }

  /** Asks the model for the frame now and hands it to the views. */
  refresh(full = true): void {
    const t0 = performance.now();
    const w = this.wants;
    const request: FrameRequest = {
      lang: this.lang,
      timeline: {
        windowMs: w.windowMs,
        resolutionMs: Math.floor(w.windowMs / Math.max(100, w.widthPx)),
        selected: this.selected,
        endMs: w.endMs,
      },
    };
    if (full) {
      request.assignments = w.columns;
      request.assignmentsChangedOnly = w.changedOnly;
      request.steps = { from: w.stepsFrom, span: w.stepsSpan, around: w.stepsAround };
      request.world = true;
      // The list shows the first few; the timeline's look-ahead draws them all.
      request.upcoming = DEFAULT_UPCOMING;
    }
    // The page of the consumers' rows (their tables and their lanes in the timeline).
    request.rows = { from: w.rowsFrom, count: ROWS_PER_PAGE };
    try {
      this.frame = this.run.frame(request);
      // A page past the end of this run's tables (the last run had more consumers): its last.
      const f = this.frame;
      const total = Math.max(f.consumerCount ?? 0, f.assignments?.totalRows ?? 0, f.timeline?.laneCount ?? 0);
      if (pageStart(w.rowsFrom, total) !== w.rowsFrom) {
        w.rowsFrom = pageStart(w.rowsFrom, total);
        request.rows = { from: w.rowsFrom, count: ROWS_PER_PAGE };
        this.frame = this.run.frame(request);
      }
    } catch (err) {
      // What the recording does not hold (another zoom, the other language): the views keep
      // the last frame until the model draws this one.
      if (!(err instanceof NeedsModule && this.needsModule)) throw err;
      this.needsModule(err, () => this.refresh(full));
      return;
    }
    this.spent('frame', t0);
    this.drawnFor = { wants: { ...w }, lang: this.lang };
    for (const [name, listener] of this.listeners) {
      const t1 = performance.now();
      listener(this.frame, full);
      this.spent(name, t1);
    }
  }

  /** Asks again for what the last frame was drawn for (a zoom or a language that needed the
   * model, when it failed to load). */
  revert(): void {
    if (!this.drawnFor) return;
    Object.assign(this.wants, this.drawnFor.wants);
    this.lang = this.drawnFor.lang;
  }

  spent(part: string, since: number): void {
    const ms = performance.now() - since;
    this.parts[part] = (this.parts[part] ?? 0) + ms;
    this.partsMax[part] = Math.max(this.partsMax[part] ?? 0, ms);
  }
}
