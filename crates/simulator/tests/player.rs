//! The player: going back restores a checkpoint and replays, and lands exactly where a run
//! from the start would; acting in the past forks; checkpoints stay bounded.

#![allow(clippy::unwrap_used)]
use group_simulator::builtin::{large_group, scenario};
use group_simulator::frame::{FrameRequest, StepsRequest, TimelineRequest};
use group_simulator::player::{MAX_CHECKPOINTS, Player, TimedAction};
use group_simulator::trace::Lang;
use group_simulator::{Action, Simulation};

/// A fresh run taken straight to `step` (no checkpoints involved), to compare with.
fn straight(name: &str, actions: &[TimedAction], step: usize) -> Player {
    let mut p = Player::new(scenario(name).unwrap(), actions.to_vec()).unwrap();
    while p.cursor() < step && p.forward().unwrap() {}
    p
}

fn same(a: &Player, b: &Player, what: &str) {
    assert_eq!(a.cursor(), b.cursor(), "{what}: cursor");
    assert_eq!(
        a.simulation().trace().len(),
        b.simulation().trace().len(),
        "{what}: trace length"
    );
    assert_eq!(
        a.simulation().trace_hash(),
        b.simulation().trace_hash(),
        "{what}: trace"
    );
    assert_eq!(a.steps(), b.steps(), "{what}: step records");
    assert_eq!(a.simulation().now(), b.simulation().now(), "{what}: clock");
    assert_eq!(
        format!("{:?}", a.simulation().snapshot()),
        format!("{:?}", b.simulation().snapshot()),
        "{what}: world"
    );
    // What the page draws: the views' indexes, read for the trace's prefix, give the same
    // frame as those of a run that never went back.
    for lang in [Lang::En, Lang::Zh] {
        let request = FrameRequest {
            lang,
            timeline: Some(TimelineRequest {
                window_ms: 30_000,
                resolution_ms: 0,
                selected: None,
                end_ms: None,
            }),
            assignments: Some(8),
            assignments_changed_only: lang == Lang::Zh,
            steps: Some(StepsRequest {
                from: None,
                span: 60,
                around: None,
            }),
            world: true,
            upcoming: Some(12),
            rows: None,
        };
        // (All but how much of the future each knows: a run that went back knows more.)
        let drawn = |p: &Player| {
            let mut v = serde_json::to_value(p.frame(&request)).unwrap();
            v.as_object_mut().unwrap().remove("knownSteps");
            v
        };
        assert_eq!(drawn(a), drawn(b), "{what}: frame");
    }
}

#[test]
fn going_back_lands_where_a_straight_run_does() {
    for name in [
        "leave-while-stable",
        "rolling-restart-cooperative",
        "failover-mid-rebalance",
    ] {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        p.seek(900).unwrap();
        assert!(p.cursor() > 600, "{name}: {} steps", p.cursor());
        let end = p.cursor();
        for target in [end - 1, end / 2, 63, 64, 65, 1, 0, end - 130] {
            p.seek(target).unwrap();
            same(
                &p,
                &straight(name, &[], target),
                &format!("{name} back to {target}"),
            );
        }
        // Forward into the known future (from a later checkpoint), then to the end.
        p.seek(0).unwrap();
        p.seek(end / 2 + 7).unwrap();
        same(
            &p,
            &straight(name, &[], end / 2 + 7),
            &format!("{name} forward to {}", end / 2 + 7),
        );
        p.seek(end).unwrap();
        same(
            &p,
            &straight(name, &[], end),
            &format!("{name} forward to {end}"),
        );
    }
}

#[test]
fn acting_in_the_past_forks_and_the_fork_replays() {
    let name = "leave-while-stable";
    let crash = |c: &str| Action::Crash { consumer: c.into() };
    let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
    p.seek(300).unwrap();
    p.act(crash("A")).unwrap();
    p.seek(500).unwrap();
    let old_future = p.simulation().trace_hash();
    // Back to 200 and act there: the crash at 300 belongs to the old future and is dropped.
    p.seek(200).unwrap();
    p.act(crash("B")).unwrap();
    assert_eq!(
        p.actions(),
        [TimedAction {
            step: 200,
            action: crash("B")
        }]
    );
    p.seek(500).unwrap();
    assert_ne!(p.simulation().trace_hash(), old_future);
    let fork = [TimedAction {
        step: 200,
        action: crash("B"),
    }];
    same(&p, &straight(name, &fork, 500), "the fork at 500");
    // Back into the fork, before and after the action.
    for target in [250, 200, 150, 199] {
        p.seek(target).unwrap();
        same(
            &p,
            &straight(name, &fork, target),
            &format!("the fork back to {target}"),
        );
    }
    // A refused action changes nothing.
    let before = p.simulation().trace_hash();
    assert!(p.act(crash("nobody")).is_err());
    assert_eq!(p.simulation().trace_hash(), before);
    assert_eq!(p.actions().len(), 1);
}

