//! JoinGroup (`docs/src/reference/classic-protocol.md#join-group`): validation, new members (with the MEMBER_ID_REQUIRED round trip and
//! static replacement), known members, and `group.max.size`.

use super::member::ClassicGroupMember;
use super::rebalance::NewMember;
use super::{ClassicGroup, GroupState};
use crate::classic_rpc::{ParkedJoin, front_door, join_error, join_response, sync_response};
use crate::compare::same_bytes;
use crate::config::Flavour;
use crate::ctx::Ctx;
use crate::event::{Cause, EventKind, RemovalReason};
use crate::protocol::{JoinGroupRequest, JoinGroupResponse, JoinGroupResponseMember};
use crate::{ErrorCode, Groups};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

pub(crate) fn handle(ctx: &mut Ctx, groups: &mut Groups, req: &JoinGroupRequest) {
    let parked = ParkedJoin::of(req);
    let fail = |ctx: &mut Ctx, error: ErrorCode, member_id: &str| {
        ctx.out.push(join_error(parked, error, member_id));
    };
    let unloaded = groups.get(&req.group_id).is_some_and(|g| g.unloaded);
    if let Some((error, member_id)) = front_door(ctx, req, unloaded) {
        return fail(ctx, error, &member_id);
    }
    let is_unknown_member = req.member_id.is_empty();
    if !groups.contains_key(&req.group_id) {
        if !is_unknown_member {
            return fail(ctx, ErrorCode::UnknownMemberId, &req.member_id);
        }
        let group = ClassicGroup::new(&req.group_id, ctx.now);
        ctx.emit(&req.group_id, EventKind::GroupCreated);
        // Kafka 4.0 writes the new (empty) group's record at once; 3.x keeps it in memory (D11).
        if ctx.config.flavour == Flavour::Kafka4 {
            group.persist_record(ctx);
        }
        group.schedule_offsets_expiration(ctx);
        groups.insert(req.group_id.clone(), group);
    }
    let Some(group) = groups.get_mut(&req.group_id) else {
        return;
    };
    let new = NewMember {
        member_id: Cow::Borrowed(&req.member_id),
        group_instance_id: if req.api_version >= 5 {
            req.group_instance_id.as_deref()
        } else {
            None
        },
        client_id: &req.client_id,
        // JoinGroup v0 has no rebalance timeout: the session timeout serves as both.
        rebalance_timeout_ms: if req.api_version == 0 {
            req.session_timeout_ms
        } else {
            req.rebalance_timeout_ms
        },
        session_timeout_ms: req.session_timeout_ms,
        protocol_type: &req.protocol_type,
        protocols: &req.protocols,
    };
    if !accept_joining_member(group, &req.member_id, ctx.config.group_max_size) {
        // The last members to (re)join a full group are sent away (KIP-389).
        if group.has_member(&req.member_id) {
            group.remove_current_member(ctx, &req.member_id, RemovalReason::GroupMaxSize);
        } else {
            group.remove_pending_member(ctx, &req.member_id, RemovalReason::GroupMaxSize);
        }
        fail(ctx, ErrorCode::GroupMaxSizeReached, "");
        if ctx.config.flavour == Flavour::Kafka3 {
            group.maybe_complete_join_phase(ctx);
        }
        return;
    }
    if is_unknown_member {
        join_new_member(ctx, group, new, parked);
    } else {
        join_existing_member(ctx, group, &req.member_id, new, parked);
    }
}

/// `acceptJoiningMember` (`docs/src/reference/classic-protocol.md#max-size`).
fn accept_joining_member(group: &ClassicGroup, member_id: &str, group_max_size: i32) -> bool {
    let max = usize::try_from(group_max_size).unwrap_or(usize::MAX);
    match group.state() {
        GroupState::Empty | GroupState::Dead => true,
        GroupState::PreparingRebalance => {
            group
                .member(member_id)
                .is_some_and(|m| m.is_awaiting_join())
                || group.num_awaiting_join < max
        }
        GroupState::CompletingRebalance | GroupState::Stable => {
            group.has_member(member_id) || group.num_members() < max
        }
    }
}

