//! The timeline's window against bars paired up by hand, and its marks.

use super::*;

#[test]
fn the_timeline_window_is_the_trace_paired_up_at_any_step_and_after_going_back() {
    for name in [
        "failover-mid-rebalance",
        "crash-session-timeout",
        "zombie-fenced",
    ] {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        p.seek(1_500).unwrap();
        let end = p.cursor();
        for target in [end, end / 3, 40, end - 1, end * 2 / 3, 7] {
            p.seek(target).unwrap();
            let now = p.simulation().now();
            for window in [2_000, 30_000, 3_600_000] {
                // Following now, and panned back (to half-way, to a second before now).
                for end in [None, Some(now / 2), Some(now - 1_000), Some(now + 5_000)] {
                    let w = panned(&p, window, 0, end);
                    assert_eq!(
                        plain(&w),
                        by_hand(&p, window, end),
                        "{name} at {target}, {window} ms, ending at {end:?}"
                    );
                    assert!(w.bars.iter().all(|b| b.merged == 1));
                    assert!(
                        w.marks
                            .iter()
                            .all(|m| m.at_ms <= w.to_ms && m.at_ms >= w.from_ms)
                    );
                }
            }
        }
    }
}

#[test]
fn a_coarse_timeline_merges_only_plain_neighbours() {
    let mut p = Player::new(large_group(20, 2, 600_000), Vec::new()).unwrap();
    while p.simulation().now() < 300_000 && p.forward().unwrap() {}
    let fine = timeline(&p, 300_000, 0);
    let coarse = timeline(&p, 300_000, 10_000);
    assert!(
        coarse.bars.len() * 4 < fine.bars.len(),
        "{} of {}",
        coarse.bars.len(),
        fine.bars.len()
    );
    // Every bar is drawn within one of the merged ones, and nothing that stands out is merged.
    assert_eq!(
        coarse.bars.iter().map(|b| b.merged as usize).sum::<usize>(),
        fine.bars.len()
    );
    for b in &fine.bars {
        let covered = coarse.bars.iter().any(|c| {
            c.lane == b.lane && c.api == b.api && c.sent_ms <= b.sent_ms && b.end_ms <= c.end_ms
        });
        assert!(covered, "{b:?}");
    }
    for c in coarse.bars.iter().filter(|c| c.merged > 1) {
        assert!(!c.open && c.error.is_none() && !c.lost && !c.timed_out);
    }
}

#[test]
fn the_marks_are_the_coordinators_states_and_timers_and_the_consumers_faults() {
    let mut p = Player::new(scenario("crash-session-timeout").unwrap(), Vec::new()).unwrap();
    while p.forward().unwrap() && !p.past_end() {}
    let w = timeline(&p, 3_600_000, 0);
    let kinds: Vec<String> = w
        .marks
        .iter()
        .map(|m| {
            serde_json::to_value(&m.kind).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for kind in ["state", "timer", "life"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    let crash = w
        .marks
        .iter()
        .find(|m| serde_json::to_value(&m.kind).unwrap()["what"] == "crashed")
        .unwrap();
    assert_ne!(crash.lane, 0, "a crash is on its consumer's lane");
    let states: Vec<_> = p
        .simulation()
        .trace()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                TraceKind::Coordinator {
                    event: group_coordinator::event::EventKind::StateChanged { .. }
                }
            )
        })
        .map(|e| e.index)
        .collect();
    let marked: Vec<_> = w
        .marks
        .iter()
        .filter(|m| serde_json::to_value(&m.kind).unwrap()["type"] == "state")
        .map(|m| m.index)
        .collect();
    assert_eq!(marked, states, "every state change, once");
}
