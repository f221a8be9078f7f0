//! A consumer with `group.protocol=consumer` (KIP-848), as the Java client's new consumer runs
//! it (`AbstractMembershipManager`, `ConsumerMembershipManager`,
//! `AbstractHeartbeatRequestManager`, `docs/src/reference/consumer-group-protocol.md#client`):
//!
//! - **One RPC.** A background thread sends ConsumerGroupHeartbeat at the interval the
//!   coordinator gives, at once while JOINING, ACKNOWLEDGING or LEAVING, one at a time. A
//!   request carries only the fields that changed since the last one sent, and everything again
//!   after an error or when joining.
//! - **Reconciliation on the client.** A new target assignment (by topic id) moves the member to
//!   RECONCILING: commit (auto-commit), revoke what is no longer assigned (the partitions stop
//!   being processed at once, then `onPartitionsRevoked` runs), assign the rest
//!   (`onPartitionsAssigned`; the new partitions are processed once it returns), then
//!   ACKNOWLEDGING, whose heartbeat reports what the member now owns.
//! - **The rebalance listener runs on the application thread**, at its next `poll()`, one call
//!   after the other. An application whose listener costs nothing (`Application`'s
//!   per-partition times all 0) is modelled as having none: the background thread then
//!   completes each step itself, as the Java client does when no listener is registered.
//! - **Errors.** FENCED_MEMBER_EPOCH and UNKNOWN_MEMBER_ID: FENCED, the partitions are lost,
//!   and the member rejoins with epoch 0 and the same member id. Coordinator errors: look it
//!   up again. GROUP_MAX_SIZE_REACHED, INVALID_REQUEST, UNSUPPORTED_ASSIGNOR and any other
//!   unexpected error: fatal, the application stops.
//! - **Leaving.** `close()`: PREPARE_LEAVING (revoke, or lost when the member has no epoch),
//!   LEAVING, then the heartbeat with epoch −1 (−2 for a static member), UNSUBSCRIBED. The poll
//!   timer: when `max.poll.interval.ms` passes without a `poll()`, the member leaves (−1/−2),
//!   becomes STALE, loses its partitions, and rejoins at its next `poll()`.

use super::*;
use group_coordinator::consumer_group::Uuid;
use group_coordinator::protocol::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, TopicIdPartitions,
};

const CONSUMER_GROUP_HEARTBEAT_VERSION: i16 = 1;
/// `ConsumerGroupHeartbeatRequest.JOIN_GROUP_MEMBER_EPOCH` and the two leave epochs.
const JOIN_GROUP_MEMBER_EPOCH: i32 = 0;
const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

/// An assignment with the client's local epoch (`LocalAssignment`): bumped every time a
/// different target arrives, so "reconciled" means "this very target was reconciled".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalAssignment {
    pub local_epoch: u64,
    pub partitions: BTreeSet<Tp>,
}

/// The fields last sent (`HeartbeatState.SentFields`): a heartbeat repeats none of them unless
/// it changed; `None` means "send it".
#[derive(Clone, Debug, Default)]
struct SentFields {
    rebalance_timeout_ms: Option<i32>,
    subscribed_topic_names: Option<Vec<String>>,
    subscribed_topic_regex: Option<String>,
    server_assignor: Option<String>,
    /// `Some(None)`: the NONE assignment was sent.
    assignment: Option<Option<LocalAssignment>>,
}

/// Where a reconciliation waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The auto-commit before revoking (`maybeAutoCommitSyncBeforeRevocation`).
    Committing,
    /// `onPartitionsRevoked`.
    Revoking,
    /// `onPartitionsAssigned`.
    Assigning,
}

#[derive(Clone, Debug)]
struct Reconciliation {
    resolved: LocalAssignment,
    revoked: Vec<Tp>,
    added: Vec<Tp>,
    step: Step,
}

/// What follows a rebalance-listener call when it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    /// Reconciliation goes on to assign.
    Revoked,
    /// Reconciliation completes.
    Assigned,
    /// A fenced member rejoins.
    Fenced,
    /// A stale member has released its partitions; it rejoins at its next poll.
    Stale,
    /// A closing member sends its leave heartbeat.
    Leave,
}

