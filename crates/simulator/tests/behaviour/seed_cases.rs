//! The seed's cases and their neighbours, from the built-in scenarios: joins, leaves in each state, crashes, static restarts, zombies, max size, failover, determinism.

use super::*;

#[test]
fn normal_join_forms_generation_one_with_every_member_after_the_extended_initial_delay() {
    let sim = run("normal-join");
    let view = sim.snapshot();
    let group = view.group.clone().expect("group");
    assert_eq!(group.state, GroupState::Stable);
    assert_eq!(group.generation_id, 1);
    assert_eq!(members(&sim), ["A", "B", "C"]);
    assert!(
        group
            .leader_id
            .as_deref()
            .is_some_and(|l| l.starts_with("A-"))
    );
    // B and C joined inside the first 3 s window: the join completes one delay later.
    let bumps = generation_bumps(&sim);
    assert_eq!(bumps.len(), 1);
    assert!(bumps[0].0 > 3_000 + 2_000, "{bumps:?}");
    for c in &view.consumers {
        assert_eq!(c.state, MemberState::Stable);
        assert_eq!(c.owned.iter().map(|t| t.partitions.len()).sum::<usize>(), 2);
    }
    assert!(view.settled);
}

#[test]
fn leave_while_preparing_rebalance_lets_the_delayed_join_complete_at_once() {
    let sim = run("leave-while-preparing-rebalance");
    let (before, after, t) = state_at_leave(&sim);
    assert_eq!(before, GroupState::PreparingRebalance);
    assert_eq!(after, Some(GroupState::CompletingRebalance));
    // The leave itself completed the join: generation 2 begins at the same moment.
    assert!(generation_bumps(&sim).contains(&(t, 2)));
    assert_eq!(members(&sim), ["A", "B", "D"]);
}

#[test]
fn leave_while_completing_rebalance_abandons_the_round_and_rebalances_again() {
    let sim = run("leave-while-completing-rebalance");
    let (before, after, t) = state_at_leave(&sim);
    assert_eq!(before, GroupState::CompletingRebalance);
    assert_eq!(after, Some(GroupState::PreparingRebalance));
    // The parked SyncGroups of the abandoned round are answered REBALANCE_IN_PROGRESS.
    let abandoned = sim.trace().iter().filter(|e| {
        e.at_ms == t
            && matches!(
                e.kind,
                TraceKind::ResponseSent {
                    api: MessageApi::SyncGroup,
                    error_code: ErrorCode::RebalanceInProgress,
                    ..
                }
            )
    });
    assert!(abandoned.count() >= 2);
    assert_eq!(members(&sim), ["A", "B", "D"]);
    assert_eq!(sim.snapshot().group.map(|g| g.generation_id), Some(3));
}

#[test]
fn leave_while_stable_starts_a_rebalance() {
    let sim = run("leave-while-stable");
    let (before, after, _) = state_at_leave(&sim);
    assert_eq!(before, GroupState::Stable);
    assert_eq!(after, Some(GroupState::PreparingRebalance));
    assert_eq!(members(&sim), ["A", "B"]);
    let view = sim.snapshot();
    let owned: usize = view
        .consumers
        .iter()
        .filter(|c| c.life == Life::Running)
        .flat_map(|c| &c.owned)
        .map(|t| t.partitions.len())
        .sum();
    assert_eq!(owned, 6, "C's partitions went to A and B");
}

#[test]
fn crashed_consumer_is_removed_by_its_session_timeout() {
    let sim = run("crash-session-timeout");
    let removed = sim
        .trace()
        .iter()
        .find_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event:
                    EventKind::MemberRemoved {
                        member_id,
                        reason: RemovalReason::SessionTimeout,
                    },
            } if member_id.starts_with("C-") => Some(e.at_ms),
            _ => None,
        })
        .expect("C removed by its session timeout");
    // Crash at 10 s; its last heartbeat was at most heartbeat.interval.ms (3 s) before; the
    // session is 10 s.
    assert!((17_000..=20_100).contains(&removed), "{removed}");
    assert_eq!(members(&sim), ["A", "B"]);
    assert!(sim.metrics().max_unowned_partition_ms >= 7_000);
}

