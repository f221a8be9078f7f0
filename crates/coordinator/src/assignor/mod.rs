//! Kafka's client-side partition assignors (run by the leader of a classic group), as pure
//! functions: input in, assignment out (spec `assignors-and-kip848.md` §1).
//!
//! Canonical orders: where Kafka's result depends on Java hash-map iteration order, these
//! assignors iterate members by id (or by the static-first rule where Kafka sorts), topics by
//! name and partitions by number, and say so where it matters. Strings compare as bytes, which
//! equals Java's UTF-16 order for the ASCII names Kafka uses.

mod checks;
mod prepared;
mod range;
mod round_robin;
mod sticky;

pub use checks::{is_balanced, is_sticky, moved_partitions, revoked_and_assigned, validate};
pub use prepared::{DenseAssignment, Prepared, prepare};

use crate::consumer_protocol::TopicPartitions;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// One member's subscription as the leader sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
pub struct MemberSubscription {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub topics: Vec<String>,
    /// What the member owns (the subscription's `ownedPartitions`; for the eager `sticky`
    /// assignor, the previous assignment of its user data).
    pub owned_partitions: Vec<TopicPartitions>,
    /// The subscription's generation; `None` = absent (-1 on the wire).
    pub generation_id: Option<i32>,
    pub rack_id: Option<String>,
}

/// What an assignor is given: topic metadata and the members' subscriptions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
pub struct AssignmentInput {
    /// Topic name -> number of partitions. Topics members subscribe to but missing here have no
    /// metadata: nobody gets anything from them.
    pub topics: BTreeMap<String, i32>,
    /// Topic -> for each partition, the racks of its replicas. Absent = no rack information.
    pub racks: BTreeMap<String, Vec<Vec<String>>>,
    pub members: Vec<MemberSubscription>,
}

/// Member id -> its partitions, grouped by topic (topics ascending, partitions ascending).
pub type AssignmentOutput = BTreeMap<String, Vec<TopicPartitions>>;

/// The assignors by their `partition.assignment.strategy` protocol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strategy {
    Range,
    RoundRobin,
    Sticky,
    CooperativeSticky,
}

impl Strategy {
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "range" => Some(Strategy::Range),
            "roundrobin" => Some(Strategy::RoundRobin),
            "sticky" => Some(Strategy::Sticky),
            "cooperative-sticky" => Some(Strategy::CooperativeSticky),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Range => "range",
            Strategy::RoundRobin => "roundrobin",
            Strategy::Sticky => "sticky",
            Strategy::CooperativeSticky => "cooperative-sticky",
        }
    }
}

/// Why an input cannot be assigned (the message names the member or topic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignError(pub String);

impl core::fmt::Display for AssignError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Runs an assignor: interns the input ([`prepare`]), assigns, and names the result.
pub fn assign(
    strategy: Strategy,
    input: &AssignmentInput,
) -> Result<AssignmentOutput, AssignError> {
    let prepared = prepare(input)?;
    let assignment = prepared.assign(strategy)?;
    Ok(prepared.output(assignment))
}

/// Refuses inputs no Kafka group could produce: duplicate member ids, negative partition
/// counts, rack lists that do not match the partition count.
pub fn check_input(input: &AssignmentInput) -> Result<(), AssignError> {
    members_by_id(input)?;
    check_topics(input)
}

/// Input member indices sorted by member id; refuses a member id that appears twice.
pub(crate) fn members_by_id(input: &AssignmentInput) -> Result<Vec<usize>, AssignError> {
    let mut by_id: Vec<usize> = (0..input.members.len()).collect();
    by_id.sort_unstable_by(|&a, &b| input.members[a].member_id.cmp(&input.members[b].member_id));
    match by_id
        .windows(2)
        .find(|w| input.members[w[0]].member_id == input.members[w[1]].member_id)
    {
        Some(pair) => Err(AssignError(alloc::format!(
            "member \"{}\" appears twice",
            input.members[pair[0]].member_id
        ))),
        None => Ok(by_id),
    }
}

/// The topic half of [`check_input`].
pub(crate) fn check_topics(input: &AssignmentInput) -> Result<(), AssignError> {
    for (topic, &n) in &input.topics {
        if n < 0 {
            return Err(AssignError(alloc::format!(
                "topic \"{topic}\": negative partition count {n}"
            )));
        }
    }
    for (topic, racks) in &input.racks {
        match input.topics.get(topic) {
            Some(&n) if racks.len() == n as usize => {}
            Some(&n) => {
                return Err(AssignError(alloc::format!(
                    "racks of topic \"{topic}\": {} entries for {n} partitions",
                    racks.len()
                )));
            }
            None => {
                return Err(AssignError(alloc::format!(
                    "racks given for unknown topic \"{topic}\""
                )));
            }
        }
    }
    Ok(())
}

/// Kafka's `MemberInfo` order: static members first (by instance id), then dynamic members by
/// member id. Returns indices into `members`.
pub(crate) fn member_order(members: &[&MemberSubscription]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (members[a], members[b]);
        match (&a.group_instance_id, &b.group_instance_id) {
            (Some(x), Some(y)) => x.cmp(y).then_with(|| a.member_id.cmp(&b.member_id)),
            (Some(_), None) => core::cmp::Ordering::Less,
            (None, Some(_)) => core::cmp::Ordering::Greater,
            (None, None) => a.member_id.cmp(&b.member_id),
        }
    });
    order
}
