// The comparison's worker: runs to their end off the page's main thread, with an instance of
// the model's module of its own. Each message is one run (a scenario with its seed); the
// answer is its metrics or why it failed. The pool (compare-pool.ts) hands out the runs.

import init, { Simulation } from '../../pkg/group_coordinator_wasm.js';
import wasmUrl from '../../pkg/group_coordinator_wasm_bg.wasm?url';
import type { JobAnswer, JobRequest } from './compare-pool.ts';
import { runToEnd } from './runs.ts';

const ready = init({ module_or_path: wasmUrl });
const scope = self as unknown as { postMessage(answer: JobAnswer): void; onmessage: ((e: MessageEvent<JobRequest>) => void) | null };

scope.onmessage = (e) => {
  const { job, scenario } = e.data;
  ready.then(
    () => {
      try {
        // Off the main thread, a run takes as many of its bounded calls as it needs. Its time
        // tells the pool what the column's other runs will cost (RunOrder).
        const start = performance.now();
        const metrics = runToEnd((s) => new Simulation(s), scenario, Number.POSITIVE_INFINITY);
        scope.postMessage({ job, metrics, ms: performance.now() - start });
      } catch (err) {
        scope.postMessage({ job, error: (err as Error).message ?? String(err) });
      }
    },
    (err) => scope.postMessage({ job, error: `The model failed to load: ${(err as Error).message}` }),
  );
};
