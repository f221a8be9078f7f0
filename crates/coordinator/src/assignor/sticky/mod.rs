//! The sticky family (`AbstractStickyAssignor`, `docs/src/reference/assignors.md#sticky`): `sticky` (eager, KIP-54) and
//! `cooperative-sticky` (KIP-429), with Kafka's conflict resolution by generation, the
//! constrained builder (identical subscriptions, `constrained.rs`) and the general builder
//! (`general.rs`).
//!
//! Canonical orders where Kafka iterates Java hash maps (`docs/src/reference/assignors.md#orders`): members by id (who claims
//! first, who keeps `maxQuota`), and the smallest partition when undoing an earlier move.
//!
//! Speed without changing results: partitions and members are dense indices; the general
//! builder's `isBalanced` verdict only changes when a partition moves, so it is recomputed per
//! move (in O(P + Σ subscriptions)) rather than per partition visited; the balance score is
//! computed from sorted counts in O(M log M).
//!
//! This file holds the shared input (dense members, resolved claims, racks) and the entry
//! points; the builders are `constrained.rs` and `general.rs`.

use super::prepared::JavaThrows;
use super::{AssignError, AssignmentInput, DenseAssignment, Prepared};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

mod constrained;
mod general;

use constrained::constrained;
use general::general;

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
    multiple_owners: BTreeSet<usize>,
    generations: Vec<i32>,
    has_generation: Vec<bool>,
    max_generation: i32,
    all_equal: bool,
}

fn resolve_claims(input: &AssignmentInput, d: &Dense) -> Claims {
    let n = d.members.len();
    // Each member's lists sized for its claims (grown from empty, a member's ten claims took
    // three allocations each, a thousand members' at every rebalance).
    let mut owned: Vec<Vec<usize>> = (0..n)
        .map(|i| Vec::with_capacity(d.owned(i).len()))
        .collect();
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
