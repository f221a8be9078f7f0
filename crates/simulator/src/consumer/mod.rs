//! A simulated consumer that follows the Java client's classic-protocol coordinator logic
//! (`AbstractCoordinator` + `ConsumerCoordinator`, `docs/src/reference/classic-protocol.md#client`): the join/sync loop run from
//! `poll()`, the heartbeat thread, the poll timer, eager and cooperative rebalancing, static
//! membership, leave on close, and the reaction to every error code.
//!
//! Polls are lazy: the application is assumed to call `poll()` every `processingMs`, but the
//! simulation only wakes it when a poll has work (a rejoin, an auto-commit), at the next poll
//! boundary. A paused application stops polling, and only then can the poll timer expire.

use crate::config::{ConsumerConfig, GroupProtocol, RebalanceProtocol};
use crate::ledger::GroupGeneration;
use crate::scenario::{Application, ConsumerSpec, PauseKind};
use crate::trace::{ClientExpiry, Lifecycle, MemberState, MessageApi, Tp, TraceKind};
use crate::world::{Incoming, Outgoing, Pending, Timer, World};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use group_coordinator::assignor::{self, AssignmentInput, MemberSubscription, Strategy};
use group_coordinator::consumer_protocol::{
    Assignment, StickyUserData, Subscription, TopicPartitions, decode_cooperative_user_data,
    encode_cooperative_user_data,
};
use group_coordinator::ordered;
use group_coordinator::protocol::{
    Bytes, HeartbeatRequest, JoinGroupRequest, JoinGroupRequestProtocol, JoinGroupResponse,
    LeaveGroupRequest, MemberIdentity, OffsetCommitRequest, OffsetCommitRequestPartition,
    OffsetCommitRequestTopic, SyncGroupRequest, SyncGroupRequestAssignment,
};
use group_coordinator::{ErrorCode, Request, Response};

mod assignment;
mod external;
mod heartbeat;
mod lifecycle;
mod listener;
mod membership;
mod poll;
mod requests;
mod responses;
pub mod states;

pub use membership::Membership;

/// The consumer process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "ConsumerLife")
)]
pub enum Life {
    NotStarted,
    Running,
    /// Closing: waiting for the final offset commit before leaving.
    Closing,
    Closed,
    Crashed,
    /// A fatal error was thrown to the application, which stopped.
    Failed,
}

/// Whether the client knows its coordinator (FindCoordinator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CoordinatorStatus {
    Unknown,
    Finding,
    Known,
}

/// The client's generation triple (`docs/src/reference/classic-protocol.md#client-state`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generation {
    pub generation_id: i32,
    pub member_id: String,
    pub protocol_name: Option<String>,
}

impl Generation {
    fn none() -> Generation {
        Generation {
            generation_id: -1,
            member_id: String::new(),
            protocol_name: None,
        }
    }
}

/// A request the client waits on.
#[derive(Clone, Debug)]
struct InFlight {
    api: MessageApi,
    /// The generation when it was sent ("generation unchanged" checks, `docs/src/reference/classic-protocol.md#client-errors`);
    /// shared with the consumer's, so that sending copies no member id.
    generation: Rc<Generation>,
}

