//! Classic members inside a consumer group (Kafka 4.0's mixed groups, KIP-848): a consumer that
//! still speaks JoinGroup, SyncGroup, Heartbeat and LeaveGroup is a member like any other,
//! with its subscription and owned partitions read from its JoinGroup metadata
//! (`docs/src/reference/consumer-group-protocol.md#classic-members`; Kafka's
//! `classicGroupJoinToConsumerGroup`, `classicGroupSyncToConsumerGroup`,
//! `classicGroupHeartbeatToConsumerGroup`, `classicGroupLeaveToConsumerGroup`).
//!
//! - **JoinGroup** is answered at once, never parked: the member is updated as a heartbeat
//!   would update it (group epoch, target, one reconciliation step) and gets its member epoch
//!   as the generation, its first protocol's name, no leader and no member list. Its session
//!   timer runs with its own session timeout, and a sync timer (its rebalance timeout) waits
//!   for its SyncGroup.
//! - **SyncGroup** returns the member's assigned partitions in its protocol's version, or
//!   REBALANCE_IN_PROGRESS when the group moved on since its join.
//! - **Heartbeat** answers REBALANCE_IN_PROGRESS when the member must rejoin: it is behind the
//!   group epoch, it has partitions to revoke, or the partitions it waits for are free. A join
//!   timer (its rebalance timeout) then waits for the JoinGroup.
//! - **LeaveGroup** removes the members named and bumps the group epoch once.

use super::ConsumerGroups;
use super::group::{ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember};
use super::groups::{Failure, update_member};
use super::reconcile::MemberState;
use crate::classic_rpc::{ParkedJoin, ParkedSync};
use crate::consumer_protocol::{PROTOCOL_TYPE, Subscription};
use crate::ctx::Ctx;
use crate::event::{ConsumerRemoval, EventKind};
use crate::migration;
use crate::protocol::{
    HeartbeatRequest, HeartbeatResponse, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest,
    MemberResponse, SyncGroupRequest,
};
use crate::timer::TimerKeyRef;
use crate::{ErrorCode, Groups, Response};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The member a classic request names (`validateConsumerGroupMember`): by instance id when
/// given (FENCED_INSTANCE_ID when that instance has another member id), else by member id; it
/// must speak the classic protocol.
fn classic_member<'a>(
    group: &'a ConsumerGroup,
    member_id: &str,
    instance_id: Option<&str>,
) -> Result<&'a ConsumerGroupMember, ErrorCode> {
    let member = match instance_id {
        None => group.members.get(member_id),
        Some(instance) => group.static_member(instance),
    }
    .ok_or(ErrorCode::UnknownMemberId)?;
    if instance_id.is_some() && member.member_id != member_id {
        return Err(ErrorCode::FencedInstanceId);
    }
    if !member.uses_classic_protocol() {
        return Err(ErrorCode::UnknownMemberId);
    }
    Ok(member)
}

/// SyncGroup and Heartbeat carry an instance id from v3.
fn since_v3(instance_id: &Option<String>, api_version: i16) -> Option<&str> {
    instance_id.as_deref().filter(|_| api_version >= 3)
}

/// `scheduleConsumerGroupJoinTimeoutIfAbsent`.
fn schedule_join_timeout(ctx: &mut Ctx, group_id: &str, member: &ConsumerGroupMember) {
    let join = TimerKeyRef::ConsumerJoin(group_id, &member.member_id);
    if !ctx.timers.contains(&join) {
        ctx.schedule_ref(join, i64::from(member.rebalance_timeout_ms));
    }
}

fn session_timeout(member: &ConsumerGroupMember) -> i64 {
    i64::from(member.classic.as_ref().map_or(0, |c| c.session_timeout_ms))
}

impl ConsumerGroups {
    /// JoinGroup to a consumer group with members.
    pub(crate) fn classic_join(
        &mut self,
        ctx: &mut Ctx,
        classic: &mut Groups,
        r: &JoinGroupRequest,
    ) {
        let parked = ParkedJoin::of(r);
        let before = self.groups.get(&r.group_id).map(ConsumerGroup::state);
        match self.join(ctx, classic, r) {
            Ok(response) => ctx
                .out
                .push(crate::classic_rpc::join_response(parked, response)),
            Err((code, member_id)) => ctx
                .out
                .push(crate::classic_rpc::join_error(parked, code, &member_id)),
        }
        self.note_state(ctx, &r.group_id, before);
    }

