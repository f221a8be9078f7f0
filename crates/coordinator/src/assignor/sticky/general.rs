//! The sticky family's general builder: members subscribe to different topics.

use super::{Built, Claims, DEFAULT_GENERATION, Dense, Racks};
use crate::assignor::load_queue::LoadQueue;
use crate::assignor::prepared::JavaThrows;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec;
use alloc::vec::Vec;
/// The general builder's state (`docs/src/reference/assignors.md#sticky-general`).
struct General<'a> {
    d: &'a Dense<'a>,
    /// Per dense member: its partitions (insertion order).
    assignment: Vec<Vec<usize>>,
    owner: Vec<Option<usize>>,
    /// (count, member) ascending: Kafka's `sortedCurrentSubscriptions`.
    sorted: LoadQueue,
    /// Members with identical subscriptions form a class; each class keeps its own (count,
    /// member) order, so "the first member of the sorted set subscribed to t" is the least of
    /// the classes subscribed to t, without walking past everyone else. A class's queue holds
    /// its members by rank in the class (`rank_of`), ranks in member order
    /// (`class_members`).
    class_of: Vec<usize>,
    rank_of: Vec<usize>,
    class_members: Vec<Vec<usize>>,
    classes: Vec<LoadQueue>,
    topic_classes: Vec<Vec<usize>>,
    /// Whether `sorted` is kept up to date (the fill only needs the class orders; `sorted` is
    /// rebuilt once after it).
    keep_sorted: bool,
    /// Members taking part (not set aside as fixed).
    active: Vec<bool>,
    /// Per topic, how many members subscribe to it.
    topic_subscribers: Vec<usize>,
    /// partition -> (previous owner, generation)
    prev: BTreeMap<usize, (usize, i32)>,
    movements: Movements,
    balanced: Option<bool>,
    java_throws: Option<JavaThrows>,
}

