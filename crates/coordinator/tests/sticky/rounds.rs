//! Rounds fed back into the next: reassignment after members leave, random subscriptions, generations.

use super::*;

#[test]
fn test_reassignment_after_one_consumer_leaves() {
    // 19 topics t01..t19 with i partitions; consumer cXX subscribes to t01..tXX; then c10 leaves.
    let topics: Vec<(String, i32)> = (1..20).map(|i| (format!("t{i:02}"), i)).collect();
    let members: Vec<MemberSubscription> = (1..20)
        .map(|c| MemberSubscription {
            member_id: format!("c{c:02}"),
            topics: (1..=c).map(|t| format!("t{t:02}")).collect(),
            ..Default::default()
        })
        .collect();
    let i = AssignmentInput {
        topics: topics.into_iter().collect(),
        members,
        ..Default::default()
    };
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = check_round(strategy, &i);
        let mut next = next_round(i.clone(), &out, 1);
        next.members.retain(|m| m.member_id != "c10");
        if strategy == Strategy::Sticky {
            check_round(strategy, &next);
        } else {
            converge(next, 1);
        }
    }
}

#[test]
fn test_same_subscriptions() {
    let topics: Vec<(String, i32)> = (1..15).map(|i| (format!("t{i}"), i)).collect();
    let names: Vec<String> = topics.iter().map(|t| t.0.clone()).collect();
    let members: Vec<MemberSubscription> = (1..9)
        .map(|c| MemberSubscription {
            member_id: format!("c{c}"),
            topics: names.clone(),
            ..Default::default()
        })
        .collect();
    let i = AssignmentInput {
        topics: topics.into_iter().collect(),
        members,
        ..Default::default()
    };
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = check_round(strategy, &i);
        let mut next = next_round(i.clone(), &out, 1);
        next.members.retain(|m| m.member_id != "c5");
        let out2 = check_round(strategy, &next);
        assert!(is_balanced(&next, &out2));
    }
}

fn random_round_input(topics: usize, members: usize, seed: &[u8]) -> AssignmentInput {
    let mut k = 0;
    let mut next = || {
        k += 1;
        seed[k % seed.len()] as usize + k
    };
    let t: Vec<(String, i32)> = (0..topics)
        .map(|i| (format!("t{i}"), (next() % 20) as i32 + 1))
        .collect();
    let ms = (0..members)
        .map(|c| MemberSubscription {
            member_id: format!("c{c:03}"),
            topics: (0..topics)
                .filter(|_| next() % 3 != 0)
                .map(|i| format!("t{i}"))
                .collect(),
            ..Default::default()
        })
        .collect();
    AssignmentInput {
        topics: t.into_iter().collect(),
        members: ms,
        ..Default::default()
    }
}

#[test]
fn test_reassignment_with_random_subscriptions_and_changes() {
    let mut runner = TestRunner::new(Config {
        cases: 24,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261129),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(
                20usize..40,
                10usize..20,
                proptest::collection::vec(any::<u8>(), 8..32),
            ),
            |(members, topics, seed)| {
                for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
                    let i = random_round_input(topics, members, &seed);
                    let out = check_round(strategy, &i);
                    // New random subscriptions, same members, owners report what they have.
                    let mut changed = random_round_input(topics, members, &seed[1..]);
                    for m in &mut changed.members {
                        m.owned_partitions = out[&m.member_id].clone();
                        m.generation_id = Some(1);
                    }
                    if strategy == Strategy::Sticky {
                        check_round(strategy, &changed);
                    } else {
                        converge(changed, 1);
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn test_large_assignment_with_multiple_consumers_leaving_and_random_subscription() {
    let mut i = random_round_input(40, 200, &[7, 13, 29, 31, 41, 59, 61, 77]);
    for t in i.topics.values_mut() {
        *t = *t * 5 % 97 + 1;
    }
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = check_round(strategy, &i);
        let mut next = next_round(i.clone(), &out, 1);
        let mut k = 0;
        next.members.retain(|_| {
            k += 1;
            k % 4 != 0
        });
        let out = check_round(strategy, &next);
        assert!(strategy == Strategy::CooperativeSticky || is_balanced(&next, &out));
    }
}

#[test]
fn test_subscription_not_equal_and_assign_same_partition_with_3_generation() {
    // Conflicting claims from three generations, presented in all six member orders: no
    // duplicates, and every member gets 1-2 partitions.
    let t: &[&str] = &["t"];
    let claims: [(&[i32], i32); 3] = [(&[0, 1, 4], 1), (&[0, 2, 3], 2), (&[1, 3, 5], 3)];
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for perm in perms {
        let members = perm
            .iter()
            .enumerate()
            .map(|(slot, &c)| {
                member(
                    &format!("c{slot}"),
                    t,
                    &[("t", claims[c].0)],
                    Some(claims[c].1),
                )
            })
            .collect();
        let i = input(&[("t", 6)], members);
        for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
            let out = assign(strategy, &i).unwrap();
            assert_valid(strategy, &i, &out);
            if strategy == Strategy::Sticky {
                for m in &i.members {
                    let n: usize = out[&m.member_id].iter().map(|tp| tp.partitions.len()).sum();
                    assert!((1..=2).contains(&n), "{perm:?}: {} has {n}", m.member_id);
                }
            }
        }
    }
}

#[test]
fn topics_nobody_subscribes_to_are_not_assigned() {
    // Found by the kafka-python comparison: the constrained path must only deal out subscribed
    // topics' partitions.
    let i = input(
        &[("t0", 15), ("t1", 6), ("t2", 2)],
        vec![member("c000", &["t2"], &[("t2", &[0, 1])], Some(1))],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(s, &i, &[("c000", "t2-0, t2-1")]);
    }
}
