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
        let mut balancer = Balancer::new(&subscribers[k], &size);
        for slot in owner[k].iter_mut().filter(|o| **o == FREE) {
            let m = balancer.next_least_loaded(&size);
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
    // Round after round over the topics (at most 16), until a whole turn from the last topic
    // that moved anything moves nothing more (Kafka's `balanceTopics`, whose first topic counts
    // as having moved).
    let mut local = vec![0u32; members.len()];
    let mut last_moved: Option<usize> = None;
    'rounds: for _ in 0..16 {
        for (i, &k) in balanced.iter().enumerate() {
            if last_moved == Some(i) {
                break 'rounds;
            }
            let moved = balance_topic(&subscribers[k], &mut size, &mut owner[k], &mut local);
            if moved > 0 || last_moved.is_none() {
                last_moved = Some(i);
            }
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

/// Kafka's `MemberAssignmentBalancer`: a topic's subscribers sorted by (partitions, index),
/// with a range of the least loaded growing rightwards (each member of it gets one partition in
/// turn, then the range's level rises and takes in the members at that level) and a range of
/// the most loaded growing leftwards (the same, downwards). Sizes are read live: they change as
/// partitions move. Ported step by step, quirks included, because the order in which members
/// are met decides who gets which partition.
struct Balancer {
    sorted: Vec<usize>,
    /// `[0, least_end)`: the least loaded range.
    least_end: usize,
    least_level: i64,
    next_least: usize,
    /// `[most_start, most_end)`: the most loaded range; members with nothing to give are
    /// swapped out past `most_end`.
    most_start: usize,
    most_end: usize,
    most_level: i64,
    /// The next most loaded member to take from (−1: none left).
    next_most: isize,
}

impl Balancer {
    /// `initialize` (`subscribers` is never empty).
    fn new(subscribers: &[usize], size: &[usize]) -> Balancer {
        let sorted = by_load(subscribers, size);
        let n = sorted.len();
        let level = |i: usize| sorted.get(i).map_or(0, |&m| size[m] as i64);
        Balancer {
            least_end: 0,
            least_level: level(0) - 1,
            next_least: 0,
            most_start: n,
            most_end: n,
            most_level: level(n.saturating_sub(1)) + 1,
            next_most: n as isize - 1,
            sorted,
        }
    }

    /// The difference between the most and the least loaded subscriber when initialized.
    fn imbalance(&self, size: &[usize]) -> usize {
        match (self.sorted.first(), self.sorted.last()) {
            (Some(&low), Some(&high)) => size[high] - size[low],
            _ => 0,
        }
    }

    /// `nextLeastLoadedMember`: the member to give the next partition to.
    fn next_least_loaded(&mut self, size: &[usize]) -> usize {
        if self.next_least >= self.least_end {
            self.least_level += 1;
            while self.least_end < self.sorted.len()
                && size[self.sorted[self.least_end]] as i64 == self.least_level
            {
                self.least_end += 1;
            }
            self.next_least = 0;
        }
        let m = self.sorted[self.next_least];
        self.next_least += 1;
        m
    }

    /// `nextMostLoadedMember`: the member to take the next partition from, if any is left.
    fn next_most_loaded(&mut self, size: &[usize]) -> Option<usize> {
        if self.next_most < self.most_start as isize {
            if self.most_end <= self.most_start && self.most_start > 0 {
                // Emptied by exclusions: make sure the range expands below.
                self.most_level = size[self.sorted[self.most_start - 1]] as i64;
            } else {
                self.most_level -= 1;
            }
            while self.most_start > 0
                && size[self.sorted[self.most_start - 1]] as i64 == self.most_level
            {
                self.most_start -= 1;
            }
            self.next_most = self.most_end as isize - 1;
        }
        let at = usize::try_from(self.next_most).ok()?;
        self.next_most -= 1;
        Some(self.sorted[at])
    }

    /// `excludeMostLoadedMember`: the member last returned has nothing to give; it is swapped
    /// to the end of the most loaded range, which shrinks past it.
    fn exclude_most_loaded(&mut self) {
        let at = (self.next_most + 1) as usize;
        self.sorted.swap(at, self.most_end - 1);
        self.most_end -= 1;
    }

    fn is_balanced(&self) -> bool {
        self.most_level - self.least_level <= 1
    }
}

/// One topic's balancing pass (Kafka's `balanceTopic`); how many partitions it moved. `owner`
/// is the topic's owner table; `local` is scratch space (a member index -> its position among
/// the subscribers). A giver gives its highest-numbered partition of the topic among those it
/// held when the pass began: what it receives during the pass stays.
fn balance_topic(
    subscribers: &[usize],
    size: &mut [usize],
    owner: &mut [u32],
    local: &mut [u32],
) -> usize {
    let mut balancer = Balancer::new(subscribers, size);
    if balancer.imbalance(size) <= 1 {
        return 0;
    }
    // The topic's partitions grouped by holder (in member order), ascending within each:
    // `held[start[l]..end[l]]` for the subscriber at position l.
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
    let mut held = vec![0usize; owner.len()];
    for (p, &m) in owner.iter().enumerate() {
        let l = local[m as usize] as usize;
        held[end[l]] = p;
        end[l] += 1;
    }
    let mut moved = 0;
    while !balancer.is_balanced() {
        let giver = loop {
            let Some(m) = balancer.next_most_loaded(size) else {
                break None;
            };
            let l = local[m] as usize;
            if end[l] > start[l] {
                break Some(m);
            }
            balancer.exclude_most_loaded();
        };
        let Some(giver) = giver else {
            break;
        };
        let l = local[giver] as usize;
        end[l] -= 1;
        let p = held[end[l]];
        let taker = balancer.next_least_loaded(size);
        if balancer.is_balanced() {
            break;
        }
        owner[p] = taker as u32;
        size[giver] -= 1;
        size[taker] += 1;
        moved += 1;
    }
    moved
}
