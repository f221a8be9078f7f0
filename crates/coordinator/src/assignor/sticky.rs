//! The sticky family (`AbstractStickyAssignor`, `docs/src/reference/assignors.md#sticky`): `sticky` (eager, KIP-54) and
//! `cooperative-sticky` (KIP-429), with Kafka's conflict resolution by generation, the
//! constrained builder (identical subscriptions) and the general builder.
//!
//! Canonical orders where Kafka iterates Java hash maps (`docs/src/reference/assignors.md#orders`): members by id (who claims
//! first, who keeps `maxQuota`), and the smallest partition when undoing an earlier move.
//!
//! Speed without changing results: partitions and members are dense indices; the general
//! builder's `isBalanced` verdict only changes when a partition moves, so it is recomputed per
//! move (in O(P + Σ subscriptions)) rather than per partition visited; the balance score is
//! computed from sorted counts in O(M log M).

use super::load_queue::LoadQueue;
use super::prepared::JavaThrows;
use super::{AssignError, AssignmentInput, DenseAssignment, Prepared};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

const DEFAULT_GENERATION: i32 = -1;

/// The sticky family's view of a prepared input: members by id ("dense member" `i` is input
/// member `members[i]`).
struct Dense<'a> {
    p: &'a Prepared<'a>,
    topics: &'a [&'a str],
    counts: &'a [usize],
    offsets: &'a [usize],
    total: usize,
    /// Members sorted by id (indices into `input.members`).
    members: &'a [usize],
    /// Per dense member: its subscribed topics that have partitions (dense topic indices).
    subscribed: Vec<&'a [usize]>,
    /// Every member subscribes to the same topics (the constrained builder applies).
    all_equal: bool,
}

impl<'a> Dense<'a> {
    fn new(p: &'a Prepared<'a>) -> Dense<'a> {
        Dense {
            p,
            topics: &p.topics,
            counts: &p.counts,
            offsets: &p.offsets,
            total: p.total,
            members: &p.by_id,
            subscribed: p.by_id.iter().map(|&m| p.member_topics(m)).collect(),
            all_equal: p.all_equal,
        }
    }

    /// The claimed partitions of dense member `i` that exist, in claim order.
    fn owned(&self, i: usize) -> &'a [usize] {
        &self.p.owned()[self.members[i]]
    }

    fn topic_of(&self, gp: usize) -> usize {
        self.p.topic_of(gp)
    }

    fn partition_of(&self, gp: usize) -> (usize, i32) {
        self.p.partition_of(gp)
    }
}

/// Kafka's `RackInfo` for the sticky family: in use only when consumers have racks that some
/// replicas are on and not every partition is on every rack (`docs/src/reference/assignors.md#rack-aware`); then a member with a
/// rack "mismatches" a partition with no replica on its rack.
struct Racks<'a> {
    /// Per dense member: its rack, if rack awareness is in use.
    consumer: Vec<Option<&'a str>>,
    /// Per partition: its replicas' racks (empty when not in use).
    partition: Vec<BTreeSet<&'a str>>,
    /// Per partition: how many members sit on its racks (unassigned partitions are placed in
    /// ascending order of this).
    consumers_on_racks: Vec<usize>,
}

impl<'a> Racks<'a> {
    fn new(input: &'a AssignmentInput, d: &Dense<'a>) -> Racks<'a> {
        let member_racks: Vec<Option<&str>> = d
            .members
            .iter()
            .map(|&m| super::range::rack_of(&input.members[m]))
            .collect();
        let none = || Racks {
            consumer: vec![None; d.members.len()],
            partition: Vec::new(),
            consumers_on_racks: Vec::new(),
        };
        if member_racks.iter().all(Option::is_none) {
            return none();
        }
        let mut partition: Vec<BTreeSet<&str>> = Vec::with_capacity(d.total);
        for (t, &topic) in d.topics.iter().enumerate() {
            let racks = input.racks.get(topic);
            for p in 0..d.counts[t] {
                partition.push(
                    racks
                        .and_then(|r| r.get(p))
                        .map(|r| {
                            r.iter()
                                .map(String::as_str)
                                .filter(|s| !s.is_empty())
                                .collect()
                        })
                        .unwrap_or_default(),
                );
            }
        }
        let consumer_racks: BTreeSet<&str> = member_racks.iter().flatten().copied().collect();
        if !super::range::use_rack_aware(&consumer_racks, &partition) {
            return none();
        }
        let mut per_rack: BTreeMap<&str, usize> = BTreeMap::new();
        for r in member_racks.iter().flatten() {
            *per_rack.entry(r).or_insert(0) += 1;
        }
        let consumers_on_racks = partition
            .iter()
            .map(|rs| {
                rs.iter()
                    .map(|r| per_rack.get(r).copied().unwrap_or(0))
                    .sum()
            })
            .collect();
        Racks {
            consumer: member_racks,
            partition,
            consumers_on_racks,
        }
    }

    fn in_use(&self) -> bool {
        !self.partition.is_empty()
    }

    fn mismatch(&self, member: usize, gp: usize) -> bool {
        match self.consumer[member] {
            Some(rack) if self.in_use() => !self.partition[gp].contains(rack),
            _ => false,
        }
    }

    /// `nextRackConsumer`: the first member of `list`, cyclically from `from`, on one of the
    /// partition's racks.
    fn next_rack_consumer(&self, gp: usize, list: &[usize], from: usize) -> Option<usize> {
        let racks = self.partition.get(gp)?;
        if racks.is_empty() || list.is_empty() {
            return None;
        }
        (0..list.len())
            .map(|k| (from + k) % list.len())
            .find(|&index| self.consumer[list[index]].is_some_and(|r| racks.contains(r)))
    }
}

