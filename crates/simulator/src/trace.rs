//! The trace: everything that happened in a run, in order: the kinds of entry and their
//! storage. What each entry says, in English and Chinese, is `narration/` (made when asked
//! for, so a long run stores no text).

use crate::scenario::{Action, Text};
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::assignor::KafkaQuirk;
use group_coordinator::event::EventKind;
use group_coordinator::{ErrorCode, Request, Response};
use serde::Serialize;

pub use crate::trace_store::Trace;

/// A partition, by topic and index.
pub type Tp = (Rc<str>, i32);

/// Partitions as `topic-0,1 other-2` (topics in the order they first appear), with three or
/// more consecutive partitions as a range: `orders-0..3,7`.
pub fn tps(list: &[Tp]) -> String {
    let mut topics: Vec<(&str, Vec<i32>)> = Vec::new();
    for (topic, p) in list {
        match topics.iter_mut().find(|(t, _)| *t == &**topic) {
            Some((_, ps)) => ps.push(*p),
            None => topics.push((topic, alloc::vec![*p])),
        }
    }
    let parts: Vec<String> = topics
        .into_iter()
        .map(|(t, ps)| alloc::format!("{t}-{}", ranges(&ps)))
        .collect();
    parts.join(" ")
}

/// `0,1,2,3,5,7,8` as `0..3,5,7,8`: a run of three or more consecutive numbers as a range.
fn ranges(ps: &[i32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ps.len() {
        let mut j = i;
        while j + 1 < ps.len() && ps[j + 1] == ps[j].wrapping_add(1) {
            j += 1;
        }
        if j - i >= 2 {
            out.push(alloc::format!("{}..{}", ps[i], ps[j]));
        } else {
            out.extend(ps[i..=j].iter().map(|p| alloc::format!("{p}")));
        }
        i = j + 1;
    }
    out.join(",")
}

/// What travels between a consumer and the coordinator's broker: the group APIs of the core,
/// plus FindCoordinator, which any broker answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MessageApi {
    FindCoordinator,
    JoinGroup,
    SyncGroup,
    Heartbeat,
    LeaveGroup,
    OffsetCommit,
    /// KIP-848's one RPC: join, heartbeat, acknowledge and leave.
    ConsumerGroupHeartbeat,
}

impl MessageApi {
    pub fn of(api: group_coordinator::Api) -> MessageApi {
        use group_coordinator::Api;
        match api {
            Api::JoinGroup => MessageApi::JoinGroup,
            Api::SyncGroup => MessageApi::SyncGroup,
            Api::Heartbeat => MessageApi::Heartbeat,
            Api::LeaveGroup => MessageApi::LeaveGroup,
            Api::ConsumerGroupHeartbeat => MessageApi::ConsumerGroupHeartbeat,
            // The simulated consumers send nothing else.
            _ => MessageApi::OffsetCommit,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MessageApi::FindCoordinator => "FindCoordinator",
            MessageApi::JoinGroup => "JoinGroup",
            MessageApi::SyncGroup => "SyncGroup",
            MessageApi::Heartbeat => "Heartbeat",
            MessageApi::LeaveGroup => "LeaveGroup",
            MessageApi::OffsetCommit => "OffsetCommit",
            MessageApi::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
        }
    }

    /// Whether the trace keeps the message itself (the group protocol's requests), or only
    /// its summary (heartbeats, commits, lookups: the bulk of a long run).
    /// Whether the request carries the member's generation id (`generationId` / `generation_id`
    /// in Kafka's schema): SyncGroup, Heartbeat and OffsetCommit do; JoinGroup, LeaveGroup and
    /// FindCoordinator do not.
    pub fn carries_generation(self) -> bool {
        matches!(
            self,
            MessageApi::SyncGroup
                | MessageApi::Heartbeat
                | MessageApi::OffsetCommit
                | MessageApi::ConsumerGroupHeartbeat
        )
    }

    pub fn keeps_body(self) -> bool {
        matches!(
            self,
            MessageApi::JoinGroup
                | MessageApi::SyncGroup
                | MessageApi::LeaveGroup
                | MessageApi::ConsumerGroupHeartbeat
        )
    }

    /// The book's name for it.
    pub(crate) fn zh(self) -> &'static str {
        match self {
            MessageApi::FindCoordinator => "查找协调者请求",
            MessageApi::JoinGroup => "加入组请求",
            MessageApi::SyncGroup => "同步组请求",
            MessageApi::Heartbeat => "心跳",
            MessageApi::LeaveGroup => "离开组请求",
            MessageApi::OffsetCommit => "提交偏移量请求",
            MessageApi::ConsumerGroupHeartbeat => "消费组心跳请求",
        }
    }
}

/// The Java client's member state: the classic protocol's (`AbstractCoordinator.MemberState`,
/// `docs/src/reference/classic-protocol.md#client-state`) and the consumer protocol's
/// (`internals.MemberState` of the KIP-848 consumer,
/// `docs/src/reference/consumer-group-protocol.md#client`). `Stable` is both protocols'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MemberState {
    Unjoined,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    /// Consumer protocol: not in the group (not subscribed, or left).
    Unsubscribed,
    /// Consumer protocol: heartbeating with epoch 0 until the first answer.
    Joining,
    /// Consumer protocol: revoking and assigning towards the target assignment.
    Reconciling,
    /// Consumer protocol: reconciled; the next heartbeat (sent at once) acknowledges it.
    Acknowledging,
    /// Consumer protocol: the coordinator fenced the member; it gives up its partitions (lost)
    /// and rejoins with epoch 0.
    Fenced,
    /// Consumer protocol: closing; the rebalance listener gives the partitions up first.
    PrepareLeaving,
    /// Consumer protocol: the leave heartbeat (epoch −1, or −2 for a static member) goes next.
    Leaving,
    /// Consumer protocol: left because `max.poll.interval.ms` expired; rejoins at the next
    /// `poll()`.
    Stale,
}

