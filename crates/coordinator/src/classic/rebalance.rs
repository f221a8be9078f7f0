//! The procedures that move a classic group through a rebalance (`docs/src/reference/classic-protocol.md#procedures`, `docs/src/reference/classic-protocol.md#join-timer`): adding, updating
//! and removing members, preparing and completing the join phase, propagating the assignment,
//! and what each timer does when it fires. Request handlers call these; nothing here reads a
//! request directly.

use super::member::ClassicGroupMember;
use super::{ClassicGroup, GroupState, JoinTimer};
use crate::classic_rpc::{ParkedJoin, ParkedSync, join_error, join_response, sync_response};
use crate::config::{Flavour, NEW_MEMBER_JOIN_TIMEOUT_MS};
use crate::ctx::{Ctx, NO_SLOT};
use crate::event::{Cause, EventKind, RemovalReason};
use crate::protocol::{
    Bytes, JoinGroupRequestProtocol, JoinGroupResponse, JoinGroupResponseMember,
};
use crate::timer::TimerKey;
use crate::{Api, ErrorCode};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

/// What a new member record is made from: the JoinGroup request, normalised by version, lent
/// (a member that rejoins, most JoinGroups, keeps its own strings; only a new member's are
/// copied).
#[derive(Clone, Debug)]
pub(crate) struct NewMember<'a> {
    pub member_id: Cow<'a, str>,
    pub group_instance_id: Option<&'a str>,
    pub client_id: &'a str,
    pub rebalance_timeout_ms: i32,
    pub session_timeout_ms: i32,
    pub protocol_type: &'a str,
    pub protocols: &'a [JoinGroupRequestProtocol],
}

impl ClassicGroup {
    /// The one funnel for state changes: checks the transition table, records the time and the
    /// previous state, and emits `StateChanged` with its cause. An illegal transition is a bug
    /// in this model; it is refused (and fails debug builds), never applied.
    pub(crate) fn transition_to(&mut self, ctx: &mut Ctx, to: GroupState, cause: Cause) {
        let from = self.state;
        if !GroupState::can_transition(from, to) {
            debug_assert!(false, "illegal transition {from} -> {to} ({cause:?})");
            return;
        }
        self.previous_state = from;
        self.state = to;
        self.state_timestamp_ms = ctx.now;
        ctx.emit(&self.group_id, EventKind::StateChanged { from, to, cause });
        if to == GroupState::Empty {
            self.schedule_offsets_expiration(ctx);
        }
    }

    /// The funnel's other door: a coordinator loads the group (a new object, as Kafka's
    /// `ClassicGroup.fromRecord` builds one) in the state its record implies. No transition of
    /// the table happened, so no `StateChanged`: `Loaded` says which state the group is in.
    pub(crate) fn enter_loaded_state(&mut self, ctx: &mut Ctx, state: GroupState) {
        debug_assert!(
            matches!(state, GroupState::Empty | GroupState::Stable),
            "a group loads Empty or Stable, not {state}"
        );
        if state == GroupState::Stable {
            // Kafka's loaded group remembers CompletingRebalance as where Stable came from.
            self.previous_state = GroupState::CompletingRebalance;
        }
        self.state = state;
        ctx.emit(
            &self.group_id,
            EventKind::Loaded {
                members: self.num_members(),
                state,
            },
        );
    }

    fn set_leader(&mut self, ctx: &mut Ctx, leader: Option<String>) {
        if self.leader_id != leader {
            let from = core::mem::replace(&mut self.leader_id, leader.clone());
            ctx.emit(
                &self.group_id,
                EventKind::LeaderChanged { from, to: leader },
            );
        }
    }

    pub(crate) fn heartbeat_key(&self, member_id: &str) -> TimerKey {
        TimerKey::Heartbeat(self.group_id.clone(), String::from(member_id))
    }

