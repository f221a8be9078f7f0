//! The cooperative vectors and rack awareness, over vectors and random rounds.

use super::*;

#[test]
fn v39_cooperative_test_uniform_subscription_transfer_ownership_list_is_right() {
    // topic1:4, RF 1 on brokers a,b (p0 a, p1 b, p2 a, p3 b); c0 (rack a) owns 0,1, c1 (rack b)
    // owns 2,3: rack alignment moves one partition each way, so both are revoked first.
    let t: &[&str] = &["topic1"];
    let mut i = racked(&[("topic1", 4)], 1, &["a", "b"], &[("a", t), ("b", t)]);
    i.members[0].owned_partitions = vec![TopicPartitions {
        topic: "topic1".into(),
        partitions: vec![0, 1],
    }];
    i.members[1].owned_partitions = vec![TopicPartitions {
        topic: "topic1".into(),
        partitions: vec![2, 3],
    }];
    for m in &mut i.members {
        m.generation_id = Some(1);
    }
    run(
        Strategy::Sticky,
        &i,
        &[
            ("consumer0", "topic1-0, topic1-2"),
            ("consumer1", "topic1-1, topic1-3"),
        ],
    );
    let out = run(
        Strategy::CooperativeSticky,
        &i,
        &[("consumer0", "topic1-0"), ("consumer1", "topic1-3")],
    );
    assert_eq!(revoked_and_assigned(&i, &out), Vec::<(String, i32)>::new());
    // Without racks the same input keeps everything.
    i.racks.clear();
    run(
        Strategy::CooperativeSticky,
        &i,
        &[
            ("consumer0", "topic1-0, topic1-1"),
            ("consumer1", "topic1-2, topic1-3"),
        ],
    );
}

#[test]
fn v41_cooperative_rack_aware_first_round_keeps_only_rack_aligned_owned_partitions() {
    let all: &[&str] = &["t1", "t2", "t3"];
    let mut i = racked(
        &[("t1", 6), ("t2", 7), ("t3", 2)],
        1,
        &["a", "b", "c"],
        &[("a", all), ("b", all), ("c", all)],
    );
    let owned: [&[(&str, &[i32])]; 3] = [
        &[("t1", &[0, 1, 2, 3, 4])],
        &[("t1", &[5]), ("t2", &[0, 1, 2, 3])],
        &[("t2", &[4, 5, 6]), ("t3", &[0, 1])],
    ];
    for (m, o) in i.members.iter_mut().zip(owned) {
        m.owned_partitions = o
            .iter()
            .map(|(t, ps)| TopicPartitions {
                topic: (*t).into(),
                partitions: ps.to_vec(),
            })
            .collect();
        m.generation_id = Some(1);
    }
    let out = run(
        Strategy::CooperativeSticky,
        &i,
        &[
            ("consumer0", "t1-0, t1-3"),
            ("consumer1", "t2-1"),
            ("consumer2", "t2-5, t3-1"),
        ],
    );
    assert!(revoked_and_assigned(&i, &out).is_empty());
}

/// Sets every member's owned partitions from "t1-0, t1-3"-style lists, generation 1.
fn owning_listed(i: &mut AssignmentInput, owned: &[&str]) {
    for (m, list) in i.members.iter_mut().zip(owned) {
        let mut by_topic: std::collections::BTreeMap<&str, Vec<i32>> = Default::default();
        for tp in list.split(", ").filter(|s| !s.is_empty()) {
            let (t, p) = tp.rsplit_once('-').unwrap();
            by_topic.entry(t).or_default().push(p.parse().unwrap());
        }
        m.owned_partitions = by_topic
            .into_iter()
            .map(|(t, partitions)| TopicPartitions {
                topic: t.into(),
                partitions,
            })
            .collect();
        m.generation_id = Some(1);
    }
}

/// Partitions assigned to a member with a rack none of their replicas is on.
fn rack_mismatches(i: &AssignmentInput, out: &AssignmentOutput) -> usize {
    i.members
        .iter()
        .map(|m| {
            let rack = m.rack_id.as_deref().unwrap_or_default();
            out[&m.member_id]
                .iter()
                .flat_map(|tp| tp.partitions.iter().map(move |&p| (tp.topic.clone(), p)))
                .filter(|(t, p)| !i.racks[&**t][*p as usize].iter().any(|r| r == rack))
                .count()
        })
        .sum()
}

