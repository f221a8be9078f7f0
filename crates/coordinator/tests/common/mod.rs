//! Test harness in the shape of Kafka's `GroupMetadataManagerTestContext`: a coordinator, a
//! mock clock advanced by the test, and request builders with the profiles' defaults.
#![allow(dead_code)]

use group_coordinator::protocol::*;
use group_coordinator::{
    BrokerConfig, Coordinator, ErrorCode, Event, EventKind, GroupState, GroupView, Request,
    Response,
};

pub const G: &str = "group-id";

pub struct H {
    pub c: Coordinator,
    pub now: i64,
    next_correlation: i32,
    /// Request defaults of the profile.
    pub session: i32,
    pub rebalance: i32,
}

/// Profile J (`GroupMetadataManagerTestContext`): D = 3000, sessions 10..=600000.
pub fn profile_j() -> H {
    let config = BrokerConfig {
        group_initial_rebalance_delay_ms: 3000,
        group_min_session_timeout_ms: 10,
        group_max_session_timeout_ms: 600_000,
        ..BrokerConfig::default()
    };
    H::new(config)
}

/// Profile S (`GroupCoordinatorTest`): D = 50, max size 4.
pub fn profile_s() -> H {
    let config = BrokerConfig {
        group_initial_rebalance_delay_ms: 50,
        group_min_session_timeout_ms: 10,
        group_max_session_timeout_ms: 600_000,
        group_max_size: 4,
        ..BrokerConfig::default()
    };
    H::new(config)
}

#[derive(Clone)]
pub struct Join {
    pub req: JoinGroupRequest,
}

pub fn join(member_id: &str) -> Join {
    Join {
        req: JoinGroupRequest {
            api_version: 9,
            client_id: "client".into(),
            group_id: G.into(),
            session_timeout_ms: 500,
            rebalance_timeout_ms: 500,
            member_id: member_id.into(),
            protocol_type: "consumer".into(),
            protocols: protocols(&["range"]),
            ..Default::default()
        },
    }
}

pub fn protocols(names: &[&str]) -> Vec<JoinGroupRequestProtocol> {
    names
        .iter()
        .map(|n| JoinGroupRequestProtocol {
            name: (*n).into(),
            metadata: Bytes::new(),
        })
        .collect()
}

impl Join {
    pub fn v(mut self, v: i16) -> Self {
        self.req.api_version = v;
        self
    }
    pub fn session(mut self, s: i32) -> Self {
        self.req.session_timeout_ms = s;
        self
    }
    pub fn rebalance(mut self, r: i32) -> Self {
        self.req.rebalance_timeout_ms = r;
        self
    }
    pub fn instance(mut self, i: &str) -> Self {
        self.req.group_instance_id = Some(i.into());
        self
    }
    pub fn protocols(mut self, names: &[&str]) -> Self {
        self.req.protocols = protocols(names);
        self
    }
    pub fn protocol_type(mut self, t: &str) -> Self {
        self.req.protocol_type = t.into();
        self
    }
    pub fn group(mut self, g: &str) -> Self {
        self.req.group_id = g.into();
        self
    }
    pub fn client(mut self, c: &str) -> Self {
        self.req.client_id = c.into();
        self
    }
}

impl H {
    pub fn new(config: BrokerConfig) -> H {
        H {
            c: Coordinator::new(config),
            now: 0,
            next_correlation: 1,
            session: 500,
            rebalance: 500,
        }
    }

    fn correlation(&mut self) -> i32 {
        self.next_correlation += 1;
        self.next_correlation
    }

    pub fn send(&mut self, request: Request) -> Vec<Response> {
        self.c.handle(self.now, request).expect("valid request")
    }

    /// Advance-then-fire, as Kafka's mock timer.
    pub fn advance(&mut self, dt: i64) -> Vec<Response> {
        self.now += dt;
        self.c.advance(self.now).expect("time moves forward")
    }

    /// Sends a JoinGroup; returns (its correlation id, every response produced).
    pub fn join(&mut self, j: Join) -> (i32, Vec<Response>) {
        let mut req = j.req;
        req.correlation_id = self.correlation();
        let id = req.correlation_id;
        (id, self.send(Request::JoinGroup(req)))
    }

    /// A JoinGroup that must be answered at once; returns that answer.
    pub fn join_now(&mut self, j: Join) -> JoinGroupResponse {
        let (id, out) = self.join(j);
        join_answer(&out, id).unwrap_or_else(|| panic!("JoinGroup {id} was parked: {out:?}"))
    }

