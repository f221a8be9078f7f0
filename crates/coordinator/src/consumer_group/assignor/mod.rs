//! The broker's server-side assignors for consumer groups (KIP-848): `uniform` and `range`
//! (`docs/src/reference/consumer-group-protocol.md#assignors`). They compute a group's *target*
//! assignment from the members' subscriptions and their previous targets; the coordinator then
//! moves each member towards it on its own (`reconcile`).
//!
//! Canonical orders, where Kafka's result depends on Java hash-map order: members in the order
//! given (the coordinator gives them by member id ascending), topics by id ascending (Kafka's
//! signed `Uuid` order), partitions ascending. The homogeneous `uniform` builder follows
//! KAFKA-18688's fixed rule (a member that already holds one more than the minimum keeps it
//! while extra slots remain): it does not reshuffle a balanced assignment, which Kafka 4.0's did.

mod compact;
mod dense;
mod range;
mod uniform;

pub use compact::server_assign_compact;
pub use dense::GroupAssignment;

use super::uuid::Uuid;
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub use super::partitions::Partitions;
/// A member's assignment: topic id -> partitions (topics ascending).
pub type MemberAssignment = BTreeMap<Uuid, Partitions>;

/// A member as the assignor sees it. The coordinator lends its members' ids and previous
/// targets (as Kafka's `GroupSpecImpl` hands the assignor the group's own objects); tests and
/// the JS binding may own them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberSpec<'a> {
    pub member_id: Cow<'a, str>,
    pub instance_id: Option<Cow<'a, str>>,
    pub rack_id: Option<Cow<'a, str>>,
    /// Subscribed topics that exist (names resolved against the metadata; unknown ones left
    /// out), ascending and without duplicates ([`topic_ids`] makes such a list).
    pub subscribed: Cow<'a, [Uuid]>,
    /// Its previous *target* assignment (not what it owns: the assignor's stickiness is to the
    /// target it computed last time).
    pub previous: Cow<'a, MemberAssignment>,
}

/// What the assignors are given: the members (in the group's order) and the partition counts of
/// the topics they subscribe to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSpec<'a> {
    pub members: Vec<MemberSpec<'a>>,
    pub partitions: BTreeMap<Uuid, i32>,
    /// Whether the subscriptions are all the same, when the caller knows (the coordinator
    /// keeps per-topic subscriber counts, as Kafka's `GroupSpecImpl` is given it); `None`:
    /// worked out by comparing the members' subscriptions.
    pub subscription_type: Option<SubscriptionType>,
}

/// Topic ids as [`MemberSpec::subscribed`] wants them: ascending, each once.
pub fn topic_ids(ids: impl IntoIterator<Item = Uuid>) -> Vec<Uuid> {
    let mut v: Vec<Uuid> = ids.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Whether every member subscribes to the same topics (an empty group is homogeneous).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubscriptionType {
    Homogeneous,
    Heterogeneous,
}

impl SubscriptionType {
    /// As Kafka reads it off a group's subscribed-topic counts: homogeneous iff every topic name
    /// subscribed to (with or without metadata) has every one of the `members` as a subscriber.
    /// A topic without metadata counts: when only some members name it, the group is
    /// heterogeneous although their resolved topic ids agree.
    pub fn of_counts(counts: impl IntoIterator<Item = usize>, members: usize) -> SubscriptionType {
        if counts.into_iter().all(|n| n == members) {
            SubscriptionType::Homogeneous
        } else {
            SubscriptionType::Heterogeneous
        }
    }
}

impl GroupSpec<'_> {
    pub fn subscription_type(&self) -> SubscriptionType {
        if let Some(known) = self.subscription_type {
            return known;
        }
        match self.members.split_first() {
            Some((first, rest)) if rest.iter().any(|m| m.subscribed != first.subscribed) => {
                SubscriptionType::Heterogeneous
            }
            _ => SubscriptionType::Homogeneous,
        }
    }

    /// Partitions of `topic` (an error when a member subscribes to a topic without metadata,
    /// as Kafka's assignors throw).
    fn count(&self, topic: &Uuid) -> Result<i32, AssignError> {
        match self.partitions.get(topic) {
            Some(&n) if n >= 0 => Ok(n),
            _ => Err(missing(topic)),
        }
    }
}

/// The heterogeneous `uniform` builder on any group (Kafka's tests call it directly, also on
/// groups whose subscriptions happen to be equal).
pub fn heterogeneous_for_tests(spec: &GroupSpec) -> Result<GroupAssignment, AssignError> {
    uniform::heterogeneous(spec)
}

/// The topics with metadata (ascending ids, as `GroupSpec::partitions`), their partition counts
/// and each one's subscribers (member indices, in the order given).
pub(crate) struct Topics<'a> {
    pub ids: Vec<Uuid>,
    pub counts: Vec<i32>,
    /// In a homogeneous group every topic lends the one member order.
    pub subscribers: Vec<Cow<'a, [usize]>>,
}