impl General<'_> {
    fn count(&self, i: usize) -> usize {
        self.assignment[i].len()
    }

    fn subscribes(&self, i: usize, t: usize) -> bool {
        self.d.subscribed[i].binary_search(&t).is_ok()
    }

    fn unlist(&mut self, i: usize) {
        let count = self.count(i);
        if self.keep_sorted {
            self.sorted.remove(count, i);
        }
        self.classes[self.class_of[i]].remove(count, self.rank_of[i]);
    }

    fn list(&mut self, i: usize) {
        let count = self.count(i);
        if self.keep_sorted {
            self.sorted.insert(count, i);
        }
        self.classes[self.class_of[i]].insert(count, self.rank_of[i]);
    }

    fn give(&mut self, gp: usize, to: usize) {
        self.unlist(to);
        self.assignment[to].push(gp);
        self.owner[gp] = Some(to);
        self.list(to);
    }

    fn take(&mut self, gp: usize, from: usize) {
        self.unlist(from);
        if let Some(pos) = self.assignment[from].iter().position(|&x| x == gp) {
            self.assignment[from].remove(pos);
        }
        self.owner[gp] = None;
        self.list(from);
    }

    /// Like `least_loaded_subscriber`, among the members `eligible` accepts.
    fn least_loaded_subscriber_where(
        &self,
        t: usize,
        eligible: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        self.topic_classes[t]
            .iter()
            .filter_map(|&c| {
                self.classes[c]
                    .iter()
                    .map(|(count, rank)| (count, self.class_members[c][rank]))
                    .find(|&(_, i)| eligible(i))
            })
            .min()
            .map(|(_, i)| i)
    }

    /// The first member (fewest partitions, then id) subscribed to topic `t`, with its count.
    fn least_loaded_subscriber(&mut self, t: usize) -> Option<(usize, usize)> {
        let mut least = None;
        for k in 0..self.topic_classes[t].len() {
            let c = self.topic_classes[t][k];
            if let Some((count, rank)) = self.classes[c].first() {
                let candidate = (count, self.class_members[c][rank]);
                least = Some(least.map_or(candidate, |l: (usize, usize)| l.min(candidate)));
            }
        }
        least
    }

    fn max_assignment_size(&self, i: usize) -> usize {
        if self.d.subscribed[i].len() == self.d.topics.len() {
            self.d.total
        } else {
            self.d.subscribed[i].iter().map(|&t| self.d.counts[t]).sum()
        }
    }

    /// `isBalanced`, cached until the next move.
    fn is_balanced(&mut self) -> bool {
        if let Some(b) = self.balanced {
            return b;
        }
        let ends = (self.sorted.min_count(), self.sorted.max_count());
        let b = self.compute_balanced(ends);
        self.balanced = Some(b);
        b
    }

    /// `ends`: the least and the greatest count in `sorted`.
    fn compute_balanced(&self, ends: (Option<usize>, Option<usize>)) -> bool {
        let (Some(min), Some(max)) = ends else {
            return true;
        };
        if min + 1 >= max {
            return true;
        }
        // Per topic, the two most loaded holders of its partitions (count, member).
        let mut top: Vec<[(usize, usize); 2]> = vec![[(0, usize::MAX); 2]; self.d.topics.len()];
        // Topic by topic, so that no partition's topic is searched for (this runs after every
        // move).
        let owners = (0..self.d.topics.len()).flat_map(|t| {
            let first = self.d.offsets[t];
            self.owner[first..first + self.d.counts[t]]
                .iter()
                .map(move |&owner| (t, owner))
        });
        for (t, owner) in owners {
            let Some(o) = owner else { continue };
            if !self.active[o] {
                continue;
            }
            let c = (self.count(o), o);
            let slot = &mut top[t];
            if slot[0].1 == o || slot[1].1 == o {
                continue;
            }
            if c.0 > slot[0].0 || slot[0].1 == usize::MAX {
                slot[1] = slot[0];
                slot[0] = c;
            } else if c.0 > slot[1].0 || slot[1].1 == usize::MAX {
                slot[1] = c;
            }
        }
        for (count, i) in self.sorted.iter() {
            if count == self.max_assignment_size(i) {
                continue;
            }
            for &t in self.d.subscribed[i] {
                let holders = top[t];
                let other = if holders[0].1 == i {
                    holders[1]
                } else {
                    holders[0]
                };
                if other.1 != usize::MAX && count + 1 < other.0 {
                    // The other holder may hold only partitions this member also holds? No:
                    // partitions have one owner, so the other holder's partitions of `t` are not
                    // this member's.
                    return false;
                }
            }
        }
        true
    }

    fn move_partition(&mut self, gp: usize, to: usize) {
        let Some(from) = self.owner[gp] else { return };
        let actual = self
            .movements
            .actual_partition_to_move(self.d, gp, from, to);
        let Some(actual_from) = self.owner[actual] else {
            return;
        };
        self.movements.record(self.d, actual, actual_from, to);
        self.take(actual, actual_from);
        self.give(actual, to);
        self.balanced = None;
    }

    /// `performReassignments`: passes over `partitions` until one moves nothing.
    fn perform_reassignments(&mut self, partitions: &[usize]) -> bool {
        let mut performed = false;
        loop {
            let mut modified = false;
            for &gp in partitions {
                if self.is_balanced() {
                    break;
                }
                let Some(owner) = self.owner[gp] else {
                    continue;
                };
                let t = self.d.topic_of(gp);
                let prev_owner = self.prev.get(&gp).map(|&(prev_owner, _)| prev_owner);
                if let Some(prev_owner) = prev_owner
                    && !self.active[prev_owner]
                {
                    // Kafka's Java throws a NullPointerException here (the previous owner was
                    // taken out of its current assignments as unable to take part): we go on
                    // as if it could not take the partition (`KafkaQuirk::JavaThrowsNullPointer`).
                    self.java_throws.get_or_insert(JavaThrows {
                        partition: gp,
                        previous_owner: self.d.members[prev_owner],
                    });
                }
                // Kafka's flaw, reproduced: the previous owner is not checked to subscribe to
                // the topic any more (`KafkaQuirk::PreviousOwnerNotSubscribed`).
                if let Some(prev_owner) = prev_owner
                    && self.active[prev_owner]
                    && self.count(owner) > self.count(prev_owner) + 1
                {
                    self.move_partition(gp, prev_owner);
                    performed = true;
                    modified = true;
                    continue;
                }
                // Some subscriber has at least two fewer partitions than the owner: the least
                // loaded one does, and it is the one Kafka picks.
                if let Some((least, to)) = self.least_loaded_subscriber(t)
                    && self.count(owner) > least + 1
                {
                    self.move_partition(gp, to);
                    performed = true;
                    modified = true;
                }
            }
            if !modified {
                return performed;
            }
        }
    }

    fn balance_score(&self) -> usize {
        let mut counts: Vec<usize> = (0..self.assignment.len())
            .filter(|&i| self.active[i])
            .map(|i| self.count(i))
            .collect();
        counts.sort_unstable();
        let n = counts.len();
        let mut score: i128 = 0;
        for (k, &c) in counts.iter().enumerate() {
            score += c as i128 * (2 * k as i128 - n as i128 + 1);
        }
        score as usize
    }
}