#[test]
fn static_rolling_restart_needs_no_rebalance_but_dynamic_ones_do() {
    let eager = run("rolling-restart-eager").metrics();
    let cooperative = run("rolling-restart-cooperative").metrics();
    let statics = run("rolling-restart-static").metrics();
    assert_eq!(statics.rebalances, 1, "only the first join");
    assert_eq!(statics.partitions_moved, 0);
    // The first join, then a leave and a join for each of the four restarts.
    assert!(eager.rebalances > 2 * 4, "{eager:?}");
    // Cooperative: a follow-up rebalance after each revocation, fewer partitions moved.
    assert!(cooperative.rebalances > eager.rebalances);
    assert!(cooperative.partitions_moved < eager.partitions_moved);
    for m in [&eager, &cooperative, &statics] {
        assert!(m.settled);
        assert_eq!(m.overlap_partition_ms, 0);
    }
}

#[test]
fn exceeding_max_poll_interval_makes_the_member_leave_then_rejoin_when_it_polls() {
    let sim = run("max-poll-interval-exceeded");
    let left = sim
        .trace()
        .iter()
        .find(|e| {
            matches!(
                &e.kind,
                TraceKind::RequestSent { consumer, api: MessageApi::LeaveGroup, .. } if &**consumer == "B"
            )
        })
        .expect("B sends LeaveGroup");
    // Paused at 10 s (its last poll), max.poll.interval.ms = 15 s.
    assert_eq!(left.at_ms, 25_000);
    assert_eq!(members(&sim), ["A", "B", "C"]);
    assert!(sim.snapshot().settled);
}

#[test]
fn a_zombie_overlaps_in_an_older_generation_and_is_fenced() {
    let sim = run("zombie-fenced");
    let m = sim.metrics();
    assert!(m.overlap_partition_ms > 0, "frozen B kept its partitions");
    let fenced = sim.trace().iter().any(|e| {
        matches!(
            &e.kind,
            TraceKind::ResponseDelivered { consumer, error_code: ErrorCode::UnknownMemberId, .. } if &**consumer == "B"
        )
    });
    assert!(fenced, "B's stale generation is refused");
    assert_eq!(members(&sim), ["A", "B", "C"]);
}

#[test]
fn group_max_size_refuses_the_fourth_member_fatally() {
    let sim = run("group-max-size");
    let view = sim.snapshot();
    let d = view.consumers.iter().find(|c| c.name == "D").expect("D");
    assert_eq!(d.life, Life::Failed);
    assert_eq!(sim.metrics().consumer_failures, 1);
    assert_eq!(members(&sim), ["A", "B", "C"]);
}

#[test]
fn leader_leaving_mid_rebalance_gets_a_new_leader() {
    let sim = run("leader-leaves-mid-rebalance");
    let group = sim.snapshot().group.expect("group");
    assert_eq!(group.state, GroupState::Stable);
    assert!(
        group
            .leader_id
            .as_deref()
            .is_some_and(|l| !l.starts_with("A-"))
    );
    assert_eq!(members(&sim), ["B", "C", "D"]);
}

#[test]
fn failover_mid_rebalance_recovers_through_find_coordinator() {
    let sim = run("failover-mid-rebalance");
    let trace = sim.trace();
    assert!(trace.iter().any(|e| matches!(
        e.kind,
        TraceKind::ResponseSent {
            api: MessageApi::JoinGroup,
            error_code: ErrorCode::NotCoordinator,
            ..
        }
    )));
    assert!(trace.iter().any(|e| matches!(
        e.kind,
        TraceKind::ResponseSent {
            api: MessageApi::FindCoordinator,
            error_code: ErrorCode::CoordinatorNotAvailable,
            ..
        }
    )));
    assert_eq!(members(&sim), ["A", "B", "C", "D"]);
    assert!(sim.snapshot().settled);
}

#[test]
fn late_joiners_make_it_into_generation_one() {
    let sim = run("late-joiner-initial-delay");
    assert_eq!(generation_bumps(&sim).len(), 1);
    assert_eq!(members(&sim), ["A", "B", "C"]);
}

#[test]
fn same_scenario_same_trace_and_the_seed_matters() {
    for (name, _) in builtin::SCENARIOS {
        let (a, b) = (run(name), run(name));
        // Equal, and not trivially: each run records a generation and a Stable group.
        assert!(a.trace().len() > 50, "{name}: {} entries", a.trace().len());
        assert!(a.metrics().generations >= 1, "{name}");
        assert_eq!(a.trace_hash(), b.trace_hash(), "{name}");
        assert_eq!(a.render(), b.render(), "{name}");
    }
    let mut other = scenario("normal-join").expect("loads");
    other.seed += 1;
    let mut sim = Simulation::new(other).expect("valid");
    sim.run_until(10_000);
    assert_ne!(sim.trace_hash(), run("normal-join").trace_hash());
}
