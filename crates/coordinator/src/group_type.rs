//! One id, one group. Kafka keeps classic and consumer groups (KIP-848) in one map, so a group
//! id names a group of one type at a time. Here they live in two maps; this module is where a
//! request meets a group of the other type, with Kafka 4.0's answers (`GroupMetadataManager`):
//!
//! - a member joining with ConsumerGroupHeartbeat replaces an *empty* classic group of that id
//!   (its offsets stay);
//! - a classic JoinGroup replaces an *empty* consumer group (its offsets stay);
//! - classic SyncGroup, Heartbeat and LeaveGroup to a consumer group are the consumer group's
//!   to answer.
//!
//! A classic group with members meeting a consumer-protocol member is the online upgrade, and
//! a consumer group with members meeting a classic JoinGroup takes the member in, speaking the
//! classic protocol (`crate::migration`,
//! `crate::consumer_group::classic_member`).

use crate::classic_rpc::{ParkedJoin, front_door, join_error, not_coordinator};
use crate::consumer_group::ConsumerGroup;
use crate::consumer_group::{ConsumerGroupState, ConsumerGroups};
use crate::ctx::Ctx;
use crate::event::{Cause, EventKind};
use crate::protocol::{ConsumerGroupHeartbeatRequest, Request};
use crate::{ErrorCode, GroupState, Groups};
use alloc::string::String;

/// What to do with a request after looking at the other type's group of its id.
pub(crate) enum Route {
    /// Handle it as usual (there was no group of the other type, or it was empty and is gone).
    Handle,
    /// It is answered (its response is in `ctx.out`).
    Answered,
}

/// A classic request (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) for the id of a consumer
/// group: an empty consumer group gives its id to a classic JoinGroup; otherwise the consumer
/// group answers it (`consumer_group::classic_member`).
pub(crate) fn route_classic(
    ctx: &mut Ctx,
    consumer: &mut ConsumerGroups,
    classic: &mut Groups,
    request: &Request,
) -> Route {
    let Some(group_id) = request.group_id() else {
        return Route::Handle;
    };
    let Some(group) = consumer.groups.get(group_id) else {
        return Route::Handle;
    };
    let classic_request = matches!(
        request,
        Request::JoinGroup(_)
            | Request::SyncGroup(_)
            | Request::Heartbeat(_)
            | Request::LeaveGroup(_)
    );
    if group.unloaded && classic_request {
        not_coordinator(ctx, request);
        return Route::Answered;
    }
    match request {
        Request::JoinGroup(r) => {
            if group.members.is_empty() {
                remove_consumer_group(ctx, consumer, group_id);
                return Route::Handle;
            }
            // The checks made before the group is looked at apply to both types.
            if let Some((error, member_id)) = front_door(ctx, r, false) {
                ctx.out
                    .push(join_error(ParkedJoin::of(r), error, &member_id));
            } else {
                consumer.classic_join(ctx, classic, r);
            }
        }
        Request::SyncGroup(r) => consumer.classic_sync(ctx, r),
        Request::Heartbeat(r) => consumer.classic_heartbeat(ctx, r),
        Request::LeaveGroup(r) => consumer.classic_leave(ctx, r),
        _ => return Route::Handle,
    }
    Route::Answered
}

/// A ConsumerGroupHeartbeat (already validated) for the id of a classic group: Ok to go on
/// (with the consumer group a converted classic group became, to put in), or the error it
/// gets.
pub(crate) fn route_consumer_heartbeat(
    ctx: &mut Ctx,
    groups: &mut Groups,
    topics: &alloc::collections::BTreeMap<String, crate::consumer_group::TopicImage>,
    r: &ConsumerGroupHeartbeatRequest,
) -> Result<Option<ConsumerGroup>, (ErrorCode, String)> {
    let Some(classic) = groups.get_mut(&r.group_id) else {
        return Ok(None);
    };
    let not_consumer = || {
        Err((
            ErrorCode::GroupIdNotFound,
            alloc::format!("Group {} is not a consumer group", r.group_id),
        ))
    };
    if r.member_epoch != 0 || classic.unloaded {
        return not_consumer();
    }
    if classic.state() != GroupState::Empty {
        // The online upgrade, when the policy and the group allow it.
        if !crate::migration::can_upgrade(&ctx.config, classic) {
            return not_consumer();
        }
        let converted = crate::migration::convert_to_consumer_group(ctx, classic, topics)?;
        groups.remove(&r.group_id);
        return Ok(Some(converted));
    }
    // `maybeDeleteEmptyClassicGroup`: the group's record is deleted, its offsets are not.
    classic.transition_to(ctx, GroupState::Dead, Cause::ReplacedByOtherType);
    groups.remove(&r.group_id);
    ctx.cancel_group_timers(&r.group_id);
    ctx.records.remove(&r.group_id);
    Ok(None)
}

/// `maybeDeleteEmptyConsumerGroup`: an empty consumer group gives its id to a classic group.
pub(crate) fn remove_consumer_group(ctx: &mut Ctx, consumer: &mut ConsumerGroups, group_id: &str) {
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
    if group.unloaded {
        return Some(ErrorCode::NotCoordinator);
    }
    if !group.members.is_empty() {
        return Some(ErrorCode::NonEmptyGroup);
    }
    remove_consumer_group(ctx, consumer, group_id);
    ctx.offsets.remove(group_id);
    ctx.emit(group_id, EventKind::Deleted);
    Some(ErrorCode::None)
}
