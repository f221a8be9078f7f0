//! Arbitrary bytes as a scenario (the first line) and actions (the following lines, one JSON
//! action each, applied a simulated second apart), as a tampered share link or an imported file
//! would bring them: refused with an error, or run without a panic and without breaking an
//! invariant. Sizes are bounded so each input runs quickly.
#![no_main]

use group_simulator::{Action, Scenario, Simulation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut lines = data.split(|b| *b == b'\n');
    let Some(Ok(text)) = lines.next().map(std::str::from_utf8) else {
        return;
    };
    let Ok(scenario) = Scenario::from_json(text) else {
        return;
    };
    let partitions: i64 = scenario.topics.values().map(|n| i64::from(*n)).sum();
    if scenario.consumers.len() > 20 || partitions > 200 || scenario.script.len() > 50 {
        return;
    }
    let Ok(mut sim) = Simulation::new(scenario) else {
        return;
    };
    let mut t = 0;
    for line in lines.take(20) {
        t += 1_000;
        sim.run_until(t);
        if let Ok(action) = serde_json::from_slice::<Action>(line) {
            let _ = sim.apply(action);
        }
    }
    sim.run_until(t + 600_000);
    let m = sim.metrics();
    assert_eq!(m.invariant_violations, 0, "{}", sim.render());
});
