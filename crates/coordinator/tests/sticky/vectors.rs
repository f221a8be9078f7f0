//! Kafka's vectors for the sticky family (v25–v37).

use super::*;

#[test]
fn v25_test_multiple_consumers_mixed_topic_subscriptions_general_path() {
    let i = input(
        &[("topic1", 3), ("topic2", 2)],
        vec![
            member("consumer1", &["topic1"], &[], None),
            member("consumer2", &["topic1", "topic2"], &[], None),
            member("consumer3", &["topic1"], &[], None),
        ],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(
            s,
            &i,
            &[
                ("consumer1", "topic1-0, topic1-2"),
                ("consumer2", "topic2-0, topic2-1"),
                ("consumer3", "topic1-1"),
            ],
        );
    }
}

#[test]
fn v27_test_max_quota_consumer_more_than_num_expected_max_capacity_members_canonical_order() {
    let t: &[&str] = &["topic1", "topic2"];
    let i = input(
        &[("topic1", 2), ("topic2", 2)],
        vec![
            member(
                "consumer1",
                t,
                &[("topic1", &[0]), ("topic2", &[0])],
                Some(1),
            ),
            member(
                "consumer2",
                t,
                &[("topic1", &[1]), ("topic2", &[1])],
                Some(1),
            ),
            member("consumer3", t, &[], Some(1)),
        ],
    );
    // Kafka under Java's hash order gives c1: topic1-0; c2: topic1-1, topic2-1; c3: topic2-0.
    run(
        Strategy::Sticky,
        &i,
        &[
            ("consumer1", "topic1-0, topic2-0"),
            ("consumer2", "topic1-1"),
            ("consumer3", "topic2-1"),
        ],
    );
    run(
        Strategy::CooperativeSticky,
        &i,
        &[
            ("consumer1", "topic1-0, topic2-0"),
            ("consumer2", "topic1-1"),
            ("consumer3", ""),
        ],
    );
}

#[test]
fn v29_test_add_remove_consumer_one_topic() {
    let t: &[&str] = &["topic"];
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(
            s,
            &input(&[("topic", 3)], vec![member("consumer1", t, &[], None)]),
            &[("consumer1", "topic-0, topic-1, topic-2")],
        );
        let i = input(
            &[("topic", 3)],
            vec![
                member("consumer1", t, &[("topic", &[0, 1, 2])], Some(1)),
                member("consumer2", t, &[], None),
            ],
        );
        let expected_c2 = if s == Strategy::Sticky { "topic-2" } else { "" };
        run(
            s,
            &i,
            &[
                ("consumer1", "topic-0, topic-1"),
                ("consumer2", expected_c2),
            ],
        );
        let i = input(
            &[("topic", 3)],
            vec![member("consumer2", t, &[("topic", &[2])], Some(2))],
        );
        run(s, &i, &[("consumer2", "topic-0, topic-1, topic-2")]);
    }
}

#[test]
fn v31_test_all_consumers_reach_expected_quota_and_are_considered_filled() {
    let t: &[&str] = &["topic"];
    let i = input(
        &[("topic", 4)],
        vec![
            member("consumer1", t, &[("topic", &[0, 1])], Some(1)),
            member("consumer2", t, &[("topic", &[2])], Some(1)),
            member("consumer3", t, &[], Some(1)),
        ],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(
            s,
            &i,
            &[
                ("consumer1", "topic-0, topic-1"),
                ("consumer2", "topic-2"),
                ("consumer3", "topic-3"),
            ],
        );
    }
}

#[test]
fn v33_owned_partitions_invalidated_in_same_generation_with_unequal_partitions_per_consumer() {
    let t: &[&str] = &["topic"];
    let i = input(
        &[("topic", 4)],
        vec![
            member("consumer1", t, &[("topic", &[0, 1])], Some(1)),
            member("consumer2", t, &[("topic", &[0, 2])], Some(1)),
            member("consumer3", t, &[], Some(1)),
        ],
    );
    run(
        Strategy::Sticky,
        &i,
        &[
            ("consumer1", "topic-1, topic-3"),
            ("consumer2", "topic-2"),
            ("consumer3", "topic-0"),
        ],
    );
    run(
        Strategy::CooperativeSticky,
        &i,
        &[
            ("consumer1", "topic-1, topic-3"),
            ("consumer2", "topic-2"),
            ("consumer3", ""),
        ],
    );
}

#[test]
fn v35_test_ensure_partitions_assigned_to_highest_generation() {
    let t: &[&str] = &["topic", "topic2", "topic3"];
    let i = input(
        &[("topic", 3), ("topic2", 3), ("topic3", 3)],
        vec![
            member(
                "consumer1",
                t,
                &[("topic", &[0]), ("topic2", &[0]), ("topic3", &[0])],
                Some(10),
            ),
            member(
                "consumer2",
                t,
                &[("topic", &[1]), ("topic2", &[1]), ("topic3", &[1])],
                Some(9),
            ),
            member(
                "consumer3",
                t,
                &[("topic2", &[1]), ("topic3", &[0, 2])],
                Some(8),
            ),
        ],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(
            s,
            &i,
            &[
                ("consumer1", "topic-0, topic2-0, topic3-0"),
                ("consumer2", "topic-1, topic2-1, topic3-1"),
                ("consumer3", "topic-2, topic2-2, topic3-2"),
            ],
        );
    }
}

#[test]
fn v37_test_owned_partitions_are_invalidated_for_consumer_with_multiple_generation() {
    let t: &[&str] = &["topic", "topic2"];
    let i = input(
        &[("topic", 3), ("topic2", 3)],
        vec![
            member(
                "consumer1",
                t,
                &[("topic", &[0, 1]), ("topic2", &[1])],
                Some(10),
            ),
            member(
                "consumer2",
                t,
                &[("topic", &[0]), ("topic2", &[1, 2])],
                Some(8),
            ),
        ],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(
            s,
            &i,
            &[
                ("consumer1", "topic-0, topic-1, topic2-1"),
                ("consumer2", "topic-2, topic2-0, topic2-2"),
            ],
        );
    }
}
