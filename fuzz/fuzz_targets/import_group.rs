//! Arbitrary text pasted into "Your group" (`importGroup`): a describe output or an admin
//! client's JSON, tampered with. Refused with an error naming a line or a field, or read into a
//! scenario that the loader accepts as it is written out (a link or a file carries it) and
//! that runs its first seconds without breaking an invariant. Seeded with the real outputs in
//! `crates/simulator/tests/import/`.
#![no_main]

use group_simulator::import_group;
use group_simulator::{Scenario, Simulation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scenario) = import_group(text) else {
        return;
    };
    let back = Scenario::from_json(&scenario.to_json()).expect("an imported scenario loads");
    assert_eq!(back, scenario);
    let partitions: i64 = scenario.topics.values().map(|n| i64::from(*n)).sum();
    if scenario.consumers.len() > 20 || partitions > 200 {
        return;
    }
    let mut sim = Simulation::new(scenario).expect("an imported scenario starts");
    sim.run_until(10_000);
    assert_eq!(sim.metrics().invariant_violations, 0, "{}", sim.render());
});