    /// (Re)arms a member's session: its heartbeat timer fires `timeout_ms` from now.
    pub(crate) fn reschedule_heartbeat(&self, ctx: &mut Ctx, member_id: &str, timeout_ms: i64) {
        ctx.schedule_heartbeat(&self.group_id, member_id, timeout_ms);
    }

    /// Reschedules with the member's own session timeout.
    pub(crate) fn refresh_session(&self, ctx: &mut Ctx, member_id: &str) {
        self.refresh_session_of(ctx, self.member(member_id));
    }

    /// [`Self::refresh_session`] of a member already found (by [`Self::validate_member`]).
    pub(crate) fn refresh_session_of(&self, ctx: &mut Ctx, member: Option<&ClassicGroupMember>) {
        if let Some(member) = member {
            member.arm_session(ctx, &self.group_id);
        }
    }

    pub(crate) fn park_join(&mut self, ctx: &mut Ctx, member_id: &str, parked: ParkedJoin) {
        let Some(member) = self.member_mut(member_id) else {
            return;
        };
        let replaced = member.awaiting_join.replace(parked);
        match replaced {
            // Kafka replaces the old future without completing it.
            Some(old) => ctx.emit(
                &self.group_id,
                EventKind::ResponseDropped {
                    member_id: String::from(member_id),
                    api: Api::JoinGroup,
                    correlation_id: old.correlation_id,
                },
            ),
            None => self.num_awaiting_join += 1,
        }
        ctx.emit(
            &self.group_id,
            EventKind::ResponseParked {
                member_id: String::from(member_id),
                api: Api::JoinGroup,
                correlation_id: parked.correlation_id,
            },
        );
    }

    /// Takes a member's parked JoinGroup, if any.
    pub(crate) fn unpark_join(&mut self, member_id: &str) -> Option<ParkedJoin> {
        let parked = self.member_mut(member_id)?.awaiting_join.take()?;
        self.num_awaiting_join -= 1;
        Some(parked)
    }

    pub(crate) fn park_sync(&mut self, ctx: &mut Ctx, member_id: &str, parked: ParkedSync) {
        let Some(member) = self.member_mut(member_id) else {
            return;
        };
        if let Some(old) = member.awaiting_sync.replace(parked) {
            ctx.emit(
                &self.group_id,
                EventKind::ResponseDropped {
                    member_id: String::from(member_id),
                    api: Api::SyncGroup,
                    correlation_id: old.correlation_id,
                },
            );
        }
        ctx.emit(
            &self.group_id,
            EventKind::ResponseParked {
                member_id: String::from(member_id),
                api: Api::SyncGroup,
                correlation_id: parked.correlation_id,
            },
        );
    }

