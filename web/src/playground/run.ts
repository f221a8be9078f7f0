// A run of a scenario that can move both ways in time. The simulation only moves forward, so
// going back rebuilds it from the scenario and replays the same steps and actions (it is
// deterministic: same scenario, seed and actions, same trace). Acting at an earlier step forks
// the run: the actions after it are dropped.

import type { Action, GroupView, Scenario, Simulation, TraceEntry, WorldView } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../i18n.ts';

export type SimulationFactory = (scenario: Scenario) => Simulation;

/** The most steps a link, a file or an embed's `step` can take a run to. Replaying costs about
 * 20-60 µs a step and keeps every entry, so this bounds both the wait (about a second at most)
 * and the memory. */
export const MAX_REACH = 50_000;
/** How many steps past the scenario's end (and past the last action) a link may ask for: the
 * group lives on with heartbeats only, so a far step there shows nothing new. */
export const STEPS_PAST_END = 2_000;

/** An action taken by the user, applied after `step` steps. */
export interface TimedAction { step: number; action: Action }

/** What the step table shows for one step: the entries it recorded and the world after it. */
export interface StepRecord {
  /** Trace entries [first, end) recorded by this step. */
  first: number;
  end: number;
  atMs: number;
  state: string;
  generationId: number;
  members: string[];
  timers: string[];
}

export class Run {
  private sim: Simulation;
  /** Every trace entry so far (narrated on demand by `text`: most are never shown). */
  readonly entries: TraceEntry[] = [];
  /** One record per step taken (index k = the (k+1)-th step). */
  readonly steps: StepRecord[] = [];
  finished = false;
  private snapshot: WorldView | null = null;
  private groupView: { view: GroupView | null } | null = null;
  private state = '—';
  private generationId = 0;
  /** Members and timers per step come from a snapshot after every step: only for small groups
   * (the step table of a 50-consumer group would not be read, and snapshots cost). */
  private readonly detailed: boolean;

  constructor(
    private readonly factory: SimulationFactory,
    readonly scenario: Scenario,
    public actions: TimedAction[] = [],
  ) {
    this.sim = factory(scenario);
    this.detailed = scenario.consumers.length <= 12;
    this.applyActionsAt(0);
  }

  /** The group now (cheaper than the whole world). */
  get group(): GroupView | null {
    if (this.snapshot) return this.snapshot.group;
    this.groupView ??= { view: this.sim.group() };
    return this.groupView.view;
  }

  /** The world now (taken when asked, once per step). */
  get view(): WorldView {
    this.snapshot ??= this.sim.snapshot();
    return this.snapshot;
  }

  /** Past the scenario's end (`durationMs`, default 60 s): playing stops here; stepping on
   * is still allowed (the group lives on). */
  get pastEnd(): boolean {
    if (this.finished) return true;
    const next = this.sim.nextEventTime();
    return next === undefined || next === null || next > (this.scenario.durationMs ?? 60_000);
  }

  /** Steps taken so far. */
  get cursor(): number {
    return this.steps.length;
  }

  get now(): number {
    return this.sim.now();
  }

  /** One step: the next delivered message, fired timer or script action. False at the end. */
  forward(): boolean {
    const first = this.entries.length;
    // `advance` rather than `step`: the new entries are read (narrated) once, by `pull`.
    const atMs = this.sim.advance();
    if (atMs === undefined || atMs === null) {
      this.finished = true;
      return false;
    }
    this.pull();
    this.snapshot = null;
    this.groupView = null;
    const group = this.detailed ? this.view.group : null;
    this.steps.push({
      first,
      end: this.entries.length,
      atMs,
      state: this.state,
      generationId: this.generationId,
      members: group?.members.map((m) => m.clientId) ?? [],
      timers: group?.timers.map((t) => t.key) ?? [],
    });
    this.applyActionsAt(this.cursor);
    return true;
  }

  /** Moves to `step` steps from the start, rebuilding the world if that is in the past. */
  goto(step: number): void {
    const target = Math.max(0, Math.floor(step));
    if (target < this.cursor) this.rebuild();
    while (this.cursor < target && this.forward()) { /* replay */ }
  }

  back(): void {
    this.goto(this.cursor - 1);
  }

  /** `goto` for a step a link, a file or an embed asks for: goes no further than the run can
   * usefully reach (at most MAX_REACH steps, and at most STEPS_PAST_END steps past the
   * scenario's end with no action of the user's in between). Returns the step reached, which
   * is below `step` when the run stopped early (the caller says so). */
  reach(step: number): number {
    const target = Math.min(Math.max(0, Math.floor(step)), MAX_REACH);
    if (target < this.cursor) this.rebuild();
    let idle = 0;
    while (this.cursor < target) {
      if (this.actions.some((a) => a.step === this.cursor)) idle = 0;
      else if (this.pastEnd && ++idle > STEPS_PAST_END) break;
      if (!this.forward()) break;
    }
    return this.cursor;
  }

  /** Acts now. An action in the past forks the run: later actions are forgotten. */
  act(action: Action): void {
    const kept = this.actions.filter((a) => a.step <= this.cursor);
    this.sim.apply(action); // throws (and changes nothing) if refused
    this.actions = [...kept, { step: this.cursor, action }];
    this.pull();
    this.snapshot = null;
    this.groupView = null;
    if (this.steps.length > 0) this.steps[this.steps.length - 1].end = this.entries.length;
    this.finished = false;
  }

  /** What entry `index` says, in `lang`. */
  text(index: number, lang: Lang): string {
    return this.sim.narration(index)?.[lang] ?? '';
  }

  metrics() {
    return this.sim.metrics();
  }

  free(): void {
    this.sim.free();
  }

  private rebuild(): void {
    this.sim.free();
    this.sim = this.factory(this.scenario);
    this.entries.length = 0;
    this.steps.length = 0;
    this.finished = false;
    this.snapshot = null;
    this.groupView = null;
    this.state = '—';
    this.generationId = 0;
    this.applyActionsAt(0);
  }

  private applyActionsAt(step: number): void {
    for (const a of this.actions) {
      if (a.step === step) this.sim.apply(a.action);
    }
    if (this.actions.some((a) => a.step === step)) {
      this.pull();
      this.snapshot = null;
    this.groupView = null;
      if (this.steps.length > 0) this.steps[this.steps.length - 1].end = this.entries.length;
    }
  }

  /** Takes the new trace entries, following the group's state and generation on the way. */
  private pull(): void {
    for (const e of this.sim.entries(this.entries.length)) {
      this.entries.push(e);
      if (e.type === 'coordinator') {
        if (e.event.type === 'StateChanged') this.state = e.event.to;
        else if (e.event.type === 'GenerationBumped') this.generationId = e.event.generationId;
        else if (e.event.type === 'Deleted') this.generationId = 0;
      }
    }
  }
}
