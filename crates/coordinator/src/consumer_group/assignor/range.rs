//! The server's `range` (`docs/src/reference/consumer-group-protocol.md#range`, KAFKA-16944): not sticky. Members in order (static first
//! by instance id, then dynamic by member id); for each topic its subscribers take contiguous
//! ranges, the first `n % subscribers` one partition more.

use super::{AssignError, GroupSpec, MemberAssignment, Topics};
use alloc::vec;
use alloc::vec::Vec;

pub fn assign(spec: &GroupSpec) -> Result<Vec<MemberAssignment>, AssignError> {
    let members = &spec.members;
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| {
        let (ma, mb) = (&members[a], &members[b]);
        match (&ma.instance_id, &mb.instance_id) {
            (Some(x), Some(y)) => x.cmp(y).then(ma.member_id.cmp(&mb.member_id)),
            (Some(_), None) => core::cmp::Ordering::Less,
            (None, Some(_)) => core::cmp::Ordering::Greater,
            (None, None) => ma.member_id.cmp(&mb.member_id),
        }
    });
    let topics = Topics::of(spec, &order)?;
    // (topic, first, count) per member, topics ascending.
    let mut ranges: Vec<Vec<(usize, i32, i32)>> = vec![Vec::new(); members.len()];
    for (k, subs) in topics.subscribers.iter().enumerate() {
        if subs.is_empty() {
            continue;
        }
        let n = topics.counts[k];
        let quota = n / subs.len() as i32;
        let mut extra = n % subs.len() as i32;
        let mut next = 0;
        for &i in subs {
            let take = quota + i32::from(extra > 0);
            extra = (extra - 1).max(0);
            if take > 0 {
                ranges[i].push((k, next, take));
            }
            next += take;
        }
    }
    Ok(ranges
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|(k, first, take)| (topics.ids[k], (first..first + take).collect()))
                .collect()
        })
        .collect())
}