/// A large world keeps fewer checkpoints, within the budget; the page's groups keep all 192.
#[test]
fn a_large_world_keeps_fewer_checkpoints_within_the_budget() {
    use group_simulator::player::{
        CHECKPOINT_BUDGET_BYTES, MIN_CHECKPOINTS, max_checkpoints, world_bytes,
    };
    for (consumers, per, kept) in [
        (50, 10, MAX_CHECKPOINTS),
        (100, 10, MAX_CHECKPOINTS),
        (1000, 10, 32),
        (1000, 100, MIN_CHECKPOINTS),
    ] {
        let s = large_group(consumers, per, 600_000);
        assert_eq!(max_checkpoints(&s), kept, "{consumers} x {per}");
        assert!(
            kept == MIN_CHECKPOINTS || kept * world_bytes(&s) <= CHECKPOINT_BUDGET_BYTES,
            "{consumers} x {per}"
        );
    }
    // A run of a large world thins its checkpoints to its own bound, and still goes back to
    // where a straight run is.
    let s = large_group(1000, 10, 600_000);
    let mut p = Player::new(s.clone(), Vec::new()).unwrap();
    assert_eq!(p.max_checkpoints(), 32);
    p.seek(6_000).unwrap();
    assert!(p.checkpoints() <= 33, "{} checkpoints", p.checkpoints());
    p.seek(2_500).unwrap();
    let mut q = Player::new(s, Vec::new()).unwrap();
    q.seek(2_500).unwrap();
    same(&p, &q, "1,000 consumers back to step 2,500");
}

#[test]
fn checkpoints_stay_bounded_and_a_long_run_goes_back() {
    let s = large_group(20, 2, 600_000);
    let mut p = Player::new(s.clone(), Vec::new()).unwrap();
    while p.simulation().now() < 600_000 && p.forward().unwrap() {}
    assert!(
        p.checkpoints() <= MAX_CHECKPOINTS + 1,
        "{} checkpoints",
        p.checkpoints()
    );
    assert!(
        p.cursor() / p.spacing() <= MAX_CHECKPOINTS,
        "spacing {} for {} steps",
        p.spacing(),
        p.cursor()
    );
    let end = p.cursor();
    p.seek(end / 3).unwrap();
    let mut q = Player::new(s, Vec::new()).unwrap();
    q.seek(end / 3).unwrap();
    same(&p, &q, "a 20-consumer, 10-minute run back to a third");
    // The simulation alone, stepped as many times, agrees too.
    let mut sim = Simulation::new(large_group(20, 2, 600_000)).unwrap();
    for _ in 0..end / 3 {
        sim.step();
    }
    assert_eq!(sim.trace_hash(), p.simulation().trace_hash());
}

#[test]
fn step_records_mark_generations_rebalances_and_faults() {
    use group_simulator::StepMark;
    let mut p = Player::new(scenario("crash-session-timeout").unwrap(), Vec::new()).unwrap();
    while p.simulation().now() < 40_000 && p.forward().unwrap() {}
    let marked = |m: StepMark| {
        p.steps()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.marks.contains(&m))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>()
    };
    // Two generations (the first join, the rebalance after C's session expired), a rebalance
    // before each, and the crash, C's expiry at the coordinator among the faults.
    assert_eq!(marked(StepMark::Generation).len(), 2);
    assert_eq!(marked(StepMark::Rebalance).len(), 2);
    let faults = marked(StepMark::Fault);
    assert!(faults.len() >= 2, "{faults:?}");
    // The user's crash, taken after a step, marks that step.
    let mut q = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    q.seek(50).unwrap();
    assert!(!q.steps()[49].marks.contains(&StepMark::Fault));
    q.act(Action::Crash {
        consumer: "A".into(),
    })
    .unwrap();
    assert!(q.steps()[49].marks.contains(&StepMark::Fault));
}

