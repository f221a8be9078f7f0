//! Simulated time per wall-clock second: 10, 100 and 1,000 consumers over one simulated hour
//! of `builtin::large_group` (heartbeats, auto-commits, a restart of every tenth consumer),
//! with the classic protocol and with the consumer protocol (KIP-848), with the trace kept (as
//! the playground keeps it) and without (`-metrics-only`, as a comparison runs).
//! `bench/wasm-simulation.mjs` runs the same worlds in wasm under Node. Prints
//! `BENCH native <consumers>-<protocol>[-metrics-only] <simulated-s-per-wall-s> <trace-entries>`
//! lines.
//!
//! The benchmark measures wall time, which the model itself never reads.
#![allow(clippy::disallowed_types)]

use group_simulator::Simulation;
use group_simulator::builtin::large_group;
use std::time::Instant;

fn main() {
    // `<consumers> [classic|consumer] [trace|metrics] [minutes]` runs one size, or one size and
    // protocol, or only the run that keeps its trace or only the one that does not (one run to
    // profile), for the hour or only its first minutes (a run short enough to count its
    // instructions under valgrind: see bench/README.md). (cargo adds `--bench`.)
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // `<scenario.json>...`: each scenario file run to its end without its trace, as the page's
    // comparisons run them (`bench/wasm-your-group.mjs --write DIR` writes its options' files):
    // the same run natively, to profile. (Read before the other arguments: a fourth file is not
    // a number of minutes.)
    if args.first().is_some_and(|a| a.ends_with(".json")) {
        for path in &args {
            run_file(path);
        }
        return;
    }
    let filter: Option<usize> = args.first().and_then(|a| a.parse().ok());
    let protocol_filter = args.get(1);
    let kept_filter = args.get(2).map(|k| k == "trace");
    let until: i64 = match args.get(3) {
        Some(m) => m.parse::<i64>().expect("minutes") * 60_000,
        None => 3_600_000,
    };
    for (n, protocol, kept) in [10usize, 100, 1_000].into_iter().flat_map(|n| {
        [
            (n, "classic", true),
            (n, "consumer", true),
            (n, "classic", false),
            (n, "consumer", false),
        ]
    }) {
        if filter.is_some_and(|f| f != n)
            || protocol_filter.is_some_and(|p| p != protocol)
            || kept_filter.is_some_and(|k| k != kept)
        {
            continue;
        }
        let mut scenario = large_group(n, 10, 3_600_000);
        scenario.consumer.insert(
            "group.protocol".to_string(),
            group_simulator::scenario::Setting::Text(protocol.to_string()),
        );
        let mut sim = Simulation::new(scenario).expect("valid");
        sim.keep_trace(kept);
        let start = Instant::now();
        sim.run_until(until);
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
            "BENCH native {n}-{protocol}{} {:.0} {} (wall {:.2} s, {} rebalances, {} messages)",
            if kept { "" } else { "-metrics-only" },
            until as f64 / 1_000.0 / wall,
            sim.trace().len(),
            wall,
            m.rebalances,
            m.messages_sent
        );
    }
}

fn run_file(path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let scenario =
        group_simulator::Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let end = scenario.duration_ms;
    let mut sim = Simulation::new(scenario).unwrap_or_else(|e| panic!("{path}: {e}"));
    sim.keep_trace(false);
    let start = Instant::now();
    sim.run_until(end);
    let wall = start.elapsed().as_secs_f64();
    let m = sim.metrics();
    assert_eq!(m.invariant_violations, 0, "{path}: invariant violations");
    println!(
        "BENCH native {path} {wall:.2} s ({} simulated s, {} rebalances, {} messages)",
        end / 1000,
        m.rebalances,
        m.messages_sent
    );
}
