//! The assignors' compact form (`assign_compact`: names once, integer arrays for the rest) gives
//! exactly the JSON form's assignment, for every strategy, over random group histories
//! (subscriptions changed since the claims, deleted and resized topics, claims by two members,
//! static members, members without a generation); and a malformed array is refused by name.
#![allow(clippy::unwrap_used)]

mod assignor_support;

use assignor_support::random_history;
use group_coordinator::assignor::*;
use group_coordinator::consumer_protocol::TopicPartitions;
use proptest::prelude::any;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeMap;

/// The compact form of a JSON-form input (without racks: the compact form carries none).
fn to_compact(i: &AssignmentInput) -> CompactInput {
    // Every topic named anywhere gets an entry; one without metadata has 0 partitions.
    let mut table: BTreeMap<String, i32> = i.topics.clone();
    for m in &i.members {
        for t in m
            .topics
            .iter()
            .map(String::as_str)
            .chain(m.owned_partitions.iter().map(|tp| tp.topic.as_ref()))
        {
            table.entry(t.to_string()).or_insert(0);
        }
    }
    // In reverse name order, so that table indices are not name order.
    let topics: Vec<String> = table.keys().rev().cloned().collect();
    let index = |t: &str| topics.iter().position(|x| x == t).unwrap() as i32;
    let mut c = CompactInput {
        partitions: topics.iter().map(|t| table[t]).collect(),
        members: i.members.iter().map(|m| m.member_id.clone()).collect(),
        instance_ids: Some(
            i.members
                .iter()
                .map(|m| m.group_instance_id.clone())
                .collect(),
        ),
        generations: i
            .members
            .iter()
            .map(|m| m.generation_id.unwrap_or(-1))
            .collect(),
        ..CompactInput::default()
    };
    for m in &i.members {
        c.subscriptions.push(m.topics.len() as i32);
        c.subscriptions.extend(m.topics.iter().map(|t| index(t)));
        let claims: Vec<(i32, i32)> = m
            .owned_partitions
            .iter()
            .flat_map(|tp| tp.partitions.iter().map(|&p| (index(&tp.topic), p)))
            .collect();
        c.owned.push(claims.len() as i32);
        for (t, p) in claims {
            c.owned.extend([t, p]);
        }
    }
    c.topics = topics;
    c
}

/// The compact result read back as the JSON form's output.
fn from_compact(c: &CompactInput, out: &[i32]) -> AssignmentOutput {
    let mut result = AssignmentOutput::new();
    let mut at = 0;
    for m in &c.members {
        let n = out[at] as usize;
        let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
        for k in 0..n {
            let (t, p) = (out[at + 1 + 2 * k], out[at + 2 + 2 * k]);
            by_topic.entry(&c.topics[t as usize]).or_default().push(p);
        }
        at += 1 + 2 * n;
        result.insert(
            m.clone(),
            by_topic
                .into_iter()
                .map(|(t, partitions)| TopicPartitions {
                    topic: t.into(),
                    partitions,
                })
                .collect(),
        );
    }
    assert_eq!(at, out.len(), "nothing after the last member");
    result
}

#[test]
fn the_compact_form_gives_the_json_forms_assignment_over_random_histories() {
    let mut runner = TestRunner::new(Config {
        cases: 3000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261202),
        failure_persistence: None,
        ..Config::default()
    });
    let compared = std::cell::Cell::new(0usize);
    runner
        .run(&proptest::collection::vec(any::<u8>(), 16..64), |bytes| {
            let mut i = random_history(&bytes);
            i.racks.clear();
            for m in &mut i.members {
                m.rack_id = None;
            }
            let c = to_compact(&i);
            for strategy in [
                Strategy::Range,
                Strategy::RoundRobin,
                Strategy::Sticky,
                Strategy::CooperativeSticky,
            ] {
                let json = assign(strategy, &i).unwrap();
                let compact = assign_compact(strategy, &c).unwrap();
                assert_eq!(
                    from_compact(&c, &compact),
                    json,
                    "{}: {i:?}",
                    strategy.name()
                );
                compared.set(compared.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(compared.get(), 12_000);
}

#[test]
fn a_malformed_compact_input_is_refused_by_name() {
    let ok = CompactInput {
        topics: vec!["a".into(), "b".into()],
        partitions: vec![2, 3],
        members: vec!["m1".into(), "m2".into()],
        subscriptions: vec![1, 0, 2, 0, 1],
        ..CompactInput::default()
    };
    assert!(assign_compact(Strategy::Range, &ok).is_ok());
    let refused = |c: CompactInput, what: &str| {
        let e = assign_compact(Strategy::Range, &c).unwrap_err().0;
        assert!(e.contains(what), "{e} (expected {what})");
    };
    refused(
        CompactInput {
            partitions: vec![2],
            ..ok.clone()
        },
        "partitions: 1 counts for 2 topics",
    );
    refused(
        CompactInput {
            subscriptions: vec![1, 0, 2, 0],
            ..ok.clone()
        },
        "subscriptions: member \"m2\" has 2 entries, past the array's end",
    );
    refused(
        CompactInput {
            subscriptions: vec![1, 0, 1, 7],
            ..ok.clone()
        },
        "names topic 7, outside the 2 topics",
    );
    refused(
        CompactInput {
            subscriptions: vec![1, 0, -1],
            ..ok.clone()
        },
        "negative count for member \"m2\"",
    );
    refused(
        CompactInput {
            subscriptions: vec![1, 0, 1, 1, 5],
            ..ok.clone()
        },
        "1 values left over",
    );
    refused(
        CompactInput {
            owned: vec![1, 0, 0],
            ..ok.clone()
        },
        "owned: no count for member \"m2\"",
    );
    refused(
        CompactInput {
            members: vec!["m1".into(), "m1".into()],
            ..ok.clone()
        },
        "member \"m1\" appears twice",
    );
    refused(
        CompactInput {
            topics: vec!["a".into(), "a".into()],
            ..ok.clone()
        },
        "topic \"a\" appears twice",
    );
    refused(
        CompactInput {
            generations: vec![1],
            ..ok.clone()
        },
        "generations: 1 entries for 2 members",
    );
    refused(
        CompactInput {
            partitions: vec![2, -3],
            ..ok
        },
        "negative partition count",
    );
}