    /// A JoinGroup that must be parked.
    pub fn join_parked(&mut self, j: Join) -> i32 {
        let (id, out) = self.join(j);
        assert!(
            join_answer(&out, id).is_none(),
            "expected parked, got {out:?}"
        );
        id
    }

    /// The v4 round trip: MEMBER_ID_REQUIRED, then the real join (parked). Returns
    /// (member id, correlation id of the parked join).
    pub fn join_dynamic_v4(&mut self, j: Join) -> (String, i32) {
        let first = self.join_now(j.clone().v(j.req.api_version.max(4)));
        assert_eq!(first.error_code, ErrorCode::MemberIdRequired);
        let mut second = j;
        second.req.member_id = first.member_id.clone();
        let id = self.join_parked(second);
        (first.member_id, id)
    }

    pub fn sync(
        &mut self,
        member_id: &str,
        generation: i32,
        assignments: &[(&str, &[u8])],
    ) -> (i32, Vec<Response>) {
        self.sync_with(member_id, generation, None, assignments)
    }

    pub fn sync_with(
        &mut self,
        member_id: &str,
        generation: i32,
        instance: Option<&str>,
        assignments: &[(&str, &[u8])],
    ) -> (i32, Vec<Response>) {
        let correlation_id = self.correlation();
        let out = self.send(Request::SyncGroup(SyncGroupRequest {
            api_version: 5,
            correlation_id,
            group_id: G.into(),
            generation_id: generation,
            member_id: member_id.into(),
            group_instance_id: instance.map(Into::into),
            assignments: assignments
                .iter()
                .map(|(m, a)| SyncGroupRequestAssignment {
                    member_id: (*m).into(),
                    assignment: Bytes::from(*a),
                })
                .collect(),
            ..Default::default()
        }));
        (correlation_id, out)
    }

    pub fn sync_now(
        &mut self,
        member_id: &str,
        generation: i32,
        assignments: &[(&str, &[u8])],
    ) -> SyncGroupResponse {
        let (id, out) = self.sync(member_id, generation, assignments);
        sync_answer(&out, id).unwrap_or_else(|| panic!("SyncGroup {id} was parked: {out:?}"))
    }

    pub fn heartbeat(&mut self, member_id: &str, generation: i32) -> ErrorCode {
        self.heartbeat_with(member_id, generation, None)
    }

    pub fn heartbeat_with(
        &mut self,
        member_id: &str,
        generation: i32,
        instance: Option<&str>,
    ) -> ErrorCode {
        let correlation_id = self.correlation();
        let out = self.send(Request::Heartbeat(HeartbeatRequest {
            api_version: 4,
            correlation_id,
            group_id: G.into(),
            generation_id: generation,
            member_id: member_id.into(),
            group_instance_id: instance.map(Into::into),
            ..Default::default()
        }));
        match out.iter().find(|r| r.correlation_id() == correlation_id) {
            Some(Response::Heartbeat(r)) => r.error_code,
            other => panic!("no heartbeat response: {other:?}"),
        }
    }

    /// LeaveGroup v5 with (member id, instance id) pairs; returns (response, all outputs).
    pub fn leave(
        &mut self,
        members: &[(&str, Option<&str>)],
    ) -> (LeaveGroupResponse, Vec<Response>) {
        let correlation_id = self.correlation();
        let out = self.send(Request::LeaveGroup(LeaveGroupRequest {
            api_version: 5,
            correlation_id,
            group_id: G.into(),
            members: members
                .iter()
                .map(|(m, i)| MemberIdentity {
                    member_id: (*m).into(),
                    group_instance_id: i.map(Into::into),
                    reason: None,
                })
                .collect(),
            ..Default::default()
        }));
        match out.iter().find(|r| r.correlation_id() == correlation_id) {
            Some(Response::LeaveGroup(r)) => (r.clone(), out),
            other => panic!("no leave response: {other:?}"),
        }
    }

