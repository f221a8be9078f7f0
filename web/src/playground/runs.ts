// A scenario run to its end for its metrics: what a comparison is made of. Free of the page
// (no DOM), so that the comparison's worker (compare-worker.ts) runs the very same function.

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';

/** The application's listener and poll timing a comparison starts from (the compare panel's
 * fields, which "Your group" uses too): what a rebalance costs a real application, eager paying
 * the revoke for every partition it owned, cooperative for the partitions that move. */
export const COMPARE_APPLICATION = { revokeMsPerPartition: 200, assignMsPerPartition: 100, processingJitterMs: 30 } as const;

/** Runs a scenario to its end in at most `calls` bounded calls (`runUntil` processes at most
 * its event budget per call, so that a long or busy scenario cannot freeze the page it runs
 * on: one call on the main thread; a worker may take as many as it needs); throws, naming how
 * far it got, if the end is further than that. */
export function runToEnd(factory: (s: Scenario) => Simulation, scenario: Scenario, calls = 1): Metrics {
  const sim = factory(scenario);
  try {
    // Only the metrics are wanted: a long run's trace would take hundreds of megabytes.
    sim.keepTrace(false);
    const end = scenario.durationMs ?? 60_000;
    let reached = sim.runUntil(end);
    for (let call = 1; reached < end && call < calls; call++) reached = sim.runUntil(end);
    if (reached < end) {
      throw new RangeError(
        `"${scenario.name}" reached only ${reached} ms of its ${end} ms within one run's event budget: shorten durationMs to compare it`,
      );
    }
    return sim.metrics();
  } finally {
    sim.free();
  }
}