/// Kafka's `PartitionMovements`: moves within this run, so a move back can undo an earlier one.
#[derive(Default)]
struct Movements {
    /// partition -> (source, destination)
    by_partition: BTreeMap<usize, (usize, usize)>,
    /// (topic, source, destination) -> partitions
    by_topic: BTreeMap<(usize, usize, usize), BTreeSet<usize>>,
}

impl Movements {
    fn remove(&mut self, d: &Dense, gp: usize) -> Option<(usize, usize)> {
        let pair = self.by_partition.remove(&gp)?;
        let key = (d.topic_of(gp), pair.0, pair.1);
        if let Some(set) = self.by_topic.get_mut(&key) {
            set.remove(&gp);
            if set.is_empty() {
                self.by_topic.remove(&key);
            }
        }
        Some(pair)
    }

    fn add(&mut self, d: &Dense, gp: usize, pair: (usize, usize)) {
        self.by_partition.insert(gp, pair);
        self.by_topic
            .entry((d.topic_of(gp), pair.0, pair.1))
            .or_default()
            .insert(gp);
    }

    fn record(&mut self, d: &Dense, gp: usize, from: usize, to: usize) {
        match self.remove(d, gp) {
            Some((src, _)) if src == to => {}
            Some((src, _)) => self.add(d, gp, (src, to)),
            None => self.add(d, gp, (from, to)),
        }
    }

    /// `getTheActualPartitionToBeMoved`: if a partition of the same topic moved the other way
    /// earlier, move that one back instead (the smallest such partition, where Kafka takes a
    /// hash set's first element).
    fn actual_partition_to_move(&self, d: &Dense, gp: usize, from: usize, to: usize) -> usize {
        let t = d.topic_of(gp);
        let from = match self.by_partition.get(&gp) {
            Some(&(src, _)) => src,
            None => from,
        };
        match self
            .by_topic
            .get(&(t, to, from))
            .and_then(|set| set.first())
        {
            Some(&other) => other,
            None => gp,
        }
    }
}