impl<'a> Topics<'a> {
    /// Each member's topics as indices into the (ascending) topic list. Members sharing a
    /// subscription share the work: it is resolved once per distinct subscription. A subscribed
    /// topic without metadata is Kafka's error; a subscription out of order is refused.
    /// Homogeneous groups are read off the first member.
    pub(crate) fn of(spec: &GroupSpec, order: &'a [usize]) -> Result<Topics<'a>, AssignError> {
        let ids: Vec<Uuid> = spec.partitions.keys().copied().collect();
        let counts: Vec<i32> = spec.partitions.values().copied().collect();
        let mut subscribers: Vec<Cow<'a, [usize]>> = vec![Cow::Borrowed(&[]); ids.len()];
        // The indices of `m`'s topics, in order.
        let indices = |m: &MemberSpec| -> Result<Vec<usize>, AssignError> {
            if !m.subscribed.is_sorted_by(|a, b| a < b) {
                return Err(AssignError(alloc::format!(
                    "member {}: subscribed topics must be ascending and distinct",
                    m.member_id
                )));
            }
            m.subscribed
                .iter()
                .map(|t| match ids.binary_search(t) {
                    Ok(k) if counts[k] >= 0 => Ok(k),
                    _ => Err(missing(t)),
                })
                .collect()
        };
        match (spec.subscription_type(), spec.members.first()) {
            (_, None) => {}
            (SubscriptionType::Homogeneous, Some(first)) => {
                for k in indices(first)? {
                    subscribers[k] = Cow::Borrowed(order);
                }
            }
            (SubscriptionType::Heterogeneous, Some(_)) => {
                // Distinct subscriptions -> their indices; each member's class.
                let mut classes: BTreeMap<&[Uuid], usize> = BTreeMap::new();
                let mut class_indices: Vec<Vec<usize>> = Vec::new();
                let mut class_of = Vec::with_capacity(order.len());
                for &i in order {
                    let m = &spec.members[i];
                    let class = match classes.get(m.subscribed.as_ref()) {
                        Some(&c) => c,
                        None => {
                            class_indices.push(indices(m)?);
                            classes.insert(m.subscribed.as_ref(), class_indices.len() - 1);
                            class_indices.len() - 1
                        }
                    };
                    class_of.push(class);
                }
                // Every topic's list made at its size, then filled in member order.
                let mut sizes = vec![0usize; ids.len()];
                for &c in &class_of {
                    for &k in &class_indices[c] {
                        sizes[k] += 1;
                    }
                }
                for (k, n) in sizes.into_iter().enumerate() {
                    if n > 0 {
                        subscribers[k] = Cow::Owned(Vec::with_capacity(n));
                    }
                }
                for (&i, &c) in order.iter().zip(&class_of) {
                    for &k in &class_indices[c] {
                        subscribers[k].to_mut().push(i);
                    }
                }
            }
        }
        Ok(Topics {
            ids,
            counts,
            subscribers,
        })
    }
}

fn missing(topic: &Uuid) -> AssignError {
    AssignError(alloc::format!(
        "Members are subscribed to topic {topic} which doesn't exist in the topic metadata."
    ))
}

/// Kafka's `PartitionAssignorException`: the heartbeat that ran the assignor gets
/// UNKNOWN_SERVER_ERROR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignError(pub String);

/// The server assignors by their `group.consumer.assignors` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ServerAssignor {
    Uniform,
    Range,
}

impl ServerAssignor {
    pub const ALL: [ServerAssignor; 2] = [ServerAssignor::Uniform, ServerAssignor::Range];

    pub fn name(self) -> &'static str {
        match self {
            ServerAssignor::Uniform => "uniform",
            ServerAssignor::Range => "range",
        }
    }

    pub fn from_name(name: &str) -> Option<ServerAssignor> {
        ServerAssignor::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The target assignment of every member, in the spec's member order (an empty one when
    /// it gets nothing), in one buffer ([`GroupAssignment`]). Kafka's `GroupAssignment` is
    /// keyed by member id; by position, no id is copied.
    pub fn assign(self, spec: &GroupSpec) -> Result<GroupAssignment, AssignError> {
        // (Each builder checks that the topics it assigns have metadata.)
        match self {
            ServerAssignor::Uniform => match spec.subscription_type() {
                SubscriptionType::Homogeneous => uniform::homogeneous(spec),
                SubscriptionType::Heterogeneous => uniform::heterogeneous(spec),
            },
            ServerAssignor::Range => range::assign(spec),
        }
    }

    /// [`ServerAssignor::assign`] keyed by member id, as Kafka's `GroupAssignment` is.
    pub fn assign_by_member_id(
        self,
        spec: &GroupSpec,
    ) -> Result<BTreeMap<String, MemberAssignment>, AssignError> {
        let target = self.assign(spec)?;
        Ok(spec
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                (
                    String::from(m.member_id.as_ref()),
                    target.member_assignment(i),
                )
            })
            .collect())
    }
}
