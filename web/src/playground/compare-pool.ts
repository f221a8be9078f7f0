// Comparisons run off the page's main thread: a pool of workers (one per core, at most eight),
// each with its own instance of the model, takes the runs one at a time. The page only hands
// out runs and draws the answers, so it stays responsive however long the runs take, and
// Cancel ends them at once (the workers are stopped, not asked). Where no worker can start
// (no Worker, as in Node, or its module fails to load), the runs go on the main thread, one
// per task, the page answering between them.

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';
import { runToEnd } from './runs.ts';

/** One run of a comparison: a column's scenario with one seed. */
export interface CompareJob {
  column: number;
  /** The seed's place among the column's seeds (its runs are kept in this order). */
  index: number;
  scenario: Scenario;
}
/** What the page sends a worker. */
export interface JobRequest {
  job: number;
  scenario: Scenario;
}
/** What a worker answers. */
export interface JobAnswer {
  job: number;
  metrics?: Metrics;
  error?: string;
  /** How long the run took in the worker, in ms. */
  ms?: number;
}

/** The order the workers take the runs in. Runs of one column (one scenario, other seeds)
 * take about as long as each other, and columns differ by several times (a static group's run
 * against an eager one's), so: first each column's first run, to learn what its runs cost;
 * then the runs of the costliest columns first, so that the last runs to start are the short
 * ones and no worker finishes long before the others. (Column by column, a comparison of 300
 * consumers ended on one worker running a long column's last seed alone.) */
export class RunOrder {
  private readonly pending: number[];
  private readonly cost = new Map<number, number>();

  constructor(private readonly jobs: readonly Pick<CompareJob, 'column' | 'index'>[]) {
    const first = (j: number) => (jobs[j].index === 0 ? 0 : 1);
    this.pending = jobs.map((_, j) => j).sort((a, b) => first(a) - first(b) || a - b);
  }

  /** The next run to hand out, if any is left. */
  next(): number | undefined {
    if (this.pending.length === 0) return undefined;
    const head = this.pending[0];
    if (this.jobs[head].index === 0) return this.pending.shift();
    // A column not measured yet (its first run still under way) counts as the costliest.
    const known = [...this.cost.values()];
    const unknown = known.length ? Math.max(...known) : 0;
    const cost = (j: number) => this.cost.get(this.jobs[j].column) ?? unknown;
    let best = 0;
    for (let k = 1; k < this.pending.length; k++) if (cost(this.pending[k]) > cost(this.pending[best])) best = k;
    return this.pending.splice(best, 1)[0];
  }

  /** A run finished in `ms`: its column's runs are taken to cost that much. */
  finished(job: number, ms: number): void {
    const column = this.jobs[job].column;
    if (!this.cost.has(column)) this.cost.set(column, ms);
  }
}

export interface CompareCallbacks {
  /** A run's metrics (in the order they finish). */
  result(job: CompareJob, metrics: Metrics): void;
  /** How many runs have finished, of how many. */
  progress(done: number, total: number): void;
  /** A run failed: the others are stopped. */
  failed(message: string): void;
  /** Every run finished. */
  finished(): void;
}

export interface CompareHandle {
  cancel(): void;
}

// Eight: "Your group" compares five options over five seeds of a group of hundreds, each run a
// second or two; a run needs tens of MB of its own, so eight stay within what a page may take.
function workerCount(jobs: number): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(jobs, cores, 8));
}

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./compare-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

/** Runs `jobs`, calling back as they finish; `fallback` makes a simulation on the main thread
 * when no worker can. */
export function runJobs(jobs: CompareJob[], cb: CompareCallbacks, fallback: (s: Scenario) => Simulation): CompareHandle {
  let stopped = false;
  let done = 0;
  let next = 0;
  const workers: Worker[] = [];
  const stop = () => {
    stopped = true;
    for (const w of workers) w.terminate();
    workers.length = 0;
  };
  const finishOne = (job: CompareJob, metrics: Metrics) => {
    cb.result(job, metrics);
    done++;
    cb.progress(done, jobs.length);
    if (done === jobs.length) {
      stop();
      cb.finished();
    }
  };
  const fail = (message: string) => {
    if (stopped) return;
    stop();
    cb.failed(message);
  };
  // On the main thread: the jobs not yet handed out, one per task.
  const onMainThread = () => {
    const step = () => {
      if (stopped || next >= jobs.length) return;
      const job = jobs[next++];
      let metrics: Metrics;
      try {
        metrics = runToEnd(fallback, job.scenario);
      } catch (err) {
        fail((err as Error).message);
        return;
      }
      finishOne(job, metrics);
      setTimeout(step, 0);
    };
    setTimeout(step, 0);
  };
  cb.progress(0, jobs.length);
  if (jobs.length === 0) {
    cb.finished();
    return { cancel: stop };
  }
  const count = workerCount(jobs.length);
  for (let i = 0; i < count; i++) {
    const w = startWorker();
    if (!w) break;
    workers.push(w);
  }
  if (workers.length === 0) {
    onMainThread();
    return { cancel: stop };
  }
  // Each worker's run under way.
  const busy = new Map<Worker, number>();
  let answered = false;
  const order = new RunOrder(jobs);
  const give = (w: Worker) => {
    if (stopped) return;
    const job = order.next();
    if (job === undefined) return;
    busy.set(w, job);
    w.postMessage({ job, scenario: jobs[job].scenario } satisfies JobRequest);
  };
  for (const w of workers) {
    w.addEventListener('message', (e: MessageEvent<JobAnswer>) => {
      if (stopped) return;
      answered = true;
      busy.delete(w);
      const { job, metrics, error, ms } = e.data;
      if (error !== undefined || !metrics) {
        fail(error ?? 'the run gave no metrics');
        return;
      }
      order.finished(job, ms ?? 0);
      finishOne(jobs[job], metrics);
      give(w);
    });
    w.addEventListener('error', (e) => {
      e.preventDefault();
      if (stopped) return;
      // A worker that cannot load its module (before any answer): the runs go on the main
      // thread instead, from the first one not finished.
      if (!answered) {
        for (const x of workers) x.terminate();
        workers.length = 0;
        next = 0;
        busy.clear();
        onMainThread();
        return;
      }
      fail(e.message || 'a comparison worker stopped');
    });
    give(w);
  }
  return { cancel: stop };
}
