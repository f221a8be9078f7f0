//! Kafka's `RangeAssignorTest` and `RoundRobinAssignorTest` cases (`docs/src/reference/assignors.md#vectors`), each named after its test,
//! and the checks on their results.
#![allow(clippy::unwrap_used)]

mod assignor_support;

use assignor_support::{assert_valid, input, listed, member, racked};
use group_coordinator::assignor::*;
use group_coordinator::consumer_protocol::TopicPartitions;
use std::collections::BTreeMap;

fn statik(id: &str, instance: &str, topics: &[&str]) -> MemberSubscription {
    MemberSubscription {
        group_instance_id: Some(instance.into()),
        ..member(id, topics)
    }
}

fn check(
    strategy: Strategy,
    input: &AssignmentInput,
    expected: &[(&str, &str)],
) -> AssignmentOutput {
    let out = assign(strategy, input).unwrap();
    assert_valid(strategy, input, &out);
    for (m, want) in expected {
        assert_eq!(listed(&out, m), *want, "{} for {m}", strategy.name());
    }
    assert_eq!(out.len(), input.members.len());
    out
}

#[test]
fn v01_range_test_one_consumer_multiple_topics() {
    let i = input(
        &[("topic1", 1), ("topic2", 2)],
        vec![member("consumer1", &["topic1", "topic2"])],
    );
    check(
        Strategy::Range,
        &i,
        &[("consumer1", "topic1-0, topic2-0, topic2-1")],
    );
}

/// The input of Kafka's `testMultipleConsumersMixedTopics` (range and roundrobin alike).
fn mixed_topics() -> AssignmentInput {
    input(
        &[("topic1", 3), ("topic2", 2)],
        vec![
            member("consumer1", &["topic1"]),
            member("consumer2", &["topic1", "topic2"]),
            member("consumer3", &["topic1"]),
        ],
    )
}

#[test]
fn v03_range_test_multiple_consumers_mixed_topics() {
    let i = mixed_topics();
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer1", "topic1-0"),
            ("consumer2", "topic1-1, topic2-0, topic2-1"),
            ("consumer3", "topic1-2"),
        ],
    );
}

#[test]
fn v05_range_test_two_static_consumers_two_topics_six_partitions() {
    // The instance id decides the order, not the member id.
    let i = input(
        &[("topic1", 3), ("topic2", 3)],
        vec![
            statik("consumer-b", "instance1", &["topic1", "topic2"]),
            statik("consumer-a", "instance2", &["topic1", "topic2"]),
        ],
    );
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer-b", "topic1-0, topic1-1, topic2-0, topic2-1"),
            ("consumer-a", "topic1-2, topic2-2"),
        ],
    );
}

#[test]
fn v07_range_test_static_member_range_assignment_persistent() {
    let both = ["topic1", "topic2"];
    let mut members = vec![
        statik("consumer1", "instance1", &both),
        statik("consumer2", "instance2", &both),
        statik("consumer3", "instance3", &both),
        member("consumer4", &both),
    ];
    let i = input(&[("topic1", 5), ("topic2", 4)], members.clone());
    let out = check(
        Strategy::Range,
        &i,
        &[
            ("consumer1", "topic1-0, topic1-1, topic2-0"),
            ("consumer2", "topic1-2, topic2-1"),
            ("consumer3", "topic1-3, topic2-2"),
            ("consumer4", "topic1-4, topic2-3"),
        ],
    );
    members[3] = member("consumer5", &both);
    let out2 = assign(
        Strategy::Range,
        &input(&[("topic1", 5), ("topic2", 4)], members),
    )
    .unwrap();
    assert_eq!(out2["consumer5"], out["consumer4"]);
}

#[test]
fn v09_range_test_rack_aware_assignment_with_uniform_subscription_no_racks() {
    let all: &[&str] = &["t1", "t2", "t3"];
    let expected = [
        ("consumer0", "t1-0, t1-1, t2-0, t2-1, t2-2, t3-0"),
        ("consumer1", "t1-2, t1-3, t2-3, t2-4, t3-1"),
        ("consumer2", "t1-4, t1-5, t2-5, t2-6"),
    ];
    let topics = [("t1", 6), ("t2", 7), ("t3", 2)];
    // No consumer racks; and (the same result) every partition on every rack.
    check(
        Strategy::Range,
        &racked(
            &topics,
            3,
            &["a", "b", "c"],
            &[("", all), ("", all), ("", all)],
        ),
        &expected,
    );
    check(
        Strategy::Range,
        &racked(
            &topics,
            3,
            &["a", "b", "c"],
            &[("a", all), ("b", all), ("c", all)],
        ),
        &expected,
    );
}