impl MemberState {
    /// The Java client's name (`UNJOINED`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            MemberState::Unjoined => "UNJOINED",
            MemberState::PreparingRebalance => "PREPARING_REBALANCE",
            MemberState::CompletingRebalance => "COMPLETING_REBALANCE",
            MemberState::Stable => "STABLE",
            MemberState::Unsubscribed => "UNSUBSCRIBED",
            MemberState::Joining => "JOINING",
            MemberState::Reconciling => "RECONCILING",
            MemberState::Acknowledging => "ACKNOWLEDGING",
            MemberState::Fenced => "FENCED",
            MemberState::PrepareLeaving => "PREPARE_LEAVING",
            MemberState::Leaving => "LEAVING",
            MemberState::Stale => "STALE",
        }
    }
}

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum LossReason {
    /// Dropped by the link's loss rate.
    Loss,
    /// The link is cut.
    Cut,
    /// The consumer process is gone (crashed).
    ConsumerDown,
    /// The user dropped it.
    Dropped,
}

/// A client-side timer that expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ClientExpiry {
    /// No heartbeat response for `session.timeout.ms`: the coordinator is marked unknown.
    SessionTimeout,
    /// No `poll()` for `max.poll.interval.ms`: the member leaves the group.
    PollTimeout,
}

/// A consumer's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Lifecycle {
    Started,
    Closed,
    Crashed,
    Paused,
    Resumed,
}

/// One thing that happened.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TraceKind {
    /// A narration checkpoint of the scenario.
    Narration {
        note: Text,
        /// The scenario's key moment.
        #[serde(skip_serializing_if = "core::ops::Not::not")]
        key: bool,
    },
    /// An action of the script or the user.
    Action {
        action: Box<Action>,
    },
    /// An action that could not be applied (e.g. closing a consumer that is not running).
    ActionIgnored {
        action: Box<Action>,
        why: crate::refusal::Refusal,
    },
    Lifecycle {
        consumer: Rc<str>,
        what: Lifecycle,
    },
    RequestSent {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        generation_id: i32,
        member_id: Rc<str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        request: Option<Rc<Request>>,
        /// Sent by a consumer-protocol member: `generation_id` is its member epoch.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        consumer_protocol: bool,
    },
    RequestDelivered {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
    },
    ResponseSent {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        error_code: ErrorCode,
        error: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        response: Option<Rc<Response>>,
    },
    ResponseDelivered {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        error_code: ErrorCode,
        error: &'static str,
    },
    MessageLost {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        response: bool,
        reason: LossReason,
    },
    RequestTimedOut {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
    },
    /// What the coordinator did (the core's own event).
    Coordinator {
        event: EventKind,
    },
    ClientState {
        consumer: Rc<str>,
        from: MemberState,
        to: MemberState,
    },
    /// `onJoinComplete`: the consumer's new assignment.
    Assigned {
        consumer: Rc<str>,
        generation_id: i32,
        assigned: Box<[Tp]>,
        added: Box<[Tp]>,
        revoked: Box<[Tp]>,
        /// How long the rebalance listener (`onPartitionsRevoked` for `revoked`, then
        /// `onPartitionsAssigned` for `added`) keeps the poll thread busy.
        #[serde(default, skip_serializing_if = "is_zero")]
        listener_ms: i64,
        /// A consumer-protocol member's reconciliation: `generation_id` is its member epoch.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        consumer_protocol: bool,
    },
    /// Partitions given up (`onPartitionsRevoked`), or lost (`onPartitionsLost`).
    Revoked {
        consumer: Rc<str>,
        partitions: Box<[Tp]>,
        lost: bool,
        /// How long the listener keeps the poll thread busy.
        #[serde(default, skip_serializing_if = "is_zero")]
        listener_ms: i64,
    },
    ClientExpired {
        consumer: Rc<str>,
        expiry: ClientExpiry,
    },
    /// The client's metadata refresh (`metadata.max.age.ms`) found partition counts it did not
    /// know.
    MetadataRefreshed {
        consumer: Rc<str>,
    },
    /// The client asks to rejoin (`requestRejoin`), with Kafka's reason.
    RejoinRequested {
        consumer: Rc<str>,
        reason: &'static str,
    },
    /// The leader's assignor met one of Kafka's own flaws (see `assignor::KafkaQuirk`): the
    /// model reproduces Kafka's invalid result, or returns a valid one where Kafka's Java throws.
    AssignorQuirk {
        consumer: Rc<str>,
        quirk: KafkaQuirk,
    },
    /// A non-retriable error was thrown to the application, which stops the consumer.
    ConsumerFailed {
        consumer: Rc<str>,
        error_code: ErrorCode,
        error: &'static str,
    },
    /// A broken invariant: a bug in the model, or a fault that Kafka itself allows.
    InvariantViolated {
        message: String,
    },
}

/// A trace entry: when, and what.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "TraceEntry")
)]
#[serde(rename_all = "camelCase")]
pub struct TraceEvent {
    pub index: usize,
    pub at_ms: i64,
    #[serde(flatten)]
    pub kind: TraceKind,
}

/// The languages of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Lang {
    #[default]
    En,
    Zh,
}

/// A narrated trace entry, as the views and the JS API get it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TraceEvent"))]
#[serde(rename_all = "camelCase")]
pub struct NarratedEvent<'a> {
    #[serde(flatten)]
    pub event: &'a TraceEvent,
    pub text: Text,
}

fn is_zero(ms: &i64) -> bool {
    *ms == 0
}