    /// `addMemberAndRebalance` (`docs/src/reference/classic-protocol.md#add-member`).
    pub(crate) fn add_member(&mut self, ctx: &mut Ctx, new: NewMember<'_>, parked: ParkedJoin) {
        // Kafka 4.0 flags every member added during a rebalance that started from Empty;
        // Kafka 3.x only during the very first rebalance of the group (generation 0).
        let initial = match ctx.config.flavour {
            Flavour::Kafka4 => self.is_initial_rebalance(),
            Flavour::Kafka3 => {
                self.state == GroupState::PreparingRebalance && self.generation_id == 0
            }
        };
        if initial {
            self.new_member_added = true;
        }
        let member_id = new.member_id.into_owned();
        let group_instance_id = new.group_instance_id.map(String::from);
        if self.num_members() == 0 {
            self.protocol_type = Some(String::from(new.protocol_type));
        }
        if let Some(instance) = &group_instance_id {
            self.static_members
                .insert(instance.clone(), member_id.clone());
        }
        if self.pending_join_members.remove(&member_id) {
            ctx.emit(
                &self.group_id,
                EventKind::PendingMemberRemoved {
                    member_id: member_id.clone(),
                    reason: RemovalReason::Joined,
                },
            );
        }
        self.insert_member(ClassicGroupMember {
            member_id: member_id.clone(),
            group_instance_id: group_instance_id.clone(),
            client_id: String::from(new.client_id),
            client_host: String::from("/127.0.0.1"),
            rebalance_timeout_ms: new.rebalance_timeout_ms,
            session_timeout_ms: new.session_timeout_ms,
            protocol_type: String::from(new.protocol_type),
            supported_protocols: new.protocols.to_vec(),
            assignment: Bytes::new(),
            awaiting_join: None,
            awaiting_sync: None,
            is_new: true,
            session_slot: Cell::new(NO_SLOT),
        });
        ctx.emit(
            &self.group_id,
            EventKind::MemberAdded {
                member_id: member_id.clone(),
                group_instance_id,
            },
        );
        if self.leader_id.is_none() {
            self.set_leader(ctx, Some(member_id.clone()));
        }
        self.park_join(ctx, &member_id, parked);
        // A new member gets the fixed new-member join timeout, not its session timeout
        // (KAFKA-7610), so a client that never comes back cannot hold the rebalance for long.
        self.reschedule_heartbeat(ctx, &member_id, NEW_MEMBER_JOIN_TIMEOUT_MS);
        self.maybe_prepare_rebalance_or_complete_join(
            ctx,
            Cause::MemberAdded {
                member_id: member_id.clone(),
            },
        );
    }

    /// `updateMember` (`docs/src/reference/classic-protocol.md#update-member`): new protocols and timeouts, and the new parked JoinGroup.
    pub(crate) fn update_member(
        &mut self,
        ctx: &mut Ctx,
        member_id: &str,
        protocols: &[JoinGroupRequestProtocol],
        rebalance_timeout_ms: i32,
        session_timeout_ms: i32,
        parked: Option<ParkedJoin>,
    ) {
        let Some(m) = self.member_mut(member_id) else {
            return;
        };
        m.rebalance_timeout_ms = rebalance_timeout_ms;
        m.session_timeout_ms = session_timeout_ms;
        let same_names = m.supported_protocols.len() == protocols.len()
            && m.supported_protocols
                .iter()
                .zip(protocols)
                .all(|(was, now)| was.name == now.name);
        if same_names {
            // A rejoin names the same protocols with new metadata (its owned partitions, its
            // generation): the counts, kept by name, stand; only the metadata is replaced.
            for (was, now) in m.supported_protocols.iter_mut().zip(protocols) {
                was.metadata = now.metadata.clone();
            }
        } else {
            // The member's protocols are counted again: the old ones out, the new ones in.
            let old = core::mem::replace(&mut m.supported_protocols, protocols.to_vec());
            self.forget_protocols(&old);
            self.count_protocols(member_id);
        }
        if let Some(parked) = parked {
            self.park_join(ctx, member_id, parked);
        }
    }

    /// `removeMember` (`docs/src/reference/classic-protocol.md#remove-member`): the record goes, its counts and sets are undone, its session
    /// timer is cancelled, and the leadership moves to the first remaining member. A parked
    /// SyncGroup of the removed member is never answered (it is reported as dropped).
    pub(crate) fn remove_member(&mut self, ctx: &mut Ctx, member_id: &str, reason: RemovalReason) {
        let Some(member) = self.take_member(member_id) else {
            return;
        };
        if let Some(instance) = &member.group_instance_id
            && self.static_members.get(instance).map(String::as_str) == Some(member_id)
        {
            self.static_members.remove(instance);
        }
        self.pending_join_members.remove(member_id);
        self.pending_sync_members.remove(member_id);
        ctx.cancel(&self.heartbeat_key(member_id));
        if let Some(parked) = member.awaiting_sync {
            ctx.emit(
                &self.group_id,
                EventKind::ResponseDropped {
                    member_id: String::from(member_id),
                    api: Api::SyncGroup,
                    correlation_id: parked.correlation_id,
                },
            );
        }
        ctx.emit(
            &self.group_id,
            EventKind::MemberRemoved {
                member_id: String::from(member_id),
                reason,
            },
        );
        if self.is_leader(member_id) {
            let next = self.members().next().map(|m| m.member_id.clone());
            self.set_leader(ctx, next);
        }
    }

