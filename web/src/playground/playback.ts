// Playing and travelling in time: the play loop with its frame budget, stepping, going to any
// step (the model's checkpoints make going back cheap), acting, and the look-ahead that sizes
// and paints the scrubber. It moves the run and asks the store for frames; it draws nothing.

import type { Action, MomentAt, PlayStop } from '../../pkg/group_coordinator_wasm.js';
import { type PlayerFactory, Run } from './run.ts';
import type { Store } from './store.ts';

/** Steps per second for the speed dial (log scale); the last is "as fast as frames allow". */
export const SPEEDS = [1, 2, 5, 10, 25, 50, 100, 250, 1000, Infinity];

/** The whole scenario run once ahead (no user actions): the scrubber's length and moments. */
export interface Preview {
  steps: number;
  moments: MomentAt[];
}

export class Playback {
  speed = 3;
  preview: Preview = { steps: 0, moments: [] };
  /** Script time per frame while playing (ms), and the frames' timestamps (their intervals are
   * the achieved frame times, paint included): read by the e2e test. */
  readonly frameTimes: number[] = [];
  readonly frameStamps: number[] = [];
  /** Called when playing starts or stops, and when the look-ahead is done. */
  onChange: () => void = () => {};
  /** Called when playing stops (or cannot start) by itself, with why. */
  onHalt: (why: PlayStop) => void = () => {};
  private frame = 0;
  private lastFrame = 0;
  private budget = 0;
  /** Steps per call at full speed, adapted to fit the frame's stepping time. */
  private batch = 16;
  private tablesDrawn = 0;
  private tablesFrame = 0;
  private lookAheadTicket = 0;

  constructor(
    private readonly store: Store,
    private readonly factory: PlayerFactory,
  ) {}

  /** Moves the run with `f` (stopping play first), then draws the frame. Throws what `f` throws
   * (after drawing: what was done stays done). */
  private move(f: () => void): void {
    this.stop();
    cancelAnimationFrame(this.tablesFrame);
    try {
      f();
    } finally {
      this.store.refresh();
    }
  }

  stepOnce(): void {
    let taken = 1;
    this.move(() => {
      taken = this.store.run.forward();
    });
    // A step that could not be taken says why (the run's record is full, nothing is left).
    const why = taken === 0 ? this.store.run.playStop() : null;
    if (why) this.onHalt(why);
  }

  goto(step: number): void {
    this.move(() => this.store.run.goto(step));
  }

  back(): void {
    this.goto(this.store.run.cursor - 1);
  }

  /** To the scenario's key moment; false when it names none. */
  keyMoment(): boolean {
    let found = false;
    this.move(() => {
      found = this.store.run.seekKey() !== null;
    });
    return found;
  }

  /** To the next (or previous) moment; false when there is none within reach. */
  moment(forward: boolean): boolean {
    let found = false;
    this.move(() => {
      found = this.store.run.seekMoment(forward) !== null;
    });
    return found;
  }

  /** The moments the scrubber shows: the run's own once the user acted or it went past the
   * scenario's run ahead, otherwise that run's (the whole scenario, known before it is played). */
  moments(): MomentAt[] {
    const run = this.store.run;
    const own = run.actions.length > 0 || run.knownSteps > this.preview.steps;
    return own || this.preview.steps === 0 ? run.moments() : this.preview.moments;
  }

  /** `goto` for the scrubber, which sends a move per pixel dragged: the views that follow every
   * step (controls, state machine, timeline) are drawn at once, the tables in the next frame,
   * once for however many moves came in between. */
  scrub(step: number): void {
    this.stop();
    this.store.run.goto(step);
    this.store.refresh(false);
    cancelAnimationFrame(this.tablesFrame);
    this.tablesFrame = requestAnimationFrame(() => this.store.refresh());
  }

  /** Acts now, while playing or not (acting in the past forks the run). */
  act(action: Action): void {
    try {
      this.store.run.act(action);
    } finally {
      this.store.refresh();
    }
  }

  toggle(): void {
    if (this.store.playing) this.stop();
    else this.start();
  }

