//! Following a live run: a `group-broker` trace of two kafka-python consumers (recorded by
//! `live/cases.py`), fed line by line into a player. Every answer the broker recorded is
//! checked against the run's own model; the lanes show what the clients were told; a tampered
//! line stops the run where it is, and a user looking back stays where they are.

#![allow(clippy::unwrap_used)]
use group_coordinator::GroupState;
use group_coordinator::consumer_protocol::Assignment;
use group_simulator::player::Player;
use group_simulator::trace::{MemberState, TraceKind};
use group_simulator::{Action, Simulation};
use group_simulator::{FollowStatus, Follower};
use std::collections::BTreeSet;

fn fixture() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/test/fixtures/broker-trace.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn count(lines: &[String], key: &str) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with('{') && l.contains(&format!("\"{key}\":")))
        .filter(|l| !l.starts_with("{\"event\""))
        .count()
}

/// Every lane that is Stable in the Stable group's generation holds exactly what the
/// coordinator assigned its member.
fn lanes_agree(sim: &Simulation) -> usize {
    let Some(group) = sim.coordinator().group(&sim.scenario().group_id) else {
        return 0;
    };
    if group.state() != GroupState::Stable {
        return 0;
    }
    let mut checked = 0;
    for c in sim.consumers() {
        if c.state != MemberState::Stable || c.generation.generation_id != group.generation_id() {
            continue;
        }
        let member = group.member(&c.generation.member_id).unwrap();
        let expected: BTreeSet<(String, i32)> = Assignment::decode(member.assignment().as_slice())
            .unwrap()
            .assigned_partitions
            .iter()
            .flat_map(|tp| tp.partitions.iter().map(|p| (tp.topic.to_string(), *p)))
            .collect();
        let held: BTreeSet<(String, i32)> =
            c.owned.iter().map(|(t, p)| (t.to_string(), *p)).collect();
        assert_eq!(
            held,
            expected,
            "{} in generation {}",
            c.name,
            group.generation_id()
        );
        checked += 1;
    }
    checked
}