#[test]
fn v43_test_rack_aware_assignment_with_non_equal_subscription_rf1() {
    // AbstractStickyAssignorTest.testRackAwareAssignmentWithNonEqualSubscription, replication
    // factor 1: brokers and consumers on racks a, b, c; consumer2 subscribes to t1 and t3 only
    // (the general path). Rack alignment is best effort: 4 partitions stay misaligned.
    let all: &[&str] = &["t1", "t2", "t3"];
    let odd: &[&str] = &["t1", "t3"];
    let mut i = racked(
        &[("t1", 6), ("t2", 7), ("t3", 2)],
        1,
        &["a", "b", "c"],
        &[("a", all), ("b", all), ("c", odd)],
    );
    let assignment = [
        "t1-3, t2-0, t2-2, t2-3, t2-6",
        "t1-4, t2-1, t2-4, t2-5, t3-0",
        "t1-0, t1-1, t1-2, t1-5, t3-1",
    ];
    let expected = |lists: &[&'static str; 3]| -> Vec<(&'static str, &'static str)> {
        ["consumer0", "consumer1", "consumer2"]
            .into_iter()
            .zip(lists.iter().copied())
            .collect()
    };
    // Fresh, then with everyone owning that result: the same assignment, for both assignors.
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = run(s, &i, &expected(&assignment));
        assert_eq!(rack_mismatches(&i, &out), 4, "{}", s.name());
    }
    let mut kept = i.clone();
    owning_listed(&mut kept, &assignment);
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        run(s, &kept, &expected(&assignment));
    }
    // Misaligned owners: the eager assignor moves straight to the rack-aware result; the
    // cooperative one first keeps only what stays (t1-3, t2-1, t3-1), then completes it.
    owning_listed(
        &mut i,
        &[
            "t1-0, t1-1, t1-2, t1-3, t1-4",
            "t1-5, t2-0, t2-1, t2-2, t2-3",
            "t2-4, t2-5, t2-6, t3-0, t3-1",
        ],
    );
    let out = run(Strategy::Sticky, &i, &expected(&assignment));
    assert_eq!(rack_mismatches(&i, &out), 4);
    let intermediate = ["t1-3", "t2-1", "t3-1"];
    let out = run(Strategy::CooperativeSticky, &i, &expected(&intermediate));
    assert!(revoked_and_assigned(&i, &out).is_empty());
    owning_listed(&mut i, &intermediate);
    let out = run(Strategy::CooperativeSticky, &i, &expected(&assignment));
    assert_eq!(rack_mismatches(&i, &out), 4);
}

#[test]
fn rack_aware_sticky_prefers_rack_aligned_owners_and_stays_valid_and_balanced() {
    // Fresh assignment with racks: every member gets partitions on its rack where the balance
    // allows (RF 1, 3 racks, 3 members, 9 partitions: a perfect alignment exists).
    let t: &[&str] = &["t"];
    let i = racked(
        &[("t", 9)],
        1,
        &["a", "b", "c"],
        &[("a", t), ("b", t), ("c", t)],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = run(
            s,
            &i,
            &[
                ("consumer0", "t-0, t-3, t-6"),
                ("consumer1", "t-1, t-4, t-7"),
                ("consumer2", "t-2, t-5, t-8"),
            ],
        );
        assert!(is_balanced(&i, &out));
    }
    // Unequal subscriptions (general builder) with racks: valid and balanced.
    let i = racked(
        &[("t1", 6), ("t2", 5)],
        1,
        &["a", "b"],
        &[
            ("a", &["t1", "t2"]),
            ("b", &["t1"]),
            ("a", &["t2"]),
            ("", &["t1", "t2"]),
        ],
    );
    for s in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let out = run(s, &i, &[]);
        assert!(is_balanced(&i, &out), "{out:?}");
    }
}

/// Kafka's `testReassignmentWithRandomSubscriptionsAndChanges` over 100 rounds: each round
/// members keep what they got, some change subscriptions, one may leave or join; every
/// round's result is valid, balanced and sticky (eager), or revokes before it assigns and
/// converges (cooperative).
#[test]
fn test_reassignment_with_random_subscriptions_and_changes_over_100_rounds() {
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let mut state: u64 = 0x5eed_u64 + strategy as u64;
        let mut next = move |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % n.max(1)
        };
        let topics: Vec<(String, i32)> = (0..15)
            .map(|t| (format!("t{t:02}"), 1 + next(12) as i32))
            .collect();
        let names: Vec<String> = topics.iter().map(|t| t.0.clone()).collect();
        let subs = |next: &mut dyn FnMut(usize) -> usize| -> Vec<String> {
            let mut s: Vec<String> = names.iter().filter(|_| next(3) != 0).cloned().collect();
            if s.is_empty() {
                s.push(names[0].clone());
            }
            s
        };
        let mut i = AssignmentInput {
            topics: topics.into_iter().collect(),
            ..Default::default()
        };
        for c in 0..25 {
            i.members.push(MemberSubscription {
                member_id: format!("c{c:03}"),
                topics: subs(&mut next),
                ..Default::default()
            });
        }
        let mut joined = 25;
        for round in 1..=100 {
            let out = check_round(strategy, &i);
            i = next_round(i, &out, round);
            for m in &mut i.members {
                if next(10) == 0 {
                    m.topics = subs(&mut next);
                }
            }
            match next(4) {
                0 if i.members.len() > 2 => {
                    let k = next(i.members.len());
                    i.members.remove(k);
                }
                1 => {
                    i.members.push(MemberSubscription {
                        member_id: format!("c{joined:03}"),
                        topics: subs(&mut next),
                        ..Default::default()
                    });
                    joined += 1;
                }
                _ => {}
            }
        }
        if strategy == Strategy::CooperativeSticky {
            converge(i, 100);
        }
    }
}
