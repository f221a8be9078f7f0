//! Kafka's client-side partition assignors (run by the leader of a classic group), as pure
//! functions: input in, assignment out (spec `assignors-and-kip848.md` §1).
//!
//! Canonical orders: where Kafka's result depends on Java hash-map iteration order, these
//! assignors iterate members by id (or by the static-first rule where Kafka sorts), topics by
//! name and partitions by number, and say so where it matters. Strings compare as bytes, which
//! equals Java's UTF-16 order for the ASCII names Kafka uses.

mod checks;
mod range;
mod round_robin;
mod sticky;

pub use checks::{is_balanced, is_sticky, moved_partitions, revoked_and_assigned, validate};
pub use range::range;
pub use round_robin::round_robin;
pub use sticky::{cooperative_sticky, sticky};

use crate::consumer_protocol::TopicPartitions;
use alloc::collections::{BTreeMap, BTreeSet};
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

/// Runs an assignor.
pub fn assign(
    strategy: Strategy,
    input: &AssignmentInput,
) -> Result<AssignmentOutput, AssignError> {
    check_input(input)?;
    match strategy {
        Strategy::Range => Ok(range(input)),
        Strategy::RoundRobin => Ok(round_robin(input)),
        Strategy::Sticky => sticky(input),
        Strategy::CooperativeSticky => cooperative_sticky(input),
    }
}

/// Refuses inputs no Kafka group could produce: duplicate member ids, negative partition
/// counts, rack lists that do not match the partition count.
pub fn check_input(input: &AssignmentInput) -> Result<(), AssignError> {
    let mut seen = BTreeSet::new();
    for m in &input.members {
        if !seen.insert(m.member_id.as_str()) {
            return Err(AssignError(alloc::format!(
                "member \"{}\" appears twice",
                m.member_id
            )));
        }
    }
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

/// Groups (topic, partition) pairs into the output shape: topics ascending, partitions ascending.
pub(crate) fn group_by_topic<'a>(
    pairs: impl IntoIterator<Item = (&'a str, i32)>,
) -> Vec<TopicPartitions> {
    let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for (t, p) in pairs {
        by_topic.entry(t).or_default().push(p);
    }
    by_topic
        .into_iter()
        .map(|(topic, mut partitions)| {
            partitions.sort_unstable();
            TopicPartitions {
                topic: alloc::sync::Arc::from(topic),
                partitions,
            }
        })
        .collect()
}

/// The empty output: every member present with nothing.
pub(crate) fn empty_output(input: &AssignmentInput) -> AssignmentOutput {
    input
        .members
        .iter()
        .map(|m| (m.member_id.clone(), Vec::new()))
        .collect()
}

/// The input in dense form: subscribed topics that have partitions, by name (index order =
/// name order), and each member's subscribed topics as sorted indices.
pub(crate) struct Interned<'a> {
    pub topics: Vec<&'a str>,
    pub counts: Vec<usize>,
    /// Per input member (input order): its topics with partitions, ascending, deduplicated.
    pub member_topics: Vec<Vec<usize>>,
}

impl<'a> Interned<'a> {
    pub fn new(input: &'a AssignmentInput) -> Interned<'a> {
        // Index every topic with partitions (BTreeMap order = name order), map each member's
        // topics to indices (members with the same list as the previous one reuse its result,
        // the common case), then keep only the topics someone subscribes to.
        let all: Vec<(&str, usize)> = input
            .topics
            .iter()
            .filter(|&(_, &n)| n > 0)
            .map(|(t, &n)| (t.as_str(), n as usize))
            .collect();
        let mut used = alloc::vec![false; all.len()];
        let mut member_topics: Vec<Vec<usize>> = Vec::with_capacity(input.members.len());
        // Members usually share a handful of distinct topic lists: remember the last few.
        let mut seen: Vec<(&Vec<String>, usize)> = Vec::new();
        for m in &input.members {
            let ts = match seen.iter().find(|(list, _)| **list == m.topics) {
                Some(&(_, index)) => member_topics[index].clone(),
                None => {
                    let mut ts: Vec<usize> = m
                        .topics
                        .iter()
                        .filter_map(|t| {
                            all.binary_search_by(|(name, _)| (*name).cmp(t.as_str()))
                                .ok()
                        })
                        .collect();
                    ts.sort_unstable();
                    ts.dedup();
                    if seen.len() == 16 {
                        seen.remove(0);
                    }
                    seen.push((&m.topics, member_topics.len()));
                    ts
                }
            };
            for &t in &ts {
                used[t] = true;
            }
            member_topics.push(ts);
        }
        let mut remap = alloc::vec![usize::MAX; all.len()];
        let mut topics = Vec::new();
        let mut counts = Vec::new();
        for (i, &(name, n)) in all.iter().enumerate() {
            if used[i] {
                remap[i] = topics.len();
                topics.push(name);
                counts.push(n);
            }
        }
        for ts in &mut member_topics {
            for t in ts.iter_mut() {
                *t = remap[*t];
            }
        }
        Interned {
            topics,
            counts,
            member_topics,
        }
    }
}

/// Shared topic names for an output (one allocation per topic, not per member-topic).
pub(crate) fn shared_names(topics: &[&str]) -> Vec<alloc::sync::Arc<str>> {
    topics.iter().map(|t| alloc::sync::Arc::from(*t)).collect()
}

/// Builds one member's output from its partitions as (topic index, partition) pairs sorted by
/// topic index then partition.
pub(crate) fn to_topic_partitions(
    topics: &[alloc::sync::Arc<str>],
    sorted_pairs: impl IntoIterator<Item = (usize, i32)>,
) -> Vec<TopicPartitions> {
    let mut out: Vec<TopicPartitions> = Vec::new();
    let mut current = usize::MAX;
    for (t, p) in sorted_pairs {
        if t != current {
            out.push(TopicPartitions {
                topic: topics[t].clone(),
                partitions: Vec::new(),
            });
            current = t;
        }
        if let Some(last) = out.last_mut() {
            last.partitions.push(p);
        }
    }
    out
}
