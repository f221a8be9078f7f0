//! `uniform`: sticky and balanced (`docs/src/reference/consumer-group-protocol.md#uniform-homogeneous`, §3.9.2).

use super::{AssignError, GroupSpec, MemberAssignment};
use crate::consumer_group::uuid::Uuid;
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// For each of `topics`, which partitions appear in some member's previous target.
fn assigned_before(spec: &GroupSpec, topics: &[(Uuid, i32)]) -> Vec<Vec<bool>> {
    let mut seen: Vec<Vec<bool>> = topics
        .iter()
        .map(|(_, n)| vec![false; *n as usize])
        .collect();
    for m in &spec.members {
        for (t, ps) in m.previous.iter() {
            let Ok(k) = topics.binary_search_by(|(u, _)| u.cmp(t)) else {
                continue;
            };
            for &p in ps {
                if let Some(slot) = usize::try_from(p).ok().and_then(|p| seen[k].get_mut(p)) {
                    *slot = true;
                }
            }
        }
    }
    seen
}

/// Every member subscribes to the same topics (`UniformHomogeneousAssignmentBuilder`). Each
/// member keeps what it had, up to its quota; what is left over and what nobody had go, in that
/// order after the never-assigned partitions, to the members below their quota.
///
/// Quotas: `P / M` each, and the `P % M` extra slots first to members that already hold more
/// than the minimum (KAFKA-18688's fix: Kafka 4.0 gave them to the first members in map order,
/// which could reshuffle a balanced assignment), then to the others in order.
pub fn homogeneous(spec: &GroupSpec) -> Result<Vec<MemberAssignment>, AssignError> {
    let members = &spec.members;
    let Some(first) = members.first() else {
        return Ok(Vec::new());
    };
    let topics: Vec<(Uuid, i32)> = first
        .subscribed
        .iter()
        .map(|t| spec.count(t).map(|n| (*t, n)))
        .collect::<Result<_, _>>()?;
    let total: usize = topics.iter().map(|(_, n)| *n as usize).sum();
    let min_quota = total / members.len();
    let mut extra = total % members.len();
    let count_of: BTreeMap<Uuid, i32> = topics.iter().copied().collect();
    // What each member takes, with its count (the sets are filled in place: no per-member
    // list to sort and rebuild).
    let mut out: Vec<(MemberAssignment, usize)> = vec![(MemberAssignment::new(), 0); members.len()];
    let mut has_extra = vec![false; members.len()];
    let mut leftover: Vec<(Uuid, i32)> = Vec::new();
    let any_previous = members.iter().any(|m| !m.previous.is_empty());
    for (i, m) in members.iter().enumerate() {
        if m.previous.is_empty() {
            continue;
        }
        let valid = |t: &Uuid, p: i32| count_of.get(t).is_some_and(|n| (0..*n).contains(&p));
        let previous_len: usize = m.previous.values().map(|ps| ps.len()).sum();
        let held_len = m
            .previous
            .iter()
            .map(|(t, ps)| ps.iter().filter(|&&p| valid(t, p)).count())
            .sum::<usize>();
        let mut quota = min_quota;
        if held_len > min_quota && extra > 0 {
            quota += 1;
            extra -= 1;
            has_extra[i] = true;
        }
        if held_len == previous_len && held_len <= quota {
            // The usual case once a group is balanced: it keeps its whole previous target,
            // copied as it is.
            out[i] = (m.previous.as_ref().clone(), held_len);
            continue;
        }
        let held = m
            .previous
            .iter()
            .flat_map(|(t, ps)| ps.iter().filter(|&&p| valid(t, p)).map(|&p| (*t, p)));
        for (n, (t, p)) in held.enumerate() {
            if n < quota {
                out[i].0.entry(t).or_default().insert(p);
                out[i].1 += 1;
            } else {
                leftover.push((t, p));
            }
        }
    }
    let before = if any_previous {
        assigned_before(spec, &topics)
    } else {
        Vec::new()
    };
    let was_assigned = |k: usize, p: i32| before.get(k).is_some_and(|b| b[p as usize]);
    let mut next = topics
        .iter()
        .enumerate()
        .flat_map(|(k, &(t, n))| {
            (0..n)
                .filter(move |&p| !was_assigned(k, p))
                .map(move |p| (t, p))
        })
        .chain(leftover);
    for (i, (a, len)) in out.iter_mut().enumerate() {
        let mut quota = min_quota + usize::from(has_extra[i]);
        if !has_extra[i] && extra > 0 {
            quota += 1;
            extra -= 1;
        }
        while *len < quota {
            let Some((t, p)) = next.next() else { break };
            a.entry(t).or_default().insert(p);
            *len += 1;
        }
    }
    if next.next().is_some() {
        return Err(AssignError("Partitions were left unassigned".into()));
    }
    Ok(out.into_iter().map(|(a, _)| a).collect())
}

