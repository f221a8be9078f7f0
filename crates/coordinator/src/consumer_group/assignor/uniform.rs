//! `uniform`: sticky and balanced (`docs/src/reference/consumer-group-protocol.md#uniform-homogeneous`).

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
    for t in first.subscribed.iter() {
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
    // Who holds each partition, by topic index (only subscribed topics have a table). This is
    // the whole state: no per-member lists.
    let mut owner: Vec<Vec<u32>> = subscribers
        .iter()
        .enumerate()
        .map(|(k, s)| {
            if s.is_empty() {
                Vec::new()
            } else {
                vec![FREE; topics.counts[k] as usize]
            }
        })
        .collect();
    let mut size = vec![0usize; members.len()];
    // Keep: each member keeps its previous partitions of topics it still subscribes to.
    for (i, m) in members.iter().enumerate() {
        for (t, ps) in m.previous.iter() {
            if m.subscribed.binary_search(t).is_err() {
                continue;
            }
            let Ok(k) = topics.ids.binary_search(t) else {
                continue;
            };
            for &p in ps {
                if let Some(slot) = usize::try_from(p).ok().and_then(|p| owner[k].get_mut(p))
                    && *slot == FREE
                {
                    *slot = i as u32;
                    size[i] += 1;
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
        if !owner[k].contains(&FREE) {
            continue;
        }
        let mut least = Least::new(&subscribers[k], &size);
        for slot in owner[k].iter_mut().filter(|o| **o == FREE) {
            let m = least.next(&size);
            size[m] += 1;
            *slot = m as u32;
        }
    }
    // Balance.
    let balanced: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&k| subscribers[k].len() >= 2)
        .collect();
    let mut local = vec![0u32; members.len()];
    for _ in 0..16 {
        let mut moved = false;
        for &k in &balanced {
            moved |= balance_topic(&subscribers[k], &mut size, &mut owner[k], &mut local);
        }
        if !moved {
            break;
        }
    }
    // Out: a counting sort of the owner tables by member. Topics and partitions are walked in
    // ascending order, so each member's run comes out sorted.
    let total: usize = size.iter().sum();
    let mut at = Vec::with_capacity(members.len());
    let mut sum = 0;
    for &n in &size {
        at.push(sum);
        sum += n;
    }
    let mut pairs = vec![(0u32, 0i32); total];
    for (k, table) in owner.iter().enumerate() {
        for (p, &m) in table.iter().enumerate() {
            let slot = &mut at[m as usize];
            pairs[*slot] = (k as u32, p as i32);
            *slot += 1;
        }
    }
    Ok(GroupAssignment::from_runs(topics.ids, pairs, at))
}

/// A partition nobody holds, in an owner table.
const FREE: u32 = u32::MAX;

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

/// One topic's balancing pass; whether it moved anything. `owner` is the topic's owner table;
/// `local` is scratch space (a member index -> its position among the subscribers).
fn balance_topic(
    subscribers: &[usize],
    size: &mut [usize],
    owner: &mut [u32],
    local: &mut [u32],
) -> bool {
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
    // Each subscriber's partitions of this topic, ascending: `held[start[l]..end[l]]` for the
    // subscriber at position l. Givers take from the top of their run; what a member receives
    // in this pass goes to `received` (it would be its highest if it ever gave one back).
    for (l, &m) in subscribers.iter().enumerate() {
        local[m] = l as u32;
    }
    let mut start = vec![0usize; subscribers.len() + 1];
    for &m in owner.iter() {
        start[local[m as usize] as usize + 1] += 1;
    }
    for l in 1..start.len() {
        start[l] += start[l - 1];
    }
    let mut end = start[..subscribers.len()].to_vec();
    let mut held = vec![0i32; owner.len()];
    for (p, &m) in owner.iter().enumerate() {
        let l = local[m as usize] as usize;
        held[end[l]] = p as i32;
        end[l] += 1;
    }
    let mut received: alloc::collections::BTreeMap<usize, Vec<i32>> = Default::default();
    let has =
        |l: usize, end: &[usize], received: &alloc::collections::BTreeMap<usize, Vec<i32>>| {
            end[l] > start[l] || received.get(&l).is_some_and(|r| !r.is_empty())
        };
    let order = by_load(subscribers, size);
    let mut least = Least::new(subscribers, size);
    // The most loaded, taken from the end of the sorted list downward, the level falling and
    // taking in the members at it when a level is used up; members with none of this topic's
    // partitions cannot give one.
    let mut top_level = high;
    let mut first = order
        .iter()
        .rposition(|&m| size[m] < top_level)
        .map_or(0, |i| i + 1);
    let mut at = order.len();
    let mut moved = false;
    loop {
        let giver = loop {
            if at == first {
                if first == 0 || top_level == 0 {
                    return moved;
                }
                top_level -= 1;
                while first > 0 && size[order[first - 1]] >= top_level {
                    first -= 1;
                }
                at = order.len();
            }
            at -= 1;
            let m = order[at];
            if has(local[m] as usize, &end, &received) && size[m] >= top_level {
                break m;
            }
        };
        let taker = least.next(size);
        if size[giver] <= size[taker] + 1 {
            return moved;
        }
        // Its highest-numbered partition of this topic.
        let l = local[giver] as usize;
        let from_run = (end[l] > start[l]).then(|| held[end[l] - 1]);
        let from_received = received.get(&l).and_then(|r| r.iter().max().copied());
        let p = match (from_run, from_received) {
            (Some(a), Some(b)) if b > a => {
                let r = received.entry(l).or_default();
                r.retain(|&q| q != b);
                b
            }
            (Some(a), _) => {
                end[l] -= 1;
                a
            }
            (None, Some(b)) => {
                let r = received.entry(l).or_default();
                r.retain(|&q| q != b);
                b
            }
            (None, None) => return moved,
        };
        owner[p as usize] = taker as u32;
        received.entry(local[taker] as usize).or_default().push(p);
        size[giver] -= 1;
        size[taker] += 1;
        moved = true;
    }
}
