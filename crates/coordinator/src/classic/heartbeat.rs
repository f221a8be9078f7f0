//! Heartbeat (`docs/src/reference/classic-protocol.md#heartbeat`).

use super::GroupState;
use crate::ctx::Ctx;
use crate::protocol::{HeartbeatRequest, HeartbeatResponse};
use crate::{ErrorCode, Groups, Response};

pub(crate) fn handle(ctx: &mut Ctx, groups: &mut Groups, req: &HeartbeatRequest) {
    let error = heartbeat(ctx, groups, req);
    ctx.out.push(Response::Heartbeat(HeartbeatResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        throttle_time_ms: 0,
        error_code: error,
    }));
}

fn heartbeat(ctx: &mut Ctx, groups: &mut Groups, req: &HeartbeatRequest) -> ErrorCode {
    if req.group_id.is_empty() {
        return ErrorCode::InvalidGroupId;
    }
    let Some(group) = groups.get_mut(&req.group_id) else {
        return ErrorCode::UnknownMemberId;
    };
    if group.unloaded {
        return ErrorCode::NotCoordinator;
    }
    if group.state() == GroupState::Dead {
        return ErrorCode::CoordinatorNotAvailable;
    }
    let instance = if req.api_version >= 3 {
        req.group_instance_id.as_deref()
    } else {
        None
    };
    let member = match group.validate_member(&req.member_id, instance) {
        Ok(member) => member,
        Err(error) => return error,
    };
    if req.generation_id != group.generation_id() {
        return ErrorCode::IllegalGeneration;
    }
    match group.state() {
        GroupState::Empty | GroupState::Dead => ErrorCode::UnknownMemberId,
        GroupState::PreparingRebalance => {
            group.refresh_session_of(ctx, member);
            ErrorCode::RebalanceInProgress
        }
        GroupState::CompletingRebalance | GroupState::Stable => {
            group.refresh_session_of(ctx, member);
            ErrorCode::None
        }
    }
}
