//! Every built-in scenario against its golden trace (`tests/golden/<name>.trace`): the full
//! narrated trace and the metrics. A change is a reviewed diff: run with `UPDATE_GOLDEN=1` to
//! write the new trace, then read the diff in `git diff` before committing it.

use group_simulator::Simulation;
use group_simulator::builtin::{SCENARIOS, scenario};
use std::path::PathBuf;

fn run(name: &str) -> (String, Simulation) {
    let s = scenario(name).unwrap_or_else(|| panic!("built-in scenario {name} does not load"));
    let duration = s.duration_ms;
    let mut sim = Simulation::new(s).expect("built-in scenarios are valid");
    sim.run_until(duration);
    let m = sim.metrics();
    let text = format!("{}\n# metrics\n{}\n", sim.render(), serde_json_like(&m));
    (text, sim)
}

/// The metrics, one `key: value` per line (the per-partition list left out).
fn serde_json_like(m: &group_simulator::Metrics) -> String {
    let mut m = m.clone();
    m.unowned_by_partition.clear();
    format!("{m:#?}")
}

#[test]
fn built_in_scenarios_match_their_golden_traces() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    // Only `UPDATE_GOLDEN=1` rewrites the files (not `0`, not empty): a rewrite must be meant.
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut hashes = String::new();
    for (name, _) in SCENARIOS {
        let (text, sim) = run(name);
        hashes += &format!("{name} {:016x}\n", sim.trace_hash());
        assert_eq!(
            sim.metrics().invariant_violations,
            0,
            "{name}: invariant violated:\n{}",
            text.lines()
                .filter(|l| l.contains("INVARIANT"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        let path = dir.join(format!("{name}.trace"));
        if update {
            std::fs::write(&path, &text).expect("write golden");
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        if golden != text {
            let actual = dir.join(format!("{name}.trace.actual"));
            std::fs::write(&actual, &text).expect("write actual");
            let line = golden
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(golden.lines().count().min(text.lines().count()));
            failures.push(format!(
                "{name}: differs from line {} (see {})",
                line + 1,
                actual.display()
            ));
        }
    }
    // The wasm tests check that the same runs hash the same in wasm (native == wasm).
    let hash_path = dir.join("hashes.txt");
    if update {
        std::fs::write(&hash_path, &hashes).expect("write hashes");
    } else if std::fs::read_to_string(&hash_path).unwrap_or_default() != hashes {
        failures.push(format!("trace hashes differ from {}", hash_path.display()));
    }
    assert!(
        failures.is_empty(),
        "golden traces differ (review, then UPDATE_GOLDEN=1):\n{}",
        failures.join("\n")
    );
}