#[test]
fn a_recorded_run_is_followed_and_every_answer_checked() {
    let lines = fixture();
    let mut player = Follower::empty_run();
    let mut follower = Follower::new();
    assert_eq!(follower.status(), &FollowStatus::Waiting);
    let mut agreed = 0;
    let mut states = Vec::new();
    for line in &lines {
        follower.feed(&mut player, [line.as_str()]);
        agreed += lanes_agree(player.simulation());
        if let Some(g) = player.simulation().coordinator().group("orders-app")
            && states.last() != Some(&g.state())
        {
            states.push(g.state());
        }
    }
    let inputs = count(&lines, "request") + count(&lines, "advance");
    assert_eq!(
        follower.status(),
        &FollowStatus::Following {
            inputs,
            checked: count(&lines, "response"),
        }
    );
    assert!(
        agreed > 0,
        "the lanes were Stable with the group at some point"
    );
    let sim = player.simulation();
    assert_eq!(sim.scenario().group_id, "orders-app");
    assert!(sim.scenario().live);
    // One lane per connection, named by client id.
    let lanes: Vec<&str> = sim.consumers().iter().map(|c| &*c.name).collect();
    assert_eq!(lanes, ["consumer-a", "consumer-b"]);
    assert!(sim.consumers().iter().all(|c| c.is_external()));
    // The run went through the seed's states and ends Empty after the last leave, as the
    // broker's model did.
    assert_eq!(states.first(), Some(&GroupState::Empty));
    assert!(states.contains(&GroupState::CompletingRebalance));
    assert!(states.contains(&GroupState::Stable));
    assert_eq!(states.last(), Some(&GroupState::Empty));
    // Each request was sent and answered on its lane, in the simulator's own trace kinds.
    let sent = sim
        .trace()
        .iter()
        .filter(|e| matches!(e.kind, TraceKind::RequestSent { .. }))
        .count();
    assert_eq!(sent, count(&lines, "request"));
    let assigned: BTreeSet<i32> = sim
        .trace()
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Assigned { assigned, .. } => {
                Some(assigned.iter().map(|(_, p)| *p).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(assigned, BTreeSet::from([0, 1, 2, 3]));
    // Nothing the model did is a violation: lanes are not held to the Java client's rules.
    assert!(
        !sim.trace()
            .iter()
            .any(|e| matches!(e.kind, TraceKind::InvariantViolated { .. }))
    );
}

#[test]
fn lines_in_one_batch_or_one_by_one_make_the_same_run() {
    let lines = fixture();
    let mut one = Follower::empty_run();
    let mut f = Follower::new();
    f.feed(&mut one, lines.iter().map(String::as_str));
    let mut two = Follower::empty_run();
    let mut g = Follower::new();
    for line in &lines {
        g.feed(&mut two, [line.as_str()]);
    }
    assert_eq!(f.status(), g.status());
    assert_eq!(one.simulation().trace_hash(), two.simulation().trace_hash());
    assert_eq!(one.steps(), two.steps());
    // An exported live run (its scenario and the actions with their steps) replays to the same
    // run without the broker, as the page's Open a file does.
    let mut again =
        Player::new(one.simulation().scenario().clone(), one.actions().to_vec()).unwrap();
    while again.forward().unwrap() {}
    assert_eq!(again.cursor(), one.cursor());
    assert_eq!(
        again.simulation().trace_hash(),
        one.simulation().trace_hash()
    );
    // The same run in wasm (`crates/wasm/tests/common`): its hash is kept in a file both read.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/live-fixture.hash");
    let hash = format!("{:016x}", one.simulation().trace_hash());
    if std::env::var_os("UPDATE_LIVE_HASH").is_some() {
        std::fs::write(path, format!("{hash}\n")).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap().trim(),
        hash,
        "UPDATE_LIVE_HASH=1 rewrites it (review why it moved)"
    );
}

#[test]
fn a_user_looking_back_stays_there_while_lines_arrive() {
    let lines = fixture();
    let (head, tail) = lines.split_at(40);
    let mut player = Follower::empty_run();
    let mut follower = Follower::new();
    follower.feed(&mut player, head.iter().map(String::as_str));
    player.seek(5).unwrap();
    follower.feed(&mut player, tail.iter().map(String::as_str));
    assert_eq!(player.cursor(), 5, "the user's place is kept");
    assert!(matches!(follower.status(), FollowStatus::Following { .. }));
    let mut straight = Follower::empty_run();
    Follower::new().feed(&mut straight, lines.iter().map(String::as_str));
    let end = straight.cursor();
    player.seek(end).unwrap();
    assert_eq!(
        player.simulation().trace_hash(),
        straight.simulation().trace_hash()
    );
}

#[test]
fn a_tampered_answer_stops_the_run_where_it_differs() {
    let mut lines = fixture();
    let at = lines
        .iter()
        .position(|l| l.contains("\"response\":{\"api\":\"SyncGroup\""))
        .unwrap();
    lines[at] = lines[at].replace("\"errorCode\":0", "\"errorCode\":27");
    let mut player = Follower::empty_run();
    let mut follower = Follower::new();
    follower.feed(&mut player, lines.iter().map(String::as_str));
    match follower.status() {
        FollowStatus::Diverged { line, what } => {
            assert_eq!(*line, at + 1);
            assert!(what.contains("the broker said"), "{what}");
        }
        other => panic!("{other:?}"),
    }
    // What came before stays drawn.
    assert!(player.cursor() > 0);
}

/// A reason quotes at most a hundred characters of the broker's text: a line of megabytes is not
/// echoed into the page's live bar.
#[test]
fn a_huge_line_is_quoted_in_part() {
    let header = "{\"broker\":{\"seed\":0,\"settings\":[],\"topics\":[[\"t\",1]],\"config\":{}}}";
    let huge = "x".repeat(5 << 20);
    for line in [
        format!("{{\"truncated\":\"{huge}\"}}"),
        format!("{{\"at\":1,\"request\":{{\"api\":\"{huge}\"}}}}"),
    ] {
        let mut player = Follower::empty_run();
        let mut follower = Follower::new();
        follower.feed(&mut player, [header, line.as_str()]);
        match follower.status() {
            FollowStatus::Refused { line: 2, what } => {
                assert!(what.chars().count() < 500, "{} characters", what.len());
                assert!(what.contains("more characters)"), "{what}");
            }
            other => panic!("{}", &format!("{other:?}")[..200]),
        }
    }
}

#[test]
fn what_is_not_a_broker_trace_is_refused_by_line() {
    for (lines, line, says) in [
        (vec!["not json"], 1, "not JSON"),
        (vec!["{\"at\":1,\"advance\":true}"], 1, "header"),
        (vec!["[1]"], 1, "object"),
        (
            vec![
                "{\"broker\":{\"seed\":0,\"settings\":[],\"topics\":[[\"t\",1]],\"config\":{}}}",
                "{\"truncated\":\"open the --trace file\"}",
            ],
            2,
            "open the --trace file",
        ),
        (
            vec!["{\"broker\":{\"seed\":0,\"settings\":[],\"topics\":[[\"t\",0]],\"config\":{}}}"],
            1,
            "partitions",
        ),
    ] {
        let mut player = Follower::empty_run();
        let mut follower = Follower::new();
        follower.feed(&mut player, lines.iter().copied());
        match follower.status() {
            FollowStatus::Refused { line: l, what } => {
                assert_eq!(*l, line, "{lines:?}");
                assert!(what.contains(says), "{what}");
            }
            other => panic!("{lines:?}: {other:?}"),
        }
    }
}

#[test]
fn a_live_run_takes_only_the_brokers_inputs() {
    let lines = fixture();
    let mut player = Follower::empty_run();
    Follower::new().feed(&mut player, lines.iter().take(3).map(String::as_str));
    let refused = player
        .act(Action::Crash {
            consumer: "consumer-a".into(),
        })
        .unwrap_err();
    assert!(
        refused.message.contains("only the broker's inputs"),
        "{refused}"
    );
    // Time only moves forward.
    let refused = player.act(Action::Advance { at_ms: 0 }).unwrap_err();
    assert!(refused.message.contains("cannot go back"), "{refused}");
    // A simulated scenario takes no broker input.
    let mut sim = Player::new(
        group_simulator::builtin::scenario("leave-while-stable").unwrap(),
        vec![],
    )
    .unwrap();
    let refused = sim.act(Action::Advance { at_ms: 10 }).unwrap_err();
    assert!(refused.message.contains("only a live run"), "{refused}");
    let refused = sim
        .act(Action::Unload {
            group_id: "g".into(),
        })
        .unwrap_err();
    assert!(refused.message.contains("only a live run"), "{refused}");
    // A live run's unload names a group the model has: otherwise the model's refusal.
    let refused = player
        .act(Action::Unload {
            group_id: "nope".into(),
        })
        .unwrap_err();
    assert!(refused.message.contains("nope"), "{refused}");
}

#[test]
fn a_request_both_models_refused_is_accepted_and_no_other_refusal() {
    let lines = fixture();
    let bad = r#"{"at":9000,"from":"c x","request":{"api":"Heartbeat","groupId":"orders-app"}}"#;
    let note = r#"{"at":9000,"note":"the model refused a request: Heartbeat request: apiVersion is required"}"#;
    let run = |extra: &[&str]| {
        let mut player = Follower::empty_run();
        let mut follower = Follower::new();
        follower.feed(
            &mut player,
            lines
                .iter()
                .map(String::as_str)
                .chain(extra.iter().copied()),
        );
        follower.status().clone()
    };
    let inputs = count(&lines, "request") + count(&lines, "advance");
    let checked = count(&lines, "response");
    assert_eq!(
        run(&[bad, note]),
        FollowStatus::Following {
            inputs: inputs + 1,
            checked
        }
    );
    // One the model reads and then refuses (a version Heartbeat does not have): the run says
    // the input was refused, which is not a broken invariant of the run.
    let unsupported = r#"{"at":9000,"from":"c x","request":{"api":"Heartbeat","apiVersion":99,"correlationId":900,"clientId":"c","groupId":"orders-app","generationId":1,"memberId":"m","groupInstanceId":null}}"#;
    let mut player = Follower::empty_run();
    Follower::new().feed(
        &mut player,
        lines.iter().map(String::as_str).chain([unsupported, note]),
    );
    let sim = player.simulation();
    assert_eq!(sim.metrics().invariant_violations, 0);
    // A typed refusal, told in each language.
    let refused = sim
        .trace()
        .iter()
        .find(|e| {
            matches!(
                &e.kind,
                TraceKind::ActionIgnored {
                    why: group_simulator::Refusal::CoordinatorRefused { .. },
                    ..
                }
            )
        })
        .expect("the model's refusal is in the trace");
    assert!(
        refused
            .narrate(group_simulator::trace::Lang::En)
            .contains("the coordinator refused a request: "),
        "{}",
        refused.narrate(group_simulator::trace::Lang::En)
    );
    assert!(
        refused
            .narrate(group_simulator::trace::Lang::Zh)
            .contains("协调者拒绝了请求："),
        "{}",
        refused.narrate(group_simulator::trace::Lang::Zh)
    );
    assert_eq!(
        run(&[unsupported, note]),
        FollowStatus::Following {
            inputs: inputs + 1,
            checked
        }
    );
    let last = lines.last().unwrap().as_str();
    match run(&[unsupported, last]) {
        FollowStatus::Diverged { what, .. } => {
            assert!(what.contains("this model refused"), "{what}")
        }
        other => panic!("{other:?}"),
    }
    match run(&[bad, last]) {
        FollowStatus::Diverged { what, .. } => {
            assert!(what.contains("this model refused"), "{what}")
        }
        other => panic!("{other:?}"),
    }
    match run(&[note]) {
        FollowStatus::Diverged { what, .. } => {
            assert!(what.contains("the broker's model refused"), "{what}")
        }
        other => panic!("{other:?}"),
    }
}

/// A live run where an AdminClient created a topic while two librdkafka members were subscribed
/// to `^ord.*` with the consumer protocol (recorded by `live/cases.py regex` with
/// LIVE_KEEP_TRACES): the createTopic line is an input like a request, every answer after it
/// still agrees, and the coordinator resolved the pattern to the new topic too.
#[test]
fn a_topic_created_while_following_joins_the_pattern() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/test/fixtures/broker-trace-regex.jsonl"
    );
    let lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(count(&lines, "createTopic"), 1);
    let mut player = Follower::empty_run();
    let mut follower = Follower::new();
    // What the pattern resolved to, and how many of orders-apac's partitions the target held,
    // as the run went (the members leave at the end, and the pattern goes with them).
    let mut resolutions: Vec<Vec<String>> = Vec::new();
    let mut apac_targeted = 0;
    for line in &lines {
        follower.feed(&mut player, [line.as_str()]);
        let sim = player.simulation();
        let Some(group) = sim.coordinator().consumer_group(&sim.scenario().group_id) else {
            continue;
        };
        for r in group.resolved_regular_expressions.values() {
            if resolutions.last() != Some(&r.topics) {
                resolutions.push(r.topics.clone());
            }
        }
        let apac = group.subscription_metadata.get("orders-apac").map(|m| m.0);
        let targeted: usize = group
            .target
            .values()
            .flat_map(|a| a.iter())
            .filter(|(id, _)| Some(**id) == apac)
            .map(|(_, ps)| ps.len())
            .sum();
        apac_targeted = apac_targeted.max(targeted);
    }
    // A createTopic line is two inputs here: the advance to its time, then the topic.
    let inputs =
        count(&lines, "request") + count(&lines, "advance") + 2 * count(&lines, "createTopic");
    assert_eq!(
        follower.status(),
        &FollowStatus::Following {
            inputs,
            checked: count(&lines, "response"),
        }
    );
    let s = |t: &str| t.to_string();
    assert_eq!(
        resolutions,
        vec![
            vec![s("orders"), s("orders-eu")],
            vec![s("orders"), s("orders-apac"), s("orders-eu")]
        ]
    );
    assert_eq!(
        apac_targeted, 2,
        "both of orders-apac's partitions were in the target"
    );
}

