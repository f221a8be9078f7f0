// A run of a scenario that moves both ways in time, over the model's own `Player` (Rust): it
// counts the steps, applies the user's actions at their steps, records what each step left
// (state, generation, members, delayed operations) and keeps checkpoints, so going back costs a
// few steps' work rather than a replay from the start. This module keeps copies of the step
// records and trace entries the player handed over (the views read them every frame) and cuts
// them back when the run goes back; it tracks no protocol state of its own.

import type {
  Action,
  GroupView,
  Moved,
  Ownership,
  Player,
  StepRecord as PlayerStep,
  Scenario,
  TraceEntry,
  WorldView,
} from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../i18n.ts';

export type PlayerFactory = (scenario: Scenario, actions: TimedAction[]) => Player;

/** An action taken by the user, applied after `step` steps. */
export interface TimedAction {
  step: number;
  action: Action;
}

/** What the step table shows for one step (the player's record; `state` '—' before the group
 * exists). */
export interface StepRecord extends Omit<PlayerStep, 'state'> {
  state: string;
}

/** The most steps a link, a file or an embed's `step` can take a run to. Replaying costs about
 * 20-60 µs a step and keeps every entry, so this bounds both the wait (about a second at most)
 * and the memory. */
export const MAX_REACH = 50_000;
/** How many steps past the scenario's end (and past the last action) a link may ask for: the
 * group lives on with heartbeats only, so a far step there shows nothing new. */
export const STEPS_PAST_END = 2_000;

export class Run {
  private player: Player;
  /** Every trace entry so far (narrated on demand by `text`: most are never shown). */
  readonly entries: TraceEntry[] = [];
  /** One record per step taken (index k = the (k+1)-th step). */
  readonly steps: StepRecord[] = [];
  finished = false;
  private snapshot: WorldView | null = null;
  private groupView: { view: GroupView | null } | null = null;

  constructor(
    factory: PlayerFactory,
    readonly scenario: Scenario,
    actions: TimedAction[] = [],
  ) {
    this.player = factory(scenario, actions);
    // The actions at step 0 recorded entries already.
    this.entries.push(...this.player.entries(0));
  }

  /** The user's actions with their steps (forks drop the old future's). */
  get actions(): TimedAction[] {
    return this.player.actions();
  }

  /** The group now (cheaper than the whole world). */
  get group(): GroupView | null {
    if (this.snapshot) return this.snapshot.group;
    this.groupView ??= { view: this.player.group() };
    return this.groupView.view;
  }

  /** The world now (taken when asked, once per step). */
  get view(): WorldView {
    this.snapshot ??= this.player.snapshot();
    return this.snapshot;
  }

  /** Past the scenario's end (`durationMs`): playing stops here; stepping on is still allowed
   * (the group lives on). */
  get pastEnd(): boolean {
    return this.finished || this.player.pastEnd();
  }

  /** Steps taken so far. */
  get cursor(): number {
    return this.steps.length;
  }

  get now(): number {
    return this.player.now();
  }

  /** One step: the next delivered message, fired timer or script action. False at the end. */
  forward(): boolean {
    const moved = this.player.forward();
    if (moved === null) {
      this.finished = true;
      return false;
    }
    this.take(moved);
    return true;
  }

  /** Moves to `step` steps from the start (back: from the player's last checkpoint before it). */
  goto(step: number): void {
    const target = Math.max(0, Math.floor(step));
    // Forward moves go in calls of a bounded number of steps; each hands over what it added.
    do {
      this.take(this.player.seek(target));
    } while (this.cursor < target && !this.player.finished());
    this.finished = this.player.finished();
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
    if (target < this.cursor) this.goto(target);
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
    this.take(this.player.act(action)); // throws (and changes nothing) if refused
    if (this.steps.length > 0) this.steps[this.steps.length - 1].end = this.entries.length;
    this.finished = false;
  }

  /** What entry `index` says, in `lang`. */
  text(index: number, lang: Lang): string {
    return this.player.narration(index)?.[lang] ?? '';
  }

  metrics() {
    return this.player.metrics();
  }

  /** Who owned which partition when, up to now. */
  ownership(): Ownership {
    return this.player.ownership();
  }

  free(): void {
    this.player.free();
  }

  /** Takes what the player moved: cuts the copies back to where it is, then adds the new. */
  private take(moved: Moved): void {
    this.steps.length = Math.min(this.steps.length, moved.cursor - moved.steps.length);
    for (const s of moved.steps) this.steps.push({ ...s, state: s.state ?? '—' });
    this.entries.length = Math.min(this.entries.length, moved.traceLength - moved.entries.length);
    for (const e of moved.entries) this.entries.push(e);
    this.snapshot = null;
    this.groupView = null;
  }
}
