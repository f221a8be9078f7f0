//! `RoundRobinAssignor` ("roundrobin", `docs/src/reference/assignors.md#roundrobin`).

use super::{DenseAssignment, Prepared};
use alloc::vec::Vec;

/// Every partition of every subscribed topic (topics by name, partitions ascending) goes to the
/// next member, in member order, that subscribes to its topic.
pub(crate) fn round_robin_dense(p: &Prepared) -> DenseAssignment {
    let order = &p.kafka_order;
    let mut assigned: Vec<Vec<usize>> = alloc::vec![Vec::new(); order.len()];
    if !order.is_empty() {
        // Each member gets about its share: reserve it once rather than growing each list.
        let share = p.total.div_ceil(order.len());
        for list in &mut assigned {
            list.reserve_exact(share);
        }
        let mut cursor = 0;
        for (t, &n) in p.counts.iter().enumerate() {
            for gp in p.offsets[t]..p.offsets[t] + n {
                // Some member subscribes to `t` (only subscribed topics are interned), so this
                // ends; with identical subscriptions everyone does.
                while !p.uniform && p.member_topics[order[cursor]].binary_search(&t).is_err() {
                    cursor = (cursor + 1) % order.len();
                }
                assigned[order[cursor]].push(gp);
                cursor = (cursor + 1) % order.len();
            }
        }
    }
    DenseAssignment(assigned, None)
}