#[test]
fn v11_range_test_rack_aware_assignment_with_uniform_subscription_rf2() {
    let all: &[&str] = &["t1", "t2", "t3"];
    let i = racked(
        &[("t1", 6), ("t2", 7), ("t3", 2)],
        2,
        &["a", "b", "c"],
        &[("a", all), ("b", all), ("c", all)],
    );
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer0", "t1-0, t1-2, t2-0, t2-2, t2-3, t3-1"),
            ("consumer1", "t1-1, t1-3, t2-1, t2-4, t3-0"),
            ("consumer2", "t1-4, t1-5, t2-5, t2-6"),
        ],
    );
}

#[test]
fn v13_range_test_rack_aware_assignment_with_non_equal_subscription() {
    let all: &[&str] = &["t1", "t2", "t3"];
    let i = racked(
        &[("t1", 6), ("t2", 7), ("t3", 2)],
        3,
        &["a", "b", "c"],
        &[("", all), ("", all), ("", &["t1", "t3"])],
    );
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer0", "t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0"),
            ("consumer1", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1"),
            ("consumer2", "t1-4, t1-5"),
        ],
    );
}

#[test]
fn v15_range_test_rack_aware_assignment_with_uniform_partitions() {
    let all: &[&str] = &["t1", "t2", "t3"];
    let i = racked(
        &[("t1", 5), ("t2", 5), ("t3", 5)],
        1,
        &["a", "b", "c"],
        &[("a", all), ("b", all), ("c", all)],
    );
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer0", "t1-0, t1-1, t2-0, t2-1, t3-0, t3-1"),
            ("consumer1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3"),
            ("consumer2", "t1-4, t2-4, t3-4"),
        ],
    );
}

#[test]
fn v17_range_test_rack_aware_assignment_with_co_partitioning() {
    let a: &[&str] = &["t1", "t2"];
    let b: &[&str] = &["t3", "t4"];
    let i = racked(
        &[("t1", 6), ("t2", 6), ("t3", 2), ("t4", 2)],
        1,
        &["a", "b"],
        &[("a", a), ("b", a), ("b", b), ("a", b)],
    );
    check(
        Strategy::Range,
        &i,
        &[
            ("consumer0", "t1-0, t1-2, t1-4, t2-0, t2-2, t2-4"),
            ("consumer1", "t1-1, t1-3, t1-5, t2-1, t2-3, t2-5"),
            ("consumer2", "t3-1, t4-1"),
            ("consumer3", "t3-0, t4-0"),
        ],
    );
}

#[test]
fn v19_roundrobin_test_multiple_consumers_mixed_topics() {
    let i = mixed_topics();
    check(
        Strategy::RoundRobin,
        &i,
        &[
            ("consumer1", "topic1-0"),
            ("consumer2", "topic1-1, topic2-0, topic2-1"),
            ("consumer3", "topic1-2"),
        ],
    );
}

#[test]
fn v21_roundrobin_test_two_static_consumers_two_topics_six_partitions() {
    let both: &[&str] = &["topic1", "topic2"];
    let dynamic = input(
        &[("topic1", 3), ("topic2", 3)],
        vec![member("consumer1", both), member("consumer2", both)],
    );
    let out = check(
        Strategy::RoundRobin,
        &dynamic,
        &[
            ("consumer1", "topic1-0, topic1-2, topic2-1"),
            ("consumer2", "topic1-1, topic2-0, topic2-2"),
        ],
    );
    let i = input(
        &[("topic1", 3), ("topic2", 3)],
        vec![
            statik("consumer-b", "instance1", both),
            statik("consumer-a", "instance2", both),
        ],
    );
    let out2 = check(Strategy::RoundRobin, &i, &[]);
    assert_eq!(out2["consumer-b"], out["consumer1"]);
}

#[test]
fn v23_roundrobin_test_static_member_round_robin_assignment_persistent_after_member_id_changes() {
    let both: &[&str] = &["topic1", "topic2"];
    let i = input(
        &[("topic1", 5), ("topic2", 5)],
        vec![
            statik("consumer1", "instance1", both),
            statik("consumer2", "instance2", both),
            statik("consumer3", "instance3", both),
        ],
    );
    check(
        Strategy::RoundRobin,
        &i,
        &[
            ("consumer1", "topic1-0, topic1-3, topic2-1, topic2-4"),
            ("consumer2", "topic1-1, topic1-4, topic2-2"),
            ("consumer3", "topic1-2, topic2-0, topic2-3"),
        ],
    );
}