/// The resolved claims (`docs/src/reference/assignors.md#sticky-conflicts`).
struct Claims {
    /// Per dense member: the partitions it keeps claiming (in its claim order).
    owned: Vec<Vec<usize>>,
    /// Per dense member: everything it claimed, before conflicts (the previous-owner hints
    /// come from these, as Kafka re-reads the member data).
    raw: Vec<Vec<usize>>,
    multiple_owners: BTreeSet<usize>,
    generations: Vec<i32>,
    has_generation: Vec<bool>,
    max_generation: i32,
    all_equal: bool,
}

fn resolve_claims(input: &AssignmentInput, d: &Dense) -> Claims {
    let n = d.members.len();
    let mut owned: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut raw: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut multiple_owners = BTreeSet::new();
    // partition -> the member whose claim currently stands (usize::MAX = none yet)
    let mut previous_owner: Vec<usize> = vec![usize::MAX; d.total];
    let mut max_generation = DEFAULT_GENERATION;
    let generations: Vec<i32> = d
        .members
        .iter()
        .map(|&m| input.members[m].generation_id.unwrap_or(DEFAULT_GENERATION))
        .collect();
    let has_generation = d
        .members
        .iter()
        .map(|&m| input.members[m].generation_id.is_some())
        .collect();
    let all_equal = d.all_equal;
    for i in 0..d.members.len() {
        let generation = generations[i];
        max_generation = max_generation.max(generation);
        for &gp in d.owned(i) {
            raw[i].push(gp);
            let previous = core::mem::replace(&mut previous_owner[gp], i);
            match (previous != usize::MAX).then_some(previous) {
                None => owned[i].push(gp),
                Some(other) => {
                    let other_generation = generations[other];
                    if generation == other_generation {
                        // Two owners in the same generation: neither keeps it.
                        multiple_owners.insert(gp);
                        owned[other].retain(|&x| x != gp);
                    } else if generation > other_generation {
                        owned[i].push(gp);
                        owned[other].retain(|&x| x != gp);
                    } else {
                        previous_owner[gp] = other;
                    }
                }
            }
        }
    }
    Claims {
        owned,
        raw,
        multiple_owners,
        generations,
        has_generation,
        max_generation,
        all_equal,
    }
}

/// Result of the sticky algorithm: per dense member its partitions, and (constrained path) the
/// partitions changing owner.
struct Built {
    assignment: Vec<Vec<usize>>,
    transferring: Option<BTreeMap<usize, usize>>,
    /// Where Kafka's Java would have thrown (the general path only).
    java_throws: Option<JavaThrows>,
}

/// `sticky`: the eager sticky assignor.
pub(crate) fn sticky_dense(p: &Prepared) -> Result<DenseAssignment, AssignError> {
    let d = Dense::new(p);
    let built = build(p.input, &d)?;
    Ok(by_input_member(&d, built.assignment, built.java_throws))
}