#[derive(Clone, Debug)]
pub struct Consumer {
    pub index: usize,
    pub name: Rc<str>,
    pub spec: ConsumerSpec,
    pub config: ConsumerConfig,
    /// The subscription, sorted: the topics by name, or those the pattern matched.
    pub topics: Vec<String>,
    /// `subscribe(Pattern)`: the regular expression (RE2/J syntax) the subscription follows.
    pub pattern: Option<TopicPattern>,
    pub life: Life,
    /// The non-retriable error that made the application stop using it (`Life::Failed`).
    pub failure: Option<ErrorCode>,
    pub incarnation: u32,
    pub paused: Option<PauseKind>,
    pub state: MemberState,
    pub generation: Rc<Generation>,
    /// The member id, shared by every trace entry that names it.
    member_id: Rc<str>,
    pub rejoin_needed: bool,
    needs_join_prepare: bool,
    rejoin_reason: &'static str,
    pub coordinator: CoordinatorStatus,
    /// What the application consumes now, and the generation it got it in.
    pub owned: BTreeSet<Tp>,
    pub owned_generation: i32,
    /// The group incarnation the generation belongs to (see `World::group_incarnation`).
    pub group_incarnation: u32,
    /// The eager sticky assignor's memory, sent back as its user data: the last assignment and
    /// the generation it came with (`StickyAssignor.onAssignment`), `None` before the first.
    /// Kept across a generation reset, as the Java assignor object keeps it; a restarted
    /// process starts without it.
    last_assignment: Option<LastAssignment>,
    in_flight: BTreeMap<i32, InFlight>,
    /// The last heartbeat (Heartbeat or ConsumerGroupHeartbeat) and OffsetCommit sent, written
    /// over by the next (`requests::rewritable`).
    sent_heartbeat: Option<Rc<Request>>,
    sent_commit: Option<Rc<Request>>,
    /// The JoinGroup and SyncGroup last sent, written over by the next (see
    /// `requests::rewritable`).
    sent_join: Option<Rc<Request>>,
    sent_sync: Option<Rc<Request>>,
    join: Option<i32>,
    sync: Option<i32>,
    heartbeat: Option<i32>,
    commit: Option<i32>,
    find: Option<i32>,
    /// onJoinPrepare's offset commit was answered (`docs/src/reference/classic-protocol.md#client-join-loop` step 2).
    prepare_committed: bool,
    pub heartbeat_enabled: bool,
    last_heartbeat_sent: i64,
    pub session_deadline: i64,
    /// When the poll timer expires: only while the application is paused (a polling
    /// application resets it every `processingMs`).
    pub poll_deadline: Option<i64>,
    poll_anchor: i64,
    last_commit: i64,
    backoff_attempts: u32,
    poll_token: u64,
    scheduled_poll: Option<i64>,
    heartbeat_token: u64,
    backoff_token: u64,
    /// Events that reached a frozen (GC-paused) process, replayed on resume.
    pub deferred: Vec<Pending>,
    pub is_leader: bool,
    /// The application's timing (the scenario's, or this consumer's own).
    app: Application,
    /// The poll thread is in the rebalance listener until then: polls wait for it.
    busy_until: i64,
    /// Partitions assigned whose `onPartitionsAssigned` has not returned yet: processed (owned,
    /// in the ledger) once `Timer::Listener` with this token fires.
    pending_owned: Option<(u64, GroupGeneration, Vec<Tp>)>,
    listener_token: u64,
    /// The seed of this process's per-batch processing jitter (drawn at start when it has one).
    jitter_seed: u64,
    /// The consumer protocol's client state (`group.protocol=consumer`).
    pub m: Membership,
    /// The protocol this process speaks: `group.protocol` when it was created (a changed
    /// setting takes effect at the next start, as a Java consumer is built with its protocol).
    protocol: GroupProtocol,
    /// Its topic metadata (topic -> partition count) and when it was fetched: what the leader
    /// assigns from, refreshed by `poll()` once older than `metadata.max.age.ms`.
    metadata: BTreeMap<String, i32>,
    metadata_at: i64,
    /// The leader's `assignmentSnapshot`: the partition counts of the group's subscribed topics
    /// it assigned from. Its metadata moving away from it makes the leader rejoin.
    assignment_snapshot: Option<BTreeMap<String, i32>>,
    /// A live run's real client: nothing is simulated (see `external.rs`).
    external: bool,
}

const JOIN_GROUP_VERSION: i16 = 9;
const SYNC_GROUP_VERSION: i16 = 5;
const HEARTBEAT_VERSION: i16 = 4;
const LEAVE_GROUP_VERSION: i16 = 5;
const OFFSET_COMMIT_VERSION: i16 = 9;

/// A subscription pattern, compiled once (RE2/J syntax, whole names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicPattern {
    pub text: String,
    re: group_coordinator::topic_regex::TopicRegex,
}