#[test]
fn member_order_static_first_by_instance_then_dynamic_by_id() {
    // AbstractPartitionAssignorTest: (a,y),(b,z),(c,x) -> c,a,b; (a,-),(b,y),(c,x) -> c,b,a
    let t: &[&str] = &["t"];
    let i = input(
        &[("t", 3)],
        vec![
            statik("a", "y", t),
            statik("b", "z", t),
            statik("c", "x", t),
        ],
    );
    check(
        Strategy::Range,
        &i,
        &[("c", "t-0"), ("a", "t-1"), ("b", "t-2")],
    );
    let i = input(
        &[("t", 3)],
        vec![member("a", t), statik("b", "y", t), statik("c", "x", t)],
    );
    check(
        Strategy::Range,
        &i,
        &[("c", "t-0"), ("b", "t-1"), ("a", "t-2")],
    );
}

#[test]
fn topics_without_metadata_give_nothing_and_every_member_is_present() {
    let i = input(
        &[("known", 2), ("empty", 0)],
        vec![
            member("a", &["known", "unknown", "empty"]),
            member("b", &["unknown"]),
        ],
    );
    for s in [Strategy::Range, Strategy::RoundRobin] {
        let out = check(s, &i, &[("a", "known-0, known-1"), ("b", "")]);
        assert!(is_balanced(&i, &out));
    }
}

#[test]
fn checks_catch_bad_assignments() {
    let i = input(&[("t", 2)], vec![member("a", &["t"]), member("b", &[])]);
    let tp = |p: Vec<i32>| {
        vec![TopicPartitions {
            topic: "t".into(),
            partitions: p,
        }]
    };
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0])), ("b".into(), tp(vec![1]))]);
    assert!(
        validate(&i, &out)
            .unwrap_err()
            .contains("does not subscribe")
    );
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0, 5])), ("b".into(), vec![])]);
    assert!(validate(&i, &out).unwrap_err().contains("does not exist"));
    // The first number past the end, and a topic the metadata does not have.
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0, 1, 2])), ("b".into(), vec![])]);
    assert_eq!(validate(&i, &out).unwrap_err(), "t-2 does not exist");
    let unknown = vec![TopicPartitions {
        topic: "u".into(),
        partitions: vec![0],
    }];
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0, 1])), ("b".into(), unknown)]);
    assert_eq!(validate(&i, &out).unwrap_err(), "u-0 does not exist");
    let i2 = input(&[("t", 4)], vec![member("a", &["t"]), member("b", &["t"])]);
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0, 1, 2])), ("b".into(), tp(vec![]))]);
    assert!(!is_balanced(&i2, &out));
    // Complete: an assignor that drops partitions is not valid, whatever else holds.
    let out: AssignmentOutput =
        BTreeMap::from([("a".into(), tp(vec![0, 1])), ("b".into(), tp(vec![3]))]);
    let e = validate(&i2, &out).unwrap_err();
    assert!(e.contains("t-2 is assigned to no one"), "{e}");
    let nothing: AssignmentOutput = BTreeMap::from([("a".into(), vec![]), ("b".into(), vec![])]);
    assert!(validate(&i2, &nothing).is_err());
    // Cooperative-sticky may withhold what a member owned (it changes owner next round), and
    // only that.
    let mut owned = i2.clone();
    owned.members[0].owned_partitions = tp(vec![2]);
    assert!(validate_cooperative(&owned, &out).is_ok());
    assert!(validate(&owned, &out).is_err());
    assert!(validate_cooperative(&i2, &out).is_err());
    assert!(assign(Strategy::Range, &input(&[("t", -1)], vec![])).is_err());
    assert!(
        assign(
            Strategy::Range,
            &input(&[], vec![member("a", &[]), member("a", &[])])
        )
        .is_err()
    );
}