/// After a failover the group is loaded Stable from its record: the step records say so from
/// the load on (they said Dead until the next transition when the load set the state quietly).
#[test]
fn a_loaded_group_is_recorded_in_the_state_it_was_loaded_in() {
    use group_coordinator::GroupState;
    use group_coordinator::event::EventKind;
    use group_simulator::TraceKind;
    let mut p = Player::new(scenario("failover-mid-rebalance").unwrap(), Vec::new()).unwrap();
    let mut loaded_at = None;
    while loaded_at.is_none() && p.forward().unwrap() {
        let step = p.steps().last().unwrap();
        let loaded = p.simulation().trace().iter_from(step.first).any(|e| {
            matches!(
                &e.kind,
                TraceKind::Coordinator {
                    event: EventKind::Loaded {
                        state: GroupState::Stable,
                        ..
                    }
                }
            )
        });
        if loaded {
            loaded_at = Some(p.cursor());
        }
    }
    let at = loaded_at.expect("the group is loaded");
    assert_eq!(p.steps()[at - 1].group.state, Some(GroupState::Stable));
    assert_eq!(p.steps()[at - 2].group.state, Some(GroupState::Dead));
    // The state machine's last change: a load, not a transition of the table.
    let t = p.steps()[at - 1].transition.expect("a change of state");
    assert_eq!((t.from, t.to), (None, GroupState::Stable));
    // And the unload before it was one.
    let unload = p
        .steps()
        .range(0..at - 1)
        .rev()
        .find_map(|s| s.transition)
        .expect("the unload");
    assert_eq!(unload.to, GroupState::Dead);
    assert!(unload.from.is_some());
}

/// Ownership segments from the trace: a crash ends what the crashed consumer held at once, and
/// a zombie's segment overlaps the new owner's.
#[test]
fn ownership_segments_end_at_a_crash_and_overlap_for_a_zombie() {
    use group_simulator::ownership;
    let to_end = |p: &mut Player| {
        let end = p.simulation().scenario().duration_ms;
        while p.simulation().now() < end && p.forward().unwrap() {}
    };
    let mut p = Player::new(scenario("crash-session-timeout").unwrap(), Vec::new()).unwrap();
    to_end(&mut p);
    let o = ownership(p.simulation().trace());
    assert_eq!(o.owners.len(), 3);
    let c: Vec<_> = o
        .partitions
        .iter()
        .flat_map(|p| &p.segments)
        .filter(|s| &*s.owner == "C")
        .collect();
    assert!(!c.is_empty());
    // C crashed at 10 s: every segment it had ends then.
    assert!(c.iter().all(|s| s.to == Some(10_000)), "{c:?}");
    let mut z = Player::new(scenario("zombie-fenced").unwrap(), Vec::new()).unwrap();
    to_end(&mut z);
    let o = ownership(z.simulation().trace());
    let overlapping = o.partitions.iter().any(|p| {
        p.segments.iter().enumerate().any(|(i, a)| {
            p.segments[i + 1..].iter().any(|b| {
                let (from, to) = (
                    a.from.max(b.from),
                    a.to.unwrap_or(i64::MAX).min(b.to.unwrap_or(i64::MAX)),
                );
                to > from
            })
        })
    });
    assert!(
        overlapping,
        "the zombie's partitions have two owners for a while"
    );
    // Going back, the segments are those of the shorter trace.
    z.seek(10).unwrap();
    assert!(ownership(z.simulation().trace()).partitions.is_empty());
}

