// A recorded run: the model's frames of a built-in scenario, made at build time by the full
// module (scripts/record-embeds.mjs), played back without the WebAssembly module. An embed in a
// documentation page draws and steps its scenario from a recording of about 15-100 KB instead
// of loading a 500 KB module; the first thing the reader asks that the recording does not hold
// (an action, another zoom or the timeline panned, a step past where playing stops; the other
// language, unless its recording of the run is fetched) throws `NeedsModule`, and the playground loads the module and carries on from
// the same step with the model itself (Run.upgrade).
//
// It answers as the model's `Player` answers, call by call; web/test/recorded.test.ts checks
// that against the real Player over random walks of every built-in scenario. What it computes
// itself is bookkeeping, not protocol: which step it is at, how many steps are known, and which
// rows of the step table a window shows.

import type {
  Action,
  Frame,
  FrameRequest,
  MomentAt,
  Ownership,
  PlayStop,
  Scenario,
  ScenarioInfo,
  StepRow,
  TraceEntry,
  Vocabulary,
} from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';

import { GONE, RECORDING_FORMAT } from '../common/recording-format.js';

/** What the recording of one scenario in one language holds. */
export interface Recording {
  format: number;
  /** The model's version line. */
  version: string;
  /** The model's `vocabulary()`: the protocol's names, which the views label with. */
  vocabulary: Vocabulary;
  lang: Lang;
  /** The request every frame was made with (the playground's defaults, every bar kept). */
  request: FrameRequest;
  scenario: Scenario;
  info: ScenarioInfo;
  /** The bars, marks and coming events the frames list, each once. */
  table: unknown[];
  /** Per step from 0: the frame's fields that changed since the step before (`-`: the fields
   * it no longer has); `timeline.bars`, `timeline.marks` and `upcoming` as indices into
   * `table`; without `cursor`, `knownSteps` and `steps`, which the reader derives. */
  frames: Record<string, unknown>[];
  /** Every recorded step's row of the step table (row k: step k + 1). */
  rows: StepRow[];
  moments: MomentAt[];
  /** The scenario's key moment (`Player.seekKey()` on a fresh run), or null. */
  key: number | null;
  /** `Player.ownership()` from each step at which it changed. */
  ownership: [number, Ownership][];
}

/** The recording cannot answer: the model is needed; or, for `lang`, that language's
 * recording of the same run would do. */
export class NeedsModule extends Error {
  constructor(
    what: string,
    readonly lang?: Lang,
  ) {
    super(`the model is needed for ${what}`);
    this.name = 'NeedsModule';
  }
}

/** A scenario's recordings by language: one run, told in each (the page adds one when the
 * reader switches language). */
export type Recordings = Partial<Record<Lang, Recording>>;

/** Whether `value` reads as a recording this reader knows; the reason if not. */
export function recordingProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const r = value as Partial<Recording>;
  if (r.format !== RECORDING_FORMAT) return `format ${String(r.format)}, not ${RECORDING_FORMAT}`;
  const arrays = ['table', 'frames', 'rows', 'moments', 'ownership'] as const;
  for (const k of arrays) if (!Array.isArray(r[k])) return `${k} is not an array`;
  if (!r.frames?.length) return 'no frames';
  if (r.lang !== 'en' && r.lang !== 'zh') return 'no language';
  if (typeof r.vocabulary !== 'object' || r.vocabulary === null) return 'no vocabulary';
  if (typeof r.scenario !== 'object' || r.scenario === null || typeof r.info !== 'object' || r.info === null) return 'no scenario';
  return null;
}

/** The frame fields of one step, folded from the changes before it. */
type Fields = Record<string, unknown>;

/** Each step's frame fields, folded from the changes before it. */
function unfold(recording: Recording): Fields[] {
  const out: Fields[] = [];
  let fields: Fields = {};
  for (const patch of recording.frames) {
    fields = { ...fields };
    for (const k of (patch[GONE] as string[] | undefined) ?? []) delete fields[k];
    for (const [k, v] of Object.entries(patch)) if (k !== GONE) fields[k] = v;
    out.push(fields);
  }
  return out;
}

