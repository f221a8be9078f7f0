//! What the built-in scenarios must show, read from their traces and metrics, and the
//! simulator's handling of actions and faults.

use group_coordinator::event::{EventKind, RemovalReason};
use group_coordinator::{ErrorCode, GroupState};
use group_simulator::builtin::{self, scenario};
use group_simulator::consumer::Life;
use group_simulator::trace::{MemberState, MessageApi};
use group_simulator::{Action, Scenario, Simulation, TraceKind};

fn run(name: &str) -> Simulation {
    let s = scenario(name).unwrap_or_else(|| panic!("{name} loads"));
    let end = s.duration_ms;
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(end);
    assert_eq!(sim.metrics().invariant_violations, 0, "{name}");
    sim
}

/// The group's state just before the first LeaveGroup reached the coordinator, and the state
/// change the leave caused (if any) at the same moment.
fn state_at_leave(sim: &Simulation) -> (GroupState, Option<GroupState>, i64) {
    let mut state = GroupState::Empty;
    let trace = sim.trace();
    let at = trace
        .iter()
        .position(|e| {
            if let TraceKind::Coordinator {
                event: EventKind::StateChanged { to, .. },
            } = &e.kind
            {
                state = *to;
            }
            matches!(
                e.kind,
                TraceKind::RequestDelivered {
                    api: MessageApi::LeaveGroup,
                    ..
                }
            )
        })
        .expect("a LeaveGroup reached the coordinator");
    let t = trace[at].at_ms;
    let after = trace
        .iter_from(at)
        .take_while(|e| e.at_ms == t)
        .find_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::StateChanged { to, .. },
            } => Some(*to),
            _ => None,
        });
    (state, after, t)
}

fn generation_bumps(sim: &Simulation) -> Vec<(i64, i32)> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::GenerationBumped { generation_id, .. },
            } => Some((e.at_ms, *generation_id)),
            _ => None,
        })
        .collect()
}

fn members(sim: &Simulation) -> Vec<String> {
    let view = sim.snapshot();
    let group = view.group.expect("the group exists");
    let mut names: Vec<String> = group.members.iter().map(|m| m.client_id.clone()).collect();
    names.sort();
    names
}

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

fn three(extra: &str) -> String {
    format!(
        r#"{{ "name": "t", "title": {{ "en": "t", "zh": "t" }}, "topics": {{ "t": 6 }},
             "consumers": [ {{ "name": "A", "topics": ["t"] }}, {{ "name": "B", "topics": ["t"] }},
                            {{ "name": "C", "topics": ["t"] }} ] {extra} }}"#
    )
}

#[test]
fn lossy_network_times_requests_out_but_breaks_nothing() {
    let s = Scenario::from_json(&three(
        r#", "seed": 9, "network": { "latencyMs": 20, "jitterMs": 30, "loss": 0.1 },
           "consumer": { "max.poll.interval.ms": 30000 }, "durationMs": 3600000"#,
    ))
    .expect("valid");
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(3_600_000);
    let m = sim.metrics();
    // A lost JoinGroup waits out max(request.timeout.ms, rebalance timeout + 5 s), as in Kafka.
    assert!(m.messages_lost > 100, "{m:?}");
    assert!(m.requests_timed_out > 50, "{m:?}");
    assert!(m.rebalances > 3, "{m:?}");
    assert_eq!(m.invariant_violations, 0);
}

#[test]
fn cut_link_expires_the_session_and_heal_brings_the_member_back() {
    let s = Scenario::from_json(&three(
        r#", "consumer": { "session.timeout.ms": 10000 },
           "script": [ { "atMs": 10000, "action": { "type": "cut", "consumer": "B" } },
                       { "atMs": 40000, "action": { "type": "heal", "consumer": "B" } } ],
           "durationMs": 90000"#,
    ))
    .expect("valid");
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(30_000);
    assert_eq!(members(&sim), ["A", "C"]);
    sim.run_until(90_000);
    assert_eq!(members(&sim), ["A", "B", "C"]);
    assert!(sim.snapshot().settled);
    assert_eq!(sim.metrics().invariant_violations, 0);
}

