//! A run records at most its budget: playing stops there (`PlayStop::RecordFull`) instead of
//! filling a wasm module's 4 GiB (which traps, and the page must be reloaded), and what was
//! recorded stays: going back, the known future and forking all still work.

#![allow(clippy::unwrap_used)]
use group_simulator::builtin::large_group;
use group_simulator::player::{PlayStop, Player, RECORD_BUDGET_BYTES};
use group_simulator::{Action, Scenario};

const BUDGET: usize = 8 << 20;

/// Plays `p` forward until it stops, at most `limit` steps; returns the steps taken.
fn play(p: &mut Player, limit: usize) -> usize {
    let mut taken = 0;
    while taken < limit && p.forward().unwrap() {
        taken += 1;
    }
    taken
}

/// A fresh run of `s` at `step`, with no budget to reach.
fn straight(s: &Scenario, step: usize) -> Player {
    let mut p = Player::new(s.clone(), Vec::new()).unwrap();
    p.set_record_budget(usize::MAX);
    p.seek(step).unwrap();
    p
}

#[test]
fn a_full_record_stops_playing_and_what_was_recorded_stays() {
    let s = large_group(50, 10, 3_600_000);
    let mut p = Player::new(s.clone(), Vec::new()).unwrap();
    assert_eq!(p.play_stop(), None);
    assert!(p.recorded_bytes() < BUDGET, "{}", p.recorded_bytes());
    p.set_record_budget(BUDGET);
    let taken = play(&mut p, 1_000_000);
    assert!(taken < 1_000_000, "never stopped");
    assert_eq!(p.play_stop(), Some(PlayStop::RecordFull));
    assert!(!p.finished());
    let full = p.recorded_bytes();
    assert!(full >= BUDGET, "{full}");
    // It stops at the first step past the budget (which may have doubled a list's capacity).
    assert!(full < 2 * BUDGET, "{full}");
    assert!(
        p.simulation().now() < 3_600_000,
        "the hour fitted the budget"
    );

    // No step further, however asked.
    let (cursor, entries) = (p.cursor(), p.simulation().trace().len());
    assert_eq!(cursor, taken);
    assert!(!p.forward().unwrap());
    p.seek(cursor + 100).unwrap();
    assert_eq!(p.cursor(), cursor);
    assert_eq!(p.simulation().trace().len(), entries);

    // Going back lands where a run with room does, and the known future is walked again.
    let half = cursor / 2;
    p.seek(half).unwrap();
    assert_eq!(p.play_stop(), None, "inside what is known, playing goes on");
    assert_eq!(
        p.simulation().trace_hash(),
        straight(&s, half).simulation().trace_hash()
    );
    assert_eq!(play(&mut p, cursor), cursor - half);
    assert_eq!(p.cursor(), cursor);
    assert_eq!(p.play_stop(), Some(PlayStop::RecordFull));
    assert_eq!(
        p.simulation().trace_hash(),
        straight(&s, cursor).simulation().trace_hash()
    );

    // Acting in the past drops the known future: there is room again.
    p.seek(half).unwrap();
    p.act(Action::Crash {
        consumer: s.consumers[0].name.clone(),
    })
    .unwrap();
    assert!(
        p.recorded_bytes() < full,
        "{} >= {full}",
        p.recorded_bytes()
    );
    assert!(p.forward().unwrap());
    assert!(
        play(&mut p, 1_000_000) < 1_000_000,
        "the fork never stopped"
    );
    assert_eq!(p.play_stop(), Some(PlayStop::RecordFull));
}

/// The page's own groups stay far inside the budget: an hour of 50 consumers.
#[test]
fn an_hour_of_the_pages_groups_fits_the_budget() {
    let mut p = Player::new(large_group(50, 10, 3_600_000), Vec::new()).unwrap();
    while p.play_stop().is_none() && p.forward().unwrap() {}
    assert_eq!(p.play_stop(), Some(PlayStop::ScenarioEnd));
    assert!(
        p.recorded_bytes() < RECORD_BUDGET_BYTES / 8,
        "{} bytes",
        p.recorded_bytes()
    );
}
