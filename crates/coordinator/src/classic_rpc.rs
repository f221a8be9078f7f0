//! The classic protocol's RPCs (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) at the level both
//! group types share: a classic group (`classic/`) and a consumer group's classic members
//! (`consumer_group/classic_member.rs`) both serve them. Here are the checks a JoinGroup meets
//! before any group is looked at, the requests parked until their group can answer, the
//! answer to a group whose partition is unloaded, and the responses shaped by the request's
//! version as Kafka's serializer writes them.

use crate::config::Flavour;
use crate::ctx::Ctx;
use crate::protocol::{
    Bytes, HeartbeatResponse, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest,
    LeaveGroupResponse, MemberIdentity, MemberResponse, SyncGroupRequest, SyncGroupResponse,
};
use crate::{ErrorCode, Request, Response};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A JoinGroup response held until the join phase completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ParkedJoin {
    pub correlation_id: i32,
    pub api_version: i16,
}

impl ParkedJoin {
    pub(crate) fn of(req: &JoinGroupRequest) -> ParkedJoin {
        ParkedJoin {
            correlation_id: req.correlation_id,
            api_version: req.api_version,
        }
    }
}

/// A SyncGroup response held until the leader's assignment is persisted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ParkedSync {
    pub correlation_id: i32,
    pub api_version: i16,
}

impl ParkedSync {
    pub(crate) fn of(req: &SyncGroupRequest) -> ParkedSync {
        ParkedSync {
            correlation_id: req.correlation_id,
            api_version: req.api_version,
        }
    }
}

/// The checks a JoinGroup meets before its group is looked at (the group id, the session
/// timeout, whether this coordinator holds the group), for either group type: the error and
/// the member id to answer with.
pub(crate) fn front_door(
    ctx: &Ctx,
    req: &JoinGroupRequest,
    unloaded: bool,
) -> Option<(ErrorCode, String)> {
    let session_ok = req.session_timeout_ms >= ctx.config.group_min_session_timeout_ms
        && req.session_timeout_ms <= ctx.config.group_max_session_timeout_ms;
    // The two coordinators check in different orders (D7); only the order differs.
    let front_door = match ctx.config.flavour {
        Flavour::Kafka4 => [
            (req.group_id.is_empty(), ErrorCode::InvalidGroupId),
            (!session_ok, ErrorCode::InvalidSessionTimeout),
            (unloaded, ErrorCode::NotCoordinator),
        ],
        Flavour::Kafka3 => [
            (req.group_id.is_empty(), ErrorCode::InvalidGroupId),
            (unloaded, ErrorCode::NotCoordinator),
            (!session_ok, ErrorCode::InvalidSessionTimeout),
        ],
    };
    if let Some(&(_, error)) = front_door.iter().find(|(failed, _)| *failed) {
        // Kafka 4.0 answers the checks it makes before the group's partition (invalid group
        // id, session timeout) with the request's member id, but an operation the runtime
        // refuses (NOT_COORDINATOR) with a bare error response: an empty member id. 3.x's
        // Scala coordinator echoes the member id in every case.
        let member_id = match (error, ctx.config.flavour) {
            (ErrorCode::NotCoordinator, Flavour::Kafka4) => "",
            _ => req.member_id.as_str(),
        };
        return Some((error, String::from(member_id)));
    }
    None
}

/// A classic request for a group whose partition is unloaded: NOT_COORDINATOR, after the
/// checks a JoinGroup gets before any group is looked at.
pub(crate) fn not_coordinator(ctx: &mut Ctx, request: &Request) {
    match request {
        Request::JoinGroup(r) => {
            let (error, member_id) =
                front_door(ctx, r, true).unwrap_or((ErrorCode::NotCoordinator, String::new()));
            ctx.out
                .push(join_error(ParkedJoin::of(r), error, &member_id));
        }
        Request::SyncGroup(r) => ctx.out.push(sync_response(
            ParkedSync::of(r),
            ErrorCode::NotCoordinator,
            None,
            None,
            Default::default(),
        )),
        Request::Heartbeat(r) => ctx.out.push(Response::Heartbeat(HeartbeatResponse {
            api_version: r.api_version,
            correlation_id: r.correlation_id,
            throttle_time_ms: 0,
            error_code: ErrorCode::NotCoordinator,
        })),
        Request::LeaveGroup(r) => respond(ctx, r, ErrorCode::NotCoordinator, Vec::new()),
        _ => {}
    }
}

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