#[test]
fn playing_stops_at_the_end_unless_the_user_acted_then_once_the_group_is_at_rest() {
    use group_simulator::PlayStop;
    use group_simulator::trace::TraceKind;
    let mut p = Player::new(scenario("normal-join").unwrap(), Vec::new()).unwrap();
    while p.play_stop().is_none() {
        assert!(p.forward().unwrap());
    }
    assert_eq!(p.play_stop(), Some(PlayStop::ScenarioEnd));
    let end = p.simulation().now();
    // A crash at the end: the run plays on until the coordinator has timed B out and the group
    // has rebalanced without it.
    p.act(Action::Crash {
        consumer: "B".into(),
    })
    .unwrap();
    assert_eq!(p.play_stop(), None, "a user's action lets the run play on");
    while p.play_stop().is_none() {
        assert!(p.forward().unwrap());
    }
    assert_eq!(p.play_stop(), Some(PlayStop::AtRest));
    let removed = p.simulation().trace().iter().any(|e| {
        matches!(
            &e.kind,
            TraceKind::Coordinator {
                event: group_coordinator::event::EventKind::MemberRemoved {
                    reason: group_coordinator::event::RemovalReason::SessionTimeout,
                    ..
                }
            }
        )
    });
    assert!(removed, "B's session timed out before playing stopped");
    assert!(p.simulation().now() > end + 10_000);
    assert!(p.simulation().now() < end + group_simulator::player::PLAY_ON_MS);
}

#[test]
fn the_books_four_cases_open_at_their_key_moment_the_leave() {
    use group_simulator::trace::TraceKind;
    for name in [
        "leave-while-preparing-rebalance",
        "leave-while-completing-rebalance",
        "leave-while-stable",
        "last-member-leaves",
    ] {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        let k = p
            .seek_key(20_000)
            .unwrap()
            .unwrap_or_else(|| panic!("{name}: no key"));
        assert_eq!(p.cursor(), k, "{name}");
        let record = &p.steps()[k - 1];
        let trace = p.simulation().trace();
        let kinds: Vec<TraceKind> = (record.first..record.end)
            .map(|i| trace.get(i).unwrap().kind)
            .collect();
        assert!(
            kinds
                .iter()
                .any(|k| matches!(k, TraceKind::Narration { key: true, .. })),
            "{name}: the key narration is this step's"
        );
        assert!(
            kinds.iter().any(|k| matches!(
                k,
                TraceKind::Action { action } if matches!(**action, Action::Close { .. })
            )),
            "{name}: the step closes the leaving consumer (its LeaveGroup goes out)"
        );
        // Found again from anywhere (back, or from the known steps), at the same step.
        p.seek(3).unwrap();
        assert_eq!(p.seek_key(20_000).unwrap(), Some(k));
    }
    let mut none = Player::new(scenario("normal-join").unwrap(), Vec::new()).unwrap();
    none.seek(5).unwrap();
    for _ in 0..3 {
        assert_eq!(
            none.seek_key(20_000).unwrap(),
            None,
            "a scenario without a key moment"
        );
        // Asking again and again neither moves the run nor grows what it knows.
        assert_eq!((none.cursor(), none.steps().len()), (5, 5));
    }
    // A key marked in the script but past where playing stops is not looked for without end:
    // the run goes back to where it was.
    let mut late = scenario("leave-while-stable").unwrap();
    for step in &mut late.script {
        step.at_ms += 10 * late.duration_ms;
    }
    let mut p = Player::new(late, Vec::new()).unwrap();
    p.seek(4).unwrap();
    assert_eq!(p.seek_key(20_000).unwrap(), None);
    assert_eq!(p.cursor(), 4);
    let known = p.steps().len();
    assert_eq!(p.seek_key(20_000).unwrap(), None);
    assert_eq!(p.steps().len(), known, "the second call steps no further");
}