/// `cooperative-sticky`: the sticky result, minus every partition that moves from one member to
/// another (it is revoked this round and assigned in the follow-up rebalance).
pub(crate) fn cooperative_sticky_dense(p: &Prepared) -> Result<DenseAssignment, AssignError> {
    let d = Dense::new(p);
    let mut built = build(p.input, &d)?;
    // Partitions that move from one member to another this round: withheld from their new
    // owner (revoked now, assigned in the follow-up rebalance).
    let mut withheld = vec![false; d.total];
    match built.transferring.take() {
        Some(t) => {
            for gp in t.into_keys() {
                withheld[gp] = true;
            }
        }
        None => {
            // General path: Kafka compares each member's raw ownedPartitions with what it got.
            let mut assigned_to = vec![usize::MAX; d.total];
            for (i, parts) in built.assignment.iter().enumerate() {
                for &gp in parts {
                    assigned_to[gp] = i;
                }
            }
            let mut revoked = vec![false; d.total];
            let mut added = vec![false; d.total];
            // `stamp[gp] == i` while member i's owned partitions are being compared.
            let mut stamp = vec![usize::MAX; d.total];
            for i in 0..d.members.len() {
                for &gp in d.owned(i) {
                    stamp[gp] = i;
                    if assigned_to[gp] != i {
                        revoked[gp] = true;
                    }
                }
                for &gp in &built.assignment[i] {
                    if stamp[gp] != i {
                        added[gp] = true;
                    }
                }
            }
            for gp in 0..d.total {
                withheld[gp] = added[gp] && revoked[gp];
            }
        }
    }
    for parts in &mut built.assignment {
        parts.retain(|&gp| !withheld[gp]);
    }
    Ok(by_input_member(&d, built.assignment, built.java_throws))
}

/// Dense members (by id) back to input order.
fn by_input_member(
    d: &Dense,
    assignment: Vec<Vec<usize>>,
    java_throws: Option<JavaThrows>,
) -> DenseAssignment {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); d.members.len()];
    for (&m, parts) in d.members.iter().zip(assignment) {
        out[m] = parts;
    }
    DenseAssignment::from_lists(out, java_throws)
}

fn build(input: &AssignmentInput, d: &Dense) -> Result<Built, AssignError> {
    if d.members.is_empty() {
        return Ok(Built {
            assignment: Vec::new(),
            transferring: Some(BTreeMap::new()),
            java_throws: None,
        });
    }
    let claims = resolve_claims(input, d);
    let racks = Racks::new(input, d);
    if claims.all_equal {
        constrained(d, &claims, &racks)
    } else {
        Ok(general(d, &claims, &racks))
    }
}

