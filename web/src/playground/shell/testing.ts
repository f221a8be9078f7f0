// The one surface the browser tests drive and measure the page through (`window.playgroundTest`):
// nothing else of the page is reachable from outside, and nothing here is used by the page.

import type { Action, TraceEntry } from '../../../pkg/group_coordinator_wasm.js';
import type { Playback } from '../playback.ts';
import type { Store } from '../store.ts';

export interface PlaygroundTest {
  readonly playing: boolean;
  readonly cursor: number;
  goto(step: number): void;
  /** As the scrubber moves the run: the tables follow in the next frame. */
  scrub(step: number): void;
  stepOnce(): void;
  stop(): void;
  act(action: Action): void;
  /** The run's trace entries (what the model recorded, for checking what was sent). */
  entries(): TraceEntry[];
  /** What the run may record before playing stops (`Player.setRecordBudget`). */
  setRecordBudget(bytes: number): void;
  /** Script time per frame while playing, the frames' timestamps, and where frame time went. */
  readonly frameTimes: number[];
  readonly frameStamps: number[];
  readonly parts: Record<string, number>;
  readonly partsMax: Record<string, number>;
}

/** `act` is the page's own (a refusal is shown as the user would see it). */
export function testSurface(store: Store, playback: Playback, act: (action: Action) => void): PlaygroundTest {
  return {
    get playing() {
      return store.playing;
    },
    get cursor() {
      return store.run.cursor;
    },
    goto: (step) => playback.goto(step),
    scrub: (step) => playback.scrub(step),
    stepOnce: () => playback.stepOnce(),
    stop: () => playback.stop(),
    act,
    entries: () => store.run.entries(),
    setRecordBudget: (bytes) => store.run.setRecordBudget(bytes),
    frameTimes: playback.frameTimes,
    frameStamps: playback.frameStamps,
    parts: store.parts,
    partsMax: store.partsMax,
  };
}