/// `docs/src/reference/classic-protocol.md#join-new-member`.
fn join_new_member(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    new: NewMember<'_>,
    parked: ParkedJoin,
) {
    if group.state() == GroupState::Dead {
        return ctx
            .out
            .push(join_error(parked, ErrorCode::CoordinatorNotAvailable, ""));
    }
    if !group.supports_protocols(new.protocol_type, new.protocols) {
        return ctx
            .out
            .push(join_error(parked, ErrorCode::InconsistentGroupProtocol, ""));
    }
    let prefix = new.group_instance_id.unwrap_or(new.client_id);
    let new_member_id = ctx.member_ids.next(prefix);
    let new = NewMember {
        member_id: Cow::Owned(new_member_id.clone()),
        ..new
    };
    match new.group_instance_id {
        Some(instance) => match group.static_member_id(instance).map(String::from) {
            Some(old_member_id) => {
                replace_static_member(ctx, group, instance, &old_member_id, new, parked)
            }
            None => group.add_member(ctx, new, parked),
        },
        None if parked.api_version >= 4 => {
            // KIP-394: hand out the id and wait for the member to come back with it, so a
            // client that never learns its id cannot leave a ghost member behind.
            group.pending_join_members.insert(new_member_id.clone());
            ctx.emit(
                group.group_id(),
                EventKind::PendingMemberAdded {
                    member_id: new_member_id.clone(),
                },
            );
            group.reschedule_heartbeat(ctx, &new_member_id, i64::from(new.session_timeout_ms));
            ctx.out.push(join_error(
                parked,
                ErrorCode::MemberIdRequired,
                &new_member_id,
            ));
        }
        None => group.add_member(ctx, new, parked),
    }
}

/// `docs/src/reference/classic-protocol.md#join-known-member`.
fn join_existing_member(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    member_id: &str,
    new: NewMember<'_>,
    parked: ParkedJoin,
) {
    let fail = |ctx: &mut Ctx, error: ErrorCode| {
        ctx.out.push(join_error(parked, error, member_id));
    };
    if group.state() == GroupState::Dead {
        return fail(ctx, ErrorCode::CoordinatorNotAvailable);
    }
    if !group.supports_protocols(new.protocol_type, new.protocols) {
        return fail(ctx, ErrorCode::InconsistentGroupProtocol);
    }
    if group.is_pending_member(member_id) {
        if new.group_instance_id.is_some() {
            // Kafka throws IllegalStateException here (pending members are always dynamic),
            // which reaches the client as UNKNOWN_SERVER_ERROR.
            return fail(ctx, ErrorCode::UnknownServerError);
        }
        return group.add_member(ctx, new, parked);
    }
    let member = match group.validate_member(member_id, new.group_instance_id) {
        Ok(Some(member)) => member,
        Ok(None) => return fail(ctx, ErrorCode::UnknownMemberId),
        Err(error) => return fail(ctx, error),
    };
    let unchanged = member.matches(new.protocols);
    let is_leader = group.is_leader(member_id);
    match group.state() {
        GroupState::PreparingRebalance => {
            group.update_member(
                ctx,
                member_id,
                new.protocols,
                new.rebalance_timeout_ms,
                new.session_timeout_ms,
                Some(parked),
            );
            group.maybe_complete_join_phase(ctx);
        }
        GroupState::CompletingRebalance | GroupState::Stable
            if unchanged && (group.state() == GroupState::CompletingRebalance || !is_leader) =>
        {
            // Nothing changed: answer with the current generation at once. Only the leader gets
            // the member list (it may have lost the first response).
            let members = if is_leader {
                leader_member_list(group)
            } else {
                Vec::new()
            };
            ctx.out.push(join_response(
                parked,
                JoinGroupResponse {
                    error_code: ErrorCode::None,
                    generation_id: group.generation_id(),
                    protocol_type: group.protocol_type.clone(),
                    protocol_name: group.protocol_name.clone(),
                    leader: group.leader_id.clone().unwrap_or_default(),
                    member_id: String::from(member_id),
                    members,
                    ..JoinGroupResponse::default()
                },
            ));
        }
        GroupState::CompletingRebalance | GroupState::Stable => {
            // The leader always rebalances (so it can force one when metadata changes);
            // followers rebalance when their protocols or metadata changed.
            let cause = if is_leader && group.state() == GroupState::Stable && unchanged {
                Cause::LeaderRejoined {
                    member_id: String::from(member_id),
                }
            } else {
                Cause::MetadataChanged {
                    member_id: String::from(member_id),
                }
            };
            group.update_member(
                ctx,
                member_id,
                new.protocols,
                new.rebalance_timeout_ms,
                new.session_timeout_ms,
                Some(parked),
            );
            group.prepare_rebalance(ctx, cause);
        }
        GroupState::Empty | GroupState::Dead => fail(ctx, ErrorCode::UnknownMemberId),
    }
}