    fn join(
        &mut self,
        ctx: &mut Ctx,
        classic: &mut Groups,
        r: &JoinGroupRequest,
    ) -> Result<JoinGroupResponse, (ErrorCode, String)> {
        let topics = &self.topics;
        let topics_version = self.topics_version;
        let Some(group) = self.groups.get_mut(&r.group_id) else {
            return Err((ErrorCode::UnknownMemberId, r.member_id.clone()));
        };
        let is_unknown_member = r.member_id.is_empty();
        let member_id = if is_unknown_member {
            ctx.member_ids.next_uuid().to_string()
        } else {
            r.member_id.clone()
        };
        let refuse = |code: ErrorCode| Err((code, member_id.clone()));
        let max = usize::try_from(ctx.config.group_consumer_max_size).unwrap_or(usize::MAX);
        if !group.members.contains_key(&member_id) && group.members.len() >= max {
            return refuse(ErrorCode::GroupMaxSizeReached);
        }
        let names: Vec<&str> = r.protocols.iter().map(|p| p.name.as_str()).collect();
        if !group.supports_classic_protocols(&r.protocol_type, &names) {
            return refuse(ErrorCode::InconsistentGroupProtocol);
        }
        let instance_id = r
            .group_instance_id
            .as_deref()
            .filter(|_| r.api_version >= 5);
        if r.api_version >= 4 && instance_id.is_none() && is_unknown_member {
            return refuse(ErrorCode::MemberIdRequired);
        }
        // The member as it is, or a new one; a static member joining without its member id
        // replaces the one of its instance id (whatever protocol that one spoke).
        let fresh = || ConsumerGroupMember {
            member_id: member_id.clone(),
            ..Default::default()
        };
        let (member, replaced) = match instance_id {
            None => (
                group.members.get(&member_id).cloned().unwrap_or_else(fresh),
                None,
            ),
            Some(instance) => match group.static_member(instance) {
                None if is_unknown_member => (fresh(), None),
                None => return refuse(ErrorCode::UnknownMemberId),
                Some(existing) if !is_unknown_member => {
                    if existing.member_id != member_id {
                        return refuse(ErrorCode::FencedInstanceId);
                    }
                    (existing.clone(), None)
                }
                Some(existing) => {
                    let mut copy = existing.clone();
                    copy.member_id = member_id.clone();
                    copy.progress.member_epoch = 0;
                    copy.progress.previous_member_epoch = 0;
                    (copy, Some(existing.member_id.clone()))
                }
            },
        };
        // The subscription is the first protocol's metadata; Kafka throws an unchecked error
        // on a malformed one, which the runtime answers UNKNOWN_SERVER_ERROR.
        let subscription = r
            .protocols
            .first()
            .and_then(|p| Subscription::decode(p.metadata.as_slice()).ok())
            .ok_or((ErrorCode::UnknownServerError, member_id.clone()))?;
        let mut updated = member.clone();
        if let Some(i) = instance_id {
            updated.instance_id = Some(i.to_string());
        }
        if let Some(rack) = &subscription.rack_id {
            updated.rack_id = Some(rack.clone());
        }
        if r.rebalance_timeout_ms != -1 {
            updated.rebalance_timeout_ms = r.rebalance_timeout_ms;
        }
        let mut topic_names = subscription.topics.clone();
        crate::ordered::sort(&mut topic_names);
        topic_names.dedup();
        updated.subscribed_topic_names = topic_names;
        updated.client_id = r.client_id.clone();
        updated.classic = Some(ClassicMemberMetadata {
            session_timeout_ms: r.session_timeout_ms,
            supported_protocols: r.protocols.clone(),
        });
        let owned = migration::by_topic_id(&subscription.owned_partitions, topics);
        // Decided on the group as it was, before the replacement (Kafka validates before its
        // records apply): the last consumer-protocol static member replaced by a classic one
        // takes the group back to the classic protocol, without a rebalance.
        let downgrade = replaced
            .clone()
            .filter(|old| migration::can_downgrade_replacing(&ctx.config, group, old));
        // Kafka's classic join to a consumer group bumps on a subscription change alone.
        let subscription_changed = updated.subscribed_topic_names != member.subscribed_topic_names;
        let updated = update_member(
            ctx,
            group,
            topics,
            topics_version,
            updated,
            replaced.as_deref(),
            Some(&owned),
            subscription_changed,
        )
        .map_err(|Failure(code, _)| (code, member_id.clone()))?;
        let response = JoinGroupResponse {
            error_code: ErrorCode::None,
            generation_id: updated.progress.member_epoch,
            protocol_type: Some(String::from(PROTOCOL_TYPE)),
            protocol_name: r.protocols.first().map(|p| p.name.clone()),
            leader: String::new(),
            member_id: member_id.clone(),
            ..JoinGroupResponse::default()
        };
        ctx.cancel_ref(TimerKeyRef::ConsumerJoin(&r.group_id, &member_id));
        if let Some(old) = downgrade {
            if let Some(group) = self.groups.remove(&r.group_id) {
                let converted =
                    migration::convert_to_classic_group(ctx, group, topics, &old, Some(&updated));
                classic.insert(r.group_id.clone(), converted);
            }
            return Ok(response);
        }
        let session = session_timeout(&updated);
        group.put_member(updated);
        ctx.schedule_ref(
            TimerKeyRef::ConsumerSession(&r.group_id, &member_id),
            session,
        );
        ctx.schedule_ref(
            TimerKeyRef::ConsumerSync(&r.group_id, &member_id),
            i64::from(r.rebalance_timeout_ms),
        );
        Ok(response)
    }