#[test]
fn actions_apply_at_the_current_time_and_bad_ones_change_nothing() {
    let mut sim = Simulation::new(scenario("leave-while-stable").expect("loads")).expect("valid");
    sim.run_until(7_000);
    let before = sim.trace().len();
    for bad in [
        Action::Crash {
            consumer: "Z".into(),
        },
        Action::Resume {
            consumer: "A".into(),
        },
        Action::Start {
            consumer: "A".into(),
        },
        Action::FailNextPersist {
            error: "NOPE".into(),
        },
    ] {
        let e = sim.apply(bad.clone()).expect_err("refused");
        assert!(!e.to_string().is_empty(), "{bad:?}");
    }
    assert_eq!(sim.trace().len(), before, "refused actions record nothing");
    sim.apply(Action::Crash {
        consumer: "A".into(),
    })
    .expect("A is running");
    assert!(matches!(
        sim.trace().iter_from(before).find(|e| matches!(e.kind, TraceKind::Action { .. })),
        Some(e) if e.at_ms == 7_000
    ));
    assert_eq!(sim.actions().len(), 1);
}

#[test]
fn bad_scenarios_are_refused_naming_the_field() {
    let cases = [
        (three(r#", "colour": 1"#), "colour"),
        (three(r#", "consumer": { "sesion.timeout.ms": 1 }"#), "consumer.sesion.timeout.ms"),
        (three(r#", "consumer": { "session.timeout.ms": -5 }"#), "consumer.session.timeout.ms"),
        (
            three(r#", "consumer": { "heartbeat.interval.ms": 50000 }"#),
            "heartbeat.interval.ms",
        ),
        (three(r#", "broker": { "group.max.size": 0 }"#), "broker.group.max.size"),
        (three(r#", "network": { "loss": 2 }"#), "network.loss"),
        (three(r#", "network": { "latencyMs": -1 }"#), "network.latencyMs"),
        (three(r#", "durationMs": 0"#), "durationMs"),
        (three(r#", "durationMs": 999999999999"#), "durationMs"),
        (
            three(r#", "script": [ { "atMs": 5, "action": { "type": "crash", "consumer": "Z" } } ]"#),
            "script[0].action.consumer",
        ),
        (
            three(r#", "script": [ { "atMs": -5, "narrate": { "en": "", "zh": "" } } ]"#),
            "script[0].atMs",
        ),
        (
            three(r#", "script": [ { "atMs": 5, "action": { "type": "explode" } } ]"#),
            "explode",
        ),
        (
            three(r#", "script": [ { "atMs": 5, "action": { "type": "failNextPersist", "error": "OOPS" } } ]"#),
            "script[0].action.error",
        ),
        (
            r#"{ "name": "t", "title": { "en": "t", "zh": "t" }, "topics": { "t": 0 }, "consumers": [] }"#.to_string(),
            "topics.t",
        ),
        (
            r#"{ "name": "t", "title": { "en": "t", "zh": "t" }, "topics": { "t": 1 }, "consumers": [ { "name": "A", "topics": [] }, { "name": "A", "topics": [] } ] }"#.to_string(),
            "consumers[1].name",
        ),
        ("{".to_string(), "EOF"),
        ("[]".to_string(), "expected struct"),
    ];
    for (json, field) in cases {
        let e = Scenario::from_json(&json).expect_err(&json);
        assert!(e.to_string().contains(field), "{json}\n -> {e}");
    }
    // Absurd sizes are refused before anything runs.
    let many: Vec<String> = (0..10_001)
        .map(|i| format!(r#"{{ "name": "c{i}", "topics": ["t"] }}"#))
        .collect();
    let json = format!(
        r#"{{ "name": "t", "title": {{ "en": "t", "zh": "t" }}, "topics": {{ "t": 1 }}, "consumers": [{}] }}"#,
        many.join(",")
    );
    assert!(
        Scenario::from_json(&json)
            .unwrap_err()
            .to_string()
            .contains("consumers")
    );
}

#[test]
fn every_built_in_scenario_has_both_languages_and_round_trips() {
    let infos = builtin::infos();
    assert_eq!(infos.len(), builtin::SCENARIOS.len());
    assert_eq!(infos[0].name, "normal-join");
    for (name, json) in builtin::SCENARIOS {
        let s = Scenario::from_json(json).expect(name);
        assert_eq!(s.name, name);
        assert!(!s.title.en.is_empty() && !s.title.zh.is_empty(), "{name}");
        assert!(
            !s.description.en.is_empty() && !s.description.zh.is_empty(),
            "{name}"
        );
        for step in &s.script {
            if let Some(t) = &step.narrate {
                assert!(!t.en.is_empty() && !t.zh.is_empty(), "{name}");
            }
        }
        assert_eq!(Scenario::from_json(&s.to_json()).expect("round trip"), s);
        let sim = run(name);
        for e in sim.trace().iter() {
            assert!(!e.narrate(group_simulator::trace::Lang::Zh).is_empty());
        }
    }
}

/// A consumer that dropped a topic while it was out of the group: Kafka's sticky flaw gives it a
/// partition of the dropped topic (shown as Kafka's, not flagged as ours), the member takes none
/// of that assignment and rejoins (`checkAssignmentMatchedSubscription`), and the group settles
/// in the next generation.
#[test]
fn a_dropped_topic_meets_kafkas_sticky_flaw_and_the_member_rejoins() {
    let sim = run("subscription-dropped-topic");
    let trace = sim.trace();
    let flaw = trace
        .iter()
        .position(|e| {
            matches!(&e.kind, TraceKind::AssignorQuirk { quirk: group_coordinator::assignor::KafkaQuirk::PreviousOwnerNotSubscribed { topic, partition, member }, .. }
                if topic == "orders" && *partition == 2 && member.starts_with("B-"))
        })
        .expect("the flaw is shown");
    let rest: Vec<_> = trace.iter_from(flaw).collect();
    let refused = rest
        .iter()
        .position(|e| matches!(&e.kind, TraceKind::RejoinRequested { consumer, reason } if consumer.as_ref() == "B" && reason.contains("does not match")))
        .expect("B rejoins");
    // B took nothing of generation 3: no Assigned entry for B between the flaw and its rejoin.
    assert!(!rest[..refused].iter().any(
        |e| matches!(&e.kind, TraceKind::Assigned { consumer, .. } if consumer.as_ref() == "B")
    ));
    let m = sim.metrics();
    assert_eq!(m.generation_id, 4);
    assert!(m.settled);
    assert_eq!(m.invariant_violations, 0);
    let b = sim
        .snapshot()
        .consumers
        .into_iter()
        .find(|c| &*c.name == "B")
        .unwrap();
    let owned: Vec<(String, Vec<i32>)> = b
        .owned
        .iter()
        .map(|tp| (tp.topic.to_string(), tp.partitions.clone()))
        .collect();
    assert_eq!(owned, vec![("payments".to_string(), vec![0])]);
}

fn with_application(name: &str, app: group_simulator::scenario::Application) -> Simulation {
    let mut s = scenario(name).expect("built in");
    s.application = app;
    let end = s.duration_ms;
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(end);
    assert_eq!(sim.metrics().invariant_violations, 0, "{name}");
    sim
}

/// The application's rebalance listener takes time: an eager consumer's JoinGroup goes only
/// once `onPartitionsRevoked` has returned (its time per partition given up), and partitions
/// assigned are processed only once `onPartitionsAssigned` has returned. Eager pays the revoke
/// for every partition in every rebalance, cooperative only for those that move: with a real
/// listener, the rolling restart leaves partitions unprocessed far longer with eager.
#[test]
fn the_rebalance_listener_delays_the_rejoin_and_the_processing() {
    use group_simulator::scenario::Application;
    let app = Application {
        revoke_ms_per_partition: 200,
        assign_ms_per_partition: 200,
        ..Application::default()
    };
    let eager = with_application("rolling-restart-eager", app.clone());
    // Each eager revoke of n partitions is followed by that consumer's JoinGroup 200·n ms later.
    let trace = eager.trace();
    let mut checked = 0;
    for (i, e) in trace.iter().enumerate() {
        let TraceKind::Revoked {
            consumer,
            partitions,
            lost: false,
            listener_ms,
        } = &e.kind
        else {
            continue;
        };
        assert_eq!(*listener_ms, 200 * partitions.len() as i64);
        let closing =
            trace.iter().skip(i + 1).take(3).any(
                |n| matches!(&n.kind, TraceKind::Lifecycle { consumer: c, .. } if c == consumer),
            );
        if closing {
            continue; // a close does not wait for its listener
        }
        let join = trace
            .iter()
            .skip(i + 1)
            .find(|n| {
                matches!(&n.kind, TraceKind::RequestSent { consumer: c, api: MessageApi::JoinGroup, .. } if c == consumer)
            })
            .expect("it rejoins");
        assert_eq!(
            join.at_ms,
            e.at_ms + listener_ms,
            "{consumer}'s JoinGroup after its listener"
        );
        checked += 1;
    }
    assert!(checked >= 4, "eager revokes before rejoining ({checked})");
    let cooperative = with_application("rolling-restart-cooperative", app.clone());
    let (e, c) = (eager.metrics(), cooperative.metrics());
    assert!(
        e.unowned_partition_ms > 2 * c.unowned_partition_ms,
        "eager {} vs cooperative {}",
        e.unowned_partition_ms,
        c.unowned_partition_ms
    );
    // Without a listener's time, the same scenario leaves partitions unprocessed for less.
    let quick = run("rolling-restart-eager").metrics();
    assert!(quick.unowned_partition_ms < e.unowned_partition_ms);
    // A partition assigned is processed only once onPartitionsAssigned returns: with only an
    // assign time, unprocessed time grows by at least that per partition handed over.
    let assigning = with_application(
        "rolling-restart-eager",
        Application {
            assign_ms_per_partition: 100,
            ..Application::default()
        },
    );
    assert!(
        assigning.metrics().unowned_partition_ms
            >= quick.unowned_partition_ms + 100 * quick.partitions_moved as i64
    );
}

/// Processing jitter moves each poll by its own amount from the seed: the run differs from a
/// steady one, is the same again from the same seed, and a jitter not below `processingMs` is
/// refused naming the field.
#[test]
fn processing_jitter_is_seeded_and_checked() {
    use group_simulator::scenario::Application;
    let jittery = Application {
        processing_jitter_ms: 60,
        ..Application::default()
    };
    let a = with_application("rolling-restart-cooperative", jittery.clone());
    let b = with_application("rolling-restart-cooperative", jittery);
    assert_eq!(a.trace_hash(), b.trace_hash());
    assert_ne!(
        a.trace_hash(),
        run("rolling-restart-cooperative").trace_hash()
    );
    let mut s = scenario("normal-join").unwrap();
    s.application.processing_jitter_ms = 100; // processingMs is 100
    let err = Simulation::new(s).unwrap_err();
    assert_eq!(err.path, "application.processingJitterMs");
    let mut s = scenario("normal-join").unwrap();
    s.consumers[1].application = Some(Application {
        revoke_ms_per_partition: -1,
        ..Application::default()
    });
    let err = Simulation::new(s).unwrap_err();
    assert_eq!(err.path, "consumers[1].application.revokeMsPerPartition");
}

/// The consumer protocol's cases: what the coordinator and the clients do, read from the trace.
mod consumer_protocol {
    use super::*;
    use group_coordinator::event::Cause;

    /// Whether the trace has an entry `f` accepts.
    fn has(sim: &Simulation, f: impl Fn(&TraceKind) -> bool) -> bool {
        sim.trace().iter().any(|e| f(&e.kind))
    }

    #[test]
    fn a_leave_while_others_revoke_makes_nobody_rejoin() {
        let sim = run("consumer-protocol-leave-while-reconciling");
        // Nobody gets REBALANCE_IN_PROGRESS, and no member joins twice (only C joins after B and
        // A: three joins with epoch 0 in all).
        assert!(!has(&sim, |k| matches!(
            k,
            TraceKind::ResponseDelivered {
                error_code: ErrorCode::RebalanceInProgress,
                ..
            }
        )));
        let joins = sim
            .trace()
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    TraceKind::ClientState {
                        to: MemberState::Joining,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(joins, 3);
        assert!(sim.metrics().settled);
    }

    #[test]
    fn a_static_member_leaving_with_minus_two_gets_its_partitions_back_at_the_same_epoch() {
        let sim = run("consumer-protocol-static-leave-and-return");
        let bumps: Vec<i32> = sim
            .trace()
            .iter()
            .filter_map(|e| match &e.kind {
                TraceKind::Coordinator {
                    event: EventKind::GroupEpochBumped { group_epoch },
                } => Some(*group_epoch),
                _ => None,
            })
            .collect();
        // Three joins, and neither the -2 leave nor the return bumps the epoch.
        assert_eq!(bumps, [1, 2, 3]);
        let c: Vec<&[group_simulator::trace::Tp]> = sim
            .trace()
            .iter()
            .filter_map(|e| match &e.kind {
                TraceKind::Assigned {
                    consumer, assigned, ..
                } if &**consumer == "C" && !assigned.is_empty() => Some(&**assigned),
                _ => None,
            })
            .collect();
        assert_eq!(c.first(), c.last(), "C gets the same partitions back");
        assert!(c.len() >= 2);
    }

    #[test]
    fn a_member_slower_than_its_rebalance_timeout_is_fenced_and_rejoins_with_epoch_zero() {
        let sim = run("consumer-protocol-rebalance-timeout");
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::Coordinator {
                event: EventKind::ConsumerMemberRemoved {
                    reason: group_coordinator::event::ConsumerRemoval::RebalanceTimeout,
                    ..
                }
            }
        )));
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::ClientState {
                from: MemberState::Fenced,
                to: MemberState::Joining,
                ..
            }
        )));
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::Revoked { lost: true, .. }
        )));
    }

    /// A failover of a consumer group: the heartbeats sent while it is unloaded get
    /// NOT_COORDINATOR, the consumers find the coordinator again, and the loaded group is the
    /// one they left: the same members, no new epoch, nobody fenced.
    #[test]
    fn a_consumer_group_comes_back_from_a_failover_as_it_was() {
        let json = r#"{ "name": "failover", "title": { "en": "t", "zh": "t" }, "seed": 4,
            "consumer": { "group.protocol": "consumer" },
            "topics": { "orders": 6 },
            "consumers": [ { "name": "A", "topics": ["orders"] }, { "name": "B", "topics": ["orders"] },
                           { "name": "C", "topics": ["orders"] } ],
            "script": [ { "atMs": 20000, "action": { "type": "failover", "downMs": 6000 } } ],
            "durationMs": 60000 }"#;
        let mut sim = Simulation::new(Scenario::from_json(json).expect("valid")).expect("valid");
        sim.run_until(60_000);
        assert_eq!(sim.metrics().invariant_violations, 0);
        let before: Vec<_> = sim.trace().iter().filter(|e| e.at_ms < 20_000).collect();
        let epoch_before = before.iter().rev().find_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::GroupEpochBumped { group_epoch },
            } => Some(*group_epoch),
            _ => None,
        });
        assert_eq!(epoch_before, Some(3), "three joins before the failover");
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::ResponseSent {
                api: MessageApi::ConsumerGroupHeartbeat,
                error_code: ErrorCode::NotCoordinator,
                ..
            }
        )));
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::Coordinator {
                event: EventKind::ConsumerGroupLoaded { members: 3, .. }
            }
        )));
        let after = sim.trace().iter().filter(|e| e.at_ms >= 20_000);
        for e in after {
            assert!(
                !matches!(
                    e.kind,
                    TraceKind::Coordinator {
                        event: EventKind::GroupEpochBumped { .. }
                            | EventKind::ConsumerMemberRemoved { .. }
                    }
                ),
                "at {} ms: {:?}",
                e.at_ms,
                e.kind
            );
        }
        let group = sim
            .coordinator()
            .consumer_groups()
            .next()
            .expect("the consumer group");
        let mut clients: Vec<&str> = group
            .members
            .values()
            .map(|m| m.client_id.as_str())
            .collect();
        clients.sort();
        assert_eq!(clients, ["A", "B", "C"]);
        assert_eq!(group.group_epoch, 3);
        assert!(sim.metrics().settled);
    }

    /// A changed `group.protocol` takes effect when the consumer is next started: the classic
    /// group, empty by then, is replaced by a consumer group (its offsets kept).
    #[test]
    fn group_protocol_changes_at_the_next_start_and_an_empty_classic_group_is_upgraded() {
        let json = r#"{ "name": "upgrade", "title": { "en": "t", "zh": "t" }, "seed": 3,
            "topics": { "orders": 4 },
            "consumers": [ { "name": "A", "topics": ["orders"] } ],
            "script": [
              { "atMs": 6000, "action": { "type": "setConfig", "consumer": "A", "config": { "group.protocol": "consumer" } } },
              { "atMs": 8000, "action": { "type": "close", "consumer": "A" } },
              { "atMs": 10000, "action": { "type": "start", "consumer": "A" } } ],
            "durationMs": 20000 }"#;
        let scenario = Scenario::from_json(json).expect("valid");
        let mut sim = Simulation::new(scenario).expect("valid");
        sim.run_until(20_000);
        assert_eq!(sim.metrics().invariant_violations, 0);
        let sent = |api: MessageApi, before: bool| {
            sim.trace().iter().any(|e| {
                (e.at_ms < 10_000) == before
                    && matches!(&e.kind, TraceKind::RequestSent { api: a, .. } if *a == api)
            })
        };
        assert!(sent(MessageApi::JoinGroup, true));
        assert!(
            !sent(MessageApi::ConsumerGroupHeartbeat, true),
            "not before the restart"
        );
        assert!(sent(MessageApi::ConsumerGroupHeartbeat, false));
        assert!(!sent(MessageApi::JoinGroup, false));
        assert!(has(&sim, |k| matches!(
            k,
            TraceKind::Coordinator {
                event: EventKind::StateChanged {
                    to: GroupState::Dead,
                    cause: Cause::ReplacedByOtherType,
                    ..
                }
            }
        )));
        assert!(sim.metrics().settled);
        let c = &sim.consumers()[0];
        assert_eq!(c.state, MemberState::Stable);
        assert_eq!(c.owned.len(), 4);
    }
}

/// Closing runs the rebalance listener on the closing thread (it does not wait for a `poll()`
/// that will never come): with a listener, every restart of a rolling restart closes at once
/// and the group settles again.
#[test]
fn a_consumer_protocol_member_with_a_listener_closes_and_the_rolling_restart_settles() {
    let mut scenario = scenario("rolling-restart-eager").expect("loads");
    scenario.consumer.insert(
        "group.protocol".to_string(),
        group_simulator::scenario::Setting::Text("consumer".to_string()),
    );
    scenario.application.revoke_ms_per_partition = 200;
    scenario.application.assign_ms_per_partition = 100;
    let end = scenario.duration_ms;
    let mut sim = Simulation::new(scenario).expect("valid");
    sim.run_until(end);
    let m = sim.metrics();
    assert_eq!(m.invariant_violations, 0);
    let closes: Vec<i64> = sim
        .trace()
        .iter()
        .filter(|e| {
            matches!(
                &e.kind,
                TraceKind::Lifecycle {
                    what: group_simulator::trace::Lifecycle::Closed,
                    ..
                }
            )
        })
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(
        closes,
        [20_602, 40_602, 60_602, 80_602],
        "each close takes its listener's 600 ms"
    );
    assert!(m.settled, "settled at the end");
}

/// The rolling upgrade: the first consumer back with the consumer protocol converts the live
/// classic group with its members; the classic members then move through JoinGroup and
/// SyncGroup inside the consumer group (a cooperative one revokes and rejoins), and the group
/// ends a consumer group of four members, every one speaking the consumer protocol.
#[test]
fn the_rolling_upgrade_converts_the_group_and_ends_with_every_member_on_the_consumer_protocol() {
    use group_coordinator::event::GroupType;
    let sim = run("rolling-upgrade-to-consumer-protocol");
    let conversions: Vec<(i64, GroupType, usize)> = sim
        .trace()
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::GroupConverted { to, members },
            } => Some((e.at_ms, *to, *members)),
            _ => None,
        })
        .collect();
    assert_eq!(conversions, [(25_003, GroupType::Consumer, 3)]);
    // B, C and D, classic members of the consumer group, rejoin through JoinGroup answered at
    // once, and revoke before they get more (cooperative).
    let classic_joins_after = sim
        .trace()
        .iter()
        .filter(|e| {
            e.at_ms > 25_003
                && e.at_ms < 40_000
                && matches!(
                    e.kind,
                    TraceKind::RequestSent {
                        api: MessageApi::JoinGroup,
                        ..
                    }
                )
        })
        .count();
    assert!(classic_joins_after >= 3, "{classic_joins_after}");
    let group = sim
        .coordinator()
        .consumer_group(&sim.scenario().group_id)
        .expect("a consumer group");
    assert_eq!(group.members.len(), 4);
    assert!(group.members.values().all(|m| !m.uses_classic_protocol()));
    assert!(sim.coordinator().group(&sim.scenario().group_id).is_none());
    let m = sim.metrics();
    assert!(m.settled);
    assert_eq!(m.overlap_partition_ms, 0);
}

/// The rolling downgrade: consumers come back with the classic protocol into the consumer
/// group; when the last consumer-protocol member leaves, the group becomes a classic group
/// (Stable at the group epoch, then a rebalance), and it ends a classic group of four.
#[test]
fn the_rolling_downgrade_converts_the_group_back_when_the_last_consumer_protocol_member_leaves() {
    use group_coordinator::event::{Cause, GroupType};
    let sim = run("rolling-downgrade-to-classic");
    let conversion = sim.trace().iter().find_map(|e| match &e.kind {
        TraceKind::Coordinator {
            event: EventKind::GroupConverted { to, members },
        } => Some((e.at_ms, *to, *members)),
        _ => None,
    });
    assert_eq!(conversion, Some((80_003, GroupType::Classic, 3)));
    assert!(sim.trace().iter().any(|e| matches!(
        &e.kind,
        TraceKind::Coordinator {
            event: EventKind::StateChanged {
                from: GroupState::Stable,
                to: GroupState::PreparingRebalance,
                cause: Cause::ConvertedFromConsumerGroup,
            }
        }
    )));
    let group = sim
        .coordinator()
        .group(&sim.scenario().group_id)
        .expect("a classic group");
    assert_eq!(group.num_members(), 4);
    assert_eq!(group.state(), GroupState::Stable);
    assert!(sim.metrics().settled);
}

/// When partitions are added, the one who notices differs: a classic group's leader at its next
/// metadata refresh (then it rejoins), a consumer group's coordinator at the group's next
/// heartbeat. Until then the new partitions go unconsumed.
#[test]
fn added_partitions_reach_a_classic_group_at_the_leaders_refresh_and_a_consumer_group_at_its_next_heartbeat()
 {
    let owned_all_at = |sim: &Simulation| {
        sim.trace().iter().find_map(|e| match &e.kind {
            TraceKind::Assigned { added, .. }
                if e.at_ms >= 20_000 && added.iter().any(|(_, p)| *p >= 6) =>
            {
                Some(e.at_ms)
            }
            _ => None,
        })
    };
    let classic = run("partition-count-change");
    let refreshed = classic
        .trace()
        .iter()
        .find(|e| matches!(e.kind, TraceKind::RejoinRequested { reason, .. } if reason == "cached metadata has changed"))
        .map(|e| e.at_ms)
        .expect("the leader notices");
    // metadata.max.age.ms is 15 s: the refresh after the change comes 15 s after the last one.
    assert!((30_000..=36_000).contains(&refreshed), "{refreshed}");
    let taken = owned_all_at(&classic).expect("the new partitions are assigned");
    assert!(
        taken > refreshed,
        "only after the rebalance the leader starts"
    );
    let consumer = run("consumer-protocol-partition-count-change");
    let taken = owned_all_at(&consumer).expect("the new partitions are assigned");
    // Within one heartbeat interval (5 s), and nobody rejoins.
    assert!(taken < 25_000, "{taken}");
    assert!(
        !consumer
            .trace()
            .iter()
            .any(|e| matches!(e.kind, TraceKind::RejoinRequested { .. }))
    );
    for sim in [&classic, &consumer] {
        let owned: usize = sim.consumers().iter().map(|c| c.owned.len()).sum();
        assert_eq!(owned, 9);
    }
}

/// Partitions can only be added, to a topic that exists: the action is refused by name and the
/// run goes on.
#[test]
fn create_partitions_is_refused_below_the_current_count_or_for_an_unknown_topic() {
    let mut sim =
        Simulation::new(scenario("consumer-protocol-partition-count-change").unwrap()).unwrap();
    sim.run_until(5_000);
    let err = sim
        .apply(Action::CreatePartitions {
            topic: "orders".into(),
            count: 6,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("partitions can only be added"), "{err}");
    let err = sim
        .apply(Action::CreatePartitions {
            topic: "nope".into(),
            count: 9,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("no topic named \"nope\""), "{err}");
    let json = r#"{ "name": "x", "title": { "en": "x", "zh": "x" }, "topics": { "t": 2 }, "consumers": [{ "name": "A", "topics": ["t"] }],
        "script": [{ "atMs": 10, "action": { "type": "createPartitions", "topic": "u", "count": 3 } }] }"#;
    let e = Scenario::from_json(json).unwrap_err().to_string();
    assert!(
        e.contains("script[0].action.topic") && e.contains("no topic named"),
        "{e}"
    );
    sim.run_until(10_000);
    assert_eq!(sim.metrics().invariant_violations, 0);
}

/// CreateTopics' rules for a topic's name (Kafka's `Topic.validate`), an existing name and the
/// partitions' bounds: each refused by name, nothing changed, and the run goes on.
#[test]
fn create_topic_is_refused_for_an_illegal_or_taken_name() {
    let mut sim = Simulation::new(scenario("regex-new-topic").unwrap()).unwrap();
    sim.run_until(5_000);
    let mut refused = |topic: &str, partitions: i32| {
        sim.apply(Action::CreateTopic {
            topic: topic.into(),
            partitions,
        })
        .unwrap_err()
        .to_string()
    };
    let e = refused("bad name!", 2);
    assert!(
        e.contains("Topic name \"bad name!\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"),
        "{e}"
    );
    assert!(refused("..", 2).contains("cannot be \".\" or \"..\""));
    assert!(refused("", 2).contains("must be 1 to 249 characters"));
    assert!(refused(&"x".repeat(250), 2).contains("must be 1 to 249 characters"));
    assert!(refused("orders", 2).contains("a topic named \"orders\" already exists"));
    assert!(refused("orders-x", 0).contains("outside 1..="));
    let long = format!("{}!", "y".repeat(200));
    let e = refused(&long, 1);
    assert!(
        e.contains(&format!("\"{}…\"", "y".repeat(100))),
        "quoted to 100: {e}"
    );
    sim.apply(Action::CreateTopic {
        topic: "orders_x.1-a".into(),
        partitions: 2,
    })
    .expect("a legal name");
    sim.run_until(60_000);
    assert_eq!(sim.metrics().invariant_violations, 0);
}

/// Group configs (KIP-848) from the scenario: the group's own `consumer.heartbeat.interval.ms`
/// paces its consumer-protocol members' heartbeats (the coordinator hands it out in each
/// response: at 15 s, under half the heartbeats of the broker's 5 s), and a value outside the broker's bounds is refused with Kafka's message at its name.
#[test]
fn a_scenarios_group_configs_pace_its_members() {
    let heartbeats = |group: &[(&str, f64)]| {
        let mut s = scenario("consumer-protocol-leave-while-stable").unwrap();
        s.group = group
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    group_simulator::scenario::Setting::Number(*v),
                )
            })
            .collect();
        let mut sim = Simulation::new(s).unwrap();
        sim.run_until(60_000);
        assert_eq!(sim.metrics().invariant_violations, 0);
        sim.trace()
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    TraceKind::RequestSent {
                        api: MessageApi::ConsumerGroupHeartbeat,
                        ..
                    }
                )
            })
            .count()
    };
    let default_sent = heartbeats(&[]);
    let sent = heartbeats(&[("consumer.heartbeat.interval.ms", 15_000.0)]);
    assert!(
        sent * 2 < default_sent,
        "{sent} heartbeats at 15 s, {default_sent} at 5 s"
    );
    let mut s = scenario("consumer-protocol-leave-while-stable").unwrap();
    s.group.insert(
        "consumer.session.timeout.ms".into(),
        group_simulator::scenario::Setting::Number(1_000.0),
    );
    let e = Simulation::new(s).err().unwrap();
    assert_eq!(e.path, "group.consumer.session.timeout.ms");
    assert_eq!(
        e.message,
        "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
    );
}

/// A run kept for its metrics only (`keep_trace(false)`, a comparison's) is the same run: the
/// same metrics and the same number of entries, none of them kept.
#[test]
fn a_run_without_its_trace_is_the_same_run() {
    for name in [
        "rolling-restart-cooperative",
        "consumer-protocol-rolling-restart",
    ] {
        let s = scenario(name).unwrap();
        let end = s.duration_ms;
        let mut kept = Simulation::new(s.clone()).unwrap();
        let mut counted = Simulation::new(s).unwrap();
        kept.run_until(5_000);
        counted.run_until(5_000);
        counted.keep_trace(false);
        assert!(counted.trace().is_counted_only());
        kept.run_until(end);
        counted.run_until(end);
        assert_eq!(counted.metrics(), kept.metrics(), "{name}");
        assert_eq!(counted.trace().len(), kept.trace().len(), "{name}");
        assert_eq!(counted.trace().iter().count(), 0, "{name}");
        assert!(counted.trace().get(0).is_none());
    }
}
