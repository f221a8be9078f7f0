//! One id, one group. Kafka keeps classic and consumer groups (KIP-848) in one map, so a group
//! id names a group of one type at a time. Here they live in two maps; this module is where a
//! request meets a group of the other type, with Kafka 4.0's answers (`GroupMetadataManager`):
//!
//! - a member joining with ConsumerGroupHeartbeat replaces an *empty* classic group of that id
//!   (its offsets stay); a classic group with members is "not a consumer group";
//! - a classic JoinGroup replaces an *empty* consumer group (its offsets stay);
//! - classic SyncGroup, Heartbeat and LeaveGroup find no classic member in a consumer group:
//!   UNKNOWN_MEMBER_ID, or FENCED_INSTANCE_ID for a static member's instance id given with
//!   another member id.
//!
//! Not modelled yet: mixed groups and online migration. Kafka 4.0 takes a classic JoinGroup
//! into a consumer group with members (the member then speaks the classic protocol inside it),
//! and converts a classic group with members when its first KIP-848 member joins, under
//! `group.consumer.migration.policy`. Here the first is refused with INCONSISTENT_GROUP_PROTOCOL
//! (Kafka's answer when the group cannot take the member's protocols) and the second gets
//! Kafka's answer when the policy forbids the upgrade (GROUP_ID_NOT_FOUND, "not a consumer
//! group"). Both are marked in the reference (`docs/src/reference/consumer-group-protocol.md`).

use crate::classic::{Ctx, ParkedJoin};
use crate::consumer_group::{ConsumerGroupState, ConsumerGroups};
use crate::event::{Cause, EventKind};
use crate::protocol::{
    ConsumerGroupHeartbeatRequest, HeartbeatResponse, MemberResponse, Request, SyncGroupResponse,
};
use crate::{ErrorCode, GroupState, Groups, Response};
use alloc::string::String;

/// What to do with a request after looking at the other type's group of its id.
pub(crate) enum Route {
    /// Handle it as usual (there was no group of the other type, or it was empty and is gone).
    Handle,
    /// It is answered (its response is in `ctx.out`).
    Answered,
}

/// A classic request (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) for the id of a consumer
/// group.
pub(crate) fn route_classic(
    ctx: &mut Ctx,
    consumer: &mut ConsumerGroups,
    request: &Request,
) -> Route {
    let Some(group_id) = request.group_id() else {
        return Route::Handle;
    };
    let Some(group) = consumer.groups.get(group_id) else {
        return Route::Handle;
    };
    // The other type's error for a static member: its instance id is known, under another
    // member id (`throwIfInstanceIdIsFenced`); else the member is not a classic member.
    let member_error = |member_id: &str, instance_id: Option<&str>| match instance_id
        .and_then(|i| group.static_member(i))
    {
        Some(m) if m.member_id != member_id && !member_id.is_empty() => ErrorCode::FencedInstanceId,
        _ => ErrorCode::UnknownMemberId,
    };
    match request {
        Request::JoinGroup(r) => {
            if group.members.is_empty() {
                remove_consumer_group(ctx, consumer, group_id);
                return Route::Handle;
            }
            let parked = ParkedJoin {
                correlation_id: r.correlation_id,
                api_version: r.api_version,
            };
            ctx.out.push(crate::classic::rebalance::join_error(
                parked,
                ErrorCode::InconsistentGroupProtocol,
                &r.member_id,
            ));
        }
        Request::SyncGroup(r) => {
            let instance = since_v3(&r.group_instance_id, r.api_version);
            ctx.out.push(Response::SyncGroup(SyncGroupResponse {
                api_version: r.api_version,
                correlation_id: r.correlation_id,
                error_code: member_error(&r.member_id, instance),
                ..SyncGroupResponse::default()
            }));
        }
        Request::Heartbeat(r) => {
            let instance = since_v3(&r.group_instance_id, r.api_version);
            ctx.out.push(Response::Heartbeat(HeartbeatResponse {
                api_version: r.api_version,
                correlation_id: r.correlation_id,
                throttle_time_ms: 0,
                error_code: member_error(&r.member_id, instance),
            }));
        }
        Request::LeaveGroup(r) => {
            let members = crate::classic::leave_group::identities(r)
                .into_iter()
                .map(|m| MemberResponse {
                    error_code: member_error(&m.member_id, m.group_instance_id.as_deref()),
                    member_id: m.member_id,
                    group_instance_id: m.group_instance_id,
                })
                .collect();
            crate::classic::leave_group::respond(ctx, r, ErrorCode::None, members);
        }
        _ => return Route::Handle,
    }
    Route::Answered
}

/// SyncGroup and Heartbeat carry an instance id from v3.
fn since_v3(instance_id: &Option<String>, api_version: i16) -> Option<&str> {
    instance_id.as_deref().filter(|_| api_version >= 3)
}

/// A ConsumerGroupHeartbeat (already validated) for the id of a classic group: Ok to go on, or
/// the error it gets.
pub(crate) fn route_consumer_heartbeat(
    ctx: &mut Ctx,
    groups: &mut Groups,
    r: &ConsumerGroupHeartbeatRequest,
) -> Result<(), (ErrorCode, String)> {
    let Some(classic) = groups.get_mut(&r.group_id) else {
        return Ok(());
    };
    if r.member_epoch != 0 || classic.state() != GroupState::Empty || classic.unloaded {
        return Err((
            ErrorCode::GroupIdNotFound,
            alloc::format!("Group {} is not a consumer group", r.group_id),
        ));
    }
    // `maybeDeleteEmptyClassicGroup`: the group's record is deleted, its offsets are not.
    classic.transition_to(ctx, GroupState::Dead, Cause::ReplacedByOtherType);
    groups.remove(&r.group_id);
    ctx.cancel_group_timers(&r.group_id);
    ctx.records.remove(&r.group_id);
    Ok(())
}

/// `maybeDeleteEmptyConsumerGroup`: an empty consumer group gives its id to a classic group.
fn remove_consumer_group(ctx: &mut Ctx, consumer: &mut ConsumerGroups, group_id: &str) {
    if consumer.groups.remove(group_id).is_some() {
        ctx.cancel_group_timers(group_id);
        ctx.emit(
            group_id,
            EventKind::ConsumerGroupStateChanged {
                from: ConsumerGroupState::Empty,
                to: ConsumerGroupState::Dead,
            },
        );
    }
}

/// DeleteGroups for a consumer group: only an empty one, with its offsets (Kafka's
/// `ConsumerGroup.validateDeleteGroup`).
pub(crate) fn delete_consumer_group(
    ctx: &mut Ctx,
    consumer: &mut ConsumerGroups,
    group_id: &str,
) -> Option<ErrorCode> {
    let group = consumer.groups.get(group_id)?;
    if !group.members.is_empty() {
        return Some(ErrorCode::NonEmptyGroup);
    }
    remove_consumer_group(ctx, consumer, group_id);
    ctx.offsets.remove(group_id);
    ctx.emit(group_id, EventKind::Deleted);
    Some(ErrorCode::None)
}