    /// SyncGroup to a consumer group.
    pub(crate) fn classic_sync(&mut self, ctx: &mut Ctx, r: &SyncGroupRequest) {
        let parked = ParkedSync::of(r);
        let answer = |ctx: &mut Ctx, error, assignment| {
            let (t, n) = match error {
                ErrorCode::None => (r.protocol_type.clone(), r.protocol_name.clone()),
                _ => (None, None),
            };
            ctx.out.push(crate::classic_rpc::sync_response(
                parked, error, t, n, assignment,
            ));
        };
        let Some(group) = self
            .groups
            .get(&r.group_id)
            .filter(|g| !g.members.is_empty())
        else {
            return answer(ctx, ErrorCode::UnknownMemberId, Default::default());
        };
        let instance = since_v3(&r.group_instance_id, r.api_version);
        let member = match classic_member(group, &r.member_id, instance) {
            Ok(m) => m,
            Err(code) => return answer(ctx, code, Default::default()),
        };
        if r.generation_id != member.member_epoch() {
            return answer(ctx, ErrorCode::IllegalGeneration, Default::default());
        }
        // `throwIfClassicProtocolUnmatched`: the type must be `consumer` and the name the one
        // its JoinGroup was answered with, when given.
        let name = member
            .classic
            .as_ref()
            .and_then(|c| c.supported_protocols.first())
            .map(|p| p.name.as_str());
        if r.protocol_type
            .as_deref()
            .is_some_and(|t| t != PROTOCOL_TYPE)
            || r.protocol_name.as_deref().is_some_and(|n| Some(n) != name)
        {
            return answer(
                ctx,
                ErrorCode::InconsistentGroupProtocol,
                Default::default(),
            );
        }
        // `throwIfRebalanceInProgress`: the group moved on since this member's join (a member
        // still revoking has rejoined already and finishes that first).
        if group.group_epoch > member.member_epoch()
            && member.state() != MemberState::UnrevokedPartitions
        {
            schedule_join_timeout(ctx, &r.group_id, member);
            return answer(ctx, ErrorCode::RebalanceInProgress, Default::default());
        }
        let assignment = migration::encode_assignment(
            member
                .classic
                .as_ref()
                .unwrap_or(&ClassicMemberMetadata::default()),
            &member.progress.assigned,
            &self.topics,
        );
        let session = session_timeout(member);
        ctx.cancel_ref(TimerKeyRef::ConsumerSync(&r.group_id, &r.member_id));
        ctx.schedule_ref(
            TimerKeyRef::ConsumerSession(&r.group_id, &r.member_id),
            session,
        );
        answer(ctx, ErrorCode::None, assignment);
    }

