// A scenario run to its end for its metrics: what a comparison is made of. Free of the page
// (no DOM), so that the comparison's worker (compare-worker.ts) runs the very same function.

import type { Metrics, Scenario, Simulation } from '../../pkg/group_coordinator_wasm.js';

/** Runs a scenario to its end in one bounded call (`runUntil` processes at most its event
 * budget, so a long or busy scenario cannot freeze the page); throws, naming how far it got,
 * if the end is further than that. */
export function runToEnd(factory: (s: Scenario) => Simulation, scenario: Scenario): Metrics {
  const sim = factory(scenario);
  try {
    const end = scenario.durationMs ?? 60_000;
    const reached = sim.runUntil(end);
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