/// Members subscribe to different topics (`UniformHeterogeneousAssignmentBuilder`, KAFKA-17710):
/// keep what is still subscribed, fill each topic's unowned partitions into its least loaded
/// subscribers, then move partitions from the most to the least loaded subscribers of each topic
/// until balanced (at most 16 rounds over the topics).
pub fn heterogeneous(spec: &GroupSpec) -> Result<Vec<MemberAssignment>, AssignError> {
    let members = &spec.members;
    let natural: Vec<usize> = (0..members.len()).collect();
    // Topic (by index) -> its subscribers (member indices, ascending) and partition count.
    let topics = super::Topics::of(spec, &natural)?;
    let subscribers = &topics.subscribers;
    let index_of: BTreeMap<Uuid, usize> = topics
        .ids
        .iter()
        .enumerate()
        .map(|(k, t)| (*t, k))
        .collect();
    // Per member, per topic index: its partitions (kept sorted from the balance on).
    let mut out: Vec<BTreeMap<usize, Vec<i32>>> = vec![BTreeMap::new(); members.len()];
    let mut owner: Vec<Vec<Option<usize>>> = subscribers
        .iter()
        .enumerate()
        .map(|(k, s)| {
            if s.is_empty() {
                Vec::new()
            } else {
                vec![None; topics.counts[k] as usize]
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
            let Some(&k) = index_of.get(t) else { continue };
            for &p in ps {
                if let Some(slot @ None) = usize::try_from(p).ok().and_then(|p| owner[k].get_mut(p))
                {
                    *slot = Some(i);
                    size[i] += 1;
                    out[i].entry(k).or_default().push(p);
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
        let free: Vec<i32> = (0..owner[k].len())
            .filter(|&p| owner[k][p].is_none())
            .map(|p| p as i32)
            .collect();
        if free.is_empty() {
            continue;
        }
        let mut least = Least::new(&subscribers[k], &size);
        for p in free {
            let m = least.next(&size);
            size[m] += 1;
            out[m].entry(k).or_default().push(p);
            owner[k][p as usize] = Some(m);
        }
    }
    for lists in &mut out {
        for ps in lists.values_mut() {
            ps.sort_unstable();
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
            moved |= balance_topic(k, &subscribers[k], &mut size, &mut out);
        }
        if !moved {
            break;
        }
    }
    Ok(out
        .into_iter()
        .map(|lists| {
            lists
                .into_iter()
                .filter(|(_, ps)| !ps.is_empty())
                .map(|(k, ps)| (topics.ids[k], ps.into_iter().collect()))
                .collect()
        })
        .collect())
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
        let mut order = subscribers.to_vec();
        order.sort_by_key(|&m| (size[m], m));
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
    k: usize,
    subscribers: &[usize],
    size: &mut [usize],
    out: &mut [BTreeMap<usize, Vec<i32>>],
) -> bool {
    let mut order = subscribers.to_vec();
    order.sort_by_key(|&m| (size[m], m));
    let (Some(&low), Some(&high)) = (order.first(), order.last()) else {
        return false;
    };
    if size[high] - size[low] <= 1 {
        return false;
    }
    let mut least = Least::new(subscribers, size);
    // The most loaded, taken from the end of the sorted list downward, the level falling and
    // taking in the members at it when a level is used up; members with none of this topic's
    // partitions cannot give one.
    let mut top_level = size[high];
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
            if out[m].get(&k).is_some_and(|ps| !ps.is_empty()) && size[m] >= top_level {
                break m;
            }
        };
        let taker = least.next(size);
        if size[giver] <= size[taker] + 1 {
            return moved;
        }
        // Its highest-numbered partition of this topic (the lists are sorted).
        let Some(p) = out[giver].get_mut(&k).and_then(Vec::pop) else {
            return moved;
        };
        let list = out[taker].entry(k).or_default();
        let at_p = list.partition_point(|&q| q < p);
        list.insert(at_p, p);
        size[giver] -= 1;
        size[taker] += 1;
        moved = true;
    }
}
