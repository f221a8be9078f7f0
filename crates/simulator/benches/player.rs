//! Time travel on long runs: a step back at the end, a scrub to the middle (and to the worst
//! place, just before a checkpoint), a scrub forward from the middle into the known future, a
//! fork (an action) in the middle and a step on, for the page's 50-consumer, 10-minute group and a simulated hour
//! of 100 consumers. Each figure is the median of several tries after the run has been played
//! to its end once (as the page has). `bench/wasm-player.mjs` measures the same in wasm.
//! Prints `BENCH native player <run> <what> <ms>` lines, and the checkpoints kept.
//!
//! Then a live run: a broker's trace of one client's heartbeats followed in batches of 2,000
//! lines, as the page hands them over (`BENCH native follow <lines> <first-batch-ms>
//! <last-batch-ms> <total-ms>`). Each input is an action at the cursor and a checkpoint: the
//! last batch once took 16× the first (the whole action log copied per checkpoint, and scanned
//! per step); the two should stay alike.
//!
//! The benchmark measures wall time, which the model itself never reads.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use group_simulator::Follower;
use group_simulator::builtin::large_group;
use group_simulator::{Action, Player};
use std::time::Instant;

/// The median of 7 tries of `f`, which returns the milliseconds of the part it times.
fn median(mut f: impl FnMut() -> f64) -> f64 {
    let mut ms: Vec<f64> = (0..7).map(|_| f()).collect();
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

fn timed(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    for (label, consumers, per, duration) in [
        ("50x10min", 50usize, 10usize, 600_000i64),
        ("100x1h", 100, 10, 3_600_000),
    ] {
        let s = large_group(consumers, per, duration);
        let mut p = Player::new(s, Vec::new()).unwrap();
        let t = Instant::now();
        while p.simulation().now() < duration && p.forward().unwrap() {}
        let play = t.elapsed().as_secs_f64();
        let end = p.cursor();
        println!(
            "BENCH native player {label} steps {end} (played in {play:.2} s; {} checkpoints {} steps apart)",
            p.checkpoints(),
            p.spacing()
        );
        let back = median(|| {
            p.seek(end).unwrap();
            timed(|| p.seek(end - 1).unwrap())
        });
        println!("BENCH native player {label} step-back-at-end {back:.3}");
        let scrub = median(|| {
            p.seek(end).unwrap();
            timed(|| p.seek(end / 2).unwrap())
        });
        println!("BENCH native player {label} scrub-to-middle {scrub:.3}");
        // The worst place: just before a checkpoint (a whole spacing to replay).
        let worst_at = (end / 2 / p.spacing() + 1) * p.spacing() - 1;
        let worst = median(|| {
            p.seek(end).unwrap();
            timed(|| p.seek(worst_at).unwrap())
        });
        println!("BENCH native player {label} scrub-worst {worst:.3}");
        let ahead = median(|| {
            p.seek(end / 2).unwrap();
            timed(|| p.seek(end - 1).unwrap())
        });
        println!("BENCH native player {label} scrub-forward {ahead:.3}");
        // Each try crashes another consumer at the middle (the earlier tries' crashes stay:
        // they were taken at the same step).
        let mut victim = 0;
        let fork = median(|| {
            p.seek(end / 2).unwrap();
            victim += 1;
            timed(|| {
                p.act(Action::Crash {
                    consumer: format!("c{victim}"),
                })
                .unwrap();
                p.seek(end / 2 + 1).unwrap();
            })
        });
        println!("BENCH native player {label} fork-in-middle {fork:.3}");
    }
    // A scenario with a long script (99,000 closes on top of the 50-consumer group, 7 MB of
    // JSON, as a large run file holds): 20,000 steps, each checkpoint sharing the scenario.
    {
        use group_simulator::scenario::ScriptStep;
        let mut s = large_group(50, 10, 600_000);
        s.script.extend((0..99_000i64).map(|i| ScriptStep {
            at_ms: 1000 + i * 5,
            action: Some(Action::Close {
                consumer: format!("c{}", i % 50),
            }),
            narrate: None,
            key: false,
        }));
        s.script.sort_by_key(|x| x.at_ms);
        let mut p = Player::new(s, Vec::new()).unwrap();
        let ms = timed(|| {
            let mut n = 0;
            while n < 20_000 && p.forward().unwrap() {
                n += 1;
            }
        });
        println!("BENCH native long-script 20000-steps {ms:.0}");
    }
    for n in [20_000usize, 60_000] {
        let header =
            "{\"broker\":{\"config\":{},\"seed\":0,\"settings\":[],\"topics\":[[\"orders\",4]]}}";
        let lines: Vec<String> = core::iter::once(String::from(header))
            .chain((0..n).map(|i| {
                format!(
                    "{{\"at\":{},\"from\":\"c 1\",\"request\":{{\"api\":\"Heartbeat\",\"apiVersion\":4,\"clientId\":\"c\",\"correlationId\":{},\"groupId\":\"g\",\"generationId\":1,\"memberId\":\"m\"}}}}",
                    1000 + i * 10,
                    i + 1
                )
            }))
            .collect();
        let mut player = Follower::empty_run();
        let mut follower = Follower::new();
        let mut batches = Vec::new();
        let total = timed(|| {
            for batch in lines.chunks(2_000) {
                batches.push(timed(|| {
                    follower.feed(&mut player, batch.iter().map(String::as_str))
                }));
            }
        });
        assert!(
            matches!(follower.status(), group_simulator::FollowStatus::Following { inputs, .. } if *inputs == n),
            "{:?}",
            follower.status()
        );
        // (The last batch holds the header's remainder: the one before it is the last full one.)
        let last = batches[batches.len() - 2];
        println!(
            "BENCH native follow {n} {:.1} {last:.1} {total:.0}",
            batches[0]
        );
    }
}