pub(crate) fn leader_member_list(group: &ClassicGroup) -> Vec<JoinGroupResponseMember> {
    let protocol = group.protocol_name.clone().unwrap_or_default();
    group
        .members()
        .map(|m| JoinGroupResponseMember {
            member_id: String::from(m.member_id()),
            group_instance_id: m.group_instance_id.clone(),
            metadata: m.metadata(&protocol),
        })
        .collect()
}

/// Static member replacement (`docs/src/reference/classic-protocol.md#static-replacement`): a static member restarted (it lost its member id)
/// or a second process uses the same group.instance.id.
fn replace_static_member(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    instance: &str,
    old_member_id: &str,
    new: NewMember<'_>,
    parked: ParkedJoin,
) {
    let current_leader = group.leader_id.clone();
    let Some(old) = group.member(old_member_id).cloned() else {
        return;
    };
    group.replace_member_id(ctx, instance, old_member_id, &new.member_id);
    let new_member_id = new.member_id.into_owned();
    group.refresh_session(ctx, &new_member_id);
    group.update_member(
        ctx,
        &new_member_id,
        new.protocols,
        new.rebalance_timeout_ms,
        new.session_timeout_ms,
        Some(parked),
    );
    let cause = Cause::StaticMemberReplaced {
        member_id: new_member_id.clone(),
    };
    match group.state() {
        GroupState::Stable if group.select_protocol() == group.protocol_name => {
            // Same protocol: no rebalance. The restarted member gets its old assignment back
            // through SyncGroup once the record with its new id is written.
            match group.try_persist_record(ctx) {
                Ok(()) => {
                    let parked = group.unpark_join(&new_member_id).unwrap_or(parked);
                    let is_leader = group.is_leader(&new_member_id);
                    let response = if parked.api_version >= 9 {
                        JoinGroupResponse {
                            leader: group.leader_id.clone().unwrap_or_default(),
                            skip_assignment: is_leader,
                            members: if is_leader {
                                leader_member_list(group)
                            } else {
                                Vec::new()
                            },
                            ..JoinGroupResponse::default()
                        }
                    } else {
                        // Older clients must not think they lead: they would compute an
                        // assignment for a group that is not rebalancing.
                        JoinGroupResponse {
                            leader: current_leader.unwrap_or_default(),
                            ..JoinGroupResponse::default()
                        }
                    };
                    ctx.out.push(join_response(
                        parked,
                        JoinGroupResponse {
                            error_code: ErrorCode::None,
                            generation_id: group.generation_id(),
                            protocol_type: group.protocol_type.clone(),
                            protocol_name: group.protocol_name.clone(),
                            member_id: new_member_id,
                            ..response
                        },
                    ));
                }
                Err(error) => {
                    let parked = group.unpark_join(&new_member_id).unwrap_or(parked);
                    group.update_member(
                        ctx,
                        &new_member_id,
                        &old.supported_protocols,
                        old.rebalance_timeout_ms,
                        old.session_timeout_ms,
                        None,
                    );
                    group.replace_member_id(ctx, instance, &new_member_id, old_member_id);
                    ctx.emit(
                        group.group_id(),
                        EventKind::MemberReplacementReverted {
                            old_member_id: String::from(old_member_id),
                            new_member_id: new_member_id.clone(),
                        },
                    );
                    group.refresh_session(ctx, old_member_id);
                    ctx.out.push(join_response(
                        parked,
                        JoinGroupResponse {
                            error_code: error.persist_failure_mapping(),
                            generation_id: group.generation_id(),
                            protocol_type: group.protocol_type.clone(),
                            protocol_name: group.protocol_name.clone(),
                            leader: current_leader.unwrap_or_default(),
                            member_id: String::new(),
                            ..JoinGroupResponse::default()
                        },
                    ));
                }
            }
        }
        GroupState::Stable | GroupState::CompletingRebalance => {
            // CompletingRebalance always rebalances: the leader may be computing an assignment
            // that names the old member id.
            group.prepare_rebalance(ctx, cause)
        }
        GroupState::PreparingRebalance => group.maybe_complete_join_phase(ctx),
        GroupState::Empty | GroupState::Dead => {}
    }
}

