//! LeaveGroup (`docs/src/reference/classic-protocol.md#leave-group`, `docs/src/reference/classic-protocol.md#leaving`): single member up to v2, batches from v3.

use super::{ClassicGroup, GroupState};
use crate::classic_rpc::{identities, respond};
use crate::config::Flavour;
use crate::ctx::Ctx;
use crate::event::{Cause, RemovalReason};
use crate::protocol::{LeaveGroupRequest, MemberIdentity, MemberResponse};
use crate::{ErrorCode, Groups};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub(crate) fn handle(ctx: &mut Ctx, groups: &mut Groups, req: &LeaveGroupRequest) {
    let identities = identities(req);
    let respond = |ctx: &mut Ctx, error: ErrorCode, members: Vec<MemberResponse>| {
        respond(ctx, req, error, members)
    };
    if req.group_id.is_empty() {
        return respond(ctx, ErrorCode::InvalidGroupId, Vec::new());
    }
    let Some(group) = groups.get_mut(&req.group_id) else {
        let members = identities
            .iter()
            .map(|m| member_response(m, ErrorCode::UnknownMemberId))
            .collect();
        return respond(ctx, ErrorCode::None, members);
    };
    if group.unloaded {
        return respond(ctx, ErrorCode::NotCoordinator, Vec::new());
    }
    if group.state() == GroupState::Dead {
        return respond(ctx, ErrorCode::CoordinatorNotAvailable, Vec::new());
    }
    let mut responses = Vec::new();
    let mut left = Vec::new();
    for identity in &identities {
        let (error, removed) = leave_one(ctx, group, identity);
        responses.push(member_response(identity, error));
        if let Some((member_id, was_pending)) = removed {
            // Kafka 3.x reacts to each removal at once (D5), and a pending member leaving a
            // Stable group does not rebalance it there (D6).
            if ctx.config.flavour == Flavour::Kafka3 {
                react_kafka3(ctx, group, &member_id, was_pending);
            }
            left.push(member_id);
        }
    }
    // Kafka 4.0: all removals first, then one decision.
    if ctx.config.flavour == Flavour::Kafka4 && !left.is_empty() {
        match group.state() {
            GroupState::Stable | GroupState::CompletingRebalance => {
                group.maybe_prepare_rebalance_or_complete_join(
                    ctx,
                    Cause::MembersLeft { member_ids: left },
                );
            }
            GroupState::PreparingRebalance => group.maybe_complete_join_phase(ctx),
            GroupState::Empty | GroupState::Dead => {}
        }
    }
    respond(ctx, ErrorCode::None, responses);
}

fn member_response(identity: &MemberIdentity, error: ErrorCode) -> MemberResponse {
    MemberResponse {
        member_id: identity.member_id.clone(),
        group_instance_id: identity.group_instance_id.clone(),
        error_code: error,
    }
}

/// One member of the batch: its error, and the id removed (with whether it was pending).
fn leave_one(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    identity: &MemberIdentity,
) -> (ErrorCode, Option<(String, bool)>) {
    let instance = identity.group_instance_id.as_deref();
    if identity.member_id.is_empty() {
        // An admin removing a static member by its instance id alone.
        return match instance
            .and_then(|i| group.static_member_id(i))
            .map(String::from)
        {
            Some(member_id) => {
                group.remove_current_member(ctx, &member_id, RemovalReason::LeaveGroup);
                (ErrorCode::None, Some((member_id, false)))
            }
            None => (ErrorCode::UnknownMemberId, None),
        };
    }
    if group.is_pending_member(&identity.member_id) {
        group.remove_pending_member(ctx, &identity.member_id, RemovalReason::LeaveGroup);
        return (ErrorCode::None, Some((identity.member_id.clone(), true)));
    }
    if let Err(error) = group.validate_member(&identity.member_id, instance) {
        return (error, None);
    }
    group.remove_current_member(ctx, &identity.member_id, RemovalReason::LeaveGroup);
    (ErrorCode::None, Some((identity.member_id.clone(), false)))
}

fn react_kafka3(ctx: &mut Ctx, group: &mut ClassicGroup, member_id: &str, was_pending: bool) {
    match group.state() {
        GroupState::Stable | GroupState::CompletingRebalance if !was_pending => {
            group.prepare_rebalance(
                ctx,
                Cause::MembersLeft {
                    member_ids: vec![String::from(member_id)],
                },
            );
        }
        GroupState::PreparingRebalance => group.maybe_complete_join_phase(ctx),
        _ => {}
    }
}