    pub fn commit(
        &mut self,
        member_id: &str,
        generation: i32,
        instance: Option<&str>,
        offset: i64,
    ) -> OffsetCommitResponse {
        let correlation_id = self.correlation();
        let out = self.send(Request::OffsetCommit(OffsetCommitRequest {
            api_version: 9,
            correlation_id,
            group_id: G.into(),
            generation_id_or_member_epoch: generation,
            member_id: member_id.into(),
            group_instance_id: instance.map(Into::into),
            topics: vec![OffsetCommitRequestTopic {
                name: "foo".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: offset,
                    ..Default::default()
                }],
            }],
            ..Default::default()
        }));
        match out
            .into_iter()
            .find(|r| r.correlation_id() == correlation_id)
        {
            Some(Response::OffsetCommit(r)) => r,
            other => panic!("no commit response: {other:?}"),
        }
    }

    /// Every committed offset of `group_id` (OffsetFetch v9 with no topics named), as
    /// (topic, partition, offset) in the response's order.
    pub fn fetch_all(&mut self, group_id: &str) -> Vec<(String, i32, i64)> {
        let correlation_id = self.correlation();
        let out = self.send(Request::OffsetFetch(OffsetFetchRequest {
            api_version: 9,
            correlation_id,
            groups: vec![OffsetFetchRequestGroup {
                group_id: group_id.into(),
                ..Default::default()
            }],
            ..Default::default()
        }));
        let Some(Response::OffsetFetch(f)) = out
            .into_iter()
            .find(|r| r.correlation_id() == correlation_id)
        else {
            panic!("no fetch response")
        };
        f.groups[0]
            .topics
            .iter()
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .map(|p| (t.name.clone(), p.partition_index, p.committed_offset))
            })
            .collect()
    }

    pub fn view(&self) -> GroupView {
        self.c.describe(G).expect("group exists")
    }

    pub fn state(&self) -> GroupState {
        self.view().state
    }

    pub fn generation(&self) -> i32 {
        self.view().generation_id
    }

    pub fn member_ids(&self) -> Vec<String> {
        self.view()
            .members
            .iter()
            .map(|m| m.member_id.clone())
            .collect()
    }

    pub fn events(&mut self) -> Vec<Event> {
        self.c.drain_events()
    }

    /// J.ONE: a dynamic member joins with v4 and the group completes generation 1
    /// (CompletingRebalance). Returns the member id.
    pub fn one(&mut self, session: i32, rebalance: i32) -> String {
        let (a, id) = self.join_dynamic_v4(join("").session(session).rebalance(rebalance));
        let out = self.advance(3000);
        let r = join_answer(&out, id).expect("join completes after the initial delay");
        assert_eq!(r.error_code, ErrorCode::None);
        assert_eq!(r.generation_id, 1);
        assert_eq!(r.leader, a);
        assert_eq!(self.state(), GroupState::CompletingRebalance);
        a
    }

    /// J.ONE_STABLE.
    pub fn one_stable(&mut self) -> String {
        let a = self.one(self.session, self.rebalance);
        let r = self.sync_now(&a, 1, &[(&a, b"a")]);
        assert_eq!(r.error_code, ErrorCode::None);
        assert_eq!(self.state(), GroupState::Stable);
        a
    }

    /// J.STATIC2(R, S): static leader L and follower F at generation 1, Stable, at t = 6000.
    /// Returns (L id, F id).
    pub fn static2(&mut self, rebalance: i32, session: i32) -> (String, String) {
        let l = self.join_parked(
            join("")
                .instance("leader-instance-id")
                .protocols(&["range", "roundrobin"])
                .rebalance(rebalance)
                .session(session),
        );
        let f = self.join_parked(
            join("")
                .instance("follower-instance-id")
                .protocols(&["range", "roundrobin"])
                .rebalance(rebalance)
                .session(session),
        );
        assert!(self.advance(3000).is_empty(), "window extended");
        let out = self.advance(3000);
        let lr = join_answer(&out, l).expect("leader answered");
        let fr = join_answer(&out, f).expect("follower answered");
        assert_eq!((lr.generation_id, fr.generation_id), (1, 1));
        assert_eq!(lr.leader, lr.member_id);
        assert_eq!(lr.protocol_name.as_deref(), Some("range"));
        let (lid, fid) = (lr.member_id.clone(), fr.member_id.clone());
        let r = self.sync_now(&lid, 1, &[(&lid, &[1]), (&fid, &[2])]);
        assert_eq!(r.assignment.as_slice(), &[1]);
        assert_eq!(self.state(), GroupState::Stable);
        let r = self.sync_now(&fid, 1, &[]);
        assert_eq!(r.assignment.as_slice(), &[2]);
        (lid, fid)
    }
}

pub fn join_answer(out: &[Response], correlation_id: i32) -> Option<JoinGroupResponse> {
    out.iter().find_map(|r| match r {
        Response::JoinGroup(j) if j.correlation_id == correlation_id => Some(j.clone()),
        _ => None,
    })
}

pub fn sync_answer(out: &[Response], correlation_id: i32) -> Option<SyncGroupResponse> {
    out.iter().find_map(|r| match r {
        Response::SyncGroup(s) if s.correlation_id == correlation_id => Some(s.clone()),
        _ => None,
    })
}

pub fn state_changes(events: &[Event]) -> Vec<(GroupState, GroupState)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StateChanged { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect()
}