impl ClassicGroup {
    /// `validateMember`: the instance id (if any) must map to this member id, and the member
    /// must exist. Gives the member it found, for a session refresh that follows (a Heartbeat's
    /// or an OffsetCommit's: looking it up once more was a tenth of their handling); `None`
    /// only where a static mapping names no member, which Kafka does not check here either.
    pub(crate) fn validate_member(
        &self,
        member_id: &str,
        group_instance_id: Option<&str>,
    ) -> Result<Option<&ClassicGroupMember>, ErrorCode> {
        // The member found by its id with this instance id is the one the instance maps to:
        // the mapping and the members agree both ways (`invariants.rs` checks each way), so
        // the answer is Kafka's without reading the mapping, an ordered map by instance id
        // (ids with long common prefixes, compared at each level: a tenth of a static group's
        // heartbeats and commits). An instance that maps elsewhere, or nowhere, goes on below.
        if let Some(instance) = group_instance_id
            && let Some(m) = self.member(member_id)
            && m.group_instance_id()
                .is_some_and(|own| same_bytes(own.as_bytes(), instance.as_bytes()))
        {
            return Ok(Some(m));
        }
        match group_instance_id {
            Some(instance) => match self.static_member_id(instance) {
                None => Err(ErrorCode::UnknownMemberId),
                Some(mapped) if mapped != member_id => Err(ErrorCode::FencedInstanceId),
                Some(_) => Ok(self.member(member_id)),
            },
            None => match self.member(member_id) {
                None => Err(ErrorCode::UnknownMemberId),
                found => Ok(found),
            },
        }
    }

    /// `replaceStaticMember`: the record of `old_id` moves to `new_id` (to the end of the
    /// order). Parked responses of the old id are answered FENCED_INSTANCE_ID.
    pub(crate) fn replace_member_id(
        &mut self,
        ctx: &mut Ctx,
        instance: &str,
        old_id: &str,
        new_id: &str,
    ) {
        let Some(mut member) = self.take_member(old_id) else {
            return;
        };
        if let Some(parked) = member.awaiting_join.take() {
            ctx.out
                .push(join_error(parked, ErrorCode::FencedInstanceId, old_id));
        }
        if let Some(parked) = member.awaiting_sync.take() {
            ctx.out.push(sync_response(
                parked,
                ErrorCode::FencedInstanceId,
                None,
                None,
                Default::default(),
            ));
        }
        ctx.cancel(&self.heartbeat_key(old_id));
        // The old id stays in the pending-sync set, as in Kafka: if it is still there when
        // the sync timer fires, the group rebalances.
        member.member_id = String::from(new_id);
        member.is_new = false;
        self.insert_member(member);
        self.static_members
            .insert(String::from(instance), String::from(new_id));
        ctx.emit(
            &self.group_id,
            EventKind::MemberReplaced {
                old_member_id: String::from(old_id),
                new_member_id: String::from(new_id),
                group_instance_id: String::from(instance),
            },
        );
        if self.is_leader(old_id) {
            let from = self.leader_id.replace(String::from(new_id));
            ctx.emit(
                &self.group_id,
                EventKind::LeaderChanged {
                    from,
                    to: Some(String::from(new_id)),
                },
            );
        }
    }
}