impl TopicPattern {
    /// `None` for a pattern RE2/J refuses (scenarios are checked before they run).
    pub fn new(text: &str) -> Option<TopicPattern> {
        let re = group_coordinator::topic_regex::TopicRegex::new(text).ok()?;
        Some(TopicPattern {
            text: String::from(text),
            re,
        })
    }

    pub fn matches(&self, topic: &str) -> bool {
        self.re.matches(topic)
    }
}

impl Consumer {
    /// A new consumer named `name` (`spec`'s name, as the world shares it).
    pub fn new(
        index: usize,
        name: Rc<str>,
        spec: ConsumerSpec,
        config: ConsumerConfig,
        app: Application,
    ) -> Consumer {
        let mut topics = spec.topics.clone();
        group_coordinator::ordered::sort(&mut topics);
        topics.dedup();
        let pattern = spec.pattern.as_deref().and_then(TopicPattern::new);
        let protocol = config.group_protocol;
        let state = match protocol {
            GroupProtocol::Classic => MemberState::Unjoined,
            GroupProtocol::Consumer => MemberState::Unsubscribed,
        };
        Consumer {
            index,
            name,
            spec,
            config,
            topics,
            pattern,
            life: Life::NotStarted,
            failure: None,
            incarnation: 0,
            paused: None,
            state,
            generation: Rc::new(Generation::none()),
            member_id: Rc::from(""),
            rejoin_needed: true,
            needs_join_prepare: true,
            rejoin_reason: "",
            coordinator: CoordinatorStatus::Unknown,
            owned: BTreeSet::new(),
            owned_generation: -1,
            metadata: BTreeMap::new(),
            metadata_at: 0,
            assignment_snapshot: None,
            group_incarnation: 0,
            last_assignment: None,
            in_flight: BTreeMap::new(),
            sent_heartbeat: None,
            sent_commit: None,
            sent_join: None,
            sent_sync: None,
            join: None,
            sync: None,
            heartbeat: None,
            commit: None,
            find: None,
            prepare_committed: false,
            heartbeat_enabled: false,
            last_heartbeat_sent: 0,
            session_deadline: 0,
            poll_deadline: None,
            poll_anchor: 0,
            last_commit: 0,
            backoff_attempts: 0,
            poll_token: 0,
            scheduled_poll: None,
            heartbeat_token: 0,
            backoff_token: 0,
            deferred: Vec::new(),
            is_leader: false,
            app,
            busy_until: 0,
            pending_owned: None,
            listener_token: 0,
            jitter_seed: 0,
            m: Membership::default(),
            protocol,
            external: false,
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self.life, Life::Running | Life::Closing)
    }

    pub fn is_frozen(&self) -> bool {
        self.paused == Some(PauseKind::Gc)
    }

    /// Requests awaiting an answer, oldest first: (correlation id, api).
    pub fn in_flight(&self) -> Vec<(i32, MessageApi)> {
        self.in_flight.iter().map(|(c, f)| (*c, f.api)).collect()
    }
}

/// The last classic assignment a consumer took (`onJoinComplete`): its partitions as decoded,
/// the generation it came with, and the bytes they were decoded from.
#[derive(Clone, Debug)]
struct LastAssignment {
    partitions: Vec<TopicPartitions>,
    generation: i32,
    bytes: Bytes,
}

impl Consumer {
    /// The partitions `bytes` decode to, when they are the bytes of the last assignment this
    /// consumer took: its own decoding of them, kept. (The agreement check compares what the
    /// coordinator holds for a member with what it owns at every Stable; for the usual member,
    /// which holds what it was last given, this spares decoding the same bytes again.)
    pub(crate) fn decoded_assignment(&self, bytes: &Bytes) -> Option<&[TopicPartitions]> {
        self.last_assignment
            .as_ref()
            .filter(|last| last.bytes == *bytes)
            .map(|last| last.partitions.as_slice())
    }

