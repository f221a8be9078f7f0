//! The consumer protocol's rolling restart with a listener, and the rolling upgrade and downgrade between the protocols.

use super::*;

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
