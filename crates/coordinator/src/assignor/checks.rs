//! Kafka's checks on an assignment, reusable by tests and the simulator: validity, balance
//! (the definition of `AbstractStickyAssignorTest`), the cooperative "nothing revoked and
//! assigned in the same round" rule, and `isSticky`.

use super::{AssignmentInput, AssignmentOutput, KafkaQuirk, Strategy};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

type Tp<'a> = (&'a str, i32);

fn owners(output: &AssignmentOutput) -> BTreeMap<Tp<'_>, Vec<&str>> {
    let mut owners: BTreeMap<Tp, Vec<&str>> = BTreeMap::new();
    for (member, list) in output {
        for tp in list {
            for &p in &tp.partitions {
                owners.entry((&*tp.topic, p)).or_default().push(member);
            }
        }
    }
    owners
}

/// Valid and complete: every input member is present, each partition goes to at most one
/// member, only to a member subscribed to its topic, only partitions that exist, and every
/// partition of a topic some member subscribes to is assigned (an assignor that drops
/// partitions is not valid). For cooperative-sticky's first round use [`validate_cooperative`].
pub fn validate(input: &AssignmentInput, output: &AssignmentOutput) -> Result<(), String> {
    validate_except(input, output, |_| false, |_, _| false)
}

/// The check of a leader's assignment as Kafka's own assignor gives it: [`validate`] (or
/// [`validate_cooperative`] for cooperative-sticky), except that a partition `quirks` name as
/// Kafka's flaw ([`KafkaQuirk::PreviousOwnerNotSubscribed`]) may go to its member although the
/// member does not subscribe to its topic. Anything else wrong is still an error.
pub fn validate_as_kafka(
    strategy: Strategy,
    input: &AssignmentInput,
    output: &AssignmentOutput,
    quirks: &[KafkaQuirk],
) -> Result<(), String> {
    let flawed: BTreeSet<(&str, Tp)> = quirks
        .iter()
        .filter_map(|q| match q {
            KafkaQuirk::PreviousOwnerNotSubscribed {
                member,
                topic,
                partition,
            } => Some((member.as_str(), (topic.as_str(), *partition))),
            KafkaQuirk::JavaThrowsNullPointer { .. } => None,
        })
        .collect();
    let owned = owned_partitions(input);
    let cooperative = strategy == Strategy::CooperativeSticky;
    validate_except(
        input,
        output,
        |tp| cooperative && owned.contains(&tp),
        |member, tp| flawed.contains(&(member, tp)),
    )
}

fn owned_partitions(input: &AssignmentInput) -> BTreeSet<Tp<'_>> {
    input
        .members
        .iter()
        .flat_map(|m| &m.owned_partitions)
        .flat_map(|tp| tp.partitions.iter().map(|&p| (&*tp.topic, p)))
        .collect()
}

/// [`validate`] for cooperative-sticky: a partition may be left unassigned when a member owned it
/// in the input, as the cooperative protocol withholds a partition that changes owner until its
/// owner has revoked it (it is assigned in the follow-up rebalance).
pub fn validate_cooperative(
    input: &AssignmentInput,
    output: &AssignmentOutput,
) -> Result<(), String> {
    let owned = owned_partitions(input);
    validate_except(input, output, |tp| owned.contains(&tp), |_, _| false)
}

