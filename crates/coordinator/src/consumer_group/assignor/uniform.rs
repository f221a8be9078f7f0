//! `uniform`: sticky and balanced (`docs/src/reference/consumer-group-protocol.md#uniform-homogeneous`, §3.9.2).

use super::{AssignError, GroupAssignment, GroupSpec, MemberAssignment};
use crate::consumer_group::uuid::Uuid;
use alloc::vec;
use alloc::vec::Vec;

/// A member's previous partitions it can still have: their topic is subscribed (`counts[k]`,
/// by topic index in `ids`; -1 when not) and they still exist.
fn held<'a>(
    previous: &'a MemberAssignment,
    ids: &'a [Uuid],
    counts: &'a [i32],
) -> impl Iterator<Item = (usize, i32)> + 'a {
    previous.iter().flat_map(move |(t, ps)| {
        let k = ids.binary_search(t).ok().filter(|&k| counts[k] > 0);
        ps.iter()
            .filter(move |&&p| k.is_some_and(|k| (0..counts[k]).contains(&p)))
            .map(move |&p| (k.unwrap_or(0), p))
    })
}

/// Every member subscribes to the same topics (`UniformHomogeneousAssignmentBuilder`). Each
/// member keeps what it had, up to its quota; what is left over and what nobody had go, in that
/// order after the never-assigned partitions, to the members below their quota.
///
/// Quotas: `P / M` each, and the `P % M` extra slots first to members that already hold more
/// than the minimum (KAFKA-18688's fix: Kafka 4.0 gave them to the first members in map order,
/// which could reshuffle a balanced assignment), then to the others in order.
pub fn homogeneous(spec: &GroupSpec) -> Result<GroupAssignment, AssignError> {
    let members = &spec.members;
    let ids: Vec<Uuid> = spec.partitions.keys().copied().collect();
    let Some(first) = members.first() else {
        return Ok(GroupAssignment::with_capacity(ids, 0, 0));
    };
    // Partition counts by topic index; -1: not subscribed.
    let mut counts = vec![-1i32; ids.len()];
    for t in &first.subscribed {
        let n = spec.count(t)?;
        let k = ids.binary_search(t).map_err(|_| super::missing(t))?;
        counts[k] = n;
    }
    let total: usize = counts.iter().map(|&n| n.max(0) as usize).sum();
    let min_quota = total / members.len();
    let mut extra = total % members.len();
    // How much of its previous target each member keeps, and what it must give up.
    // What each member keeps of its previous target (`kept[kept_at[i]..kept_at[i + 1]]`), read
    // off its map once; what it must give up goes to `leftover`.
    let mut kept: Vec<(usize, i32)> = Vec::new();
    let mut kept_at = Vec::with_capacity(members.len() + 1);
    let mut has_extra = vec![false; members.len()];
    let mut leftover: Vec<(usize, i32)> = Vec::new();
    // Which partitions some member had, by topic index.
    let mut before: Vec<Vec<bool>> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        kept_at.push(kept.len());
        if m.previous.is_empty() {
            continue;
        }
        if before.is_empty() {
            before = counts
                .iter()
                .map(|&n| vec![false; n.max(0) as usize])
                .collect();
            kept.reserve(total);
        }
        let start = kept.len();
        for (k, p) in held(&m.previous, &ids, &counts) {
            before[k][p as usize] = true;
            kept.push((k, p));
        }
        let held_len = kept.len() - start;
        let mut quota = min_quota;
        if held_len > min_quota && extra > 0 {
            quota += 1;
            extra -= 1;
            has_extra[i] = true;
        }
        if held_len > quota {
            leftover.extend(kept.drain(start + quota..));
        }
    }
    kept_at.push(kept.len());
    let was_assigned = |k: usize, p: i32| before.get(k).is_some_and(|b| b[p as usize]);
    let mut next = counts
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| {
            (0..n.max(0))
                .filter(move |&p| !was_assigned(k, p))
                .map(move |p| (k, p))
        })
        .chain(leftover.iter().copied());
    let mut out = GroupAssignment::with_capacity(ids.clone(), members.len(), total);
    for i in 0..members.len() {
        let mut quota = min_quota + usize::from(has_extra[i]);
        if !has_extra[i] && extra > 0 {
            quota += 1;
            extra -= 1;
        }
        let keep = &kept[kept_at[i]..kept_at[i + 1]];
        for &(k, p) in keep {
            out.push(k, p);
        }
        for _ in keep.len()..quota {
            let Some((k, p)) = next.next() else { break };
            out.push(k, p);
        }
        out.end_member();
    }
    if next.next().is_some() {
        return Err(AssignError("Partitions were left unassigned".into()));
    }
    Ok(out)
}