    /// As a restarted process: no assignment taken yet (so a check decodes the coordinator's).
    #[cfg(test)]
    pub(crate) fn forget_last_assignment(&mut self) {
        self.last_assignment = None;
    }
}

/// Whether `assigned` names exactly the partitions of `owned`, in their order (topics and
/// their partitions ascending, as the assignors give them; in another order it is not taken for
/// the same, and the caller builds its set).
pub(crate) fn names_exactly(assigned: &[TopicPartitions], owned: &BTreeSet<Tp>) -> bool {
    let mut owned = owned.iter();
    assigned.iter().all(|tp| {
        // Each topic's name is compared once, at its first partition (a string comparison is
        // byte by byte in wasm); its other partitions are the owned entries that follow under
        // the same shared name.
        let mut name: Option<&Rc<str>> = None;
        tp.partitions.iter().all(|&p| {
            owned.next().is_some_and(|(t, q)| {
                *q == p
                    && match name {
                        Some(n) => Rc::ptr_eq(n, t) || **t == *tp.topic,
                        None => {
                            name = Some(t);
                            **t == *tp.topic
                        }
                    }
            })
        })
    }) && owned.next().is_none()
}

/// The partitions a classic assignment names, by the world's shared topic names.
fn partitions_of(w: &mut World, assignment: &Assignment) -> BTreeSet<Tp> {
    ordered::set(assignment.assigned_partitions.iter().flat_map(|tp| {
        let topic = w.topic_name(&tp.topic);
        tp.partitions.iter().map(move |p| (topic.clone(), *p))
    }))
}

/// Owned partitions in the consumer protocol's shape (topics ascending, partitions ascending).
pub fn to_topic_partitions(owned: &BTreeSet<Tp>) -> Vec<TopicPartitions> {
    let mut out: Vec<TopicPartitions> = Vec::new();
    for (topic, p) in owned {
        match out.last_mut() {
            Some(tp) if *tp.topic == **topic => tp.partitions.push(*p),
            _ => {
                // The topic's list sized for its partitions (pushed one by one from one, ten
                // partitions took four allocations).
                // (`Rc`'s equality compares the pointers first.)
                let mut partitions = Vec::with_capacity(
                    owned
                        .range((topic.clone(), *p)..)
                        .take_while(|(t, _)| t == topic)
                        .count(),
                );
                partitions.push(*p);
                out.push(TopicPartitions {
                    topic: Arc::from(&**topic),
                    partitions,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assignment(lists: &[(&str, &[i32])]) -> Assignment {
        Assignment {
            version: 3,
            assigned_partitions: lists
                .iter()
                .map(|(topic, partitions)| TopicPartitions {
                    topic: Arc::from(*topic),
                    partitions: partitions.to_vec(),
                })
                .collect(),
            user_data: None,
        }
    }

    #[test]
    fn an_assignment_names_exactly_what_is_owned_only_in_the_same_order() {
        let owned: BTreeSet<Tp> = [("a", 0), ("a", 2), ("b", 1)]
            .into_iter()
            .map(|(t, p)| (Rc::from(t), p))
            .collect();
        let same = |lists: &[(&str, &[i32])]| {
            names_exactly(&assignment(lists).assigned_partitions, &owned)
        };
        assert!(same(&[("a", &[0, 2]), ("b", &[1])]));
        // The same partitions in another order: built as a set instead.
        assert!(!same(&[("b", &[1]), ("a", &[0, 2])]));
        assert!(!same(&[("a", &[2, 0]), ("b", &[1])]));
        // One more, one less, one twice, another.
        assert!(!same(&[("a", &[0, 2]), ("b", &[1, 2])]));
        assert!(!same(&[("a", &[0, 2])]));
        assert!(!same(&[("a", &[0, 2, 2]), ("b", &[1])]));
        assert!(!same(&[("a", &[0, 1]), ("b", &[1])]));
        // A topic's later partition runs into the next topic's (its name compared there too).
        assert!(!same(&[("a", &[0, 2, 1])]));
        assert!(!same(&[]));
        assert!(names_exactly(&[], &BTreeSet::new()));
    }
}