    /// Removes a pending (MEMBER_ID_REQUIRED) member id.
    pub(crate) fn remove_pending_member(
        &mut self,
        ctx: &mut Ctx,
        member_id: &str,
        reason: RemovalReason,
    ) {
        if self.pending_join_members.remove(member_id) {
            ctx.cancel(&self.heartbeat_key(member_id));
            ctx.emit(
                &self.group_id,
                EventKind::PendingMemberRemoved {
                    member_id: String::from(member_id),
                    reason,
                },
            );
        }
    }

    /// Answers a member's parked JoinGroup with an error (member id "") and removes it: what
    /// LeaveGroup and session expiry do to a member (`removeCurrentMemberFromClassicGroup`).
    pub(crate) fn remove_current_member(
        &mut self,
        ctx: &mut Ctx,
        member_id: &str,
        reason: RemovalReason,
    ) {
        if let Some(parked) = self.unpark_join(member_id) {
            ctx.out
                .push(join_error(parked, ErrorCode::UnknownMemberId, ""));
        }
        self.remove_member(ctx, member_id, reason);
    }

    /// `maybePrepareRebalanceOrCompleteJoin` (`docs/src/reference/classic-protocol.md#maybe-rebalance`).
    pub(crate) fn maybe_prepare_rebalance_or_complete_join(&mut self, ctx: &mut Ctx, cause: Cause) {
        if self.state.can_rebalance() {
            self.prepare_rebalance(ctx, cause);
        } else {
            self.maybe_complete_join_phase(ctx);
        }
    }

    /// `maybeCompleteJoinPhase`: completes the join now if everyone (members and pending
    /// members) has joined, except during the initial-rebalance delay.
    pub(crate) fn maybe_complete_join_phase(&mut self, ctx: &mut Ctx) {
        if self.state == GroupState::PreparingRebalance
            && !self.is_initial_rebalance()
            && self.all_members_joined()
        {
            self.complete_join(ctx);
        }
    }

    fn join_key(&self) -> TimerKey {
        TimerKey::Join(self.group_id.clone())
    }

    fn sync_key(&self) -> TimerKey {
        TimerKey::Sync(self.group_id.clone())
    }

    fn schedule_join_timer(&mut self, ctx: &mut Ctx, kind: JoinTimer, delay_ms: i64) {
        self.join_timer = Some(kind);
        ctx.schedule(self.join_key(), delay_ms);
    }

    /// `prepareRebalance` (`docs/src/reference/classic-protocol.md#prepare-rebalance`).
    pub(crate) fn prepare_rebalance(&mut self, ctx: &mut Ctx, cause: Cause) {
        if self.state == GroupState::CompletingRebalance {
            self.reset_and_propagate_assignment_with_error(ctx, ErrorCode::RebalanceInProgress);
        }
        self.pending_sync_members.clear();
        self.cancel_sync_timer(ctx);
        let initial = self.state == GroupState::Empty;
        if initial {
            let delay = i64::from(ctx.config.group_initial_rebalance_delay_ms);
            let remaining = (self.rebalance_timeout_ms() - delay).max(0);
            self.schedule_join_timer(
                ctx,
                JoinTimer::Initial {
                    delay_ms: delay,
                    remaining_ms: remaining,
                },
                delay,
            );
        }
        self.transition_to(ctx, GroupState::PreparingRebalance, cause);
        if !initial {
            if self.all_members_joined() {
                self.complete_join(ctx);
            } else {
                let timeout = self.rebalance_timeout_ms();
                self.schedule_join_timer(ctx, JoinTimer::Rebalance, timeout);
            }
        }
    }

