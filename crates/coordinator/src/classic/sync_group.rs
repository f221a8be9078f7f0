//! SyncGroup (`docs/src/reference/classic-protocol.md#sync-group`).

use super::GroupState;
use crate::classic_rpc::{ParkedSync, sync_response};
use crate::config::Flavour;
use crate::ctx::Ctx;
use crate::event::Cause;
use crate::protocol::{Bytes, SyncGroupRequest};
use crate::{ErrorCode, Groups};
use alloc::string::String;

pub(crate) fn handle(ctx: &mut Ctx, groups: &mut Groups, req: &SyncGroupRequest) {
    let parked = ParkedSync::of(req);
    let fail = |ctx: &mut Ctx, error: ErrorCode| {
        ctx.out
            .push(sync_response(parked, error, None, None, Bytes::new()));
    };
    if req.group_id.is_empty() {
        return fail(ctx, ErrorCode::InvalidGroupId);
    }
    let Some(group) = groups.get_mut(&req.group_id) else {
        return fail(ctx, ErrorCode::UnknownMemberId);
    };
    if group.unloaded {
        return fail(ctx, ErrorCode::NotCoordinator);
    }
    match group.state() {
        GroupState::Empty => return fail(ctx, ErrorCode::UnknownMemberId),
        GroupState::Dead => return fail(ctx, ErrorCode::CoordinatorNotAvailable),
        _ => {}
    }
    let instance = if req.api_version >= 3 {
        req.group_instance_id.as_deref()
    } else {
        None
    };
    if let Err(error) = group.validate_member(&req.member_id, instance) {
        return fail(ctx, error);
    }
    if req.generation_id != group.generation_id() {
        return fail(ctx, ErrorCode::IllegalGeneration);
    }
    // Kafka 4.0 compares only when both sides are known; 3.x also refuses a named protocol
    // when the group has none (D10).
    let inconsistent = |asked: &Option<String>, group_value: &Option<String>| match asked {
        None => false,
        Some(asked) => match group_value {
            Some(value) => asked != value,
            None => ctx.config.flavour == Flavour::Kafka3,
        },
    };
    let (asked_type, asked_name) = if req.api_version >= 5 {
        (&req.protocol_type, &req.protocol_name)
    } else {
        (&None, &None)
    };
    if inconsistent(asked_type, &group.protocol_type)
        || inconsistent(asked_name, &group.protocol_name)
    {
        return fail(ctx, ErrorCode::InconsistentGroupProtocol);
    }
    match group.state() {
        GroupState::PreparingRebalance => fail(ctx, ErrorCode::RebalanceInProgress),
        GroupState::CompletingRebalance => {
            group.park_sync(ctx, &req.member_id, parked);
            group.remove_pending_sync_member(ctx, &req.member_id);
            if !group.is_leader(&req.member_id) {
                return;
            }
            // The leader's list, and empty bytes for every member it left out (a member the
            // list names twice gets the later). Each named member is found by its id's hash,
            // once: an ordered map of the ids was a twentieth of a 300-member rebalance, and a
            // map of the list, then a lookup per member, hashed every id twice.
            for member in group.members_mut() {
                member.assignment = Bytes::new();
            }
            for a in &req.assignments {
                if let Some(member) = group.member_mut(&a.member_id) {
                    member.assignment = a.assignment.clone();
                }
            }
            match group.try_persist_record(ctx) {
                Ok(()) => {
                    group.propagate_assignment(ctx, ErrorCode::None);
                    group.transition_to(ctx, GroupState::Stable, Cause::AssignmentPersisted);
                }
                Err(error) => {
                    group.reset_and_propagate_assignment_with_error(
                        ctx,
                        error.persist_failure_mapping(),
                    );
                    group.maybe_prepare_rebalance_or_complete_join(
                        ctx,
                        Cause::AssignmentPersistFailed,
                    );
                }
            }
        }
        GroupState::Stable => {
            group.remove_pending_sync_member(ctx, &req.member_id);
            let assignment = group
                .member(&req.member_id)
                .map(|m| m.assignment().clone())
                .unwrap_or_default();
            ctx.out.push(sync_response(
                parked,
                ErrorCode::None,
                group.protocol_type.clone(),
                group.protocol_name.clone(),
                assignment,
            ));
            // Kafka 3.x also counts this as a sign of life (D4).
            if ctx.config.flavour == Flavour::Kafka3 {
                group.refresh_session(ctx, &req.member_id);
            }
        }
        GroupState::Empty | GroupState::Dead => {}
    }
}

impl super::ClassicGroup {
    /// The member sent SyncGroup: once nobody is missing, the sync timer goes.
    fn remove_pending_sync_member(&mut self, ctx: &mut Ctx, member_id: &str) {
        if self.pending_sync_members.remove(member_id) && self.pending_sync_members.is_empty() {
            self.sync_timer_generation = None;
            ctx.cancel(&crate::timer::TimerKey::Sync(self.group_id.clone()));
        }
    }
}
