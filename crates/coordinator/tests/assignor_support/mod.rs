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

/// A random group history, as a leader can meet it: subscriptions added and dropped since the
/// claims were made, topics deleted or with fewer or more partitions than the claims say,
/// claims by two members at the same or different generations, members without a generation
/// or without any claim, static members, racks that changed.
pub fn random_history(bytes: &[u8]) -> AssignmentInput {
    let mut k = 0usize;
    let mut next = || {
        k += 1;
        bytes[k % bytes.len()] as usize ^ (k * 37)
    };
    let topic_count = 1 + next() % 5;
    let mut topics = std::collections::BTreeMap::new();
    for t in 0..topic_count {
        // A deleted topic is absent; one that shrank or grew has another count than claimed.
        if next() % 7 != 0 {
            topics.insert(format!("t{t}"), (next() % 9) as i32);
        }
    }
    let rack_names = ["r0", "r1", "r2"];
    let racked_topics = next() % 3 == 0;
    let mut racks = std::collections::BTreeMap::new();
    if racked_topics {
        for (t, &n) in &topics {
            let per: Vec<Vec<String>> = (0..n)
                .map(|p| vec![rack_names[(p as usize) % 3].to_string()])
                .collect();
            racks.insert(t.clone(), per);
        }
    }
    let member_count = 1 + next() % 7;
    let generations = [1, 2, 3];
    let mut members = Vec::new();
    for m in 0..member_count {
        let subscribed: Vec<String> = (0..topic_count)
            .filter(|_| next() % 2 == 0)
            .map(|t| format!("t{t}"))
            .collect();
        // Claims: any topic (dropped ones too), any partition number (past the end too).
        let mut owned = Vec::new();
        for t in 0..topic_count {
            if next() % 3 == 0 {
                let partitions: Vec<i32> = (0..9).filter(|_| next() % 4 == 0).collect();
                if !partitions.is_empty() {
                    owned.push(TopicPartitions {
                        topic: format!("t{t}").into(),
                        partitions,
                    });
                }
            }
        }
        let group_instance_id = (next() % 4 == 0).then_some(format!("i{m}"));
        let generation_id = match next() % 4 {
            0 => None,
            g => Some(generations[g - 1]),
        };
        let r = next();
        members.push(MemberSubscription {
            member_id: format!("m{m}"),
            group_instance_id,
            topics: subscribed,
            owned_partitions: owned,
            generation_id,
            rack_id: (r % 3 == 0).then(|| rack_names[(r / 3) % 3].to_string()),
        });
    }
    AssignmentInput {
        topics,
        racks,
        members,
    }
}
