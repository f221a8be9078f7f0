//! A simulated consumer that follows the Java client's classic-protocol coordinator logic
//! (`AbstractCoordinator` + `ConsumerCoordinator`, spec §7): the join/sync loop run from
//! `poll()`, the heartbeat thread, the poll timer, eager and cooperative rebalancing, static
//! membership, leave on close, and the reaction to every error code.
//!
//! Polls are lazy: the application is assumed to call `poll()` every `processingMs`, but the
//! simulation only wakes it when a poll has work (a rejoin, an auto-commit), at the next poll
//! boundary. A paused application stops polling, and only then can the poll timer expire.

use crate::config::{ConsumerConfig, RebalanceProtocol};
use crate::scenario::{ConsumerSpec, PauseKind};
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
use group_coordinator::protocol::{
    HeartbeatRequest, JoinGroupRequest, JoinGroupRequestProtocol, JoinGroupResponse,
    LeaveGroupRequest, MemberIdentity, OffsetCommitRequest, OffsetCommitRequestPartition,
    OffsetCommitRequestTopic, SyncGroupRequest, SyncGroupRequestAssignment,
};
use group_coordinator::{ErrorCode, Request, Response};

/// The consumer process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
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
pub enum CoordinatorStatus {
    Unknown,
    Finding,
    Known,
}

/// The client's generation triple (spec §7.1).
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
    /// The generation when it was sent ("generation unchanged" checks, spec §7.3).
    generation: Generation,
}

#[derive(Clone, Debug)]
pub struct Consumer {
    pub index: usize,
    pub name: Rc<str>,
    pub spec: ConsumerSpec,
    pub config: ConsumerConfig,
    /// The subscription, sorted.
    pub topics: Vec<String>,
    pub life: Life,
    pub incarnation: u32,
    pub paused: Option<PauseKind>,
    pub state: MemberState,
    pub generation: Generation,
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
    last_assignment: Option<(Vec<TopicPartitions>, i32)>,
    in_flight: BTreeMap<i32, InFlight>,
    join: Option<i32>,
    sync: Option<i32>,
    heartbeat: Option<i32>,
    commit: Option<i32>,
    find: Option<i32>,
    /// onJoinPrepare's offset commit was answered (spec §7.2 step 2).
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
}

const JOIN_GROUP_VERSION: i16 = 9;
const SYNC_GROUP_VERSION: i16 = 5;
const HEARTBEAT_VERSION: i16 = 4;
const LEAVE_GROUP_VERSION: i16 = 5;
const OFFSET_COMMIT_VERSION: i16 = 9;

impl Consumer {
    pub fn new(index: usize, spec: ConsumerSpec, config: ConsumerConfig) -> Consumer {
        let mut topics = spec.topics.clone();
        topics.sort();
        topics.dedup();
        Consumer {
            index,
            name: Rc::from(spec.name.as_str()),
            spec,
            config,
            topics,
            life: Life::NotStarted,
            incarnation: 0,
            paused: None,
            state: MemberState::Unjoined,
            generation: Generation::none(),
            member_id: Rc::from(""),
            rejoin_needed: true,
            needs_join_prepare: true,
            rejoin_reason: "",
            coordinator: CoordinatorStatus::Unknown,
            owned: BTreeSet::new(),
            owned_generation: -1,
            group_incarnation: 0,
            last_assignment: None,
            in_flight: BTreeMap::new(),
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

    // ---- lifecycle -----------------------------------------------------------------------

    /// The application creates the consumer (again): a fresh process with no member id.
    pub fn start(&mut self, w: &mut World) {
        let index = self.index;
        let spec = self.spec.clone();
        let config = self.config.clone();
        let incarnation = self.incarnation + 1;
        *self = Consumer::new(index, spec, config);
        self.incarnation = incarnation;
        self.life = Life::Running;
        w.client_generations[index] = (w.group_incarnation, -1);
        self.poll_anchor = w.now;
        self.last_commit = w.now;
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Started,
        });
        self.request_poll(w);
    }

    /// `KafkaConsumer.close()`: commit, then (if enabled) revoke and leave.
    pub fn close(&mut self, w: &mut World) {
        self.life = Life::Closing;
        if self.config.enable_auto_commit
            && self.state == MemberState::Stable
            && !self.owned.is_empty()
            && self.coordinator == CoordinatorStatus::Known
        {
            if self.commit.is_none() {
                self.send_commit(w);
            }
            return;
        }
        self.finish_close(w);
    }