/// Members subscribe to different topics (`UniformHeterogeneousAssignmentBuilder`, KAFKA-17710):
/// keep what is still subscribed, fill each topic's unowned partitions into its least loaded
/// subscribers, then move partitions from the most to the least loaded subscribers of each topic
/// until balanced (at most 16 rounds over the topics).
pub fn heterogeneous(spec: &GroupSpec) -> Result<GroupAssignment, AssignError> {
    let members = &spec.members;
    let natural: Vec<usize> = (0..members.len()).collect();
    // Topic (by index) -> its subscribers (member indices, ascending) and partition count.
    let topics = super::Topics::of(spec, &natural)?;
    let subscribers = &topics.subscribers;
    // Per member: its (topic index, partition) pairs, sorted from the balance on. Sized for
    // what it had and its share, so that few of them grow.
    let share = topics
        .counts
        .iter()
        .map(|&n| n.max(0) as usize)
        .sum::<usize>()
        / members.len().max(1);
    let mut out: Vec<Vec<(u32, i32)>> = members
        .iter()
        .map(|m| Vec::with_capacity(share.max(m.previous.values().map(|ps| ps.len()).sum()) + 2))
        .collect();
    let mut owned: Vec<Vec<bool>> = subscribers
        .iter()
        .enumerate()
        .map(|(k, s)| {
            if s.is_empty() {
                Vec::new()
            } else {
                vec![false; topics.counts[k] as usize]
            }
        })
        .collect();
    let mut size = vec![0usize; members.len()];
    // Keep: each member keeps its previous partitions of topics it still subscribes to.
    for (i, m) in members.iter().enumerate() {
        for (t, ps) in m.previous.iter() {
            if !m.subscribed.contains(t) {
                continue;
            }
            let Ok(k) = topics.ids.binary_search(t) else {
                continue;
            };
            for &p in ps {
                if let Some(slot @ false) =
                    usize::try_from(p).ok().and_then(|p| owned[k].get_mut(p))
                {
                    *slot = true;
                    size[i] += 1;
                    out[i].push((k as u32, p));
                }
            }
        }
    }
    // Topic order: partitions per subscriber descending, then fewer subscribers, then id.
    let mut order: Vec<usize> = (0..topics.ids.len())
        .filter(|&k| !subscribers[k].is_empty())
        .collect();
    order.sort_by(|&a, &b| {
        let per = |k: usize| f64::from(topics.counts[k]) / subscribers[k].len() as f64;
        per(b)
            .total_cmp(&per(a))
            .then(subscribers[a].len().cmp(&subscribers[b].len()))
            .then(topics.ids[a].cmp(&topics.ids[b]))
    });
    // Fill.
    for &k in &order {
        let mut free = (0..owned[k].len()).filter(|&p| !owned[k][p]).peekable();
        if free.peek().is_none() {
            continue;
        }
        let mut least = Least::new(&subscribers[k], &size);
        for p in free {
            let m = least.next(&size);
            size[m] += 1;
            out[m].push((k as u32, p as i32));
        }
    }
    for list in &mut out {
        if !list.is_sorted() {
            list.sort_unstable();
        }
    }
    // Balance.
    let balanced: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&k| subscribers[k].len() >= 2)
        .collect();
    for _ in 0..16 {
        let mut moved = false;
        for &k in &balanced {
            moved |= balance_topic(k as u32, &subscribers[k], &mut size, &mut out);
        }
        if !moved {
            break;
        }
    }
    let total = size.iter().sum();
    let mut assignment = GroupAssignment::with_capacity(topics.ids, members.len(), total);
    for list in out {
        for (k, p) in list {
            assignment.push(k as usize, p);
        }
        assignment.end_member();
    }
    Ok(assignment)
}

