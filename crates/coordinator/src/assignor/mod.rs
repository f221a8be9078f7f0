//! Kafka's client-side partition assignors (run by the leader of a classic group), as pure
//! functions: input in, assignment out (`docs/src/reference/assignors.md`).
//!
//! Canonical orders: where Kafka's result depends on Java hash-map iteration order, these
//! assignors iterate members by id (or by the static-first rule where Kafka sorts), topics by
//! name and partitions by number, and say so where it matters. Strings compare as bytes, which
//! equals Java's UTF-16 order for the ASCII names Kafka uses.

mod checks;
pub(crate) mod compact;
mod load_queue;
mod prepared;
mod range;
mod round_robin;
mod sticky;

pub use checks::{
    check_as_kafka, is_balanced, is_sticky, moved_partitions, revoked_and_assigned, validate,
    validate_as_kafka, validate_cooperative,
};
pub use compact::{CompactInput, assign_compact, assign_compact_owned};
pub use prepared::{DenseAssignment, Prepared, prepare};

use crate::consumer_protocol::TopicPartitions;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// One member's subscription as the leader sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(in_out)]
#[cfg_attr(feature = "schema", schemars(rename = "AssignmentMember"))]
pub struct MemberSubscription {
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub member_id: String,
    pub group_instance_id: Option<String>,
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
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
#[json(in_out)]
pub struct AssignmentInput {
    /// Topic name -> number of partitions. Topics members subscribe to but missing here have no
    /// metadata: nobody gets anything from them.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub topics: BTreeMap<String, i32>,
    /// Topic -> for each partition, the racks of its replicas. Absent = no rack information.
    pub racks: BTreeMap<String, Vec<Vec<String>>>,
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
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

/// [`assign`], and where Kafka's own assignor misbehaves on this input (what the simulated
/// leader narrates; empty on every input where Kafka's Java is valid and does not throw).
pub fn assign_explained(
    strategy: Strategy,
    input: &AssignmentInput,
) -> Result<(AssignmentOutput, Vec<KafkaQuirk>), AssignError> {
    let prepared = prepare(input)?;
    let assignment = prepared.assign(strategy)?;
    let quirks = prepared.kafka_quirks(&assignment);
    Ok((prepared.output(assignment), quirks))
}

/// What the simulated leader does at each rebalance: [`assign_explained`], and
/// [`check_as_kafka`]'s verdict on the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub output: AssignmentOutput,
    pub quirks: Vec<KafkaQuirk>,
    /// [`validate_as_kafka`]'s answer.
    pub valid: Result<(), String>,
    /// For cooperative-sticky, how many partitions [`revoked_and_assigned`] finds (0 for the
    /// other strategies).
    pub moved_at_once: usize,
}

/// [`assign_explained`] with [`check_as_kafka`]'s verdict, the same verdict in a fraction of the
/// time: an assignment that passes is checked before it is named, partitions by number; one
/// that does not is checked by name, for the exact first error (measured: the named check was
/// as much as the assignor itself, 8% of a 300-member rolling restart).
pub fn assign_checked(strategy: Strategy, input: &AssignmentInput) -> Result<Checked, AssignError> {
    let prepared = prepare(input)?;
    let assignment = prepared.assign(strategy)?;
    let quirks = prepared.kafka_quirks(&assignment);
    let dense = checks::check_dense(strategy, &prepared, &assignment);
    let output = prepared.output(assignment);
    let (valid, moved_at_once) = match dense {
        Some(moved) => (Ok(()), moved),
        None => check_as_kafka(strategy, input, &output, &quirks),
    };
    Ok(Checked {
        output,
        quirks,
        valid,
        moved_at_once,
    })
}

/// Two places where Kafka's sticky family (`AbstractStickyAssignor`'s general path, Kafka 4.0)
/// misbehaves when subscriptions have changed since the owned partitions were claimed. Each is
/// Kafka's, not this model's; the model reproduces the first and deliberately diverges on the
/// second.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all_fields = "camelCase")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum KafkaQuirk {
    /// `performReassignments` moves a partition back to the member an older-generation claim
    /// names as its previous owner without checking that the member still subscribes to the
    /// partition's topic. Kafka's result is then invalid (a member gets a partition of a topic it
    /// dropped); the model gives exactly Kafka's result. The Java client that receives it sees
    /// that its assignment does not match its subscription and rejoins without taking it.
    PreviousOwnerNotSubscribed {
        member: String,
        topic: String,
        partition: i32,
    },
    /// `performReassignments` looks up the previous owner's current assignment, but a member that
    /// cannot take part in reassignment (it subscribes only to topics nobody else does, and is
    /// full) was taken out of that map: Kafka's Java throws a `NullPointerException` from the
    /// leader's `poll()`. The model does not throw: it skips that previous owner, as if the
    /// lookup had found it unable to take the partition, and returns a valid assignment. This is
    /// a deliberate divergence: an exception inside the leader would end the simulated run's
    /// story at a Java bug rather than show the protocol.
    JavaThrowsNullPointer {
        previous_owner: String,
        topic: String,
        partition: i32,
    },
}

/// The largest input the assignors take: Kafka's JMH grid (`docs/src/reference/assignors.md#jmh-grid`) goes to 10,000 members
/// and 500,000 partitions. Bounds keep one call's work bounded whatever a caller passes (a
/// topic "with" two billion partitions is a few bytes of input); measured in wasm under Node,
/// 10,000 members on 1,000,000 partitions take ~0.3 s.
pub const MAX_MEMBERS: usize = 10_000;
/// See [`MAX_MEMBERS`].
pub const MAX_PARTITIONS: i64 = 1_000_000;
/// Claimed partitions (`ownedPartitions` entries) in all: twice the partitions, so that members
/// may conflict over every one.
pub const MAX_CLAIMS: usize = 2 * MAX_PARTITIONS as usize;

/// Refuses inputs no Kafka group could produce: duplicate member ids, negative partition
/// counts, rack lists that do not match the partition count; and inputs past the bounds above.
pub fn check_input(input: &AssignmentInput) -> Result<(), AssignError> {
    members_by_id(input)?;
    check_topics(input)
}

/// Input member indices sorted by member id; refuses a member id that appears twice.
pub(crate) fn members_by_id(input: &AssignmentInput) -> Result<Vec<usize>, AssignError> {
    if input.members.len() > MAX_MEMBERS {
        return Err(AssignError(alloc::format!(
            "{} members, more than the {MAX_MEMBERS} this model assigns",
            input.members.len()
        )));
    }
    let claims: usize = input
        .members
        .iter()
        .flat_map(|m| &m.owned_partitions)
        .map(|tp| tp.partitions.len())
        .sum();
    if claims > MAX_CLAIMS {
        return Err(AssignError(alloc::format!(
            "{claims} owned partitions claimed in all, more than {MAX_CLAIMS}"
        )));
    }
    crate::compare::by_name(input.members.len(), |m| &input.members[m].member_id).map_err(|m| {
        AssignError(alloc::format!(
            "member \"{}\" appears twice",
            input.members[m].member_id
        ))
    })
}

/// The topic half of [`check_input`].
pub(crate) fn check_topics(input: &AssignmentInput) -> Result<(), AssignError> {
    let mut total: i64 = 0;
    for (topic, &n) in &input.topics {
        if n < 0 {
            return Err(AssignError(alloc::format!(
                "topic \"{topic}\": negative partition count {n}"
            )));
        }
        total += i64::from(n);
    }
    if total > MAX_PARTITIONS {
        return Err(AssignError(alloc::format!(
            "{total} partitions in all, more than the {MAX_PARTITIONS} this model assigns"
        )));
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