/// A listener call the application thread runs at its next `poll()`.
#[derive(Clone, Debug)]
struct Callback {
    token: u64,
    after: After,
    ms: i64,
    /// Started on the application thread (its end is scheduled).
    running: bool,
}

/// The consumer protocol's client state; unused by a classic consumer.
#[derive(Clone, Debug, Default)]
pub struct Membership {
    /// `currentTargetAssignment`; `None`: NONE.
    pub target: Option<LocalAssignment>,
    /// `currentAssignment`, what was reconciled last; `None`: NONE.
    pub current: Option<LocalAssignment>,
    reconciliation: Option<Reconciliation>,
    rejoined_while_reconciling: bool,
    sent: SentFields,
    /// From the last response (`heartbeatIntervalMs`); the client's own setting before.
    heartbeat_interval_ms: i64,
    next_heartbeat_at: i64,
    /// The leave was caused by the poll timer (`isPollTimerExpired`).
    poll_timer_expired: bool,
    callback: Option<Callback>,
    callback_token: u64,
    /// The stale member's lost partitions were released (`staleMemberAssignmentRelease`).
    stale_released: bool,
}

impl Membership {
    /// `resetHeartbeatState`.
    pub(super) fn reset_sent_fields(&mut self) {
        self.sent = SentFields::default();
    }
}

impl Consumer {
    pub fn uses_consumer_protocol(&self) -> bool {
        self.protocol == GroupProtocol::Consumer
    }

    /// The member epoch (the consumer protocol's) or generation id (classic).
    pub fn epoch(&self) -> i32 {
        self.generation.generation_id
    }

    /// A new process: its own member id (KIP-1082: a random UUID, kept for the process's life),
    /// epoch 0, UNSUBSCRIBED until its first `poll()` with a subscription.
    pub(super) fn start_membership(&mut self, w: &mut World) {
        let bits = (u128::from(w.rng.next_u64()) << 64) | u128::from(w.rng.next_u64());
        let member_id = Uuid::from_u128(bits).to_string();
        self.m.heartbeat_interval_ms = self.config.heartbeat_interval_ms;
        self.set_generation(
            w,
            Generation {
                generation_id: JOIN_GROUP_MEMBER_EPOCH,
                member_id,
                protocol_name: None,
            },
        );
        self.state = MemberState::Unsubscribed;
        // A classic client's flag: the new consumer never asks to rejoin that way.
        self.rejoin_needed = false;
    }

    fn set_member_epoch(&mut self, w: &mut World, epoch: i32) {
        if epoch != self.generation.generation_id {
            let generation = Generation {
                generation_id: epoch,
                ..(*self.generation).clone()
            };
            self.set_generation(w, generation);
            w.mark_dirty();
        }
    }

    /// `poll()` of the new consumer: the application thread runs a waiting listener call,
    /// joins once subscribed, rejoins after going stale, and commits on the interval.
    pub(super) fn poll_consumer_protocol(&mut self, w: &mut World) {
        if self.is_busy(w) {
            return self.request_poll(w);
        }
        if self.m.callback.as_ref().is_some_and(|c| !c.running) {
            self.start_callback(w);
            return;
        }
        match self.coordinator {
            CoordinatorStatus::Unknown => return self.lookup_coordinator(w),
            CoordinatorStatus::Finding => return,
            CoordinatorStatus::Known => {}
        }
        if self.state == MemberState::Unsubscribed
            && (!self.topics.is_empty() || self.pattern.is_some())
        {
            self.transition_to_joining(w);
        }
        // resetPollTimer -> maybeRejoinStaleMember.
        self.m.poll_timer_expired = false;
        if self.state == MemberState::Stale && self.m.stale_released {
            self.transition_to_joining(w);
        }
        // The auto-commit timer runs on: a member with an epoch commits what it consumed when
        // it is due (one commit at a time), then the next poll comes at the next one.
        if self.config.enable_auto_commit {
            let due = self.last_commit + self.config.auto_commit_interval_ms;
            if w.now >= due {
                if self.epoch() > 0 && self.commit.is_none() && !self.owned.is_empty() {
                    self.send_commit(w);
                }
                self.last_commit = w.now;
            }
            let next = self.last_commit + self.config.auto_commit_interval_ms;
            self.request_poll_at(w, next);
        }
        self.schedule_background(w);
    }