/// "Next moment" walks every moment of the run in order, labelled by what made it; the book's
/// leave reaching the coordinator is one, labelled as such; "previous moment" walks them back;
/// and after going back, the known future keeps the moments a straight run has.
#[test]
fn moments_are_walked_both_ways_and_kept_in_the_known_future() {
    use group_simulator::StepMark;
    let name = "leave-while-preparing-rebalance";
    let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
    let mut walked = Vec::new();
    while let Some(step) = p.seek_moment(true, 20_000).unwrap() {
        assert_eq!(p.cursor(), step);
        walked.push(step);
    }
    assert!(walked.windows(2).all(|w| w[0] < w[1]), "in order");
    let all: Vec<(usize, StepMark, String)> = p
        .moments_from(1)
        .map(|(s, m)| (s, m.mark, m.label.en.clone()))
        .collect();
    assert_eq!(
        walked,
        all.iter().map(|m| m.0).collect::<Vec<_>>(),
        "next moment stops at each"
    );
    let leave = all
        .iter()
        .find(|m| m.1 == StepMark::Leave)
        .expect("the LeaveGroup reaches the coordinator");
    assert!(
        leave.2.contains("receives LeaveGroup") && leave.2.contains("from C"),
        "{}",
        leave.2
    );
    let key = all.iter().find(|m| m.1 == StepMark::Key).expect("key");
    assert!(
        key.0 < leave.0,
        "the close comes before its LeaveGroup arrives"
    );
    assert!(
        all.iter().any(|m| m.1 == StepMark::Stable),
        "the rebalance completes"
    );
    // Every step that is a moment has a mark; every other step's marks are empty.
    for (k, r) in p.known_steps().iter().enumerate() {
        assert_eq!(r.moment.is_some(), !r.marks.is_empty(), "step {}", k + 1);
        if let Some(m) = &r.moment {
            assert_eq!(Some(&m.mark), r.marks.iter().min(), "the most telling mark");
        }
    }
    // None after the last (none before the scenario's end): the run stays where it was.
    assert_eq!(p.cursor(), *walked.last().unwrap());
    // Back through them all, from the end.
    p.seek(p.known_steps().len()).unwrap();
    assert!(p.cursor() > *walked.last().unwrap());
    let mut back = Vec::new();
    while let Some(step) = p.seek_moment(false, 0).unwrap() {
        back.push(step);
    }
    back.reverse();
    assert_eq!(back, walked, "previous moment stops at each");
    // From the start, the known future (its trace entries cut away) still has every moment.
    p.seek(0).unwrap();
    let again: Vec<(usize, StepMark, String)> = p
        .moments_from(1)
        .map(|(s, m)| (s, m.mark, m.label.en.clone()))
        .collect();
    assert_eq!(again, all);
    assert_eq!(
        p.moments_from(leave.0).next().map(|m| m.0),
        Some(leave.0),
        "from a step on"
    );
}

/// "Who got what": each of the book's cases, classic and consumer protocol, has a moment after
/// its key at which the new assignment has reached every member still running; there the
/// assignment table shows the new generation (or epoch) beside the one before, and the label
/// names what each running member owns.
#[test]
fn each_book_case_reaches_who_got_what_after_its_key() {
    use group_simulator::StepMark;
    for name in [
        "leave-while-preparing-rebalance",
        "leave-while-completing-rebalance",
        "leave-while-stable",
        "consumer-protocol-leave-while-reconciling",
        "consumer-protocol-leave-while-stable",
    ] {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        let key = p.seek_key(20_000).unwrap().expect("a key moment");
        let mut found = None;
        while let Some(step) = p.seek_moment(true, 20_000).unwrap() {
            let m = p.known_steps()[step - 1].moment.clone().unwrap();
            if m.mark == StepMark::Assigned {
                found = Some((step, m));
                break;
            }
        }
        let (step, moment) =
            found.unwrap_or_else(|| panic!("{name}: no who-got-what moment after step {key}"));
        assert!(step > key, "{name}");
        assert!(
            moment.label.en.starts_with("every member has"),
            "{name}: {}",
            moment.label.en
        );
        assert!(
            moment.label.zh.starts_with("每个成员都"),
            "{name}: {}",
            moment.label.zh
        );
        let running: Vec<_> = p
            .simulation()
            .consumers()
            .iter()
            .filter(|c| c.is_running())
            .map(|c| c.name.clone())
            .collect();
        for c in &running {
            assert!(
                moment.label.en.contains(&format!("{c} ")),
                "{name}: {c} in {}",
                moment.label.en
            );
        }
        let frame = p.frame(&FrameRequest {
            assignments: Some(8),
            assignments_changed_only: true,
            ..FrameRequest::default()
        });
        let table = frame.assignments.unwrap();
        assert!(
            table.generations.len() >= 2,
            "{name}: the new beside the old: {:?}",
            table.generations
        );
        // (A consumer-protocol member whose partitions did not move only bumps its epoch: the
        // new column holds those whose did.)
        assert!(
            table
                .rows
                .iter()
                .any(|r| running.contains(&r.consumer) && r.cells.last().unwrap().is_some()),
            "{name}: a running member took partitions in the new column"
        );
    }
}