    /// Heartbeat to a consumer group.
    pub(crate) fn classic_heartbeat(&mut self, ctx: &mut Ctx, r: &HeartbeatRequest) {
        let error = match self.groups.get(&r.group_id) {
            None => ErrorCode::UnknownMemberId,
            Some(group) => {
                let instance = since_v3(&r.group_instance_id, r.api_version);
                match classic_member(group, &r.member_id, instance) {
                    Err(code) => code,
                    Ok(m) if r.generation_id != m.member_epoch() => ErrorCode::IllegalGeneration,
                    Ok(m) => {
                        ctx.schedule_ref(
                            TimerKeyRef::ConsumerSession(&r.group_id, &r.member_id),
                            session_timeout(m),
                        );
                        let rejoin = m.member_epoch() < group.group_epoch
                            || m.state() == MemberState::UnrevokedPartitions
                            || (m.state() == MemberState::UnreleasedPartitions
                                && !group.waiting_on_unreleased_partition(m));
                        if rejoin {
                            schedule_join_timeout(ctx, &r.group_id, m);
                            ErrorCode::RebalanceInProgress
                        } else {
                            ErrorCode::None
                        }
                    }
                }
            }
        };
        ctx.out.push(Response::Heartbeat(HeartbeatResponse {
            api_version: r.api_version,
            correlation_id: r.correlation_id,
            throttle_time_ms: 0,
            error_code: error,
        }));
    }

    /// LeaveGroup to a consumer group: each named classic member goes; the group epoch moves
    /// on once if any did. It never converts the group (only a consumer-protocol member's
    /// departure can leave it with classic members alone).
    pub(crate) fn classic_leave(&mut self, ctx: &mut Ctx, r: &LeaveGroupRequest) {
        let before = self.groups.get(&r.group_id).map(ConsumerGroup::state);
        let mut responses = Vec::new();
        let mut removed = 0;
        for identity in crate::classic_rpc::identities(r) {
            let instance = identity.group_instance_id.as_deref();
            let found =
                self.groups
                    .get(&r.group_id)
                    .map_or(Err(ErrorCode::UnknownMemberId), |group| match instance {
                        // An admin removes a static member by instance id alone.
                        Some(i) if identity.member_id.is_empty() => group
                            .static_member(i)
                            .ok_or(ErrorCode::UnknownMemberId)
                            .and_then(|m| {
                                classic_member(group, &m.member_id, Some(i))
                                    .map(|m| m.member_id.clone())
                            }),
                        _ => classic_member(group, &identity.member_id, instance)
                            .map(|m| m.member_id.clone()),
                    });
            let error = match (&found, self.groups.get_mut(&r.group_id)) {
                (Ok(member_id), Some(group)) => {
                    group.remove_member(member_id);
                    cancel_timers(ctx, &r.group_id, member_id);
                    ctx.emit(
                        &r.group_id,
                        EventKind::ConsumerMemberRemoved {
                            member_id: member_id.clone(),
                            reason: ConsumerRemoval::Left,
                        },
                    );
                    removed += 1;
                    ErrorCode::None
                }
                (Err(code), _) => *code,
                (Ok(_), None) => ErrorCode::UnknownMemberId,
            };
            responses.push(MemberResponse {
                member_id: found.clone().unwrap_or(identity.member_id.clone()),
                group_instance_id: identity.group_instance_id.clone(),
                error_code: error,
            });
        }
        if removed > 0
            && let Some(group) = self.groups.get_mut(&r.group_id)
        {
            super::groups::after_removal(ctx, group, &self.topics);
        }
        crate::classic_rpc::respond(ctx, r, ErrorCode::None, responses);
        self.note_state(ctx, &r.group_id, before);
    }
}

/// `cancelTimers`: every timer of the member.
pub(crate) fn cancel_timers(ctx: &mut Ctx, group_id: &str, member_id: &str) {
    for kind in [
        TimerKeyRef::ConsumerSession,
        TimerKeyRef::ConsumerRebalance,
        TimerKeyRef::ConsumerJoin,
        TimerKeyRef::ConsumerSync,
    ] {
        ctx.cancel_ref(kind(group_id, member_id));
    }
}