    fn transition_to_joining(&mut self, w: &mut World) {
        if self.m.reconciliation.is_some() {
            self.m.rejoined_while_reconciling = true;
        }
        self.set_member_epoch(w, JOIN_GROUP_MEMBER_EPOCH);
        self.set_state(w, MemberState::Joining);
        self.m.target = None;
        self.schedule_background(w);
    }

    /// When the background thread next has something to do: a heartbeat now (JOINING,
    /// ACKNOWLEDGING, LEAVING) or at the interval, and the poll timer's expiry.
    pub(super) fn schedule_background(&mut self, w: &mut World) {
        if !self.is_running() || self.coordinator != CoordinatorStatus::Known {
            return;
        }
        let mut at = i64::MAX;
        if !self.skips_heartbeat() && self.heartbeat.is_none() {
            at = if self.heartbeats_now() {
                w.now
            } else {
                self.m.next_heartbeat_at
            };
        }
        if let Some(p) = self.poll_deadline
            && !self.skips_heartbeat()
        {
            at = at.min(p);
        }
        if at < i64::MAX {
            self.wake_heartbeat_thread_at(w, at);
        }
    }

    /// `shouldSkipHeartbeat`.
    fn skips_heartbeat(&self) -> bool {
        matches!(
            self.state,
            MemberState::Unsubscribed | MemberState::Stale | MemberState::Fenced
        ) || self.life == Life::Failed
    }

    /// `shouldHeartbeatNow`.
    fn heartbeats_now(&self) -> bool {
        matches!(
            self.state,
            MemberState::Acknowledging | MemberState::Leaving | MemberState::Joining
        )
    }

    fn is_not_in_group(&self) -> bool {
        matches!(
            self.state,
            MemberState::Unsubscribed | MemberState::Fenced | MemberState::Stale
        ) || self.life == Life::Failed
    }

    /// One turn of the background thread (`AbstractHeartbeatRequestManager.poll`).
    pub(super) fn background(&mut self, w: &mut World) {
        if !self.is_running() {
            return;
        }
        if self.coordinator != CoordinatorStatus::Known || self.skips_heartbeat() {
            // onHeartbeatRequestSkipped: a leave that cannot be sent is given up.
            if self.state == MemberState::Leaving {
                self.set_state(w, MemberState::Unsubscribed);
                self.after_left(w);
            }
            return;
        }
        if self.poll_deadline.is_some_and(|p| w.now >= p) && !self.is_leaving() {
            w.record(TraceKind::ClientExpired {
                consumer: self.name.clone(),
                expiry: ClientExpiry::PollTimeout,
            });
            self.poll_deadline = None;
            self.transition_to_sending_leave(w, true);
            self.send_consumer_group_heartbeat(w);
            return;
        }
        if self.heartbeat.is_none() && (self.heartbeats_now() || w.now >= self.m.next_heartbeat_at)
        {
            self.send_consumer_group_heartbeat(w);
        }
        self.schedule_background(w);
    }

    fn is_leaving(&self) -> bool {
        matches!(
            self.state,
            MemberState::PrepareLeaving | MemberState::Leaving
        )
    }