  private start(): void {
    const why = this.store.run.playStop();
    if (why) {
      this.onHalt(why);
      return;
    }
    this.store.playing = true;
    this.lastFrame = performance.now();
    this.budget = 0;
    this.frame = requestAnimationFrame((ts) => this.tick(ts));
    this.onChange();
  }

  stop(): void {
    if (!this.store.playing) return;
    this.store.playing = false;
    cancelAnimationFrame(this.frame);
    this.onChange();
    this.store.refresh();
  }

  private tick(ts: number): void {
    if (!this.store.playing) return;
    const start = performance.now();
    const run = this.store.run;
    const rate = SPEEDS[this.speed];
    this.budget += rate === Infinity ? Infinity : ((ts - this.lastFrame) / 1000) * rate;
    this.lastFrame = ts;
    // At full speed, step for about 2 ms of script time per frame, the rest of the frame being
    // for drawing and the browser; otherwise the dial's rate. (Measured in e2e with 50
    // consumers on a 2-core machine without a GPU: 2 ms left 0-2 % of frames late; 4 ms, 1-4 %
    // late with frames of up to 25-38 ms.) The steps go in batches, one crossing each.
    let moved = 0;
    while (this.budget >= 1 && performance.now() - start < 2) {
      const want = rate === Infinity ? this.batch : Math.min(this.batch, Math.floor(this.budget));
      const t0 = performance.now();
      const taken = run.forward(want, true);
      const ms = performance.now() - t0;
      if (rate === Infinity) this.batch = ms > 1 ? Math.max(1, this.batch >> 1) : Math.min(4096, this.batch * 2);
      moved += taken;
      this.budget -= taken;
      if (taken < want) break;
    }
    this.store.spent('step', start);
    if (this.budget === Infinity) this.budget = 0;
    // Stop in the frame that reached the end (drawing everything, as a pause does), so the page
    // never shows the end while playing. Otherwise a frame redraws what moves; the tables at
    // most every 300 ms, and a large group's not at all (they would not fit a frame).
    const why = run.playStop();
    if (why) {
      this.stop();
      this.onHalt(why);
    } else if (moved > 0) {
      const now = performance.now();
      const full = run.scenario.consumers.length <= 12 && now - this.tablesDrawn >= 300;
      if (full) this.tablesDrawn = now;
      this.store.refresh(full);
    }
    this.frameTimes.push(performance.now() - start);
    this.frameStamps.push(ts);
    if (this.frameTimes.length > 2000) {
      this.frameTimes.shift();
      this.frameStamps.shift();
    }
    if (this.store.playing) this.frame = requestAnimationFrame((next) => this.tick(next));
  }

  /** Runs the scenario to its end once, to size and paint the scrubber: in slices of idle time
   * between frames (a 50-consumer group's look-ahead is 20,000 steps, a second of work that
   * would freeze the page on loading it). A newer load cancels an older look-ahead. */
  lookAhead(): void {
    const ticket = ++this.lookAheadTicket;
    this.preview = { steps: 0, moments: [] };
    const scenario = this.store.run.scenario;
    // Built in the first slice, not in the task that loaded the run: a large scenario (a file of
    // 18 MB) takes a few hundred ms to read again.
    let ahead: Run | null = null;
    const later = (f: (budget: number) => void) =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback((d) => f(Math.max(1, d.timeRemaining())), { timeout: 200 })
        : setTimeout(() => f(8), 0);
    const slice = (budget: number) => {
      if (ticket !== this.lookAheadTicket) {
        ahead?.free();
        return;
      }
      const start = performance.now();
      let more = true;
      try {
        ahead ??= new Run(this.factory, scenario);
        while ((more = ahead.cursor < 20_000 && ahead.forward(64, true) === 64) && performance.now() - start < budget) {
          /* run ahead */
        }
      } catch {
        more = false;
      }
      if (more) {
        later(slice);
        return;
      }
      this.preview = { steps: ahead?.cursor ?? 0, moments: ahead?.moments() ?? [] };
      ahead?.free();
      this.onChange();
    };
    later(slice);
  }
}