    fn cancel_sync_timer(&mut self, ctx: &mut Ctx) {
        self.sync_timer_generation = None;
        ctx.cancel(&self.sync_key());
    }

    /// Every parked SyncGroup gets `error`, every assignment is emptied (a rebalance abandons the
    /// generation's assignment, or its write failed).
    pub(crate) fn reset_and_propagate_assignment_with_error(
        &mut self,
        ctx: &mut Ctx,
        error: ErrorCode,
    ) {
        for member in self.members_mut() {
            member.assignment = Bytes::new();
        }
        self.propagate_assignment(ctx, error);
    }

    /// Answers every parked SyncGroup with `error` alone (`completeAllSyncFutures`): no
    /// assignment, no session re-armed.
    pub(crate) fn answer_parked_syncs(&mut self, ctx: &mut Ctx, error: ErrorCode) {
        for member in self.members_mut() {
            if let Some(parked) = member.awaiting_sync.take() {
                ctx.out
                    .push(sync_response(parked, error, None, None, Bytes::new()));
            }
        }
    }

    /// Answers every parked SyncGroup with `error` and the member's assignment, and re-arms the
    /// session of every member answered (`propagateAssignment`).
    pub(crate) fn propagate_assignment(&mut self, ctx: &mut Ctx, error: ErrorCode) {
        let ok = error == ErrorCode::None;
        let (protocol_type, protocol_name) = if ok {
            (self.protocol_type.clone(), self.protocol_name.clone())
        } else {
            (None, None)
        };
        // Each answered member's session is re-armed in the same pass (a response is not an
        // event: the events come out in the same order as answering everyone first).
        let group_id = self.group_id.clone();
        for member in self.members_mut() {
            if let Some(parked) = member.awaiting_sync.take() {
                let assignment = if ok {
                    member.assignment.clone()
                } else {
                    Bytes::new()
                };
                ctx.out.push(sync_response(
                    parked,
                    error,
                    protocol_type.clone(),
                    protocol_name.clone(),
                    assignment,
                ));
                member.arm_session(ctx, &group_id);
            }
        }
    }

    /// `completeClassicGroupJoin` (`docs/src/reference/classic-protocol.md#complete-join`).
    pub(crate) fn complete_join(&mut self, ctx: &mut Ctx) {
        ctx.cancel(&self.join_key());
        self.join_timer = None;
        // Dynamic members that did not rejoin are gone; static members stay (they may be
        // restarting and will come back with their group.instance.id).
        let not_rejoined: Vec<String> = self
            .members()
            .filter(|m| !m.is_awaiting_join() && !m.is_static())
            .map(|m| m.member_id.clone())
            .collect();
        for member_id in not_rejoined {
            self.remove_member(ctx, &member_id, RemovalReason::NotRejoined);
        }
        if self.state == GroupState::Dead {
            return;
        }
        if !self.maybe_elect_new_joined_leader(ctx) && self.num_members() > 0 {
            // Only static members that have not rejoined are left: wait for them (or for their
            // sessions to expire), re-arming the join timer as long as it takes.
            let timeout = self.rebalance_timeout_ms();
            self.schedule_join_timer(ctx, JoinTimer::Rebalance, timeout);
            return;
        }
        self.init_next_generation(ctx);
        if self.state == GroupState::Empty {
            self.persist_record(ctx);
            return;
        }
        let leader = self.leader_id.clone().unwrap_or_default();
        let protocol = self.protocol_name.clone().unwrap_or_default();
        let mut leader_members: Vec<JoinGroupResponseMember> = self
            .members()
            .map(|m| JoinGroupResponseMember {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                metadata: m.metadata(&protocol),
            })
            .collect();
        // Each member in order: its parked JoinGroup answered, its session re-armed, on to the
        // sync phase (one pass over the members, none looked up again by its id).
        let (generation_id, group_id) = (self.generation_id, self.group_id.clone());
        let (protocol_type, protocol_name) =
            (self.protocol_type.clone(), self.protocol_name.clone());
        let mut unparked = 0;
        // One answer per parked JoinGroup, in a buffer that may be new (a timer's answers are
        // handed over with theirs): made at its size, not grown through reallocations.
        ctx.out.reserve(self.num_awaiting_join);
        let (members, pending_sync) = self.members_and_pending_sync();
        for m in members {
            if let Some(parked) = m.awaiting_join.take() {
                unparked += 1;
                let is_leader = m.member_id == leader;
                ctx.out.push(join_response(
                    parked,
                    JoinGroupResponse {
                        error_code: ErrorCode::None,
                        generation_id,
                        protocol_type: protocol_type.clone(),
                        protocol_name: protocol_name.clone(),
                        leader: leader.clone(),
                        skip_assignment: false,
                        member_id: m.member_id.clone(),
                        // Only the leader gets them: moved to it, not copied.
                        members: if is_leader {
                            core::mem::take(&mut leader_members)
                        } else {
                            Vec::new()
                        },
                        ..JoinGroupResponse::default()
                    },
                ));
            }
            m.arm_session(ctx, &group_id);
            m.is_new = false;
            pending_sync.insert(m.member_id.clone());
        }
        self.num_awaiting_join -= unparked;
        let timeout = self.rebalance_timeout_ms();
        self.sync_timer_generation = Some(self.generation_id);
        ctx.schedule(self.sync_key(), timeout);
    }

