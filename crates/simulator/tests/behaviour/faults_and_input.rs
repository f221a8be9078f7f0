//! The network's faults, actions applied during a run, scenarios refused by field, and the built-in scenarios' languages.

use super::*;

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