/** A recorded run of one scenario with no actions: the part of `Player` that `Run` uses. Its
 * frames come in the language asked for, when `recordings` holds it (shared: a language added
 * later serves every player of the run). */
export class RecordedPlayer {
  /** The first recording's: what the steps are (the same run in every language). */
  private readonly recording: Recording;
  private readonly fields: Fields[];
  private readonly told = new Map<Lang, Fields[]>();
  private at = 0;
  private known = 0;

  constructor(private readonly recordings: Recordings) {
    const first = recordings.en ?? recordings.zh;
    if (!first) throw new Error('no recording');
    this.recording = first;
    this.fields = unfold(first);
    this.told.set(first.lang, this.fields);
  }

  /** The recording and its frames in `lang`, if the run has that language. */
  private inLang(lang: Lang): { recording: Recording; fields: Fields[] } | null {
    const recording = this.recordings[lang];
    if (!recording || recording.frames.length !== this.recording.frames.length) return null;
    let fields = this.told.get(lang);
    if (!fields) {
      fields = unfold(recording);
      this.told.set(lang, fields);
    }
    return { recording, fields };
  }

  /** The last recorded step: where playing stops. */
  private get end(): number {
    return this.fields.length - 1;
  }

  private moveTo(step: number): void {
    this.at = step;
    this.known = Math.max(this.known, step);
  }

  scenario(): Scenario {
    return this.recording.scenario;
  }

  actions(): { step: number; action: Action }[] {
    return [];
  }

  cursor(): number {
    return this.at;
  }

  knownSteps(): number {
    return this.known;
  }

  now(): number {
    return this.fields[this.at].nowMs as number;
  }

  finished(): boolean {
    return this.fields[this.at].finished as boolean;
  }

  pastEnd(): boolean {
    return this.fields[this.at].pastEnd as boolean;
  }

  playStop(): PlayStop | null {
    return this.fields[this.at].playStop as PlayStop | null;
  }

  forward(count = 1, toEnd = false): number {
    const want = Math.max(0, Math.floor(count));
    // Within the recording with `toEnd`: it ends where playing stops.
    const taken = toEnd ? Math.min(want, this.end - this.at) : want;
    const stopped = taken === want || this.fields[this.at + taken]?.playStop !== null;
    if (this.at + taken > this.end || !stopped) throw new NeedsModule('a step past the recording');
    this.moveTo(this.at + taken);
    return taken;
  }

  seek(step: number): number {
    if (step > this.end) throw new NeedsModule('a step past the recording');
    this.moveTo(Math.max(0, Math.floor(step)));
    return this.at;
  }

  // (`undefined` for none, as the model's binding answers.)
  seekKey(): number | undefined {
    const key = this.recording.key;
    if (key === null || key > this.end) throw new NeedsModule('a key moment past the recording');
    this.moveTo(key);
    return key;
  }

  seekMoment(forward: boolean): number | undefined {
    const steps = this.recording.moments.map((m) => m.step);
    if (!forward) {
      const before = steps.filter((s) => s < this.at && s <= this.known);
      if (before.length === 0) return undefined;
      this.moveTo(before[before.length - 1]);
      return this.at;
    }
    // The model looks among the known steps, then steps on until playing stops: the whole
    // recording becomes known even when no moment is found.
    const next = steps.find((s) => s > this.at);
    if (next === undefined) {
      if (this.fields[this.end].playStop === null) throw new NeedsModule('a step past the recording');
      this.known = this.end;
      return undefined;
    }
    this.moveTo(next);
    return next;
  }

  act(_action: Action): void {
    throw new NeedsModule('an action');
  }

