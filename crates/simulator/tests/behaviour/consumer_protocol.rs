//! The consumer protocol's cases: what the coordinator and the clients do, read from the trace.

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
    let c: Vec<Box<[group_simulator::trace::Tp]>> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.kind {
            TraceKind::Assigned {
                consumer, assigned, ..
            } if &*consumer == "C" && !assigned.is_empty() => Some(assigned),
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
