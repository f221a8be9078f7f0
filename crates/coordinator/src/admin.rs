//! DescribeGroups, ListGroups, DeleteGroups, over groups of both types (`docs/src/reference/classic-protocol.md#admin`).

use crate::classic::GroupState;
use crate::ctx::Ctx;
use crate::event::{Cause, EventKind};
use crate::protocol::{
    DeletableGroupResult, DeleteGroupsRequest, DeleteGroupsResponse, DescribeGroupsRequest,
    DescribeGroupsResponse, DescribedGroup, DescribedGroupMember, ListGroupsRequest,
    ListGroupsResponse, ListedGroup,
};
use crate::{ErrorCode, Groups, Response};
use alloc::string::String;
use alloc::vec::Vec;

pub(crate) fn handle_describe(
    ctx: &mut Ctx,
    groups: &Groups,
    consumer: &crate::consumer_group::ConsumerGroups,
    req: &DescribeGroupsRequest,
) {
    let described: Vec<DescribedGroup> = req
        .groups
        .iter()
        .map(|group_id| describe_one(groups, consumer, group_id, req.api_version))
        .collect();
    let error = described
        .iter()
        .map(|g| g.error_code)
        .find(|&e| e != ErrorCode::None)
        .unwrap_or(ErrorCode::None);
    ctx.out
        .push(Response::DescribeGroups(DescribeGroupsResponse {
            api_version: req.api_version,
            correlation_id: req.correlation_id,
            throttle_time_ms: 0,
            error_code: error,
            groups: described,
        }));
}

/// DescribeGroups describes classic groups only. A group it cannot describe (none of that id,
/// or a consumer group) is "Dead" without an error up to v5; from v6 (KIP-1043) it is
/// GROUP_ID_NOT_FOUND with Kafka's message saying which, and still in state "Dead"
/// (KAFKA-17550: Kafka 4.0 fills the state of the group it cannot describe).
fn describe_one(
    groups: &Groups,
    consumer: &crate::consumer_group::ConsumerGroups,
    group_id: &str,
    api_version: i16,
) -> DescribedGroup {
    let unknown = DescribedGroup {
        error_code: ErrorCode::None,
        group_id: String::from(group_id),
        group_state: String::from(GroupState::Dead.name()),
        authorized_operations: i32::MIN,
        ..DescribedGroup::default()
    };
    let not_found = |message: String| {
        if api_version >= 6 {
            DescribedGroup {
                error_code: ErrorCode::GroupIdNotFound,
                error_message: Some(message),
                ..unknown.clone()
            }
        } else {
            unknown.clone()
        }
    };
    let Some(group) = groups.get(group_id) else {
        if consumer.is_unloaded(group_id) {
            return DescribedGroup {
                error_code: ErrorCode::NotCoordinator,
                group_state: String::new(),
                ..unknown
            };
        }
        return not_found(if consumer.groups.contains_key(group_id) {
            alloc::format!("Group {group_id} is not a classic group.")
        } else {
            alloc::format!("Group {group_id} not found.")
        });
    };
    if group.unloaded {
        return DescribedGroup {
            error_code: ErrorCode::NotCoordinator,
            group_state: String::new(),
            ..unknown
        };
    }
    // Metadata and assignments are only shown once the generation is settled.
    let stable = group.state() == GroupState::Stable;
    let protocol = group.protocol_name.clone().unwrap_or_default();
    DescribedGroup {
        group_state: String::from(group.state().name()),
        protocol_type: group.protocol_type.clone().unwrap_or_default(),
        protocol_data: if stable {
            protocol.clone()
        } else {
            String::new()
        },
        members: if group.state() == GroupState::Dead {
            Vec::new()
        } else {
            group
                .members()
                .map(|m| DescribedGroupMember {
                    member_id: String::from(m.member_id()),
                    group_instance_id: if api_version >= 4 {
                        m.group_instance_id.clone()
                    } else {
                        None
                    },
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    member_metadata: if stable {
                        m.metadata(&protocol)
                    } else {
                        Default::default()
                    },
                    member_assignment: if stable {
                        m.assignment().clone()
                    } else {
                        Default::default()
                    },
                })
                .collect()
        },
        ..unknown
    }
}

