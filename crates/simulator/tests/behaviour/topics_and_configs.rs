//! Partitions and topics created during a run, group configs pacing members, and a run without its trace.

use super::*;

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
/// same metrics and the same number of entries, none of them kept (the coordinator's timer
/// events counted, not made: a consumer group's sessions, a classic member's join and sync
/// timers in a consumer group).
#[test]
fn a_run_without_its_trace_is_the_same_run() {
    for name in [
        "rolling-restart-cooperative",
        "consumer-protocol-rolling-restart",
        "rolling-upgrade-to-consumer-protocol",
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
