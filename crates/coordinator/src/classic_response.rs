//! Responses to the classic protocol's JoinGroup, SyncGroup and LeaveGroup, shaped by the
//! request's version as Kafka's serializer writes them: what a classic group and a classic
//! member of a consumer group (`consumer_group/classic_member.rs`) both answer with.

use crate::classic::{ParkedJoin, ParkedSync};
use crate::ctx::Ctx;
use crate::protocol::{
    Bytes, JoinGroupResponse, LeaveGroupRequest, LeaveGroupResponse, MemberIdentity,
    MemberResponse, SyncGroupResponse,
};
use crate::{ErrorCode, Response};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Builds a JoinGroup response for `parked`'s version: fields a version lacks keep their
/// defaults, as Kafka's serializer would write them.
pub(crate) fn join_response(parked: ParkedJoin, mut r: JoinGroupResponse) -> Response {
    r.api_version = parked.api_version;
    r.correlation_id = parked.correlation_id;
    if parked.api_version < 7 {
        r.protocol_type = None;
        r.protocol_name = Some(r.protocol_name.unwrap_or_default());
    }
    if parked.api_version < 9 {
        r.skip_assignment = false;
    }
    if parked.api_version < 5 {
        for m in &mut r.members {
            m.group_instance_id = None;
        }
    }
    Response::JoinGroup(r)
}

/// A JoinGroup error: generation -1, no leader, no protocol, no members.
pub(crate) fn join_error(parked: ParkedJoin, error: ErrorCode, member_id: &str) -> Response {
    join_response(
        parked,
        JoinGroupResponse {
            error_code: error,
            generation_id: -1,
            member_id: String::from(member_id),
            ..JoinGroupResponse::default()
        },
    )
}

pub(crate) fn sync_response(
    parked: ParkedSync,
    error: ErrorCode,
    protocol_type: Option<String>,
    protocol_name: Option<String>,
    assignment: Bytes,
) -> Response {
    let v5 = parked.api_version >= 5;
    Response::SyncGroup(SyncGroupResponse {
        api_version: parked.api_version,
        correlation_id: parked.correlation_id,
        throttle_time_ms: 0,
        error_code: error,
        protocol_type: if v5 { protocol_type } else { None },
        protocol_name: if v5 { protocol_name } else { None },
        assignment,
    })
}

/// The members a LeaveGroup names: one (the member id) up to v2, a batch from v3.
pub(crate) fn identities(req: &LeaveGroupRequest) -> Vec<MemberIdentity> {
    if req.api_version >= 3 {
        req.members.clone()
    } else {
        vec![MemberIdentity {
            member_id: req.member_id.clone(),
            group_instance_id: None,
            reason: None,
        }]
    }
}

/// Sends the response. Up to v2 there is no member list: the first member error becomes the
/// top-level one.
pub(crate) fn respond(
    ctx: &mut Ctx,
    req: &LeaveGroupRequest,
    error: ErrorCode,
    members: Vec<MemberResponse>,
) {
    let (error, members) = if req.api_version >= 3 {
        (error, members)
    } else {
        let first = members
            .iter()
            .map(|m| m.error_code)
            .find(|&e| e != ErrorCode::None);
        (first.unwrap_or(error), Vec::new())
    };
    ctx.out.push(Response::LeaveGroup(LeaveGroupResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        throttle_time_ms: 0,
        error_code: error,
        members,
    }));
}
