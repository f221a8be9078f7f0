//! Semantic events the coordinator emits while it works: what the views draw and the tests read.
//! Drained with [`crate::Coordinator::drain_events`].

use crate::classic::GroupState;
use crate::timer::TimerKey;
use crate::{Api, ErrorCode};
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// One thing that happened, at a virtual time, to a group.
#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
#[cfg_attr(feature = "schema", schemars(rename = "CoordinatorEvent"))]
pub struct Event {
    pub at_ms: i64,
    pub group_id: String,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "type", rename_all_fields = "camelCase")
)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "CoordinatorEventKind")
)]
pub enum EventKind {
    /// A group came into existence (JoinGroup with an unknown group, or a simple commit).
    GroupCreated,
    /// The one funnel every state change goes through (`docs/src/reference/classic-protocol.md#states`), with its cause.
    StateChanged {
        from: GroupState,
        to: GroupState,
        cause: Cause,
    },
    /// The join phase completed and the generation moved on.
    GenerationBumped {
        generation_id: i32,
        protocol_name: Option<String>,
    },
    MemberAdded {
        member_id: String,
        group_instance_id: Option<String>,
    },
    /// A static member restarted: its record moved to a new member id (`docs/src/reference/classic-protocol.md#static-replacement`).
    MemberReplaced {
        old_member_id: String,
        new_member_id: String,
        group_instance_id: String,
    },
    /// A replacement was rolled back because the group record could not be written.
    MemberReplacementReverted {
        old_member_id: String,
        new_member_id: String,
    },
    MemberRemoved {
        member_id: String,
        reason: RemovalReason,
    },
    /// A member id handed out with MEMBER_ID_REQUIRED (KIP-394).
    PendingMemberAdded {
        member_id: String,
    },
    PendingMemberRemoved {
        member_id: String,
        reason: RemovalReason,
    },
    LeaderChanged {
        from: Option<String>,
        to: Option<String>,
    },
    /// A JoinGroup or SyncGroup response held until a later event completes it.
    ResponseParked {
        member_id: String,
        api: Api,
        correlation_id: i32,
    },
    /// A parked response that will never be sent (replaced by a newer request of the same
    /// member, or its member was removed while it waited in SyncGroup): the client times out.
    ResponseDropped {
        member_id: String,
        api: Api,
        correlation_id: i32,
    },
    /// (The key is typed; JSON writes it as Kafka's key text, `heartbeat-<group>-<member>`.)
    TimerScheduled {
        key: TimerKey,
        deadline_ms: i64,
    },
    TimerCancelled {
        key: TimerKey,
    },
    TimerFired {
        key: TimerKey,
    },
    /// A group record (`GroupMetadataValue`) was written to `__consumer_offsets`.
    GroupRecordPersisted {
        generation_id: i32,
        members: usize,
    },
    /// The write failed with this (unmapped) error.
    PersistFailed {
        error: ErrorCode,
    },
    /// The coordinator lost the group's partition (a classic or a consumer group).
    Unloaded,
    /// A coordinator loaded the group from its last record.
    Loaded {
        members: usize,
        /// The state it is loaded in (Stable with members, Empty without).
        state: GroupState,
    },
    /// The group was deleted (DeleteGroups, or the offsets cleanup) and is gone.
    Deleted,
    /// The offsets cleanup removed expired committed offsets.
    OffsetsExpired {
        partitions: usize,
    },
    /// A coordinator loaded the consumer group (KIP-848) from its records: as it was when
    /// unloaded, its members' session timers restarted.
    ConsumerGroupLoaded {
        members: usize,
        state: crate::consumer_group::ConsumerGroupState,
    },
    /// A consumer group's (KIP-848) state, derived after an input, changed.
    ConsumerGroupStateChanged {
        from: crate::consumer_group::ConsumerGroupState,
        to: crate::consumer_group::ConsumerGroupState,
    },
    /// The consumer group's inputs changed: a new group epoch.
    GroupEpochBumped {
        group_epoch: i32,
    },
    /// The group's subscribed regular expressions were resolved against the topics (Kafka's
    /// `handleRegularExpressionsResult`): each regex and the topics it matches now, in order.
    RegularExpressionsResolved {
        resolved: Vec<ResolvedRegex>,
    },
    /// A new target assignment, computed for this epoch with this server assignor.
    TargetAssignmentComputed {
        assignment_epoch: i32,
        #[cfg_attr(feature = "schema", schemars(extend("tsType" = r#""uniform" | "range""#)))]
        assignor: &'static str,
    },
    /// A member joined the consumer group.
    ConsumerMemberJoined {
        member_id: String,
    },
    /// A consumer group member moved: its state and epochs after the change.
    ConsumerMemberUpdated {
        member_id: String,
        state: crate::consumer_group::reconcile::MemberState,
        member_epoch: i32,
        previous_member_epoch: i32,
    },
    /// A member left the consumer group.
    ConsumerMemberRemoved {
        member_id: String,
        reason: ConsumerRemoval,
    },
    /// The group changed type with its members (online migration, KIP-848): a classic group
    /// became a consumer group when a consumer-protocol member joined it, or a consumer group
    /// became a classic group when its last consumer-protocol member left.
    GroupConverted {
        to: GroupType,
        /// The members carried over.
        members: usize,
    },
}

