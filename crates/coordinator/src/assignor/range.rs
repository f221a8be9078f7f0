//! `RangeAssignor` ("range", `docs/src/reference/assignors.md#range`), with rack awareness (KIP-881).

use super::{DenseAssignment, MemberSubscription, Prepared};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;

/// Per-topic state (Kafka's `TopicAssignmentState`).
struct TopicState<'a> {
    /// Subscribers in member order (indices into the input's members).
    consumers: Vec<usize>,
    unassigned: BTreeSet<i32>,
    assigned_by: BTreeMap<usize, usize>,
    per_consumer: usize,
    remaining_extra: usize,
    /// For each partition, its replicas' racks.
    partition_racks: Vec<BTreeSet<&'a str>>,
    needs_rack_awareness: bool,
}

impl TopicState<'_> {
    fn max_assignable(&self, consumer: usize) -> usize {
        let max = self.per_consumer + usize::from(self.remaining_extra > 0);
        max.saturating_sub(self.assigned_by.get(&consumer).copied().unwrap_or(0))
    }

    fn racks_match(&self, rack: Option<&str>, p: i32) -> bool {
        match rack {
            None => true,
            Some(rack) => self
                .partition_racks
                .get(p as usize)
                .is_some_and(|r| r.contains(rack)),
        }
    }

    fn assign(
        &mut self,
        consumer: usize,
        partitions: &[i32],
        out: &mut [Vec<(usize, i32)>],
        topic_index: usize,
    ) {
        let n = self.assigned_by.entry(consumer).or_insert(0);
        *n += partitions.len();
        if *n > self.per_consumer {
            self.remaining_extra = self.remaining_extra.saturating_sub(1);
        }
        for &p in partitions {
            self.unassigned.remove(&p);
            out[consumer].push((topic_index, p));
        }
    }
}

/// A member's rack, if it has a non-empty one.
pub(crate) fn rack_of(m: &MemberSubscription) -> Option<&str> {
    m.rack_id.as_deref().filter(|r| !r.is_empty())
}

/// `useRackAwareAssignment` (`docs/src/reference/assignors.md#rack-aware`): consumers have racks that some replicas are on, and not
/// every partition is on every rack.
pub(crate) fn use_rack_aware(
    consumer_racks: &BTreeSet<&str>,
    racks_per_partition: &[BTreeSet<&str>],
) -> bool {
    let all: BTreeSet<&str> = racks_per_partition.iter().flatten().copied().collect();
    if consumer_racks.is_empty() || consumer_racks.is_disjoint(&all) {
        return false;
    }
    !racks_per_partition.iter().all(|r| *r == all)
}

/// Per topic, the subscribers in member order get consecutive ranges; the first `n % count` get
/// one more. With racks in use, rack-matching partitions are placed first (co-partitioned
/// topics together), then the plain pass fills what is left.
pub(crate) fn range_dense(p: &Prepared) -> DenseAssignment {
    let input = p.input;
    let members: Vec<&MemberSubscription> = input.members.iter().collect();
    let order = &p.kafka_order;
    if members.iter().all(|m| rack_of(m).is_none()) {
        return plain_range(p, order);
    }
    let mut states: Vec<TopicState> = Vec::new();
    for (topic, &n) in &input.topics {
        if n <= 0 {
            continue;
        }
        let consumers: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| members[i].topics.iter().any(|t| t == topic))
            .collect();
        if consumers.is_empty() {
            continue;
        }
        let partition_racks: Vec<BTreeSet<&str>> = (0..n as usize)
            .map(|p| {
                input
                    .racks
                    .get(topic)
                    .and_then(|r| r.get(p))
                    .map(|r| {
                        r.iter()
                            .map(|s| s.as_str())
                            .filter(|s| !s.is_empty())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        let consumer_racks: BTreeSet<&str> = consumers
            .iter()
            .filter_map(|&c| rack_of(members[c]))
            .collect();
        let needs_rack_awareness = use_rack_aware(&consumer_racks, &partition_racks);
        states.push(TopicState {
            per_consumer: n as usize / consumers.len(),
            remaining_extra: n as usize % consumers.len(),
            consumers,
            unassigned: (0..n).collect(),
            assigned_by: BTreeMap::new(),
            partition_racks,
            needs_rack_awareness,
        });
    }
    let mut out: Vec<Vec<(usize, i32)>> = alloc::vec![Vec::new(); members.len()];
    if states.iter().any(|s| s.needs_rack_awareness) {
        assign_with_rack_matching(&mut states, &members, &mut out);
    }
    for (t, state) in states.iter_mut().enumerate() {
        assign_ranges(state, t, &mut out, |_, _| true);
    }
    // The states are the interned topics in the same (name) order: topics with partitions
    // that someone subscribes to.
    DenseAssignment::from_lists(
        out.into_iter()
            .map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(t, partition)| p.offsets[t] + partition as usize)
                    .collect()
            })
            .collect(),
        None,
    )
}