pub(super) fn general(d: &Dense, claims: &Claims, racks: &Racks) -> Built {
    let m = d.members.len();
    let topic_subscribers = d.p.subscriber_counts();
    // Previous owners from older generations (hints to move partitions back).
    let mut prev: BTreeMap<usize, (usize, i32)> = BTreeMap::new();
    for i in 0..m {
        let generation =
            if claims.has_generation[i] && claims.generations[i] < claims.max_generation {
                Some(claims.generations[i])
            } else if !claims.has_generation[i] && claims.max_generation > DEFAULT_GENERATION {
                Some(DEFAULT_GENERATION)
            } else {
                None
            };
        let Some(generation) = generation else {
            continue;
        };
        // (Everything it claimed, before conflicts: Kafka re-reads the member data.)
        for &gp in d.owned(i) {
            match prev.get(&gp) {
                Some(&(_, g)) if generation <= g => {}
                _ => {
                    prev.insert(gp, (i, generation));
                }
            }
        }
    }
    let mut class_index: BTreeMap<&[usize], usize> = BTreeMap::new();
    let mut class_members: Vec<Vec<usize>> = Vec::new();
    let mut rank_of: Vec<usize> = Vec::with_capacity(m);
    let class_of: Vec<usize> = (0..m)
        .map(|i| {
            let next = class_index.len();
            let c = *class_index.entry(d.subscribed[i]).or_insert(next);
            if c == class_members.len() {
                class_members.push(Vec::new());
            }
            rank_of.push(class_members[c].len());
            class_members[c].push(i);
            c
        })
        .collect();
    let mut topic_classes: Vec<Vec<usize>> = vec![Vec::new(); d.topics.len()];
    for (topics, &c) in &class_index {
        for &t in *topics {
            topic_classes[t].push(c);
        }
    }
    let mut g = General {
        d,
        assignment: vec![Vec::new(); m],
        owner: vec![None; d.total],
        sorted: LoadQueue::new(m),
        class_of,
        rank_of,
        classes: class_members
            .iter()
            .map(|members| LoadQueue::new(members.len()))
            .collect(),
        class_members,
        topic_classes,
        keep_sorted: true,
        active: vec![true; m],
        topic_subscribers,
        prev,
        movements: Movements::default(),
        balanced: None,
        java_throws: None,
    };
    // 1. Keep what members own and still subscribe to.
    let mut revocation_required = false;
    for i in 0..m {
        for &gp in &claims.owned[i] {
            let t = d.topic_of(gp);
            if g.subscribes(i, t) && !racks.mismatch(i, gp) {
                g.assignment[i].push(gp);
                g.owner[gp] = Some(i);
            } else {
                revocation_required = true;
            }
        }
    }
    for i in 0..m {
        g.list(i);
    }
    // 2. Topics by (number of potential members, name); their partitions in that order.
    let mut topic_order: Vec<usize> = (0..d.topics.len()).collect();
    topic_order.sort_by(|&a, &b| {
        g.topic_subscribers[a]
            .cmp(&g.topic_subscribers[b])
            .then(d.topics[a].cmp(d.topics[b]))
    });
    let mut sorted_all: Vec<usize> = topic_order
        .iter()
        .flat_map(|&t| d.offsets[t]..d.offsets[t] + d.counts[t])
        .collect();
    let mut unassigned: Vec<usize> = sorted_all
        .iter()
        .copied()
        .filter(|&gp| g.owner[gp].is_none())
        .collect();
    let initializing = g.sorted.max_count().is_none_or(|c| c == 0);
    // 3. Fill: with racks, first only members on a partition's racks (or without a rack), then
    //    anyone subscribed.
    g.keep_sorted = false;
    let mut to_fill = unassigned.clone();
    if racks.in_use() {
        to_fill.retain(|&gp| {
            let t = d.topic_of(gp);
            match g.least_loaded_subscriber_where(t, |i| !racks.mismatch(i, gp)) {
                Some(to) => {
                    g.give(gp, to);
                    false
                }
                None => true,
            }
        });
    }
    for &gp in &to_fill {
        let t = d.topic_of(gp);
        if g.topic_subscribers[t] == 0 {
            continue;
        }
        if let Some((_, to)) = g.least_loaded_subscriber(t) {
            g.give(gp, to);
        }
    }
    g.keep_sorted = true;
    g.sorted = LoadQueue::new(m);
    for i in 0..m {
        g.sorted.insert(g.count(i), i);
    }
    // 4. What cannot move: topics with fewer than two potential members, and members that hold
    //    everything they could and nothing movable.
    let movable_topics: Vec<bool> = g.topic_subscribers.iter().map(|&s| s >= 2).collect();
    let can_topic_move = |t: usize| movable_topics[t];
    sorted_all.retain(|&gp| can_topic_move(d.topic_of(gp)));
    unassigned.retain(|&gp| can_topic_move(d.topic_of(gp)));
    for i in 0..m {
        let full = g.count(i) >= g.max_assignment_size(i);
        let movable = g.assignment[i]
            .iter()
            .any(|&gp| can_topic_move(d.topic_of(gp)));
        if full && !movable {
            g.unlist(i);
            g.active[i] = false;
        }
    }
    g.balanced = None;
    // 5. Reassign, and keep the result only if it is better balanced.
    let snapshot = (g.assignment.clone(), g.owner.clone());
    let score_before = g.balance_score();
    if !revocation_required {
        g.perform_reassignments(&unassigned);
    }
    let performed = g.perform_reassignments(&sorted_all);
    if !initializing && performed && g.balance_score() >= score_before {
        g.assignment = snapshot.0;
        g.owner = snapshot.1;
    }
    Built {
        assignment: g.assignment,
        transferring: None,
        java_throws: g.java_throws,
    }
}