/// A regular expression and the topics it resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResolvedRegex {
    pub regex: String,
    pub topics: Vec<String>,
}

/// The two types of consumer groups a group id can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum GroupType {
    Classic,
    Consumer,
}

/// Why a consumer group member was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ConsumerRemoval {
    /// It left (epoch −1).
    Left,
    /// Its session timed out.
    SessionExpired,
    /// It did not revoke within its rebalance timeout.
    RebalanceTimeout,
    /// A static member rejoined under a new member id in its place.
    Replaced,
    /// A classic member told to rejoin did not send JoinGroup within its rebalance timeout.
    JoinTimeout,
    /// A classic member did not send SyncGroup within its rebalance timeout after joining.
    SyncTimeout,
}

impl EventKind {
    /// The group's state, generation, members or leader moved (not a timer, a parked response
    /// or a record write): what the core's own invariants are checked after, and what a reader
    /// is told first.
    pub fn moves_group(&self) -> bool {
        matches!(
            self,
            EventKind::StateChanged { .. }
                | EventKind::GenerationBumped { .. }
                | EventKind::MemberAdded { .. }
                | EventKind::MemberRemoved { .. }
                | EventKind::MemberReplaced { .. }
                | EventKind::LeaderChanged { .. }
                | EventKind::Loaded { .. }
                | EventKind::ConsumerGroupLoaded { .. }
                | EventKind::ConsumerGroupStateChanged { .. }
                | EventKind::GroupEpochBumped { .. }
                | EventKind::ConsumerMemberJoined { .. }
                | EventKind::ConsumerMemberRemoved { .. }
                | EventKind::GroupConverted { .. }
        )
    }
}

/// Why a member or a pending member left the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RemovalReason {
    /// LeaveGroup.
    LeaveGroup,
    /// Its heartbeat timer expired (session timeout, new-member timeout, pending-member expiry).
    SessionTimeout,
    /// A dynamic member that did not rejoin before the join phase completed.
    NotRejoined,
    /// It did not send SyncGroup before the sync timeout.
    SyncTimeout,
    /// GROUP_MAX_SIZE_REACHED while (re)joining a full group.
    GroupMaxSize,
    /// A pending member completed its join and became a member.
    Joined,
}

/// Why the group changed state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all_fields = "camelCase")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Cause {
    /// A member was added (JoinGroup of a new member).
    MemberAdded { member_id: String },
    /// The leader rejoined (always rebalances, `docs/src/reference/classic-protocol.md#join-known-member`).
    LeaderRejoined { member_id: String },
    /// A member rejoined with different protocols or metadata.
    MetadataChanged { member_id: String },
    /// A static member restarted with a new member id (and the protocol would change, or the
    /// group was CompletingRebalance).
    StaticMemberReplaced { member_id: String },
    /// LeaveGroup removed these members.
    MembersLeft { member_ids: Vec<String> },
    /// A member's session expired.
    SessionExpired { member_id: String },
    /// These members did not send SyncGroup in time.
    SyncTimeout { member_ids: Vec<String> },
    /// The join phase completed (everyone rejoined, or the join timer fired).
    JoinPhaseCompleted,
    /// The leader's assignment was persisted.
    AssignmentPersisted,
    /// Persisting the leader's assignment failed.
    AssignmentPersistFailed,
    /// A member rejoining a full group was removed (GROUP_MAX_SIZE_REACHED, Kafka 3.x path).
    GroupMaxSizeReached,
    /// The group was loaded with more members than `group.max.size`.
    LoadedOverCapacity,
    /// The coordinator unloaded the group.
    Unloaded,
    /// DeleteGroups.
    Deleted,
    /// The offsets cleanup removed an Empty group whose offsets had all expired.
    OffsetsExpired,
    /// A group of the other type (a consumer group, KIP-848) took the id of this Empty group.
    ReplacedByOtherType,
    /// The group became a consumer group with its members (online upgrade, KIP-848).
    ConvertedToConsumerGroup,
    /// The group was made from a consumer group whose last consumer-protocol member left
    /// (online downgrade): the rebalance that follows.
    ConvertedFromConsumerGroup,
}
