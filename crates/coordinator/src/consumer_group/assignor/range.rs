//! The server's `range` (`docs/src/reference/consumer-group-protocol.md#range`, KAFKA-16944): not sticky. Members in order (static first
//! by instance id, then dynamic by member id); for each topic its subscribers take contiguous
//! ranges, the first `n % subscribers` one partition more.

use super::{AssignError, GroupAssignment, GroupSpec, Topics};
use alloc::vec;
use alloc::vec::Vec;

pub fn assign(spec: &GroupSpec) -> Result<GroupAssignment, AssignError> {
    let members = &spec.members;
    let mut order: Vec<usize> = (0..members.len()).collect();
    let by_rank = |&a: &usize, &b: &usize| {
        let (ma, mb) = (&members[a], &members[b]);
        match (&ma.instance_id, &mb.instance_id) {
            (Some(x), Some(y)) => x.cmp(y).then(ma.member_id.cmp(&mb.member_id)),
            (Some(_), None) => core::cmp::Ordering::Less,
            (None, Some(_)) => core::cmp::Ordering::Greater,
            (None, None) => ma.member_id.cmp(&mb.member_id),
        }
    };
    // The coordinator gives members by id: with no static member they are in order already.
    if !order.is_sorted_by(|a, b| by_rank(a, b).is_le()) {
        order.sort_by(by_rank);
    }
    let topics = Topics::of(spec, &order)?;
    // (first, count) of each topic for each member, topics ascending: counted, then placed.
    let mut per_member = vec![0usize; members.len()];
    let mut ranges: Vec<(usize, usize, i32, i32)> = Vec::new();
    for (k, subs) in topics.subscribers.iter().enumerate() {
        if subs.is_empty() {
            continue;
        }
        let n = topics.counts[k];
        let quota = n / subs.len() as i32;
        let mut extra = n % subs.len() as i32;
        let mut next = 0;
        for &i in subs.iter() {
            let take = quota + i32::from(extra > 0);
            extra = (extra - 1).max(0);
            if take > 0 {
                ranges.push((i, k, next, take));
                per_member[i] += 1;
            }
            next += take;
        }
    }
    // Counting sort by member; within a member the topics stay ascending.
    let mut start = Vec::with_capacity(members.len() + 1);
    let mut at = 0;
    for n in &per_member {
        start.push(at);
        at += n;
    }
    let mut placed = vec![(0usize, 0i32, 0i32); ranges.len()];
    for (i, k, first, take) in ranges {
        placed[start[i]] = (k, first, take);
        start[i] += 1;
    }
    let total = placed.iter().map(|r| r.2 as usize).sum();
    let mut out = GroupAssignment::with_capacity(topics.ids, members.len(), total);
    let mut at = 0;
    for n in per_member {
        for &(k, first, take) in &placed[at..at + n] {
            for p in first..first + take {
                out.push(k, p);
            }
        }
        at += n;
        out.end_member();
    }
    Ok(out)
}
