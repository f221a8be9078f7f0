//! `RoundRobinAssignor` ("roundrobin", spec §1.3).

use super::{AssignmentInput, AssignmentOutput, Interned, member_order, to_topic_partitions};
use alloc::vec::Vec;

/// Every partition of every subscribed topic (topics by name, partitions ascending) goes to the
/// next member, in member order, that subscribes to its topic.
pub fn round_robin(input: &AssignmentInput) -> AssignmentOutput {
    let members: Vec<_> = input.members.iter().collect();
    let interned = Interned::new(input);
    let order = member_order(&members);
    let mut assigned: Vec<Vec<(usize, i32)>> = alloc::vec![Vec::new(); members.len()];
    if !order.is_empty() {
        let mut cursor = 0;
        for (t, &n) in interned.counts.iter().enumerate() {
            for p in 0..n as i32 {
                // Some member subscribes to `t` (only subscribed topics are interned), so this ends.
                while interned.member_topics[order[cursor]]
                    .binary_search(&t)
                    .is_err()
                {
                    cursor = (cursor + 1) % order.len();
                }
                assigned[order[cursor]].push((t, p));
                cursor = (cursor + 1) % order.len();
            }
        }
    }
    let names = super::shared_names(&interned.topics);
    members
        .iter()
        .zip(assigned)
        .map(|(m, pairs)| (m.member_id.clone(), to_topic_partitions(&names, pairs)))
        .collect()
}
