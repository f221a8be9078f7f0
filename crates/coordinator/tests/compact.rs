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

/// The compact form of a JSON-form input (without racks: the compact form carries none), with
/// its topic table reversed, so that table indices are not name order.
fn to_compact(i: &AssignmentInput) -> CompactInput {
    let mut c = CompactInput::of(i);
    let last = c.topics.len() as i32 - 1;
    c.topics.reverse();
    c.partitions.reverse();
    // Every topic index, in the runs of subscriptions and of claims, is renumbered.
    let mut at = 0;
    while at < c.subscriptions.len() {
        let n = c.subscriptions[at] as usize;
        for t in &mut c.subscriptions[at + 1..at + 1 + n] {
            *t = last - *t;
        }
        at += 1 + n;
    }
    let mut at = 0;
    while at < c.owned.len() {
        let n = c.owned[at] as usize;
        for k in 0..n {
            c.owned[at + 1 + 2 * k] = last - c.owned[at + 1 + 2 * k];
        }
        at += 1 + 2 * n;
    }
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
    // A claim's topic index outside the table, past the first pair or negative, is refused
    // by every assignor, whether it reads the claims (the sticky family) or only checks them.
    for strategy in [
        Strategy::Range,
        Strategy::RoundRobin,
        Strategy::Sticky,
        Strategy::CooperativeSticky,
    ] {
        for (owned, what) in [
            (
                vec![0, 3, 0, 1, 1, 0, 9, 0],
                "member \"m2\" names topic 9, outside the 2 topics",
            ),
            (
                vec![3, 0, 0, 1, 0, -1, 1, 0],
                "member \"m1\" names topic -1, outside the 2 topics",
            ),
        ] {
            let c = CompactInput {
                owned,
                ..ok.clone()
            };
            let e = assign_compact(strategy, &c).unwrap_err().0;
            assert!(e.contains(what), "{strategy:?}: {e} (expected {what})");
        }
    }
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