    /// `maybeElectNewJoinedLeader`: keeps the leader if it rejoined, else picks the first member
    /// (in order) that did. False if no member rejoined.
    fn maybe_elect_new_joined_leader(&mut self, ctx: &mut Ctx) -> bool {
        let Some(leader) = self.leader_id.clone() else {
            return false;
        };
        if self.member(&leader).is_some_and(|m| m.is_awaiting_join()) {
            return true;
        }
        let rejoined = self
            .members()
            .find(|m| m.is_awaiting_join())
            .map(|m| m.member_id.clone());
        match rejoined {
            Some(new_leader) => {
                self.set_leader(ctx, Some(new_leader));
                true
            }
            None => false,
        }
    }

    /// `initNextGeneration` (`docs/src/reference/classic-protocol.md#complete-join`, step 6).
    fn init_next_generation(&mut self, ctx: &mut Ctx) {
        self.generation_id = self.generation_id.wrapping_add(1);
        if self.num_members() > 0 {
            self.protocol_name = self.select_protocol();
            ctx.emit(
                &self.group_id,
                EventKind::GenerationBumped {
                    generation_id: self.generation_id,
                    protocol_name: self.protocol_name.clone(),
                },
            );
            self.transition_to(
                ctx,
                GroupState::CompletingRebalance,
                Cause::JoinPhaseCompleted,
            );
        } else {
            self.protocol_name = None;
            ctx.emit(
                &self.group_id,
                EventKind::GenerationBumped {
                    generation_id: self.generation_id,
                    protocol_name: None,
                },
            );
            self.transition_to(ctx, GroupState::Empty, Cause::JoinPhaseCompleted);
        }
        self.pending_sync_members.clear();
    }

    /// Writes the group record. Records whose failure Kafka does not handle (the empty-group
    /// records) always succeed; see [`ClassicGroup::try_persist_record`].
    pub(crate) fn persist_record(&self, ctx: &mut Ctx) {
        let (key, previous) = match ctx.records.remove_entry(&self.group_id) {
            Some((key, previous)) => (key, Some(previous)),
            None => (self.group_id.clone(), None),
        };
        let record = self.record(ctx, previous);
        ctx.emit(
            &self.group_id,
            EventKind::GroupRecordPersisted {
                generation_id: record.generation,
                members: record.members.len(),
            },
        );
        ctx.records.insert(key, record);
    }

