// A run of a scenario that moves both ways in time, over the model's own `Player` (Rust): it
// counts the steps, applies the user's actions at their steps and keeps checkpoints, so going
// back costs a few steps' work rather than a replay from the start. What the page draws comes
// from `frame()`, in one crossing; this module keeps no copy of the trace and no protocol state.

import type {
  Action,
  FollowStatus,
  Frame,
  FrameRequest,
  MomentAt,
  Ownership,
  Player,
  PlayStop,
  Scenario,
} from '../../pkg/group_coordinator_wasm.js';

/** What `Run` asks of a player: the model's `Player`, or a recording of one (recorded.ts). */
export type PlayerLike = Pick<
  Player,
  | 'scenario'
  | 'actions'
  | 'cursor'
  | 'knownSteps'
  | 'now'
  | 'finished'
  | 'pastEnd'
  | 'playStop'
  | 'forward'
  | 'seek'
  | 'seekKey'
  | 'seekMoment'
  | 'act'
  | 'frame'
  | 'moments'
  | 'ownership'
  | 'entries'
  | 'follow'
  | 'importGroup'
  | 'setRecordBudget'
  | 'free'
>;

export type PlayerFactory = (scenario: Scenario, actions: TimedAction[]) => PlayerLike;

/** An action taken by the user, applied after `step` steps. */
export interface TimedAction {
  step: number;
  action: Action;
}

/** The most steps a link, a file or an embed's `step` can take a run to. Replaying costs about
 * 20-60 µs a step, so this bounds the wait (about a second at most) and the memory. */
export const MAX_REACH = 50_000;
/** How many steps past the scenario's end (and past the last action) a link may ask for: the
 * group lives on with heartbeats only, so a far step there shows nothing new. */
export const STEPS_PAST_END = 2_000;

/** A `reach` under way (`Run.startReach`): where it goes, and the steps past the scenario's end
 * it has taken with no action of the user's. */
export interface Reaching {
  readonly target: number;
  idle: number;
  readonly acted: Set<number>;
  done: boolean;
}

export class Run {
  private player: PlayerLike;
  /** The moments of the known steps read so far, and how many known steps they cover: only
   * steps taken since are read at the next call (an action drops those from its step on). */
  private momentsRead: MomentAt[] = [];
  private momentsUpTo = 0;

  /** The scenario the run plays (a live run's changes when the broker's header and first group
   * arrive). */
  scenario: Scenario;

  constructor(factory: PlayerFactory, scenario: Scenario, actions: TimedAction[] = []) {
    this.player = factory(scenario, actions);
    this.scenario = scenario;
  }

  /** Goes on with the model itself (`factory`'s player) from the same step, with the same
   * known steps: how a recorded run (recorded.ts) hands over when the reader asks for more. */
  upgrade(factory: PlayerFactory): void {
    const player = factory(this.scenario, this.actions);
    const seek = (step: number) => {
      while (player.seek(step) < step && !player.finished()) {
        /* the next slice */
      }
    };
    seek(this.knownSteps);
    seek(this.cursor);
    this.player.free();
    this.player = player;
  }

  /** A run that follows group-broker (`Player.live()`): empty until `follow` is fed its trace. */
  static live(player: Player): Run {
    return new Run(() => player, player.scenario());
  }

  /** Feeds lines of the broker's trace (a live run): applied at the end of the run, each answer
   * checked against the model's (see `Player.follow`). A user looking back stays there. */
  follow(lines: string): FollowStatus {
    const status = this.player.follow(lines);
    this.scenario = this.player.scenario();
    return status;
  }

  /** The user's actions with their steps (forks drop the old future's). */
  get actions(): TimedAction[] {
    return this.player.actions();
  }

  /** Steps taken so far. */
  get cursor(): number {
    return this.player.cursor();
  }

  /** Steps known: taken, or in the known future after going back. */
  get knownSteps(): number {
    return this.player.knownSteps();
  }

  get now(): number {
    return this.player.now();
  }

  /** Nothing is left to happen. */
  get finished(): boolean {
    return this.player.finished();
  }

  /** Past the scenario's end (`durationMs`): playing stops here; stepping on is still allowed
   * (the group lives on). */
  get pastEnd(): boolean {
    return this.player.pastEnd();
  }

