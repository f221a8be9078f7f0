// A recorded run (recorded.ts, written by scripts/record-embeds.mjs) answers as the model's
// Player does, call by call: every built-in scenario, in both languages, over a random walk of
// steps, seeks, moments and frames of every shape an embed asks for. Where the recording
// cannot answer it says so (NeedsModule) and changes nothing; Run.upgrade then goes on with the
// model from the same step.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript (its types are recorded.ts's Recording)
import { record } from '../../scripts/record-embeds.mjs';
import * as pkg from '../pkg/group_coordinator_wasm.js';
import { type FrameRequest, initSync, Player, scenario, scenarios } from '../pkg/group_coordinator_wasm.js';
import { NeedsModule, RecordedPlayer, type Recording, type Recordings, recordingProblem } from '../src/playground/recorded.ts';
import { Run } from '../src/playground/run.ts';
import { prng } from './prng.ts';

// (At load: the tests are made per built-in scenario.)
initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

const recording = (name: string, lang: 'en' | 'zh'): Recording => JSON.parse(JSON.stringify(record(pkg, name, lang)));

/** The requests an embed makes: full or not, the step table paged, fewer coming events, and
 * some the recording cannot answer. */
function request(r: () => number, lang: 'en' | 'zh'): FrameRequest {
  const req: FrameRequest = { lang, timeline: { windowMs: 30_000, resolutionMs: 0, selected: null, endMs: null } };
  if (r() < 0.1) req.timeline = { windowMs: 60_000, resolutionMs: 0 };
  if (r() < 0.1) req.lang = lang === 'en' ? 'zh' : 'en';
  if (r() < 0.7) {
    req.assignments = r() < 0.9 ? 8 : 4;
    req.assignmentsChangedOnly = true;
    req.steps = { from: r() < 0.7 ? null : Math.floor(r() * 200), span: r() < 0.8 ? 30 : 1 + Math.floor(r() * 40) };
    req.world = r() < 0.9;
    req.upcoming = r() < 0.8 ? 40 : Math.floor(r() * 60);
  }
  return req;
}

describe('a recorded run answers as the model does', () => {
  for (const { name } of scenarios()) {
    it(name, () => {
      for (const lang of ['en', 'zh'] as const) {
        const rec = recording(name, lang);
        expect(recordingProblem(rec)).toBeNull();
        // The run in one language; the other is added half way, as the page adds it when the
        // reader switches language.
        const recordings: Recordings = { [lang]: rec };
        const recorded = new RecordedPlayer(recordings);
        const real = new Player(scenario(name), []);
        const r = prng(name.length * 7919 + (lang === 'en' ? 1 : 2));
        const end = rec.frames.length - 1;
        let refused = 0;
        for (let i = 0; i < 120; i++) {
          if (i === 60) recordings[lang === 'en' ? 'zh' : 'en'] = recording(name, lang === 'en' ? 'zh' : 'en');
          const pick = r();
          const call: [string, unknown[]] =
            pick < 0.35
              ? ['forward', [1 + Math.floor(r() * 8), r() < 0.6]]
              : pick < 0.55
                ? ['seek', [Math.floor(r() * (end + 20))]]
                : pick < 0.62
                  ? ['seekKey', []]
                  : pick < 0.75
                    ? ['seekMoment', [r() < 0.6]]
                    : pick < 0.8
                      ? ['moments', [Math.floor(r() * 40)]]
                      : pick < 0.83
                        ? ['ownership', []]
                        : ['frame', [request(r, lang)]];
          const [method, args] = call;
          const before = [recorded.cursor(), recorded.knownSteps()];
          let answer: unknown;
          try {
            answer = (recorded as unknown as Record<string, (...a: unknown[]) => unknown>)[method](...args);
          } catch (e) {
            expect(e).toBeInstanceOf(NeedsModule);
            expect([recorded.cursor(), recorded.knownSteps()]).toEqual(before);
            refused++;
            continue;
          }
          const expected = (real as unknown as Record<string, (...a: unknown[]) => unknown>)[method](...args);
          // (The model answers `undefined` for "none": the page reads both as null.)
          expect(answer ?? null, `${lang} call ${i}: ${method}(${JSON.stringify(args)})`).toEqual(expected ?? null);
          for (const m of ['cursor', 'knownSteps', 'now', 'finished', 'pastEnd', 'playStop'] as const) {
            expect(recorded[m](), `${lang} call ${i}: ${method} then ${m}`).toEqual(real[m]() ?? null);
          }
        }
        // The walk met both kinds: answered, and refused for the model.
        expect(refused).toBeGreaterThan(0);
        expect(refused).toBeLessThan(60);
        real.free();
      }
    });
  }
});

describe('handing over to the model', () => {
  it('Run.upgrade goes on from the same step with the same known steps, and then acts', () => {
    const name = 'leave-while-stable';
    const run = new Run(() => new RecordedPlayer({ en: recording(name, 'en') }), scenario(name));
    run.forward(40);
    run.goto(25);
    const frame = run.frame({ lang: 'en', timeline: { windowMs: 30_000, resolutionMs: 0 } });
    expect(() => run.act({ type: 'crash', consumer: 'B' })).toThrow(NeedsModule);
    run.upgrade((s, actions) => new Player(s, actions));
    expect([run.cursor, run.knownSteps]).toEqual([25, 40]);
    expect(run.frame({ lang: 'en', timeline: { windowMs: 30_000, resolutionMs: 0 } })).toEqual(frame);
    run.act({ type: 'crash', consumer: 'B' });
    expect(run.actions).toEqual([{ step: 25, action: { type: 'crash', consumer: 'B' } }]);
    run.free();
  });

  it('a file that is not a recording is named as such', () => {
    expect(recordingProblem(null)).toBe('not an object');
    expect(recordingProblem({ format: 2 })).toBe('format 2, not 1');
    expect(recordingProblem({ format: 1, table: [], frames: [], rows: [], moments: [], ownership: [] })).toBe('no frames');
  });
});