/// `subscribers` (ascending member indices) sorted by (size, index). Sizes are small numbers
/// (a member's partitions), so a counting sort by size does it in linear time; it is stable, so
/// each size's members stay ascending.
fn by_load(subscribers: &[usize], size: &[usize]) -> Vec<usize> {
    debug_assert!(subscribers.is_sorted());
    let (Some(low), Some(high)) = (
        subscribers.iter().map(|&m| size[m]).min(),
        subscribers.iter().map(|&m| size[m]).max(),
    ) else {
        return Vec::new();
    };
    if high - low > subscribers.len() {
        let mut order = subscribers.to_vec();
        order.sort_unstable_by_key(|&m| (size[m], m));
        return order;
    }
    let mut start = vec![0usize; high - low + 2];
    for &m in subscribers {
        start[size[m] - low + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut order = vec![0usize; subscribers.len()];
    for &m in subscribers {
        let slot = &mut start[size[m] - low];
        order[*slot] = m;
        *slot += 1;
    }
    order
}

/// Subscribers sorted by (size, index), handed out from the least loaded: every member of the
/// lowest level gets one in turn, then the level rises and takes in the members at it.
struct Least {
    order: Vec<usize>,
    end: usize,
    at: usize,
    level: usize,
}

impl Least {
    fn new(subscribers: &[usize], size: &[usize]) -> Least {
        let order = by_load(subscribers, size);
        let level = order.first().map_or(0, |&m| size[m]);
        let end = order.iter().take_while(|&&m| size[m] == level).count();
        Least {
            order,
            end,
            at: 0,
            level,
        }
    }

    fn next(&mut self, size: &[usize]) -> usize {
        if self.at >= self.end {
            self.level += 1;
            while self.end < self.order.len() && size[self.order[self.end]] <= self.level {
                self.end += 1;
            }
            self.at = 0;
        }
        let m = self.order[self.at];
        self.at += 1;
        m
    }
}

/// One topic's balancing pass; whether it moved anything.
fn balance_topic(
    k: u32,
    subscribers: &[usize],
    size: &mut [usize],
    out: &mut [Vec<(u32, i32)>],
) -> bool {
    // A member's pairs of topic `k` are a run of its sorted list.
    let has = |list: &[(u32, i32)]| {
        let at = list.partition_point(|&(t, _)| t < k);
        list.get(at).is_some_and(|&(t, _)| t == k)
    };
    // Balanced already (the usual case after the first round): no need to sort.
    let (Some(low), Some(high)) = (
        subscribers.iter().map(|&m| size[m]).min(),
        subscribers.iter().map(|&m| size[m]).max(),
    ) else {
        return false;
    };
    if high - low <= 1 {
        return false;
    }
    let order = by_load(subscribers, size);
    let mut least = Least::new(subscribers, size);
    // The most loaded, taken from the end of the sorted list downward, the level falling and
    // taking in the members at it when a level is used up; members with none of this topic's
    // partitions cannot give one.
    let mut top_level = high;
    let mut start = order
        .iter()
        .rposition(|&m| size[m] < top_level)
        .map_or(0, |i| i + 1);
    let mut at = order.len();
    let mut moved = false;
    loop {
        let giver = loop {
            if at == start {
                if start == 0 || top_level == 0 {
                    return moved;
                }
                top_level -= 1;
                while start > 0 && size[order[start - 1]] >= top_level {
                    start -= 1;
                }
                at = order.len();
            }
            at -= 1;
            let m = order[at];
            if has(&out[m]) && size[m] >= top_level {
                break m;
            }
        };
        let taker = least.next(size);
        if size[giver] <= size[taker] + 1 {
            return moved;
        }
        // Its highest-numbered partition of this topic (the lists are sorted).
        let end = out[giver].partition_point(|&(t, _)| t <= k);
        if end == 0 || out[giver][end - 1].0 != k {
            return moved;
        }
        let pair = out[giver].remove(end - 1);
        let list = &mut out[taker];
        let at = list.partition_point(|&q| q < pair);
        list.insert(at, pair);
        size[giver] -= 1;
        size[taker] += 1;
        moved = true;
    }
}