    /// Builds and sends a heartbeat (`HeartbeatState.buildRequestData`), then
    /// `onHeartbeatRequestGenerated`.
    fn send_consumer_group_heartbeat(&mut self, w: &mut World) {
        let joining = self.state == MemberState::Joining;
        let sent = &mut self.m.sent;
        let timeout = self.config.max_poll_interval_ms as i32;
        let rebalance_timeout_ms = if joining || sent.rebalance_timeout_ms != Some(timeout) {
            sent.rebalance_timeout_ms = Some(timeout);
            timeout
        } else {
            -1
        };
        let subscribed_topic_names =
            if joining || sent.subscribed_topic_names.as_ref() != Some(&self.topics) {
                sent.subscribed_topic_names = Some(self.topics.clone());
                Some(self.topics.clone())
            } else {
                None
            };
        // `subscribe(SubscriptionPattern)`: the pattern goes when joining and when it changed
        // (`""` once it is dropped); a member subscribing by name never sends one.
        let subscribed_topic_regex = match self.pattern.as_ref().map(|p| &p.text) {
            Some(p) if joining || sent.subscribed_topic_regex.as_ref() != Some(p) => {
                sent.subscribed_topic_regex = Some(p.clone());
                Some(p.clone())
            }
            None if sent.subscribed_topic_regex.is_some() => {
                sent.subscribed_topic_regex = None;
                Some(String::new())
            }
            _ => None,
        };
        let server_assignor = match &self.config.group_remote_assignor {
            Some(a) if joining || sent.server_assignor.as_ref() != Some(a) => {
                sent.server_assignor = Some(a.clone());
                Some(a.clone())
            }
            _ => None,
        };
        let topic_partitions = if joining || sent.assignment.as_ref() != Some(&self.m.current) {
            sent.assignment = Some(self.m.current.clone());
            Some(by_topic_id(self.m.current.as_ref().map(|a| &a.partitions)))
        } else {
            None
        };
        let correlation_id = w.next_correlation_id();
        // Written over the last one sent (see `rewritable`): its strings keep their buffers.
        let fresh = Request::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest::default());
        let mut shared = super::requests::rewritable(&mut self.sent_heartbeat, fresh);
        if let Request::ConsumerGroupHeartbeat(r) = Rc::make_mut(&mut shared) {
            r.api_version = CONSUMER_GROUP_HEARTBEAT_VERSION;
            r.correlation_id = correlation_id;
            r.client_id.clone_from(&self.spec.name);
            r.group_id.clone_from(&w.group_id);
            r.member_id.clone_from(&self.generation.member_id);
            r.member_epoch = self.epoch();
            r.instance_id.clone_from(&self.config.group_instance_id);
            r.rack_id = if joining {
                self.config.client_rack.clone()
            } else {
                None
            };
            r.rebalance_timeout_ms = rebalance_timeout_ms;
            r.subscribed_topic_names = subscribed_topic_names;
            r.subscribed_topic_regex = subscribed_topic_regex;
            r.server_assignor = server_assignor;
            r.topic_partitions = topic_partitions;
        }
        self.sent_heartbeat = Some(shared.clone());
        self.m.next_heartbeat_at = w.now + self.m.heartbeat_interval_ms;
        let timeout = self.config.request_timeout_ms;
        self.heartbeat =
            Some(self.send_shared(w, MessageApi::ConsumerGroupHeartbeat, shared, timeout));
        w.counters.heartbeats += 1;
        // onHeartbeatRequestGenerated.
        match self.state {
            MemberState::Acknowledging => {
                if self.target_reconciled() {
                    self.set_state(w, MemberState::Stable);
                } else {
                    self.set_state(w, MemberState::Reconciling);
                    self.maybe_reconcile(w);
                }
            }
            MemberState::Leaving => {
                if self.m.poll_timer_expired {
                    self.transition_to_stale(w);
                } else {
                    self.set_state(w, MemberState::Unsubscribed);
                    self.after_left(w);
                }
            }
            _ => {}
        }
    }

    fn target_reconciled(&self) -> bool {
        self.m.current == self.m.target
    }

    /// The answer to a heartbeat (`onResponse`, `onErrorResponse`, `onHeartbeatSuccess`).
    pub(super) fn on_consumer_group_heartbeat_response(
        &mut self,
        w: &mut World,
        r: &ConsumerGroupHeartbeatResponse,
    ) {
        self.heartbeat = None;
        // Checked when an answer arrives (not when the acknowledgement goes: an answer the
        // client dropped on a disconnect may have moved the coordinator's record on, and the
        // full heartbeat that follows brings it back).
        w.agreement_checks.push(self.index);
        if r.error_code == ErrorCode::None {
            self.backoff_attempts = 0;
            let interval = i64::from(r.heartbeat_interval_ms);
            if interval > 0 && interval != self.m.heartbeat_interval_ms {
                self.m.heartbeat_interval_ms = interval;
                self.m.next_heartbeat_at = w.now + interval;
            }
            self.on_heartbeat_success(w, r);
        } else {
            // resetHeartbeatState: the next request carries every field; the next one goes
            // after the retry backoff.
            self.m.sent = SentFields::default();
            self.m.next_heartbeat_at = w.now + self.next_retry_delay();
            self.on_heartbeat_error(w, r.error_code);
        }
        self.schedule_background(w);
    }

    fn on_heartbeat_success(&mut self, w: &mut World, r: &ConsumerGroupHeartbeatResponse) {
        if self.state == MemberState::Leaving || self.is_not_in_group() {
            return;
        }
        if let Some(id) = &r.member_id
            && *id != self.generation.member_id
        {
            let generation = Generation {
                member_id: id.clone(),
                ..(*self.generation).clone()
            };
            self.set_generation(w, generation);
        }
        self.set_member_epoch(w, r.member_epoch);
        let Some(assignment) = &r.assignment else {
            return;
        };
        // canHandleNewAssignment: the states RECONCILING may be entered from.
        if !matches!(
            self.state,
            MemberState::Stable
                | MemberState::Joining
                | MemberState::Acknowledging
                | MemberState::Reconciling
        ) {
            return;
        }
        let partitions = self.by_topic_name(w, &assignment.topic_partitions);
        // processAssignmentReceived.
        let changed = match &self.m.target {
            Some(t) => t.partitions != partitions,
            None => true,
        };
        if changed {
            let local_epoch = self.m.target.as_ref().map_or(0, |t| t.local_epoch + 1);
            self.m.target = Some(LocalAssignment {
                local_epoch,
                partitions,
            });
        }
        if !self.target_reconciled() {
            self.set_state(w, MemberState::Reconciling);
            self.maybe_reconcile(w);
        } else if matches!(self.state, MemberState::Reconciling | MemberState::Joining) {
            self.set_state(w, MemberState::Stable);
        }
    }

    fn on_heartbeat_error(&mut self, w: &mut World, error: ErrorCode) {
        if self.is_not_in_group() && !self.is_coordinator_error(error) {
            return;
        }
        match error {
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.mark_coordinator_unknown(w)
            }
            ErrorCode::CoordinatorLoadInProgress => {}
            ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId => {
                self.transition_to_fenced(w)
            }
            _ => self.fail(w, error),
        }
    }

    fn is_coordinator_error(&self, error: ErrorCode) -> bool {
        matches!(
            error,
            ErrorCode::NotCoordinator
                | ErrorCode::CoordinatorNotAvailable
                | ErrorCode::CoordinatorLoadInProgress
        )
    }

    /// `transitionToFenced`: epoch 0, the partitions are lost, then JOINING again (same member
    /// id). A member already leaving just stops.
    fn transition_to_fenced(&mut self, w: &mut World) {
        match self.state {
            MemberState::PrepareLeaving | MemberState::Leaving => {
                self.set_state(w, MemberState::Unsubscribed);
                self.after_left(w);
                return;
            }
            MemberState::Unsubscribed => return,
            _ => {}
        }
        self.set_state(w, MemberState::Fenced);
        self.set_member_epoch(w, JOIN_GROUP_MEMBER_EPOCH);
        self.abandon_reconciliation();
        let lost: Vec<Tp> = self.owned.iter().cloned().collect();
        let ms = self.give_up_ms(lost.len(), true);
        self.give_up_now(w, lost, true, ms);
        self.m.current = None;
        self.after_listener(w, After::Fenced, ms);
    }

    fn abandon_reconciliation(&mut self) {
        self.m.reconciliation = None;
        self.m.rejoined_while_reconciling = false;
    }

    /// `maybeReconcile`: starts reconciling towards the target unless one is under way.
    fn maybe_reconcile(&mut self, w: &mut World) {
        if self.state != MemberState::Reconciling
            || self.target_reconciled()
            || self.m.reconciliation.is_some()
        {
            return;
        }
        let Some(resolved) = self.m.target.clone() else {
            return;
        };
        if self
            .m
            .current
            .as_ref()
            .is_some_and(|c| c.partitions == resolved.partitions)
        {
            self.m.current = Some(resolved);
            self.set_state(w, MemberState::Acknowledging);
            self.schedule_background(w);
            return;
        }
        let added: Vec<Tp> = resolved
            .partitions
            .iter()
            .filter(|tp| !self.owned.contains(*tp))
            .cloned()
            .collect();
        let revoked: Vec<Tp> = self
            .owned
            .iter()
            .filter(|tp| !resolved.partitions.contains(*tp))
            .cloned()
            .collect();
        self.m.rejoined_while_reconciling = false;
        self.m.reconciliation = Some(Reconciliation {
            resolved,
            revoked,
            added,
            step: Step::Committing,
        });
        // signalReconciliationStarted: the auto-commit before revoking, waited for.
        if self.config.enable_auto_commit && !self.owned.is_empty() {
            if self.commit.is_none() {
                self.send_commit(w);
            }
            return;
        }
        self.revoke_step(w);
    }

    /// `maybeAbortReconciliation`.
    fn reconciliation_aborted(&mut self) -> bool {
        let abort = self.state != MemberState::Reconciling || self.m.rejoined_while_reconciling;
        if abort {
            self.abandon_reconciliation();
        }
        abort
    }

    /// A commit's answer (sent at epoch `sent_epoch`). Commits fail on their own: only a lost
    /// coordinator changes the membership. The commit before revoking is retried on
    /// STALE_MEMBER_EPOCH; an interval auto-commit is not (the next one goes at the new epoch).
    pub(super) fn on_commit_response_consumer_protocol(
        &mut self,
        w: &mut World,
        error: ErrorCode,
        sent_epoch: i32,
    ) {
        match error {
            ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorNotAvailable
            | ErrorCode::RequestTimedOut => return self.mark_coordinator_unknown(w),
            ErrorCode::None => self.last_commit = w.now,
            ErrorCode::StaleMemberEpoch if self.retries_stale_commit(sent_epoch) => {
                return self.send_commit(w);
            }
            _ => {}
        }
        self.after_commit(w);
    }

    /// The commit before revoking is retried on STALE_MEMBER_EPOCH with the member's latest
    /// epoch (`maybeAutoCommitSyncBeforeRevocation`); the model retries once the member knows a
    /// newer epoch than the one refused, and otherwise goes on to revoke (the Java client keeps
    /// retrying until its rebalance timeout).
    fn retries_stale_commit(&self, refused_epoch: i32) -> bool {
        self.m
            .reconciliation
            .as_ref()
            .is_some_and(|r| r.step == Step::Committing)
            && self.epoch() != refused_epoch
    }

    /// The commit before revoking finished (whatever its answer): revoke.
    pub(super) fn after_commit_consumer_protocol(&mut self, w: &mut World) {
        if self.life == Life::Closing {
            self.leave_group(w);
            return;
        }
        if self
            .m
            .reconciliation
            .as_ref()
            .is_some_and(|r| r.step == Step::Committing)
        {
            self.revoke_step(w);
        }
    }

    /// Moves the reconciliation under way to `step`, unless it is no longer relevant.
    fn enter_step(&mut self, step: Step) -> Option<&mut Reconciliation> {
        if self.reconciliation_aborted() {
            return None;
        }
        let r = self.m.reconciliation.as_mut()?;
        r.step = step;
        Some(r)
    }

    fn revoke_step(&mut self, w: &mut World) {
        let Some(r) = self.enter_step(Step::Revoking) else {
            return;
        };
        let revoked = r.revoked.clone();
        if revoked.is_empty() {
            return self.assign_step(w);
        }
        let ms = self.give_up_ms(revoked.len(), false);
        self.give_up_now(w, revoked, false, ms);
        self.after_listener(w, After::Revoked, ms);
    }

    fn assign_step(&mut self, w: &mut World) {
        let Some(r) = self.enter_step(Step::Assigning) else {
            return;
        };
        let (added, revoked) = (r.added.clone(), r.revoked.clone());
        let assigned: Vec<Tp> = r.resolved.partitions.iter().cloned().collect();
        let ms = self
            .app
            .assign_ms_per_partition
            .saturating_mul(added.len() as i64);
        self.owned.extend(added.iter().cloned());
        w.record(TraceKind::Assigned {
            consumer: self.name.clone(),
            generation_id: self.epoch(),
            assigned: assigned.into(),
            added: added.clone().into(),
            revoked: revoked.into(),
            listener_ms: ms,
            consumer_protocol: true,
        });
        w.mark_dirty();
        self.after_listener(w, After::Assigned, ms);
    }

    /// The partitions stop being processed now (revoked: `markPendingRevocation`; lost), and
    /// the listener is told (its time counted from when the application thread runs it).
    fn give_up_now(&mut self, w: &mut World, partitions: Vec<Tp>, lost: bool, listener_ms: i64) {
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
            listener_ms,
        });
        w.mark_dirty();
    }

    /// Whether the application registered a rebalance listener (it has a cost).
    fn has_listener(&self) -> bool {
        self.app.revoke_ms_per_partition > 0
            || self.app.assign_ms_per_partition > 0
            || self.app.lost_ms_per_partition > 0
    }

    /// A listener call of `ms`: without a listener the step completes now; otherwise the
    /// application thread runs it at its next `poll()`, once a call it is still in returns (a
    /// call whose step was abandoned is replaced: its end only frees the thread). While the
    /// consumer closes, the application thread is inside `close()`, which runs the calls itself.
    fn after_listener(&mut self, w: &mut World, after: After, ms: i64) {
        if !self.has_listener() {
            return self.listener_returned(w, after);
        }
        self.m.callback_token += 1;
        self.m.callback = Some(Callback {
            token: self.m.callback_token,
            after,
            ms,
            running: false,
        });
        if self.life == Life::Closing {
            self.start_callback(w);
        } else {
            self.request_poll(w);
        }
    }

    fn start_callback(&mut self, w: &mut World) {
        let Some(c) = self.m.callback.as_mut() else {
            return;
        };
        c.running = true;
        let (token, ms) = (c.token, c.ms);
        self.listener_runs(w, ms);
        w.schedule_timer(
            self.busy_until,
            self.index,
            self.incarnation,
            Timer::Callback(token),
        );
    }

    pub(super) fn callback_is_current(&self, token: u64) -> bool {
        self.m
            .callback
            .as_ref()
            .is_some_and(|c| c.token == token && c.running)
    }

    /// `Timer::Callback`: the listener call returned on the application thread.
    pub(super) fn on_callback_returned(&mut self, w: &mut World) {
        if let Some(c) = self.m.callback.take() {
            self.listener_returned(w, c.after);
        }
        self.request_poll(w);
    }

    fn listener_returned(&mut self, w: &mut World, after: After) {
        match after {
            After::Revoked => self.assign_step(w),
            After::Assigned => {
                if self.reconciliation_aborted() {
                    return;
                }
                let Some(r) = self.m.reconciliation.take() else {
                    return;
                };
                // The new partitions are processed from now.
                let generation = (w.group_incarnation, self.epoch());
                for tp in r.added.iter().filter(|tp| self.owned.contains(*tp)) {
                    w.acquire(self.index, generation, tp);
                }
                self.m.current = Some(r.resolved);
                // signalReconciliationCompleting: the auto-commit timer restarts.
                self.last_commit = w.now;
                self.set_state(w, MemberState::Acknowledging);
                self.schedule_background(w);
            }
            After::Fenced => {
                if self.state == MemberState::Fenced {
                    self.transition_to_joining(w);
                }
            }
            After::Stale => self.m.stale_released = true,
            After::Leave => self.transition_to_sending_leave(w, false),
        }
    }

    /// `leaveGroup` (after `close()`'s commit): PREPARE_LEAVING.
    pub(super) fn leave_group(&mut self, w: &mut World) {
        if self.is_not_in_group() {
            self.drop_owned(w, true);
            self.mark_closed(w);
            return;
        }
        if self.is_leaving() {
            return;
        }
        self.set_state(w, MemberState::PrepareLeaving);
        self.abandon_reconciliation();
        // invokeOnPartitionsRevokedOrLostToReleaseAssignment.
        let all: Vec<Tp> = self.owned.iter().cloned().collect();
        let lost = self.epoch() <= 0;
        let ms = self.give_up_ms(all.len(), lost);
        self.give_up_now(w, all, lost, ms);
        self.m.current = None;
        self.after_listener(w, After::Leave, ms);
    }

    /// `transitionToSendingLeaveGroup`: the leave epoch, LEAVING (the heartbeat goes at once).
    fn transition_to_sending_leave(&mut self, w: &mut World, poll_timer_expired: bool) {
        if self.state == MemberState::Unsubscribed {
            return;
        }
        if poll_timer_expired {
            self.m.poll_timer_expired = true;
            self.set_state(w, MemberState::PrepareLeaving);
        }
        let epoch = if self.config.group_instance_id.is_some() {
            LEAVE_GROUP_STATIC_MEMBER_EPOCH
        } else {
            LEAVE_GROUP_MEMBER_EPOCH
        };
        self.set_member_epoch(w, epoch);
        self.m.current = None;
        self.set_state(w, MemberState::Leaving);
        self.schedule_background(w);
    }

    /// The leave heartbeat went (or could not): a closing consumer is closed.
    fn after_left(&mut self, w: &mut World) {
        if self.life == Life::Closing {
            self.mark_closed(w);
        }
    }

    /// `transitionToStale`: left because of the poll timer; the partitions are lost; the
    /// member rejoins at its next `poll()`.
    fn transition_to_stale(&mut self, w: &mut World) {
        self.set_state(w, MemberState::Stale);
        self.m.stale_released = false;
        self.abandon_reconciliation();
        let lost: Vec<Tp> = self.owned.iter().cloned().collect();
        let ms = self.give_up_ms(lost.len(), true);
        self.give_up_now(w, lost, true, ms);
        self.after_listener(w, After::Stale, ms);
    }

    /// The target's topic ids by name, from the metadata every member shares.
    fn by_topic_name(&mut self, w: &mut World, topics: &[TopicIdPartitions]) -> BTreeSet<Tp> {
        let mut out = BTreeSet::new();
        for t in topics {
            let Some((name, _)) = w
                .topics
                .iter()
                .find(|(n, _)| Uuid::for_topic_name(n) == t.topic_id)
            else {
                w.violation(format!(
                    "{} was assigned topic id {}, which is in no topic's metadata",
                    self.name, t.topic_id
                ));
                continue;
            };
            let name: Rc<str> = Rc::from(name.as_str());
            out.extend(t.partitions.iter().map(|p| (name.clone(), *p)));
        }
        out
    }
}

/// Partitions by topic id, topics in id order (`buildTopicPartitionsList`).
fn by_topic_id(partitions: Option<&BTreeSet<Tp>>) -> Vec<TopicIdPartitions> {
    let mut by_id: BTreeMap<Uuid, Vec<i32>> = BTreeMap::new();
    for (topic, p) in partitions.into_iter().flatten() {
        by_id
            .entry(Uuid::for_topic_name(topic))
            .or_default()
            .push(*p);
    }
    by_id
        .into_iter()
        .map(|(topic_id, partitions)| TopicIdPartitions {
            topic_id,
            partitions,
        })
        .collect()
}