/// A live run through a coordinator failover: three librdkafka members with the consumer
/// protocol, and the operator's `failover g 3000` on group-broker's input (recorded by
/// `live/cases.py failover` with LIVE_KEEP_TRACES). The unload and load lines are inputs like a
/// request; while the group is away its members' heartbeats get NOT_COORDINATOR here as on the
/// broker, and it comes back with the same members, epochs and targets.
#[test]
fn a_consumer_group_followed_through_a_failover_comes_back_as_it_was() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/test/fixtures/broker-trace-failover.jsonl"
    );
    let lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!((count(&lines, "unload"), count(&lines, "load")), (1, 1));
    let mut player = Follower::empty_run();
    let mut follower = Follower::new();
    type Members = Vec<(String, i32)>;
    let snapshot = |player: &Player| -> Option<(bool, Members, i32)> {
        let sim = player.simulation();
        let group = sim.coordinator().consumer_group(&sim.scenario().group_id)?;
        let members = group
            .members
            .values()
            .map(|m| (m.member_id.clone(), m.member_epoch()))
            .collect();
        Some((group.unloaded, members, group.group_epoch))
    };
    let (mut before, mut away, mut after) = (None, None, None);
    for line in &lines {
        let was = snapshot(&player);
        follower.feed(&mut player, [line.as_str()]);
        if line.contains("\"unload\":") {
            before = was;
            away = snapshot(&player);
            assert!(!player.simulation().coordinator_available());
        }
        if line.contains("\"load\":") {
            after = snapshot(&player);
            assert!(player.simulation().coordinator_available());
        }
    }
    let (before, away, after) = (before.unwrap(), away.unwrap(), after.unwrap());
    assert!(
        !before.0 && away.0 && !after.0,
        "unloaded only between the two"
    );
    assert_eq!(before.1.len(), 3);
    assert_eq!((&away.1, away.2), (&before.1, before.2));
    assert_eq!((&after.1, after.2), (&before.1, before.2));
    let inputs = count(&lines, "request")
        + count(&lines, "advance")
        + count(&lines, "unload")
        + count(&lines, "load");
    assert_eq!(
        follower.status(),
        &FollowStatus::Following {
            inputs,
            checked: count(&lines, "response"),
        }
    );
    // The heartbeats that reached the broker while the group was away, answered as the broker
    // answered them.
    let trace = player.simulation().trace();
    let refused = trace
        .iter_from(0)
        .filter(|e| {
            matches!(&e.kind, TraceKind::ResponseSent { response: Some(r), .. }
                if r.error_code() == group_coordinator::ErrorCode::NotCoordinator)
        })
        .count();
    assert!(refused >= 3, "{refused} NOT_COORDINATOR answers");
}