/// The checks name the first fault in (topic, partition) order, whatever order the output lists
/// them in; a partition given twice names its members in the output's order; the moves compare
/// members, and a partition two members claimed to own counts as the later claim's.
#[test]
fn checks_name_the_first_fault_and_count_moves() {
    let i = input(
        &[("a", 3), ("b", 3)],
        vec![member("m1", &["a", "b"]), member("m2", &["a"])],
    );
    let list = |items: &[(&str, &[i32])]| -> Vec<TopicPartitions> {
        items
            .iter()
            .map(|(t, p)| TopicPartitions {
                topic: (*t).into(),
                partitions: p.to_vec(),
            })
            .collect()
    };
    // b-1 unsubscribed (m2), a-2 given twice: a-2 comes first.
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0, 2]), ("b", &[0, 2])])),
        ("m2".into(), list(&[("a", &[1, 2]), ("b", &[1])])),
    ]);
    assert_eq!(
        validate(&i, &out).unwrap_err(),
        "a-2 is assigned to m1 and m2"
    );
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0, 2]), ("b", &[0, 2])])),
        ("m2".into(), list(&[("a", &[1]), ("b", &[1])])),
        ("zz".into(), list(&[("a", &[7])])),
    ]);
    assert_eq!(
        validate(&i, &out).unwrap_err(),
        "a-7 does not exist",
        "before b-1's subscription"
    );
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0, 2]), ("b", &[0, 2])])),
        ("m2".into(), list(&[("a", &[1]), ("b", &[1])])),
        ("zz".into(), list(&[("b", &[-1])])),
    ]);
    assert_eq!(validate(&i, &out).unwrap_err(), "b--1 does not exist");
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0, 2]), ("b", &[0])])),
        ("m2".into(), list(&[("a", &[1]), ("b", &[1])])),
    ]);
    assert_eq!(
        validate(&i, &out).unwrap_err(),
        "b-1 went to m2, which does not subscribe to b"
    );
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0]), ("b", &[0, 1])])),
        ("m2".into(), list(&[("a", &[1])])),
        ("x".into(), list(&[("b", &[2])])),
    ]);
    assert_eq!(
        validate(&i, &out).unwrap_err(),
        "b-2 went to x, which is not a member"
    );
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0]), ("b", &[0, 1])])),
        ("m2".into(), list(&[("a", &[1])])),
    ]);
    assert_eq!(
        validate(&i, &out).unwrap_err(),
        "a-2 is assigned to no one, although a member subscribes to a"
    );
    // Moves: m1 owned a-0 and a-1, m2 claimed a-1 after it (its claim counts) and b-0.
    let mut owned = i.clone();
    owned.members[0].owned_partitions = list(&[("a", &[0, 1])]);
    owned.members[1].owned_partitions = list(&[("a", &[1]), ("b", &[0])]);
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[1]), ("b", &[0, 1, 2])])),
        ("m2".into(), list(&[("a", &[0, 2])])),
    ]);
    assert_eq!(
        revoked_and_assigned(&owned, &out),
        vec![
            ("a".to_string(), 0),
            ("a".to_string(), 1),
            ("b".to_string(), 0)
        ]
    );
    assert_eq!(moved_partitions(&owned, &out), 3);
    // a-0 went m1 -> m2 and a-1 m2 -> m1: both ways on one topic.
    assert!(!is_sticky(&owned, &out));
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[0, 2]), ("b", &[0, 1, 2])])),
        ("m2".into(), list(&[("a", &[1])])),
    ]);
    assert!(is_sticky(&owned, &out));
    assert_eq!(moved_partitions(&owned, &out), 1);
    // A partition owned before and assigned to nobody now (cooperative-sticky withholds it)
    // comes before the moves in order: they are still all found.
    let out: AssignmentOutput = BTreeMap::from([
        ("m1".into(), list(&[("a", &[1]), ("b", &[0, 1, 2])])),
        ("m2".into(), list(&[("a", &[2])])),
    ]);
    assert_eq!(
        revoked_and_assigned(&owned, &out),
        vec![("a".to_string(), 1), ("b".to_string(), 0)]
    );
}

#[test]
fn input_json_refuses_unknown_fields() {
    let e = serde_json::from_str::<AssignmentInput>(
        r#"{ "topics": {}, "members": [{ "memberID": "x" }] }"#,
    );
    assert!(e.is_err(), "{e:?}");
}

/// The three public steps of `assign`: one interned input serves every assignor, its dense
/// results name the same partitions as `assign`, and bad inputs are refused at `prepare`.
#[test]
fn prepared_input_serves_every_assignor() {
    let i = input(
        &[("t0", 3), ("t1", 2), ("no-subscriber", 4)],
        vec![
            member("c", &["t0", "t1", "missing"]),
            member("a", &["t0"]),
            member("b", &["t1", "t0"]),
        ],
    );
    let prepared = prepare(&i).unwrap();
    // Only subscribed topics with metadata are interned: t0 (0..3), then t1 (3..5).
    assert_eq!(prepared.partitions(), 5);
    assert_eq!(prepared.partition(0), ("t0", 0));
    assert_eq!(prepared.partition(4), ("t1", 1));
    for strategy in [
        Strategy::Range,
        Strategy::RoundRobin,
        Strategy::Sticky,
        Strategy::CooperativeSticky,
    ] {
        let dense = prepared.assign(strategy).unwrap();
        assert_eq!(dense.assigned(), 5, "{}", strategy.name());
        // Member "a" (input index 1) subscribes to t0 only.
        assert!(
            dense
                .member(1)
                .iter()
                .all(|&gp| prepared.partition(gp).0 == "t0")
        );
        assert!(dense.member(7).is_empty());
        assert_eq!(prepared.output(dense), assign(strategy, &i).unwrap());
    }
    let mut twice = i.clone();
    twice.members.push(member("b", &["t0"]));
    assert_eq!(prepare(&twice).unwrap_err().0, "member \"b\" appears twice");
    let mut negative = i;
    negative.topics.insert("t9".into(), -1);
    assert!(
        prepare(&negative)
            .unwrap_err()
            .0
            .contains("negative partition count")
    );
}