/// ListGroups: the classic groups and the consumer groups (KIP-848), each with its type (v5+)
/// and state (v4+), filtered by both.
pub(crate) fn handle_list(
    ctx: &mut Ctx,
    groups: &Groups,
    consumer: &crate::consumer_group::ConsumerGroups,
    req: &ListGroupsRequest,
) {
    let wanted_state = |state: &str| {
        req.states_filter.is_empty()
            || req
                .states_filter
                .iter()
                .any(|s| s.eq_ignore_ascii_case(state))
    };
    let wanted_type = |kind: &str| {
        req.types_filter.is_empty()
            || req
                .types_filter
                .iter()
                .any(|t| t.eq_ignore_ascii_case(kind))
    };
    let listed_as = |group_id: &str, protocol_type: String, state: &str, kind: &str| ListedGroup {
        group_id: String::from(group_id),
        protocol_type,
        group_state: if req.api_version >= 4 {
            String::from(state)
        } else {
            String::new()
        },
        group_type: if req.api_version >= 5 {
            String::from(kind)
        } else {
            String::new()
        },
    };
    let mut listed: alloc::vec::Vec<ListedGroup> = groups
        .values()
        .filter(|g| !g.unloaded && wanted_type("classic") && wanted_state(g.state().name()))
        .map(|g| {
            listed_as(
                g.group_id(),
                g.protocol_type.clone().unwrap_or_default(),
                g.state().name(),
                "classic",
            )
        })
        .collect();
    listed.extend(
        consumer
            .groups
            .values()
            .filter(|g| !g.unloaded && wanted_type("consumer") && wanted_state(g.state().name()))
            .map(|g| {
                listed_as(
                    &g.group_id,
                    String::from("consumer"),
                    g.state().name(),
                    "consumer",
                )
            }),
    );
    ctx.out.push(Response::ListGroups(ListGroupsResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        throttle_time_ms: 0,
        error_code: ErrorCode::None,
        groups: listed,
    }));
}

/// Removes an Empty group with its offsets and record (DeleteGroups, or the offsets cleanup):
/// Dead, then gone.
pub(crate) fn delete_group(ctx: &mut Ctx, groups: &mut Groups, group_id: &str, cause: Cause) {
    let Some(mut group) = groups.remove(group_id) else {
        return;
    };
    group.transition_to(ctx, GroupState::Dead, cause);
    // Pending members may still hold a session timer.
    ctx.cancel_group_timers(group_id);
    ctx.offsets.remove(group_id);
    ctx.explicit_expiries.remove(group_id);
    ctx.records.remove(group_id);
    ctx.emit(group_id, EventKind::Deleted);
}

pub(crate) fn handle_delete(
    ctx: &mut Ctx,
    groups: &mut Groups,
    consumer: &mut crate::consumer_group::ConsumerGroups,
    req: &DeleteGroupsRequest,
) {
    let mut results = Vec::new();
    for group_id in &req.groups_names {
        let error = match groups.get_mut(group_id) {
            None => crate::group_type::delete_consumer_group(ctx, consumer, group_id)
                .unwrap_or(ErrorCode::GroupIdNotFound),
            Some(g) if g.unloaded => ErrorCode::NotCoordinator,
            Some(g) if g.state() == GroupState::Empty => {
                delete_group(ctx, groups, group_id, Cause::Deleted);
                ErrorCode::None
            }
            Some(g) if g.state() == GroupState::Dead => ErrorCode::GroupIdNotFound,
            Some(_) => ErrorCode::NonEmptyGroup,
        };
        results.push(DeletableGroupResult {
            group_id: group_id.clone(),
            error_code: error,
        });
    }
    let error = results
        .iter()
        .map(|r| r.error_code)
        .find(|&e| e != ErrorCode::None)
        .unwrap_or(ErrorCode::None);
    ctx.out.push(Response::DeleteGroups(DeleteGroupsResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        throttle_time_ms: 0,
        error_code: error,
        results,
    }));
}