/// The constrained builder (`docs/src/reference/assignors.md#sticky-constrained`, KAFKA-9987/12464/16277).
fn constrained(d: &Dense, claims: &Claims, racks: &Racks) -> Result<Built, AssignError> {
    let m = d.members.len();
    let total = d.total;
    let min_quota = total / m;
    let max_quota = total.div_ceil(m);
    let expected_over = total % m;
    let mut current_over = 0;
    // Every member ends with min or max quota: one allocation each.
    let mut assignment: Vec<Vec<usize>> = (0..m).map(|_| Vec::with_capacity(max_quota)).collect();
    let mut assigned = vec![false; total];
    // Partitions a member owned but does not keep -> that member (Kafka's maybeRevokedPartitions).
    let mut revoked: Vec<usize> = vec![usize::MAX; total];
    let mut under_min: Vec<usize> = Vec::new();
    let mut at_min: Vec<usize> = Vec::new();
    for (i, owned) in claims.owned.iter().enumerate() {
        let mut own: Vec<usize> = Vec::with_capacity(owned.len());
        for &gp in owned {
            if racks.mismatch(i, gp) {
                revoked[gp] = i;
            } else if !claims.multiple_owners.contains(&gp) {
                own.push(gp);
            }
        }
        // By partition number, then topic (KAFKA-16277: spread topics evenly); topic indices
        // follow name order.
        let mut keyed: Vec<(i32, usize, usize)> = own
            .iter()
            .map(|&gp| {
                let (t, p) = d.partition_of(gp);
                (p, t, gp)
            })
            .collect();
        keyed.sort_unstable();
        own.clear();
        own.extend(keyed.into_iter().map(|(_, _, gp)| gp));
        let keep = if own.len() < min_quota {
            under_min.push(i);
            own.len()
        } else if own.len() >= max_quota && current_over < expected_over {
            current_over += 1;
            if current_over == expected_over {
                at_min.clear();
            }
            max_quota
        } else {
            if current_over < expected_over {
                at_min.push(i);
            }
            min_quota
        };
        for &gp in &own[..keep] {
            assignment[i].push(gp);
            assigned[gp] = true;
        }
        for &gp in &own[keep..] {
            revoked[gp] = i;
        }
    }
    // Members are already in id order (dense order), so the sorts of Kafka are no-ops here.
    // `under_min` is walked by a cursor that restarts from the front (Kafka's LinkedList
    // iterator); removals are marked and compacted on restart, so each is O(1).
    let mut transferring: BTreeMap<usize, usize> = BTreeMap::new();
    let mut at_min: alloc::collections::VecDeque<usize> = at_min.into();
    let mut cursor = 0;
    let transfers = |gp: usize, member: usize| {
        (revoked[gp] != usize::MAX && revoked[gp] != member) || claims.multiple_owners.contains(&gp)
    };
    let mut unassigned: Vec<usize> = (0..total).filter(|&gp| !assigned[gp]).collect();
    if racks.in_use() {
        // Partitions with the fewest members on their racks first (stable).
        unassigned.sort_by_key(|&gp| racks.consumers_on_racks[gp]);
        let mut left = Vec::with_capacity(unassigned.len());
        let mut next = 0;
        for &gp in &unassigned {
            let mut member = None;
            if let Some(index) = racks.next_rack_consumer(gp, &under_min, next) {
                let m = under_min[index];
                let count = assignment[m].len() + 1;
                let mut next_index = index;
                if count >= min_quota {
                    under_min.remove(index);
                    if count < max_quota && current_over < expected_over {
                        at_min.push_back(m);
                    }
                } else {
                    next_index += 1;
                }
                next = if under_min.is_empty() {
                    0
                } else {
                    next_index % under_min.len()
                };
                member = Some(m);
            } else if !at_min.is_empty() {
                let list: Vec<usize> = at_min.iter().copied().collect();
                if let Some(index) = racks.next_rack_consumer(gp, &list, 0) {
                    let m = list[index];
                    if assignment[m].len() + 1 == max_quota {
                        at_min.remove(index);
                        current_over += 1;
                        if current_over == expected_over {
                            at_min.clear();
                        }
                    }
                    member = Some(m);
                }
            }
            match member {
                Some(m) => {
                    assignment[m].push(gp);
                    if transfers(gp, m) {
                        transferring.insert(gp, m);
                    }
                }
                None => left.push(gp),
            }
        }
        unassigned = left;
    }
    let mut alive = vec![true; under_min.len()];
    let mut alive_count = under_min.len();
    for (index, &gp) in unassigned.iter().enumerate() {
        while cursor < under_min.len() && !alive[cursor] {
            cursor += 1;
        }
        let (member, from_under) = if cursor < under_min.len() {
            cursor += 1;
            (under_min[cursor - 1], Some(cursor - 1))
        } else if alive_count == 0 && at_min.is_empty() {
            return Err(AssignError(format!(
                "no more unfilled consumers to assign partition {index} of {}",
                unassigned.len()
            )));
        } else if alive_count == 0 {
            let member = at_min
                .pop_front()
                .ok_or_else(|| AssignError(String::from("no unfilled consumer")))?;
            (member, None)
        } else {
            let mut k = 0;
            under_min.retain(|_| {
                k += 1;
                alive[k - 1]
            });
            alive = vec![true; under_min.len()];
            cursor = 1;
            (under_min[0], Some(0))
        };
        assignment[member].push(gp);
        if transfers(gp, member) {
            transferring.insert(gp, member);
        }
        let count = assignment[member].len();
        if count == min_quota {
            if let Some(slot) = from_under {
                alive[slot] = false;
                alive_count -= 1;
            }
            at_min.push_back(member);
        } else if count == max_quota {
            current_over += 1;
        }
    }
    let mut k = 0;
    under_min.retain(|_| {
        k += 1;
        alive[k - 1]
    });
    if !under_min.is_empty() {
        if current_over != expected_over {
            return Err(AssignError(format!(
                "{} members remain under the minimum quota {min_quota}, and {current_over} of {expected_over} are over it",
                under_min.len()
            )));
        }
        if let Some(&bad) = under_min
            .iter()
            .find(|&&i| assignment[i].len() != min_quota)
        {
            return Err(AssignError(format!(
                "member {bad} has {} partitions, not the minimum quota {min_quota}",
                assignment[bad].len()
            )));
        }
    }
    Ok(Built {
        assignment,
        transferring: Some(transferring),
        java_throws: None,
    })
}

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

fn general(d: &Dense, claims: &Claims, racks: &Racks) -> Built {
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
        for &gp in &claims.raw[i] {
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