/// Range without racks (nobody has a rack, so rack awareness cannot apply): per topic, its
/// subscribers in member order take consecutive ranges.
fn plain_range(p: &Prepared, order: &[usize]) -> DenseAssignment {
    // Per topic, its subscribers in member order. With identical subscriptions every topic's
    // subscribers are all the members: no per-topic lists (the work is then O(partitions), not
    // O(members x topics)).
    let subscribers = (!p.uniform).then(|| p.subscribers(order, &p.subscriber_counts()));
    let subscribers_of = |t: usize| -> &[usize] { subscribers.as_ref().map_or(order, |s| s.of(t)) };
    // Calls `take(member, first partition, how many)` for every range given out.
    let ranges = |take: &mut dyn FnMut(usize, usize, usize)| {
        for t in 0..p.topics.len() {
            let subs = subscribers_of(t);
            let n = p.counts[t];
            let (q, r) = (n / subs.len(), n % subs.len());
            let mut start = p.offsets[t];
            for (k, &m) in subs.iter().enumerate() {
                let len = q + usize::from(k < r);
                if len == 0 {
                    // Lengths never grow along the list: nobody after this one gets any.
                    break;
                }
                take(m, start, len);
                start += len;
            }
        }
    };
    // The members' partitions in one array, sized by a first pass over the ranges: a table of
    // each partition's member, sorted out afterwards, was a third of range's whole compact call
    // at 100,000 partitions.
    let mut lengths = alloc::vec![0; p.list_of.len()];
    ranges(&mut |m, _, len| lengths[m] += len);
    DenseAssignment::build(lengths, |put| {
        ranges(&mut |m, start, len| {
            for gp in start..start + len {
                put(m, gp);
            }
        })
    })
}

fn assign_ranges(
    state: &mut TopicState,
    t: usize,
    out: &mut [Vec<(usize, i32)>],
    may_assign: impl Fn(usize, i32) -> bool,
) {
    for c in state.consumers.clone() {
        if state.unassigned.is_empty() {
            break;
        }
        let max = state.max_assignable(c);
        let take: Vec<i32> = state
            .unassigned
            .iter()
            .copied()
            .filter(|&p| may_assign(c, p))
            .take(max)
            .collect();
        if !take.is_empty() {
            state.assign(c, &take, out, t);
        }
    }
}

fn assign_with_rack_matching(
    states: &mut [TopicState],
    members: &[&MemberSubscription],
    out: &mut [Vec<(usize, i32)>],
) {
    // Topics with the same subscribers and the same partition count are co-partitioned.
    let mut groups: BTreeMap<(Vec<usize>, usize), Vec<usize>> = BTreeMap::new();
    for (t, s) in states.iter().enumerate() {
        groups
            .entry((s.consumers.clone(), s.partition_racks.len()))
            .or_default()
            .push(t);
    }
    for ((consumers, n), topics) in groups {
        if topics.len() > 1 {
            let mut remaining = consumers.clone();
            for p in 0..n as i32 {
                let matching = remaining.iter().copied().find(|&c| {
                    topics.iter().all(|&t| {
                        states[t].racks_match(rack_of(members[c]), p)
                            && states[t].max_assignable(c) > 0
                    })
                });
                if let Some(c) = matching {
                    for &t in &topics {
                        states[t].assign(c, &[p], out, t);
                    }
                    if topics.iter().all(|&t| states[t].max_assignable(c) == 0) {
                        remaining.retain(|&x| x != c);
                        if remaining.is_empty() {
                            break;
                        }
                    }
                }
            }
        } else {
            let t = topics[0];
            if states[t].needs_rack_awareness {
                let racks: Vec<Option<&str>> = members.iter().map(|m| rack_of(m)).collect();
                let partition_racks = states[t].partition_racks.clone();
                assign_ranges(&mut states[t], t, out, |c, p| match racks[c] {
                    None => true,
                    Some(rack) => partition_racks
                        .get(p as usize)
                        .is_some_and(|r| r.contains(rack)),
                });
            }
        }
    }
}