  /** Whether playing stops here, and why (null: play on). */
  playStop(): PlayStop | null {
    return this.player.playStop();
  }

  /** Up to `count` steps (with `toEnd`, not past where playing stops); returns the steps taken. */
  forward(count = 1, toEnd = false): number {
    return this.player.forward(count, toEnd);
  }

  /** Moves to `step` steps from the start (back: from the player's last checkpoint before it). */
  goto(step: number): void {
    const target = Math.max(0, Math.floor(step));
    // Forward moves go in calls of a bounded number of steps.
    while (this.player.seek(target) < target && !this.player.finished()) {
      /* the next slice */
    }
  }

  /** `goto` for a step a link, a file or an embed asks for: goes no further than the run can
   * usefully reach (at most MAX_REACH steps, and at most STEPS_PAST_END steps past the
   * scenario's end with no action of the user's in between). Returns the step reached, which
   * is below `step` when the run stopped early (the caller says so). */
  reach(step: number): number {
    this.reachOn(this.startReach(step));
    return this.cursor;
  }

  /** Starts `reach(step)` (a step behind is gone to at once); `reachOn` takes it on, in one go
   * or in slices. */
  startReach(step: number): Reaching {
    const target = Math.min(Math.max(0, Math.floor(step)), MAX_REACH);
    if (target < this.cursor) this.goto(target);
    return { target, idle: 0, acted: new Set(this.actions.map((a) => a.step)), done: this.cursor >= target };
  }

  /** Steps on toward `r`'s target until `until` (a `performance.now()` time) or the end; returns
   * whether it is done (reached, or stopped early as `reach` says). */
  reachOn(r: Reaching, until = Number.POSITIVE_INFINITY): boolean {
    while (!r.done) {
      if (this.cursor >= r.target) r.done = true;
      else if (this.acted(r)) r.done = true;
      else if (this.forward() === 0) r.done = true;
      else if (performance.now() >= until) break;
    }
    return r.done;
  }

  /** Counts a step past the scenario's end with no action of the user's: true past the limit. */
  private acted(r: Reaching): boolean {
    if (r.acted.has(this.cursor)) r.idle = 0;
    else if (this.pastEnd && ++r.idle > STEPS_PAST_END) return true;
    return false;
  }

  /** Goes to the scenario's key moment; returns its step, or null when it names none. */
  seekKey(): number | null {
    return this.player.seekKey() ?? null;
  }

  /** Goes to the next (or previous) moment; returns its step, or null when there is none
   * within reach. */
  seekMoment(forward: boolean): number | null {
    return this.player.seekMoment(forward) ?? null;
  }

  /** Acts now. An action in the past forks the run: later actions are forgotten. Throws (and
   * changes nothing) if the model refuses it. */
  act(action: Action): void {
    const step = this.cursor;
    this.player.act(action);
    // The action joins the current step (which may now be a moment) and drops the known future.
    this.momentsRead = this.momentsRead.filter((m) => m.step < step);
    this.momentsUpTo = Math.min(this.momentsUpTo, step - 1);
  }

  /** What the page draws now (see `Player.frame`). */
  frame(request: FrameRequest): Frame {
    return this.player.frame(request);
  }

  /** The moments of every known step (the scrubber's chapters), in order. */
  moments(): MomentAt[] {
    const known = this.knownSteps;
    if (known > this.momentsUpTo) {
      this.momentsRead.push(...this.player.moments(this.momentsUpTo + 1));
      this.momentsUpTo = known;
    }
    return this.momentsRead;
  }

  /** Who owned which partition when, up to now. */
  ownership(): Ownership {
    return this.player.ownership();
  }

  /** The group as it is now, as a scenario to plan a change on (`Player.importGroup`). */
  importGroup(): Scenario {
    return this.player.importGroup();
  }

  /** The raw trace entries from `from` (tests and exports read them; the views do not). */
  entries(from = 0) {
    return this.player.entries(from);
  }

  /** What the run may record before playing stops with `recordFull` (the model's default is
   * about 2 GB; tests set less to reach it). */
  setRecordBudget(bytes: number): void {
    this.player.setRecordBudget(bytes);
  }

  free(): void {
    this.player.free();
  }
}