    /// Writes the group record where Kafka handles a failed write (the leader's SyncGroup, a
    /// static member's replacement): an armed `fail_next_persist` fault is consumed here.
    pub(crate) fn try_persist_record(&self, ctx: &mut Ctx) -> Result<(), ErrorCode> {
        if let Some(error) = ctx.take_persist_fault() {
            ctx.emit(&self.group_id, EventKind::PersistFailed { error });
            return Err(error);
        }
        self.persist_record(ctx);
        Ok(())
    }

    // ---- timers --------------------------------------------------------------------------

    /// The join timer fired (`docs/src/reference/classic-protocol.md#join-timer`, `docs/src/reference/classic-protocol.md#initial-delay`).
    pub(crate) fn on_join_timer(&mut self, ctx: &mut Ctx) {
        if self.state != GroupState::PreparingRebalance {
            return;
        }
        match self.join_timer {
            Some(JoinTimer::Initial {
                delay_ms,
                remaining_ms,
            }) if self.new_member_added && remaining_ms != 0 => {
                self.new_member_added = false;
                let configured = i64::from(ctx.config.group_initial_rebalance_delay_ms);
                let delay = configured.min(remaining_ms);
                let remaining = (remaining_ms - delay_ms).max(0);
                self.schedule_join_timer(
                    ctx,
                    JoinTimer::Initial {
                        delay_ms: delay,
                        remaining_ms: remaining,
                    },
                    delay,
                );
            }
            _ => self.complete_join(ctx),
        }
    }

    /// The sync timer fired (`docs/src/reference/classic-protocol.md#sync-timeout`): members that have not sent SyncGroup are removed.
    pub(crate) fn on_sync_timer(&mut self, ctx: &mut Ctx) {
        let armed_for = self.sync_timer_generation.take();
        if armed_for != Some(self.generation_id)
            || !matches!(
                self.state,
                GroupState::CompletingRebalance | GroupState::Stable
            )
        {
            return;
        }
        let missing: Vec<String> = self.pending_sync_members.sorted().cloned().collect();
        if missing.is_empty() {
            return;
        }
        for member_id in &missing {
            self.remove_member(ctx, member_id, RemovalReason::SyncTimeout);
        }
        self.prepare_rebalance(
            ctx,
            Cause::SyncTimeout {
                member_ids: missing,
            },
        );
    }

    /// A heartbeat timer fired: the member's session (or a pending member's) expired (`docs/src/reference/classic-protocol.md#session`).
    pub(crate) fn on_heartbeat_timer(&mut self, ctx: &mut Ctx, member_id: &str) {
        if self.state == GroupState::Dead {
            return;
        }
        // Kafka 4.0 completes the join right away when an expiry leaves everyone joined, even
        // during the initial delay; Kafka 3.x leaves that to the InitialDelayedJoin (D2).
        let completes_early = |g: &ClassicGroup, flavour: Flavour| {
            g.state == GroupState::PreparingRebalance
                && g.all_members_joined()
                && (flavour == Flavour::Kafka4 || !g.is_initial_rebalance())
        };
        if self.is_pending_member(member_id) {
            self.remove_pending_member(ctx, member_id, RemovalReason::SessionTimeout);
            if completes_early(self, ctx.config.flavour) {
                self.complete_join(ctx);
            }
            return;
        }
        let Some(member) = self.member(member_id) else {
            return;
        };
        if member.has_satisfied_heartbeat() {
            return;
        }
        self.remove_current_member(ctx, member_id, RemovalReason::SessionTimeout);
        let cause = Cause::SessionExpired {
            member_id: String::from(member_id),
        };
        match self.state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                self.prepare_rebalance(ctx, cause)
            }
            GroupState::PreparingRebalance => {
                if completes_early(self, ctx.config.flavour) {
                    self.complete_join(ctx);
                }
            }
            GroupState::Empty | GroupState::Dead => {}
        }
    }
}
