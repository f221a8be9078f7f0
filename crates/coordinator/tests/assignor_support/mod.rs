//! Shared builders for the assignor tests.
#![allow(dead_code)]

use group_coordinator::assignor::{
    AssignmentInput, AssignmentOutput, MemberSubscription, Strategy, validate, validate_cooperative,
};
use group_coordinator::consumer_protocol::TopicPartitions;

/// Valid and complete as the strategy's output must be (cooperative-sticky may withhold a
/// partition that changes owner); panics naming what is wrong.
pub fn assert_valid(strategy: Strategy, input: &AssignmentInput, out: &AssignmentOutput) {
    let checked = match strategy {
        Strategy::CooperativeSticky => validate_cooperative(input, out),
        _ => validate(input, out),
    };
    if let Err(e) = checked {
        panic!("{}: invalid assignment: {e}", strategy.name());
    }
}

pub fn member(id: &str, topics: &[&str]) -> MemberSubscription {
    MemberSubscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        ..Default::default()
    }
}

pub fn owning(
    mut m: MemberSubscription,
    owned: &[(&str, &[i32])],
    generation: Option<i32>,
) -> MemberSubscription {
    m.owned_partitions = owned
        .iter()
        .map(|(t, ps)| TopicPartitions {
            topic: (*t).into(),
            partitions: ps.to_vec(),
        })
        .collect();
    m.generation_id = generation;
    m
}

pub fn input(topics: &[(&str, i32)], members: Vec<MemberSubscription>) -> AssignmentInput {
    AssignmentInput {
        topics: topics.iter().map(|(t, n)| (t.to_string(), *n)).collect(),
        members,
        ..Default::default()
    }
}

/// "topic1-0, topic2-1" style listing of one member's assignment.
pub fn listed(out: &AssignmentOutput, member: &str) -> String {
    out[member]
        .iter()
        .flat_map(|tp| {
            tp.partitions
                .iter()
                .map(move |p| format!("{}-{p}", tp.topic))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Kafka's rack layout (`docs/src/reference/assignors.md#rack-layout`): brokers 0..B-1 on `broker_racks`; replica j of partition p
/// of a topic with running offset `off` lives on broker (p + j + off) % B; consumers
/// `consumer0..` with the given racks ("" = none) and subscriptions.
pub fn racked(
    topics: &[(&str, i32)],
    rf: usize,
    broker_racks: &[&str],
    consumers: &[(&str, &[&str])],
) -> AssignmentInput {
    let mut i = input(
        topics,
        consumers
            .iter()
            .enumerate()
            .map(|(n, (rack, subs))| MemberSubscription {
                rack_id: (!rack.is_empty()).then(|| rack.to_string()),
                ..member(&format!("consumer{n}"), subs)
            })
            .collect(),
    );
    let b = broker_racks.len();
    let mut off = 0usize;
    for (t, n) in topics {
        let racks: Vec<Vec<String>> = (0..*n as usize)
            .map(|p| {
                (0..rf)
                    .map(|j| broker_racks[(p + j + off) % b].to_string())
                    .filter(|r| !r.is_empty())
                    .collect()
            })
            .collect();
        i.racks.insert(t.to_string(), racks);
        off += *n as usize;
    }
    i
}
