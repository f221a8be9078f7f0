//! Simulated time per wall-clock second: 10, 100 and 1,000 consumers over one simulated hour
//! (heartbeats, auto-commits, and a rolling restart of a tenth of the consumers). Prints
//! `BENCH native <consumers> <simulated-s-per-wall-s> <trace-entries>` lines.
//!
//! The benchmark measures wall time, which the model itself never reads.
#![allow(clippy::disallowed_types)]

use group_simulator::{Scenario, Simulation};
use std::time::Instant;

/// The benchmark's scenario: `n` consumers on 10 partitions each, cooperative-sticky, and a
/// restart of every tenth consumer spread over the hour.
pub fn scenario(n: usize) -> Scenario {
    let consumers: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{ "name": "c{i}", "topics": ["t0", "t1"], "startMs": {} }}"#,
                i * 10
            )
        })
        .collect();
    let restarts: Vec<String> = (0..n)
        .step_by(10)
        .enumerate()
        .map(|(k, i)| {
            format!(
                r#"{{ "atMs": {}, "action": {{ "type": "restart", "consumer": "c{i}", "downMs": 5000 }} }}"#,
                600_000 + k as i64 * 2_400_000 / (n as i64 / 10).max(1)
            )
        })
        .collect();
    let json = format!(
        r#"{{ "name": "bench-{n}", "title": {{ "en": "bench", "zh": "bench" }}, "seed": 42,
            "consumer": {{ "partition.assignment.strategy": "cooperative-sticky" }},
            "topics": {{ "t0": {p}, "t1": {p} }},
            "consumers": [{}], "script": [{}], "durationMs": 3600000 }}"#,
        consumers.join(","),
        restarts.join(","),
        p = n * 5
    );
    Scenario::from_json(&json).expect("the benchmark scenario is valid")
}

fn main() {
    let filter: Option<usize> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    for n in [10usize, 100, 1_000] {
        if filter.is_some_and(|f| f != n) {
            continue;
        }
        let mut sim = Simulation::new(scenario(n)).expect("valid");
        let start = Instant::now();
        sim.run_until(3_600_000);
        let wall = start.elapsed().as_secs_f64();
        let m = sim.metrics();
        assert_eq!(
            m.invariant_violations,
            0,
            "{}",
            sim.render()
                .lines()
                .filter(|l| l.contains("INVARIANT"))
                .take(5)
                .collect::<Vec<_>>()
                .join("\n")
        );
        println!(
            "BENCH native {n} {:.0} {} (wall {:.2} s, {} rebalances, {} messages)",
            3_600.0 / wall,
            sim.trace().len(),
            wall,
            m.rebalances,
            m.messages_sent
        );
    }
}
