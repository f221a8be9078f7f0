//! Kafka's own flaws when subscriptions change (`KafkaQuirk`), and where Kafka's Java throws.

use super::*;

// Kafka's own flaws when subscriptions change (`KafkaQuirk`)

/// B dropped t1 for t2 (which C shares, so B takes part in reassignment), but its
/// older-generation claim (eager sticky's user data, generation 4) still names t1-0. Kafka's `performReassignments` gives t1-0 back to B as its previous owner without
/// checking B's subscription: Kafka's result is invalid, and the model's is exactly that result.
fn dropped_topic_still_claimed() -> AssignmentInput {
    input(
        &[("t1", 4), ("t2", 2)],
        vec![
            member("A", &["t1"], &[("t1", &[0, 1, 2, 3])], Some(5)),
            member("B", &["t2"], &[("t1", &[0])], Some(4)),
            member("C", &["t1", "t2"], &[], Some(5)),
        ],
    )
}

#[test]
fn kafka_flaw_previous_owner_no_longer_subscribed_is_reproduced_and_named() {
    let i = dropped_topic_still_claimed();
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let (out, quirks) = assign_explained(strategy, &i).unwrap();
        println!("{}: {out:?}", strategy.name());
        assert_eq!(
            quirks,
            vec![KafkaQuirk::PreviousOwnerNotSubscribed {
                member: "B".into(),
                topic: "t1".into(),
                partition: 0,
            }],
            "{}",
            strategy.name()
        );
        assert!(listed(&out, "B").contains("t1-0"), "{out:?}");
        let e = validate(&i, &out).unwrap_err();
        assert!(
            e.contains("t1-0 went to B, which does not subscribe to t1"),
            "{e}"
        );
        validate_as_kafka(strategy, &i, &out, &quirks).unwrap();
        // The same output as `assign` (naming the flaw changes nothing).
        assert_eq!(assign(strategy, &i).unwrap(), out);
    }
}

/// The same group once B's claim carries the current generation (or no claim at all): no
/// previous-owner hint, no flaw, a valid and complete result.
#[test]
fn without_an_older_generation_claim_there_is_no_flaw() {
    let mut i = dropped_topic_still_claimed();
    i.members[1].owned_partitions.clear();
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let (out, quirks) = assign_explained(strategy, &i).unwrap();
        assert!(quirks.is_empty(), "{quirks:?}");
        assert_valid(strategy, &i, &out);
        // (Cooperative-sticky's first round withholds what changes owner: not yet balanced.)
        assert!(strategy == Strategy::CooperativeSticky || is_balanced(&i, &out));
    }
}

/// D subscribes only to t3, which nobody else subscribes to, and holds all of it: it cannot take
/// part in reassignment, so Kafka takes it out of its current assignments. Its older-generation
/// claim on t1-0 then makes Kafka's Java look it up there and throw a NullPointerException. The
/// model (deliberately) goes on with a valid assignment and names the place.
#[test]
fn kafka_java_throws_where_the_model_returns_a_valid_assignment() {
    let i = input(
        &[("t1", 4), ("t3", 2)],
        vec![
            member("A", &["t1"], &[("t1", &[0, 1, 2, 3])], Some(5)),
            member("C", &["t1"], &[], Some(5)),
            member("D", &["t3"], &[("t1", &[0]), ("t3", &[0, 1])], Some(4)),
        ],
    );
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let (out, quirks) = assign_explained(strategy, &i).unwrap();
        println!("{}: {out:?} {quirks:?}", strategy.name());
        assert_eq!(
            quirks,
            vec![KafkaQuirk::JavaThrowsNullPointer {
                previous_owner: "D".into(),
                topic: "t1".into(),
                partition: 0,
            }],
            "{}",
            strategy.name()
        );
        assert_valid(strategy, &i, &out);
        assert_eq!(listed(&out, "D"), "t3-0, t3-1");
    }
}

/// Over every history shape: the sticky family's result is complete, valid and balanced
/// wherever Kafka's algorithm gives such a result; where it does not, the only departure is
/// Kafka's documented flaw (a partition back to a previous owner that dropped its topic), each
/// such partition named by `assign_explained`. The sample must reach both kinds of history.
#[test]
fn sticky_family_over_random_histories_is_valid_or_exactly_kafkas_flaw() {
    let mut runner = TestRunner::new(Config {
        cases: 3000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261201),
        failure_persistence: None,
        ..Config::default()
    });
    let seen = std::cell::RefCell::new([0usize; 4]);
    runner
        .run(&proptest::collection::vec(any::<u8>(), 16..64), |bytes| {
            let i = random_history(&bytes);
            for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
                let (out, quirks) = assign_explained(strategy, &i).unwrap();
                validate_as_kafka(strategy, &i, &out, &quirks)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{i:?}\n{out:?}", strategy.name()));
                // The leader's one-pass check says what the two checks say, for both
                // strategies' outputs read as cooperative-sticky's (the eager one moves
                // partitions at once, so the count is not always 0).
                for read_as in [strategy, Strategy::CooperativeSticky] {
                    let (valid, moved_at_once) = check_as_kafka(read_as, &i, &out, &quirks);
                    assert_eq!(valid, validate_as_kafka(read_as, &i, &out, &quirks));
                    let moved = match read_as {
                        Strategy::CooperativeSticky => revoked_and_assigned(&i, &out).len(),
                        _ => 0,
                    };
                    assert_eq!(moved_at_once, moved);
                }
                // The leader's step gives the same output, flaws and verdict, whether its
                // assignment is checked by number (it passes) or by name (it does not).
                let checked = assign_checked(strategy, &i).unwrap();
                assert_eq!((&checked.output, &checked.quirks), (&out, &quirks));
                assert_eq!(
                    (checked.valid, checked.moved_at_once),
                    check_as_kafka(strategy, &i, &out, &quirks)
                );
                let flawed = quirks
                    .iter()
                    .any(|q| matches!(q, KafkaQuirk::PreviousOwnerNotSubscribed { .. }));
                let mut seen = seen.borrow_mut();
                if flawed {
                    seen[0] += 1;
                    assert!(
                        validate(&i, &out).is_err(),
                        "a named flaw must be a real one"
                    );
                } else {
                    seen[1] += 1;
                    assert_valid(strategy, &i, &out);
                    if strategy == Strategy::Sticky && i.racks.is_empty() {
                        assert!(is_balanced(&i, &out), "sticky unbalanced:\n{i:?}\n{out:?}");
                    }
                }
                if quirks
                    .iter()
                    .any(|q| matches!(q, KafkaQuirk::JavaThrowsNullPointer { .. }))
                {
                    seen[2] += 1;
                }
                seen[3] += usize::from(i.members.iter().any(|m| m.group_instance_id.is_some()));
            }
            Ok(())
        })
        .unwrap();
    let seen = seen.into_inner();
    println!(
        "flawed {}, valid {}, Java throws {}, with static members {}",
        seen[0], seen[1], seen[2], seen[3]
    );
    assert!(seen[0] >= 10, "too few flawed histories: {seen:?}");
    assert!(seen[1] >= 1000, "too few valid histories: {seen:?}");
    assert!(
        seen[2] >= 5,
        "too few histories where Kafka throws: {seen:?}"
    );
}