  frame(request: FrameRequest = {}): Frame {
    const lang = request.lang ?? 'en';
    const told = this.inLang(lang);
    if (!told) throw new NeedsModule('the other language', lang);
    const recorded = told.recording.request;
    const fields = told.fields[this.at];
    const table = told.recording.table;
    const frame: Record<string, unknown> = { cursor: this.at, knownSteps: this.known };
    for (const [k, v] of Object.entries(fields)) {
      if (k === 'timeline' || k === 'upcoming' || k === 'assignments') continue;
      if (['consumers', 'consumerCount', 'topics', 'partitionCounts', 'metrics'].includes(k) && !request.world) continue;
      frame[k] = v;
    }
    // As the model's row window (`FrameRequest.rows`): those rows of the consumers and of the
    // assignment table.
    const window = <T>(rows: T[]): T[] =>
      request.rows ? rows.slice(Math.min(request.rows.from, rows.length), request.rows.from + request.rows.count) : rows;
    if (Array.isArray(frame.consumers)) frame.consumers = window(frame.consumers);
    if (request.timeline) {
      const t = request.timeline;
      const following = t.endMs === null || t.endMs === undefined || t.endMs >= this.now();
      if (t.windowMs !== recorded.timeline?.windowMs || !following) throw new NeedsModule('another timeline window');
      const w = fields.timeline as { bars: number[]; marks: number[]; lanes: string[] };
      // (A recording holds every lane: a page of them other than all is the model's to draw.)
      if (request.rows && (request.rows.from > 0 || w.lanes.length > request.rows.count)) throw new NeedsModule('another page of lanes');
      frame.timeline = { ...w, laneCount: w.lanes.length, bars: w.bars.map((i) => table[i]), marks: w.marks.map((i) => table[i]) };
    }
    if (request.assignments !== undefined && request.assignments !== null) {
      if (request.assignments !== recorded.assignments || !!request.assignmentsChangedOnly !== recorded.assignmentsChangedOnly)
        throw new NeedsModule('another assignment table');
      const table = fields.assignments as { rows: unknown[] };
      frame.assignments = { ...table, rows: window(table.rows) };
    }
    if (request.steps) {
      // As the model's step window: the last `span` steps taken, or `span` from `from`.
      const span = request.steps.span;
      const total = this.at;
      const latest = Math.max(0, total - span);
      const { from: asked, around } = request.steps;
      let from = asked === null || asked === undefined ? latest : Math.min(asked, latest);
      if ((asked === null || asked === undefined) && around !== null && around !== undefined) {
        // The step holding the selected entry, when the window ending now does not.
        const k = told.recording.rows.findIndex((r, i) => i < total && r.first <= around && around < r.end);
        if (k >= 0 && k < latest) from = Math.min(latest, Math.max(0, k - Math.floor(span / 2)));
      }
      const to = Math.min(total, from + span);
      frame.steps = { from, to, total, rows: told.recording.rows.slice(from, to) };
    }
    if (request.upcoming !== undefined && request.upcoming !== null) {
      const wanted = Math.min(request.upcoming, 50);
      const listed = fields.upcoming as number[];
      if (wanted > (recorded.upcoming ?? 0)) throw new NeedsModule('more coming events');
      frame.upcoming = listed.slice(0, wanted).map((i) => table[i]);
    }
    return frame as unknown as Frame;
  }

  moments(from = 1): MomentAt[] {
    return this.recording.moments.filter((m) => m.step >= Math.max(1, from) && m.step <= this.known);
  }

  ownership(): Ownership {
    let found = this.recording.ownership[0][1];
    for (const [step, o] of this.recording.ownership) if (step <= this.at) found = o;
    return found;
  }

  entries(_from?: number): TraceEntry[] {
    throw new NeedsModule('the trace');
  }

  follow(_lines: string): never {
    throw new NeedsModule('a live run');
  }

  importGroup(): never {
    throw new NeedsModule('the group as a scenario');
  }

  /** A recording is already made: there is nothing more to bound. */
  setRecordBudget(_bytes: number): void {}

  free(): void {}
}
