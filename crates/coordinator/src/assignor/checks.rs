//! Kafka's checks on an assignment, reusable by tests and the simulator: validity, balance
//! (the definition of `AbstractStickyAssignorTest`), the cooperative "nothing revoked and
//! assigned in the same round" rule, and `isSticky`.

use super::{AssignmentInput, AssignmentOutput};
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

/// Valid: every input member is present, each partition goes to at most one member, only to a
/// member subscribed to its topic, and only partitions that exist.
pub fn validate(input: &AssignmentInput, output: &AssignmentOutput) -> Result<(), String> {
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
    for ((topic, p), who) in owners(output) {
        if who.len() > 1 {
            return Err(format!("{topic}-{p} is assigned to {}", who.join(" and ")));
        }
        let n = input.topics.get(topic).copied().unwrap_or(0);
        if p < 0 || p >= n {
            return Err(format!("{topic}-{p} does not exist"));
        }
        match subs.get(who[0]) {
            Some(topics) if topics.contains(topic) => {}
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
