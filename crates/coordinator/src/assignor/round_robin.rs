//! `RoundRobinAssignor` ("roundrobin", spec §1.3).

use super::{
    AssignmentInput, AssignmentOutput, empty_output, group_by_topic, member_order, partitions_of,
};
use alloc::collections::BTreeSet;
use alloc::vec::Vec;

/// Every partition of every subscribed topic (topics by name, partitions ascending) goes to the
/// next member, in member order, that subscribes to its topic.
pub fn round_robin(input: &AssignmentInput) -> AssignmentOutput {
    let mut output = empty_output(input);
    let members: Vec<_> = input.members.iter().collect();
    if members.is_empty() {
        return output;
    }
    let order = member_order(&members);
    let subscribed: Vec<BTreeSet<&str>> = members
        .iter()
        .map(|m| m.topics.iter().map(|t| t.as_str()).collect())
        .collect();
    let topics: BTreeSet<&str> = subscribed.iter().flatten().copied().collect();
    let mut assigned: Vec<Vec<(&str, i32)>> = alloc::vec![Vec::new(); members.len()];
    let mut cursor = 0;
    for topic in topics {
        let Some(n) = partitions_of(input, topic) else {
            continue;
        };
        for p in 0..n {
            // Some member subscribes to `topic` (it came from a subscription), so this ends.
            while !subscribed[order[cursor]].contains(topic) {
                cursor = (cursor + 1) % order.len();
            }
            assigned[order[cursor]].push((topic, p));
            cursor = (cursor + 1) % order.len();
        }
    }
    for (i, pairs) in assigned.into_iter().enumerate() {
        output.insert(members[i].member_id.clone(), group_by_topic(pairs));
    }
    output
}