    fn finish_close(&mut self, w: &mut World) {
        self.heartbeat_enabled = false;
        if self.config.internal_leave_group_on_close {
            // onLeavePrepare: lost if the generation was reset or a rebalance is under way.
            let lost = self.generation.generation_id < 0 || self.state != MemberState::Stable;
            self.drop_owned(w, lost);
            self.maybe_leave_group(w, "the consumer is being closed");
        } else {
            self.drop_owned(w, true);
        }
        self.life = Life::Closed;
        self.paused = None;
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Closed,
        });
    }

    /// The process dies: nothing is sent, what it consumed is no longer consumed.
    pub fn crash(&mut self, w: &mut World) {
        self.life = Life::Crashed;
        self.paused = None;
        self.heartbeat_enabled = false;
        let owned: Vec<Tp> = core::mem::take(&mut self.owned).into_iter().collect();
        for tp in &owned {
            w.release(self.index, tp);
        }
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Crashed,
        });
    }

    pub fn pause(&mut self, w: &mut World, kind: PauseKind) {
        self.paused = Some(kind);
        // The application stops calling poll(): the poll timer runs from its last poll.
        let last_poll = self.last_poll_boundary(w.now);
        self.poll_deadline = Some(last_poll + self.config.max_poll_interval_ms);
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Paused,
        });
        self.schedule_heartbeat_thread(w);
    }

    pub fn resume(&mut self, w: &mut World) -> Vec<Pending> {
        self.paused = None;
        self.poll_deadline = None;
        self.poll_anchor = w.now;
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Resumed,
        });
        self.scheduled_poll = None;
        self.request_poll(w);
        self.schedule_heartbeat_thread(w);
        core::mem::take(&mut self.deferred)
    }

    /// `subscribe(topics)`: a changed subscription makes the member rejoin.
    pub fn subscribe(&mut self, w: &mut World, topics: &[String]) {
        let mut topics = topics.to_vec();
        topics.sort();
        topics.dedup();
        if topics == self.topics {
            return;
        }
        self.topics = topics;
        if self.is_running() {
            self.request_rejoin(w, "subscription has changed");
        }
    }

    // ---- the poll loop -------------------------------------------------------------------

    fn last_poll_boundary(&self, now: i64) -> i64 {
        let p = self.spec.processing_ms;
        if p <= 0 || now <= self.poll_anchor {
            return now;
        }
        self.poll_anchor + (now - self.poll_anchor) / p * p
    }

    fn next_poll_boundary(&self, t: i64) -> i64 {
        let p = self.spec.processing_ms;
        if p <= 0 || t <= self.poll_anchor {
            return t.max(self.poll_anchor);
        }
        self.poll_anchor + (t - self.poll_anchor + p - 1) / p * p
    }

    /// Makes the application's next poll() run, at its next poll boundary from now.
    fn request_poll(&mut self, w: &mut World) {
        self.request_poll_at(w, w.now);
    }

    fn request_poll_at(&mut self, w: &mut World, t: i64) {
        if !self.is_running() || self.paused.is_some() {
            return;
        }
        let at = self.next_poll_boundary(t.max(w.now));
        if self.scheduled_poll.is_some_and(|s| s <= at && s >= w.now) {
            return;
        }
        self.poll_token += 1;
        self.scheduled_poll = Some(at);
        w.schedule_timer(
            at,
            self.index,
            self.incarnation,
            Timer::Poll(self.poll_token),
        );
    }

    pub fn on_timer(&mut self, w: &mut World, timer: Timer) {
        match timer {
            Timer::Poll(token) if token == self.poll_token => {
                self.scheduled_poll = None;
                self.poll(w);
            }
            Timer::Heartbeat(token) if token == self.heartbeat_token => self.heartbeat_thread(w),
            Timer::Backoff(token) if token == self.backoff_token => self.lookup_coordinator(w),
            Timer::RequestTimeout(correlation_id) => self.on_request_timeout(w, correlation_id),
            _ => {}
        }
    }

    /// `KafkaConsumer.poll()`: the coordinator's part of it.
    fn poll(&mut self, w: &mut World) {
        if self.life != Life::Running || self.paused.is_some() {
            return;
        }
        match self.coordinator {
            CoordinatorStatus::Unknown => return self.lookup_coordinator(w),
            CoordinatorStatus::Finding => return,
            CoordinatorStatus::Known => {}
        }
        if self.rejoin_needed || self.state != MemberState::Stable {
            self.join_group_if_needed(w);
            return;
        }
        if self.config.enable_auto_commit {
            let due = self.last_commit + self.config.auto_commit_interval_ms;
            if w.now >= due {
                if self.commit.is_none() && !self.owned.is_empty() {
                    self.send_commit(w);
                }
                self.last_commit = w.now;
            }
            let next = self.last_commit + self.config.auto_commit_interval_ms;
            self.request_poll_at(w, next);
        }
    }

    /// `joinGroupIfNeeded` (spec §7.2).
    fn join_group_if_needed(&mut self, w: &mut World) {
        if self.join.is_some() || self.sync.is_some() {
            return;
        }
        if self.needs_join_prepare {
            // onJoinPrepare commits first and waits for the commit (on a later poll).
            if self.config.enable_auto_commit
                && self.generation.generation_id >= 0
                && !self.owned.is_empty()
                && !self.prepare_committed
            {
                if self.commit.is_none() {
                    self.send_commit(w);
                }
                return;
            }
            self.on_join_prepare(w);
        }
        self.send_join_group(w);
    }

    /// `onJoinPrepare`: eager revokes everything, cooperative only what is no longer
    /// subscribed; after a generation reset everything is lost.
    fn on_join_prepare(&mut self, w: &mut World) {
        self.needs_join_prepare = false;
        self.prepare_committed = false;
        if self.generation.generation_id < 0 {
            self.drop_owned(w, true);
        } else if self.config.rebalance_protocol() == RebalanceProtocol::Eager {
            self.drop_owned(w, false);
        } else {
            let gone: Vec<Tp> = self
                .owned
                .iter()
                .filter(|(t, _)| !self.topics.iter().any(|s| s.as_str() == &**t))
                .cloned()
                .collect();
            self.give_up(w, gone, false);
        }
    }

    fn drop_owned(&mut self, w: &mut World, lost: bool) {
        let all: Vec<Tp> = self.owned.iter().cloned().collect();
        self.give_up(w, all, lost);
    }

    fn give_up(&mut self, w: &mut World, partitions: Vec<Tp>, lost: bool) {
        if partitions.is_empty() {
            return;
        }
        for tp in &partitions {
            self.owned.remove(tp);
            w.release(self.index, tp);
        }
        w.record(TraceKind::Revoked {
            consumer: self.name.clone(),
            partitions: partitions.into(),
            lost,
        });
    }

    fn set_generation(&mut self, w: &mut World, generation: Generation) {
        self.group_incarnation = w.group_incarnation;
        if *self.member_id != *generation.member_id {
            self.member_id = Rc::from(generation.member_id.as_str());
        }
        w.client_generations[self.index] = (w.group_incarnation, generation.generation_id);
        self.generation = generation;
    }

    fn set_state(&mut self, w: &mut World, to: MemberState) {
        if self.state != to {
            w.record(TraceKind::ClientState {
                consumer: self.name.clone(),
                from: self.state,
                to,
            });
            self.state = to;
            w.mark_dirty();
        }
    }

    fn request_rejoin(&mut self, w: &mut World, reason: &'static str) {
        if !self.rejoin_needed || self.rejoin_reason != reason {
            w.record(TraceKind::RejoinRequested {
                consumer: self.name.clone(),
                reason,
            });
        }
        self.rejoin_needed = true;
        self.rejoin_reason = reason;
        w.mark_dirty();
        self.request_poll(w);
    }

    // ---- requests ------------------------------------------------------------------------

    fn send(&mut self, w: &mut World, api: MessageApi, request: Request, timeout_ms: i64) -> i32 {
        let correlation_id = request.correlation_id();
        self.send_message(
            w,
            api,
            correlation_id,
            Outgoing::Request(Rc::new(request)),
            timeout_ms,
        );
        correlation_id
    }

    /// Sends one message to the coordinator's broker, waits for its answer and arms its
    /// request timeout. FindCoordinator carries no member identity (any broker answers it).
    fn send_message(
        &mut self,
        w: &mut World,
        api: MessageApi,
        correlation_id: i32,
        message: Outgoing,
        timeout_ms: i64,
    ) {
        self.in_flight.insert(
            correlation_id,
            InFlight {
                api,
                generation: self.generation.clone(),
            },
        );
        let (generation_id, member_id) = match message {
            Outgoing::FindCoordinator { .. } => (-1, Rc::from("")),
            Outgoing::Request(_) => (self.generation.generation_id, self.member_id.clone()),
        };
        w.send(
            self.index,
            self.incarnation,
            generation_id,
            &member_id,
            message,
        );
        w.schedule_timer(
            w.now + timeout_ms,
            self.index,
            self.incarnation,
            Timer::RequestTimeout(correlation_id),
        );
    }

    fn subscription(&self, strategy: Strategy) -> Subscription {
        let owned = to_topic_partitions(&self.owned);
        let user_data = match strategy {
            Strategy::Sticky => self
                .last_assignment
                .as_ref()
                .map(|(assignment, generation)| {
                    StickyUserData {
                        previous_assignment: assignment.clone(),
                        generation: Some(*generation),
                    }
                    .encode()
                }),
            Strategy::CooperativeSticky => {
                Some(encode_cooperative_user_data(self.generation.generation_id))
            }
            Strategy::Range | Strategy::RoundRobin => None,
        };
        Subscription {
            version: 3,
            topics: self.topics.clone(),
            user_data,
            owned_partitions: owned,
            generation_id: self.generation.generation_id,
            rack_id: self.config.client_rack.clone(),
        }
    }

    fn send_join_group(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let protocols = self
            .config
            .partition_assignment_strategy
            .iter()
            .map(|s| JoinGroupRequestProtocol {
                name: s.name().to_string(),
                metadata: self.subscription(*s).encode(),
            })
            .collect();
        let request = Request::JoinGroup(JoinGroupRequest {
            api_version: JOIN_GROUP_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            session_timeout_ms: self.config.session_timeout_ms as i32,
            rebalance_timeout_ms: self.config.max_poll_interval_ms as i32,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            protocol_type: "consumer".to_string(),
            protocols,
            reason: Some(String::from(if self.rejoin_reason.is_empty() {
                "need to join the group"
            } else {
                self.rejoin_reason
            })),
        });
        self.set_state(w, MemberState::PreparingRebalance);
        self.heartbeat_enabled = false;
        let timeout = self.config.join_request_timeout_ms();
        self.join = Some(self.send(w, MessageApi::JoinGroup, request, timeout));
    }

    fn send_sync_group(&mut self, w: &mut World, assignments: Vec<SyncGroupRequestAssignment>) {
        let correlation_id = w.next_correlation_id();
        let request = Request::SyncGroup(SyncGroupRequest {
            api_version: SYNC_GROUP_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            protocol_type: Some("consumer".to_string()),
            protocol_name: self.generation.protocol_name.clone(),
            assignments,
        });
        let timeout = self.config.request_timeout_ms;
        self.sync = Some(self.send(w, MessageApi::SyncGroup, request, timeout));
    }

    fn send_heartbeat(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let request = Request::Heartbeat(HeartbeatRequest {
            api_version: HEARTBEAT_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
        });
        self.last_heartbeat_sent = w.now;
        let timeout = self.config.request_timeout_ms;
        self.heartbeat = Some(self.send(w, MessageApi::Heartbeat, request, timeout));
    }

    fn send_commit(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let mut topics: Vec<OffsetCommitRequestTopic> = Vec::new();
        for (topic, partition) in &self.owned {
            let entry = OffsetCommitRequestPartition {
                partition_index: *partition,
                // A stand-in position that only grows: the virtual time.
                committed_offset: w.now,
                committed_leader_epoch: -1,
                commit_timestamp: -1,
                committed_metadata: Some(String::new()),
            };
            match topics.last_mut() {
                Some(t) if t.name.as_str() == &**topic => t.partitions.push(entry),
                _ => topics.push(OffsetCommitRequestTopic {
                    name: topic.to_string(),
                    partitions: alloc::vec![entry],
                }),
            }
        }
        let request = Request::OffsetCommit(OffsetCommitRequest {
            api_version: OFFSET_COMMIT_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id_or_member_epoch: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            retention_time_ms: -1,
            topics,
        });
        let timeout = self.config.request_timeout_ms;
        self.commit = Some(self.send(w, MessageApi::OffsetCommit, request, timeout));
    }

    /// `maybeLeaveGroup` (spec §7.5): dynamic members with a member id send LeaveGroup once;
    /// everyone resets.
    fn maybe_leave_group(&mut self, w: &mut World, reason: &'static str) {
        if self.config.group_instance_id.is_none()
            && self.coordinator == CoordinatorStatus::Known
            && self.state != MemberState::Unjoined
            && !self.generation.member_id.is_empty()
        {
            let correlation_id = w.next_correlation_id();
            let request = Request::LeaveGroup(LeaveGroupRequest {
                api_version: LEAVE_GROUP_VERSION,
                correlation_id,
                client_id: self.spec.name.clone(),
                group_id: w.group_id.clone(),
                member_id: String::new(),
                members: alloc::vec![MemberIdentity {
                    member_id: self.generation.member_id.clone(),
                    group_instance_id: None,
                    reason: Some(reason.to_string()),
                }],
            });
            let timeout = self.config.request_timeout_ms;
            self.send(w, MessageApi::LeaveGroup, request, timeout);
        }
        self.reset_generation(w, true);
        self.needs_join_prepare = true;
        self.rejoin_needed = true;
        self.rejoin_reason = "consumer pro-actively leaving the group";
    }

    /// `resetStateAndGeneration`: UNJOINED, no generation; the member id is kept or not.
    fn reset_generation(&mut self, w: &mut World, reset_member_id: bool) {
        let member_id = if reset_member_id {
            String::new()
        } else {
            self.generation.member_id.clone()
        };
        self.set_generation(
            w,
            Generation {
                member_id,
                ..Generation::none()
            },
        );
        self.heartbeat_enabled = false;
        self.is_leader = false;
        // Requests of the old generation are abandoned: their answers are ignored.
        for slot in [&mut self.join, &mut self.sync, &mut self.heartbeat] {
            if let Some(c) = slot.take() {
                self.in_flight.remove(&c);
            }
        }
        self.set_state(w, MemberState::Unjoined);
        self.needs_join_prepare = true;
    }

    fn lookup_coordinator(&mut self, w: &mut World) {
        if !self.is_running() || self.find.is_some() || self.coordinator == CoordinatorStatus::Known
        {
            return;
        }
        self.coordinator = CoordinatorStatus::Finding;
        let correlation_id = w.next_correlation_id();
        self.find = Some(correlation_id);
        let timeout = self.config.request_timeout_ms;
        self.send_message(
            w,
            MessageApi::FindCoordinator,
            correlation_id,
            Outgoing::FindCoordinator { correlation_id },
            timeout,
        );
    }

    /// `markCoordinatorUnknown` with a disconnect: what was in flight to the coordinator fails,
    /// and a lookup follows after the retry backoff.
    fn mark_coordinator_unknown(&mut self, w: &mut World) {
        if self.coordinator == CoordinatorStatus::Unknown {
            return;
        }
        self.coordinator = CoordinatorStatus::Unknown;
        let failed_join = self.join.take().is_some() | self.sync.take().is_some();
        self.heartbeat = None;
        let commit = self.commit.take();
        self.in_flight
            .retain(|_, f| f.api == MessageApi::LeaveGroup);
        if failed_join {
            self.rejoin_needed = true;
        }
        if commit.is_some() {
            self.after_commit(w);
        }
        self.backoff(w);
    }

    fn backoff(&mut self, w: &mut World) {
        let delay = self
            .config
            .retry_backoff_ms
            .saturating_mul(1i64 << self.backoff_attempts.min(20))
            .min(self.config.retry_backoff_max_ms);
        self.backoff_attempts += 1;
        self.backoff_token += 1;
        w.schedule_timer(
            w.now + delay,
            self.index,
            self.incarnation,
            Timer::Backoff(self.backoff_token),
        );
    }

    // ---- the heartbeat thread ------------------------------------------------------------

    fn schedule_heartbeat_thread(&mut self, w: &mut World) {
        if !self.heartbeat_enabled || !self.is_running() {
            return;
        }
        let mut at = self.session_deadline;
        if self.heartbeat.is_none() {
            at = at.min(self.last_heartbeat_sent + self.config.heartbeat_interval_ms);
        }
        if let Some(p) = self.poll_deadline {
            at = at.min(p);
        }
        self.heartbeat_token += 1;
        w.schedule_timer(
            at.max(w.now),
            self.index,
            self.incarnation,
            Timer::Heartbeat(self.heartbeat_token),
        );
    }

    /// One turn of `HeartbeatThread.run` (spec §7.4).
    fn heartbeat_thread(&mut self, w: &mut World) {
        if !self.heartbeat_enabled || !self.is_running() {
            return;
        }
        if self.coordinator != CoordinatorStatus::Known {
            return;
        }
        if w.now >= self.session_deadline {
            w.record(TraceKind::ClientExpired {
                consumer: self.name.clone(),
                expiry: ClientExpiry::SessionTimeout,
            });
            self.mark_coordinator_unknown(w);
            return;
        }
        if self.poll_deadline.is_some_and(|p| w.now >= p) {
            w.record(TraceKind::ClientExpired {
                consumer: self.name.clone(),
                expiry: ClientExpiry::PollTimeout,
            });
            self.poll_deadline = None;
            self.maybe_leave_group(w, "consumer poll timeout has expired.");
            return;
        }
        if self.heartbeat.is_none()
            && w.now >= self.last_heartbeat_sent + self.config.heartbeat_interval_ms
        {
            self.send_heartbeat(w);
        }
        self.schedule_heartbeat_thread(w);
    }

    /// `Heartbeat.resetTimeouts()` when a JoinGroup succeeds.
    fn enable_heartbeat(&mut self, w: &mut World) {
        self.heartbeat_enabled = true;
        self.session_deadline = w.now + self.config.session_timeout_ms;
        self.last_heartbeat_sent = w.now;
        if self.paused == Some(PauseKind::Processing) {
            self.poll_deadline = Some(w.now + self.config.max_poll_interval_ms);
        }
        self.schedule_heartbeat_thread(w);
    }

    // ---- responses -----------------------------------------------------------------------

    pub fn on_message(&mut self, w: &mut World, message: Incoming) {
        match message {
            Incoming::FindCoordinator {
                correlation_id,
                error_code,
            } => {
                if self.in_flight.remove(&correlation_id).is_none() {
                    return;
                }
                self.find = None;
                if error_code == ErrorCode::None {
                    self.coordinator = CoordinatorStatus::Known;
                    self.backoff_attempts = 0;
                    // FindCoordinatorResponseHandler: heartbeat.resetSessionTimeout().
                    self.session_deadline = w.now + self.config.session_timeout_ms;
                    // The poll that looked the coordinator up goes on (ensureCoordinatorReady
                    // blocks inside poll()).
                    if self.life == Life::Running && self.paused.is_none() {
                        self.poll(w);
                    }
                    self.schedule_heartbeat_thread(w);
                } else {
                    self.coordinator = CoordinatorStatus::Unknown;
                    self.backoff(w);
                }
            }
            Incoming::Response(response) => {
                let Some(sent) = self.in_flight.remove(&response.correlation_id()) else {
                    return;
                };
                if !self.is_running() {
                    return;
                }
                match &*response {
                    Response::JoinGroup(r) => self.on_join_response(w, r, sent),
                    Response::SyncGroup(r) => {
                        self.sync = None;
                        self.on_sync_response(w, r.error_code, &r.assignment.0, sent)
                    }
                    Response::Heartbeat(r) => self.on_heartbeat_response(w, r.error_code, sent),
                    Response::OffsetCommit(r) => self.on_commit_response(w, r.error_code, sent),
                    _ => {}
                }
            }
        }
    }

    fn on_request_timeout(&mut self, w: &mut World, correlation_id: i32) {
        let Some(sent) = self.in_flight.remove(&correlation_id) else {
            return;
        };
        w.counters.requests_timed_out += 1;
        w.record(TraceKind::RequestTimedOut {
            consumer: self.name.clone(),
            api: sent.api,
            correlation_id,
        });
        if sent.api == MessageApi::FindCoordinator {
            self.find = None;
            self.coordinator = CoordinatorStatus::Unknown;
            self.backoff(w);
            return;
        }
        if sent.api == MessageApi::LeaveGroup {
            return;
        }
        // A timed-out request disconnects: the coordinator is unknown and what was in flight
        // fails with it.
        if self.join == Some(correlation_id) || self.sync == Some(correlation_id) {
            self.rejoin_needed = true;
        }
        if self.commit == Some(correlation_id) {
            self.commit = None;
            self.after_commit(w);
        }
        self.coordinator = CoordinatorStatus::Known;
        self.mark_coordinator_unknown(w);
    }

    fn on_join_response(&mut self, w: &mut World, r: &JoinGroupResponse, sent: InFlight) {
        self.join = None;
        let unchanged = sent.generation == self.generation;
        match r.error_code {
            ErrorCode::None => {
                if self.state != MemberState::PreparingRebalance {
                    return;
                }
                self.set_generation(
                    w,
                    Generation {
                        generation_id: r.generation_id,
                        member_id: r.member_id.clone(),
                        protocol_name: r.protocol_name.clone(),
                    },
                );
                self.set_state(w, MemberState::CompletingRebalance);
                self.enable_heartbeat(w);
                self.is_leader = r.leader == r.member_id;
                let assignments = if self.is_leader && !r.skip_assignment {
                    self.assign(w, r)
                } else {
                    Vec::new()
                };
                self.send_sync_group(w, assignments);
            }
            ErrorCode::MemberIdRequired => {
                self.set_generation(
                    w,
                    Generation {
                        member_id: r.member_id.clone(),
                        ..Generation::none()
                    },
                );
                self.send_join_group(w);
            }
            ErrorCode::UnknownMemberId => {
                if unchanged {
                    self.reset_generation(w, true);
                }
                self.rejoin_now(w);
            }
            ErrorCode::RebalanceInProgress | ErrorCode::IllegalGeneration => self.rejoin_now(w),
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.rejoin_needed = true;
                self.mark_coordinator_unknown(w);
            }
            ErrorCode::CoordinatorLoadInProgress => {
                self.rejoin_needed = true;
                self.retry_join_after_backoff(w);
            }
            fatal => self.fail(w, fatal),
        }
    }

    fn rejoin_now(&mut self, w: &mut World) {
        self.rejoin_needed = true;
        if self.life == Life::Running && self.paused.is_none() {
            self.join_group_if_needed(w);
        }
    }

    fn retry_join_after_backoff(&mut self, w: &mut World) {
        let delay = self.config.retry_backoff_ms;
        self.request_poll_at(w, w.now + delay);
    }

    fn on_sync_response(
        &mut self,
        w: &mut World,
        error: ErrorCode,
        assignment: &[u8],
        sent: InFlight,
    ) {
        let unchanged = sent.generation == self.generation;
        match error {
            ErrorCode::None => {
                if !unchanged || self.state != MemberState::CompletingRebalance {
                    // The heartbeat thread reset the generation meanwhile: ILLEGAL_GENERATION.
                    self.rejoin_now(w);
                    return;
                }
                self.set_state(w, MemberState::Stable);
                self.rejoin_needed = false;
                self.rejoin_reason = "";
                self.on_join_complete(w, assignment);
            }
            ErrorCode::RebalanceInProgress => self.rejoin_now(w),
            ErrorCode::UnknownMemberId => {
                if unchanged {
                    self.reset_generation(w, true);
                }
                self.rejoin_now(w);
            }
            ErrorCode::IllegalGeneration => {
                if unchanged {
                    self.reset_generation(w, false);
                }
                self.rejoin_now(w);
            }
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.rejoin_needed = true;
                self.mark_coordinator_unknown(w);
            }
            fatal => self.fail(w, fatal),
        }
    }

    /// `onJoinComplete`: take the assignment; cooperative members revoke what moved away and
    /// rejoin so the withheld partitions can be given out.
    fn on_join_complete(&mut self, w: &mut World, bytes: &[u8]) {
        self.needs_join_prepare = true;
        let assignment = match Assignment::decode(bytes) {
            Ok(a) => a,
            Err(e) => {
                w.violation(format!(
                    "{} received an assignment it cannot decode: {e}",
                    self.name
                ));
                Assignment::default()
            }
        };
        // `checkAssignmentMatchedSubscription`: an assignment with a topic the member does not
        // subscribe to (its subscription changed since it joined, or Kafka's sticky flaw gave it
        // one) is not taken at all: no revocation, no `onPartitionsAssigned`; it rejoins.
        if assignment
            .assigned_partitions
            .iter()
            .any(|tp| !self.topics.iter().any(|t| t.as_str() == &*tp.topic))
        {
            self.request_rejoin(
                w,
                "received assignment does not match the current subscription",
            );
            return;
        }
        let assigned: BTreeSet<Tp> = assignment
            .assigned_partitions
            .iter()
            .flat_map(|tp| {
                let topic = w.topic_name(&tp.topic);
                tp.partitions.iter().map(move |p| (topic.clone(), *p))
            })
            .collect();
        let revoked: Vec<Tp> = self.owned.difference(&assigned).cloned().collect();
        let added: Vec<Tp> = assigned.difference(&self.owned).cloned().collect();
        for tp in &revoked {
            self.owned.remove(tp);
            w.release(self.index, tp);
        }
        let generation = self.generation.generation_id;
        for tp in &assigned {
            w.acquire(self.index, (self.group_incarnation, generation), tp);
        }
        self.owned = assigned.clone();
        self.owned_generation = generation;
        self.last_assignment = Some((assignment.assigned_partitions.clone(), generation));
        w.record(TraceKind::Assigned {
            consumer: self.name.clone(),
            generation_id: generation,
            assigned: assigned.into_iter().collect(),
            added: added.into(),
            revoked: revoked.clone().into(),
        });
        w.agreement_checks.push(self.index);
        if !revoked.is_empty() && self.config.rebalance_protocol() == RebalanceProtocol::Cooperative
        {
            self.request_rejoin(w, "need to revoke partitions and re-join");
        }
        if self.config.enable_auto_commit {
            self.request_poll_at(w, self.last_commit + self.config.auto_commit_interval_ms);
        }
    }

    fn on_heartbeat_response(&mut self, w: &mut World, error: ErrorCode, sent: InFlight) {
        self.heartbeat = None;
        let unchanged = sent.generation == self.generation;
        match error {
            ErrorCode::None => {
                self.session_deadline = w.now + self.config.session_timeout_ms;
            }
            ErrorCode::RebalanceInProgress => {
                self.session_deadline = w.now + self.config.session_timeout_ms;
                if self.state == MemberState::Stable {
                    self.request_rejoin(w, "group is already rebalancing");
                }
            }
            ErrorCode::IllegalGeneration | ErrorCode::UnknownMemberId if unchanged => {
                self.reset_generation(w, error == ErrorCode::UnknownMemberId);
                self.rejoin_needed = true;
                self.request_poll(w);
            }
            ErrorCode::FencedInstanceId => {
                if unchanged {
                    self.fail(w, error);
                }
                return;
            }
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.mark_coordinator_unknown(w);
            }
            _ => {}
        }
        self.schedule_heartbeat_thread(w);
    }

    fn on_commit_response(&mut self, w: &mut World, error: ErrorCode, sent: InFlight) {
        self.commit = None;
        let unchanged = sent.generation == self.generation;
        match error {
            ErrorCode::None => self.last_commit = w.now,
            ErrorCode::RebalanceInProgress => {
                self.request_rejoin(w, "offset commit failed with a rebalance in progress")
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration
                if unchanged && self.state != MemberState::PreparingRebalance =>
            {
                self.reset_generation(w, error == ErrorCode::UnknownMemberId);
                self.rejoin_needed = true;
                self.request_poll(w);
            }
            ErrorCode::FencedInstanceId if unchanged => {
                self.fail(w, error);
                return;
            }
            ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorNotAvailable
            | ErrorCode::RequestTimedOut => {
                self.mark_coordinator_unknown(w);
                return;
            }
            _ => {}
        }
        self.after_commit(w);
    }

    /// A commit finished (answered, failed or timed out): a close or a join waiting on it
    /// goes on.
    fn after_commit(&mut self, w: &mut World) {
        if self.life == Life::Closing {
            self.finish_close(w);
        } else if self.needs_join_prepare && self.rejoin_needed {
            self.prepare_committed = true;
            self.request_poll(w);
        }
    }

    /// A non-retriable error reaches the application, which stops using the consumer.
    fn fail(&mut self, w: &mut World, error: ErrorCode) {
        w.counters.consumer_failures += 1;
        w.record(TraceKind::ConsumerFailed {
            consumer: self.name.clone(),
            error_code: error,
            error: error.name(),
        });
        self.heartbeat_enabled = false;
        self.drop_owned(w, true);
        self.life = Life::Failed;
        w.mark_dirty();
    }

    // ---- the leader's assignment ---------------------------------------------------------

    /// The leader runs the group's assignor on the members' subscriptions (spec §7.2 step 4).
    fn assign(&mut self, w: &mut World, r: &JoinGroupResponse) -> Vec<SyncGroupRequestAssignment> {
        let protocol = r.protocol_name.clone().unwrap_or_default();
        let Some(strategy) = Strategy::from_name(&protocol) else {
            w.violation(format!(
                "the group chose an unknown assignor \"{protocol}\""
            ));
            return Vec::new();
        };
        let mut input = AssignmentInput {
            topics: w.topics.clone(),
            ..AssignmentInput::default()
        };
        for m in &r.members {
            let subscription = match Subscription::decode(&m.metadata.0) {
                Ok(s) => s,
                Err(e) => {
                    w.violation(format!(
                        "the leader cannot decode {}'s subscription: {e}",
                        m.member_id
                    ));
                    continue;
                }
            };
            let (owned_partitions, generation_id) = match strategy {
                Strategy::Sticky => match subscription
                    .user_data
                    .as_ref()
                    .map(|u| StickyUserData::decode(&u.0))
                {
                    Some(Ok(u)) => (u.previous_assignment, u.generation),
                    _ => (Vec::new(), None),
                },
                Strategy::CooperativeSticky => {
                    let generation = if subscription.version >= 2 {
                        subscription.generation_id
                    } else {
                        subscription
                            .user_data
                            .as_ref()
                            .and_then(|u| decode_cooperative_user_data(&u.0).ok())
                            .unwrap_or(-1)
                    };
                    (
                        subscription.owned_partitions,
                        (generation >= 0).then_some(generation),
                    )
                }
                _ => (subscription.owned_partitions, None),
            };
            input.members.push(MemberSubscription {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                topics: subscription.topics,
                owned_partitions,
                generation_id,
                rack_id: subscription.rack_id,
            });
        }
        let (output, quirks) = match assignor::assign_explained(strategy, &input) {
            Ok(o) => o,
            Err(e) => {
                w.violation(format!("the {protocol} assignor refused its input: {e}"));
                return Vec::new();
            }
        };
        // Kafka's own flaws on this input are shown, not flagged: they are Kafka's behaviour.
        for quirk in quirks.iter().cloned() {
            w.record(TraceKind::AssignorQuirk {
                consumer: self.name.clone(),
                quirk,
            });
        }
        if let Err(e) = assignor::validate_as_kafka(strategy, &input, &output, &quirks) {
            w.violation(format!("the {protocol} assignment is invalid: {e}"));
        }
        if strategy == Strategy::CooperativeSticky {
            let both = assignor::revoked_and_assigned(&input, &output);
            if !both.is_empty() {
                w.violation(format!(
                    "cooperative-sticky revoked and assigned {} partitions in one round",
                    both.len()
                ));
            }
        }
        output
            .into_iter()
            .map(|(member_id, partitions)| SyncGroupRequestAssignment {
                member_id,
                assignment: Assignment {
                    version: 3,
                    assigned_partitions: partitions,
                    user_data: None,
                }
                .encode(),
            })
            .collect()
    }
}

/// Owned partitions in the consumer protocol's shape (topics ascending, partitions ascending).
pub fn to_topic_partitions(owned: &BTreeSet<Tp>) -> Vec<TopicPartitions> {
    let mut out: Vec<TopicPartitions> = Vec::new();
    for (topic, p) in owned {
        match out.last_mut() {
            Some(tp) if *tp.topic == **topic => tp.partitions.push(*p),
            _ => out.push(TopicPartitions {
                topic: Arc::from(&**topic),
                partitions: alloc::vec![*p],
            }),
        }
    }
    out
}