/// The checks of [`validate`]; `may_be_unassigned` names the partitions completeness excuses,
/// `may_hold_unsubscribed` the (member, partition) pairs the subscription check excuses.
fn validate_except(
    input: &AssignmentInput,
    output: &AssignmentOutput,
    may_be_unassigned: impl Fn(Tp) -> bool,
    may_hold_unsubscribed: impl Fn(&str, Tp) -> bool,
) -> Result<(), String> {
    for m in &input.members {
        if !output.contains_key(&m.member_id) {
            return Err(format!(
                "member {} is missing from the assignment",
                m.member_id
            ));
        }
    }
    let subs: BTreeMap<&str, BTreeSet<&str>> = input
        .members
        .iter()
        .map(|m| {
            (
                m.member_id.as_str(),
                m.topics.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    let owners = owners(output);
    for (&(topic, p), who) in &owners {
        if who.len() > 1 {
            return Err(format!("{topic}-{p} is assigned to {}", who.join(" and ")));
        }
        let n = input.topics.get(topic).copied().unwrap_or(0);
        if p < 0 || p >= n {
            return Err(format!("{topic}-{p} does not exist"));
        }
        match subs.get(who[0]) {
            Some(topics) if topics.contains(topic) => {}
            Some(_) if may_hold_unsubscribed(who[0], (topic, p)) => {}
            Some(_) => {
                return Err(format!(
                    "{topic}-{p} went to {}, which does not subscribe to {topic}",
                    who[0]
                ));
            }
            None => {
                return Err(format!(
                    "{topic}-{p} went to {}, which is not a member",
                    who[0]
                ));
            }
        }
    }
    let subscribed: BTreeSet<&str> = subs.values().flatten().copied().collect();
    for topic in subscribed {
        for p in 0..input.topics.get(topic).copied().unwrap_or(0) {
            if !owners.contains_key(&(topic, p)) && !may_be_unassigned((topic, p)) {
                return Err(format!(
                    "{topic}-{p} is assigned to no one, although a member subscribes to {topic}"
                ));
            }
        }
    }
    Ok(())
}

/// Balanced: member counts differ by at most one, or no member with at least two fewer
/// partitions than another could take any of that member's partitions.
pub fn is_balanced(input: &AssignmentInput, output: &AssignmentOutput) -> bool {
    let count = |m: &str| {
        output
            .get(m)
            .map_or(0, |l| l.iter().map(|t| t.partitions.len()).sum::<usize>())
    };
    let counts: Vec<usize> = input.members.iter().map(|m| count(&m.member_id)).collect();
    let (Some(&min), Some(&max)) = (counts.iter().min(), counts.iter().max()) else {
        return true;
    };
    if max <= min + 1 {
        return true;
    }
    for a in &input.members {
        for b in &input.members {
            if count(&a.member_id) + 1 < count(&b.member_id) {
                let takes = output
                    .get(&b.member_id)
                    .into_iter()
                    .flatten()
                    .any(|tp| a.topics.iter().any(|t| **t == *tp.topic));
                if takes {
                    return false;
                }
            }
        }
    }
    true
}

/// Partitions that changed owner between the members' `ownedPartitions` and `output`.
pub fn moved_partitions(input: &AssignmentInput, output: &AssignmentOutput) -> usize {
    let mut before: BTreeMap<Tp, &str> = BTreeMap::new();
    for m in &input.members {
        for tp in &m.owned_partitions {
            for &p in &tp.partitions {
                before.insert((&*tp.topic, p), m.member_id.as_str());
            }
        }
    }
    owners(output)
        .into_iter()
        .filter(|(tp, who)| before.get(tp).is_some_and(|b| b != &who[0]))
        .count()
}

/// The cooperative rule: partitions that one member owned and another is now assigned (they
/// must be revoked first and assigned in the follow-up rebalance). Empty = the rule holds.
pub fn revoked_and_assigned(
    input: &AssignmentInput,
    output: &AssignmentOutput,
) -> Vec<(String, i32)> {
    let mut owned: BTreeMap<Tp, &str> = BTreeMap::new();
    for m in &input.members {
        for tp in &m.owned_partitions {
            for &p in &tp.partitions {
                owned.insert((&*tp.topic, p), m.member_id.as_str());
            }
        }
    }
    owners(output)
        .into_iter()
        .filter(|(tp, who)| owned.get(tp).is_some_and(|o| o != &who[0]))
        .map(|((t, p), _)| (String::from(t), p))
        .collect()
}

/// Kafka's `isSticky` (tests): no topic has partitions moving both ways between the same two
/// members from `input`'s owned partitions to `output`.
pub fn is_sticky(input: &AssignmentInput, output: &AssignmentOutput) -> bool {
    let mut owned: BTreeMap<Tp, &str> = BTreeMap::new();
    for m in &input.members {
        for tp in &m.owned_partitions {
            for &p in &tp.partitions {
                owned.insert((&*tp.topic, p), m.member_id.as_str());
            }
        }
    }
    let mut moves: BTreeSet<(&str, &str, &str)> = BTreeSet::new();
    for ((topic, p), who) in owners(output) {
        if let Some(&from) = owned.get(&(topic, p))
            && from != who[0]
        {
            moves.insert((topic, from, who[0]));
        }
    }
    !moves.iter().any(|&(t, a, b)| moves.contains(&(t, b, a)))
}
