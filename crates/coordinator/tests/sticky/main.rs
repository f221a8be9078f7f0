//! Kafka's sticky / cooperative-sticky cases (`docs/src/reference/assignors.md#vectors`; canonical orders where Kafka's
//! result depends on Java hash order), and the randomized properties of Kafka's
//! `AbstractStickyAssignorTest`: valid, balanced, sticky.
#![allow(clippy::unwrap_used)]

#[path = "../assignor_support/mod.rs"]
mod assignor_support;

use assignor_support::{assert_valid, input, listed, racked, random_history};
use group_coordinator::assignor::*;
use group_coordinator::consumer_protocol::TopicPartitions;
use proptest::prelude::any;
use proptest::test_runner::{Config, TestRunner};

mod cooperative_and_racks;
mod quirks;
mod rounds;
mod vectors;

fn member(
    id: &str,
    topics: &[&str],
    owned: &[(&str, &[i32])],
    generation: Option<i32>,
) -> MemberSubscription {
    MemberSubscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        owned_partitions: owned
            .iter()
            .map(|(t, ps)| TopicPartitions {
                topic: (*t).into(),
                partitions: ps.to_vec(),
            })
            .collect(),
        generation_id: generation,
        ..Default::default()
    }
}

fn run(strategy: Strategy, i: &AssignmentInput, expected: &[(&str, &str)]) -> AssignmentOutput {
    let out = assign(strategy, i).unwrap();
    assert_valid(strategy, i, &out);
    for (m, want) in expected {
        assert_eq!(listed(&out, m), *want, "{} for {m}", strategy.name());
    }
    out
}

/// The next round: every member reports what it got (and the generation moves on).
fn next_round(mut i: AssignmentInput, out: &AssignmentOutput, generation: i32) -> AssignmentInput {
    for m in &mut i.members {
        m.owned_partitions = out[&m.member_id].clone();
        m.generation_id = Some(generation);
    }
    i
}

fn check_round(strategy: Strategy, i: &AssignmentInput) -> AssignmentOutput {
    let out = assign(strategy, i).unwrap();
    assert_valid(strategy, i, &out);
    match strategy {
        Strategy::CooperativeSticky => assert!(
            revoked_and_assigned(i, &out).is_empty(),
            "cooperative: revoked and assigned at once"
        ),
        _ => {
            assert!(is_balanced(i, &out), "unbalanced: {out:?}");
            assert!(is_sticky(i, &out), "not sticky");
        }
    }
    out
}

/// Cooperative rounds until nothing is revoked (Kafka's tests allow up to 4): then balanced.
fn converge(i: AssignmentInput, mut generation: i32) -> (AssignmentInput, AssignmentOutput) {
    let mut i = i;
    for _ in 0..4 {
        let out = check_round(Strategy::CooperativeSticky, &i);
        generation += 1;
        let next = next_round(i.clone(), &out, generation);
        if moved_partitions(&i, &out) == 0
            && out == assign(Strategy::CooperativeSticky, &next).unwrap()
        {
            assert!(is_balanced(&i, &out), "converged but unbalanced");
            return (next, out);
        }
        i = next;
    }
    let out = check_round(Strategy::CooperativeSticky, &i);
    assert!(
        is_balanced(&i, &out),
        "no balance after 4 cooperative rounds"
    );
    (i, out)
}
