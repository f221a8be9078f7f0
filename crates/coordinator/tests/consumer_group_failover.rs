//! A consumer group (KIP-848) through a coordinator failover
//! (`docs/src/reference/consumer-group-protocol.md#failover`): unloaded, it keeps what its
//! records keep and answers every request NOT_COORDINATOR; loaded, it is the same group, with
//! the timers Kafka's `GroupMetadataManager.onLoaded` arms (its test `testOnLoaded`).

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::reconcile::MemberState;
use group_coordinator::protocol::*;
use group_coordinator::{Coordinator, CoordinatorError, ErrorCode, Request, Response};

const G: &str = "grp";

fn join(member: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 10_000,
        subscribed_topic_names: Some(vec!["foo".into()]),
        topic_partitions: Some(vec![]),
        server_assignor: Some("range".into()),
        ..Default::default()
    }
}

fn beat(member: &str, epoch: i32) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: epoch,
        ..Default::default()
    }
}

/// m1 holds foo 0-5 and must revoke 3-5 for m2, which waits for them: m1 is
/// UNREVOKED_PARTITIONS, with a rebalance timer.
fn revoking() -> Coordinator {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("foo".into(), None, 6)]).unwrap();
    assert_eq!(
        c.consumer_group_heartbeat(0, &join("m1"))
            .unwrap()
            .member_epoch,
        1
    );
    assert_eq!(
        c.consumer_group_heartbeat(0, &join("m2"))
            .unwrap()
            .member_epoch,
        2
    );
    c.consumer_group_heartbeat(0, &beat("m1", 1)).unwrap();
    let m1 = &c.consumer_group(G).unwrap().members["m1"];
    assert_eq!(m1.state(), MemberState::UnrevokedPartitions);
    c
}

/// The armed timers by key.
fn timers(c: &Coordinator) -> Vec<(String, i64)> {
    let mut t = c.timers();
    t.sort();
    t
}

/// Every request that names the group, classic and consumer, with the answer's error.
fn every_request_answers(c: &mut Coordinator, now: i64) -> Vec<(&'static str, ErrorCode)> {
    let mut out = Vec::new();
    let r = c.consumer_group_heartbeat(now, &beat("m1", 1)).unwrap();
    // The runtime's bare NOT_COORDINATOR: no message (Kafka's `ApiError` drops a generic one).
    assert_eq!(r.error_message, None);
    out.push(("ConsumerGroupHeartbeat", r.error_code));
    // Before the request is validated: a heartbeat that would be INVALID_REQUEST.
    let invalid = ConsumerGroupHeartbeatRequest {
        member_epoch: 0,
        ..beat("m1", 0)
    };
    out.push((
        "invalid ConsumerGroupHeartbeat",
        c.consumer_group_heartbeat(now, &invalid)
            .unwrap()
            .error_code,
    ));
    let requests = [
        (
            "ConsumerGroupDescribe",
            Request::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                api_version: 0,
                group_ids: vec![G.into()],
                ..Default::default()
            }),
        ),
        (
            "DescribeGroups",
            Request::DescribeGroups(DescribeGroupsRequest {
                api_version: 5,
                groups: vec![G.into()],
                ..Default::default()
            }),
        ),
        (
            "OffsetCommit",
            Request::OffsetCommit(OffsetCommitRequest {
                api_version: 9,
                group_id: G.into(),
                generation_id_or_member_epoch: 1,
                member_id: "m1".into(),
                topics: vec![OffsetCommitRequestTopic {
                    name: "foo".into(),
                    partitions: vec![OffsetCommitRequestPartition {
                        partition_index: 0,
                        committed_offset: 7,
                        committed_leader_epoch: -1,
                        commit_timestamp: -1,
                        committed_metadata: None,
                    }],
                }],
                ..Default::default()
            }),
        ),
        (
            "OffsetFetch",
            Request::OffsetFetch(OffsetFetchRequest {
                api_version: 7,
                group_id: G.into(),
                topics: None,
                ..Default::default()
            }),
        ),
        (
            "JoinGroup",
            Request::JoinGroup(JoinGroupRequest {
                api_version: 9,
                group_id: G.into(),
                session_timeout_ms: 45_000,
                rebalance_timeout_ms: 10_000,
                protocol_type: "consumer".into(),
                protocols: vec![JoinGroupRequestProtocol {
                    name: "range".into(),
                    metadata: Default::default(),
                }],
                ..Default::default()
            }),
        ),
        (
            "SyncGroup",
            Request::SyncGroup(SyncGroupRequest {
                api_version: 5,
                group_id: G.into(),
                member_id: "m1".into(),
                generation_id: 1,
                ..Default::default()
            }),
        ),
        (
            "Heartbeat",
            Request::Heartbeat(HeartbeatRequest {
                api_version: 4,
                group_id: G.into(),
                member_id: "m1".into(),
                generation_id: 1,
                ..Default::default()
            }),
        ),
        (
            "LeaveGroup",
            Request::LeaveGroup(LeaveGroupRequest {
                api_version: 5,
                group_id: G.into(),
                members: vec![MemberIdentity {
                    member_id: "m1".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        ),
        (
            "DeleteGroups",
            Request::DeleteGroups(DeleteGroupsRequest {
                api_version: 2,
                groups_names: vec![G.into()],
                ..Default::default()
            }),
        ),
    ];
    for (name, request) in requests {
        let responses = c.handle(now, request).unwrap();
        let [response] = responses.as_slice() else {
            panic!("{name}: one response, got {responses:?}")
        };
        let error = match response {
            Response::ConsumerGroupDescribe(r) => r.groups[0].error_code,
            Response::DescribeGroups(r) => r.groups[0].error_code,
            Response::OffsetCommit(r) => r.topics[0].partitions[0].error_code,
            Response::OffsetFetch(r) => r.error_code,
            Response::JoinGroup(r) => r.error_code,
            Response::SyncGroup(r) => r.error_code,
            Response::Heartbeat(r) => r.error_code,
            Response::LeaveGroup(r) => r.error_code,
            Response::DeleteGroups(r) => r.results[0].error_code,
            other => panic!("{name}: {other:?}"),
        };
        out.push((name, error));
    }
    let listed = c
        .handle(
            now,
            Request::ListGroups(ListGroupsRequest {
                api_version: 5,
                ..Default::default()
            }),
        )
        .unwrap();
    match listed.as_slice() {
        [Response::ListGroups(r)] => out.push((
            "ListGroups lists it",
            if r.groups.is_empty() {
                ErrorCode::None
            } else {
                ErrorCode::UnknownServerError
            },
        )),
        other => panic!("{other:?}"),
    }
    out
}

#[test]
fn test_on_loaded() {
    let mut c = revoking();
    let before = c.consumer_group(G).unwrap().clone();
    assert_eq!(
        timers(&c),
        [
            ("rebalance-timeout-grp-m1".to_string(), 10_000),
            ("session-timeout-grp-m1".to_string(), 45_000),
            ("session-timeout-grp-m2".to_string(), 45_000),
        ]
    );

    c.advance(1_000).unwrap();
    assert!(
        c.unload(G).unwrap().is_empty(),
        "a consumer group parks nothing"
    );
    assert!(timers(&c).is_empty(), "the group's timers stop");
    assert!(c.describe_consumer_group(G).unwrap().unloaded);
    c.check_invariants().unwrap();

    // Nobody expires while the group is unloaded, however long it takes.
    c.advance(100_000).unwrap();
    for (request, error) in every_request_answers(&mut c, 100_000) {
        let expected = if request == "ListGroups lists it" {
            ErrorCode::None
        } else {
            ErrorCode::NotCoordinator
        };
        assert_eq!(error, expected, "{request}");
    }
    let mut unloaded = c.consumer_group(G).unwrap().clone();
    unloaded.unloaded = false;
    assert_eq!(
        unloaded, before,
        "nothing of the group changed, and no request reached it"
    );

    // Loaded: the same group; every session restarts with the broker's consumer session
    // timeout, and the member still revoking gets its rebalance timer again.
    c.advance(101_000).unwrap();
    assert!(c.load(G).unwrap().is_empty());
    assert_eq!(c.consumer_group(G).unwrap(), &before);
    assert_eq!(
        timers(&c),
        [
            ("rebalance-timeout-grp-m1".to_string(), 111_000),
            ("session-timeout-grp-m1".to_string(), 146_000),
            ("session-timeout-grp-m2".to_string(), 146_000),
        ]
    );
    c.check_invariants().unwrap();
    let loaded = c.drain_events().into_iter().filter_map(|e| match e.kind {
        group_coordinator::EventKind::ConsumerGroupLoaded { members, state } => {
            Some((members, state))
        }
        _ => None,
    });
    assert_eq!(
        loaded.collect::<Vec<_>>(),
        [(
            2,
            group_coordinator::consumer_group::ConsumerGroupState::Reconciling
        )]
    );

    // The members go on where they were: m1 revokes, m2 gets its partitions.
    let r = c
        .consumer_group_heartbeat(
            101_000,
            &ConsumerGroupHeartbeatRequest {
                topic_partitions: Some(vec![TopicIdPartitions {
                    topic_id: group_coordinator::consumer_group::Uuid::for_topic_name("foo"),
                    partitions: vec![0, 1, 2],
                }]),
                ..beat("m1", 1)
            },
        )
        .unwrap();
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, 2));
    let r = c.consumer_group_heartbeat(101_000, &beat("m2", 2)).unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(
        r.assignment.unwrap().topic_partitions[0].partitions,
        [3, 4, 5]
    );
    assert_eq!(c.consumer_group(G).unwrap().group_epoch, 2, "no new epoch");
}

#[test]
fn a_member_that_does_not_come_back_after_the_load_expires_then() {
    let mut c = revoking();
    c.unload(G).unwrap();
    c.advance(60_000).unwrap();
    c.load(G).unwrap();
    c.consumer_group_heartbeat(60_000, &beat("m2", 2)).unwrap();
    // m1 neither revokes nor heartbeats: its rebalance timer, restarted at the load, fences it.
    c.advance(70_000).unwrap();
    let g = c.consumer_group(G).unwrap();
    assert!(!g.members.contains_key("m1"));
    assert_eq!(g.group_epoch, 3);
    c.check_invariants().unwrap();
}

#[test]
fn unloading_twice_or_loading_a_loaded_group_is_refused() {
    let mut c = revoking();
    assert!(matches!(
        c.load(G),
        Err(CoordinatorError::GroupAlreadyLoaded(_))
    ));
    c.unload(G).unwrap();
    assert!(matches!(
        c.unload(G),
        Err(CoordinatorError::GroupNotLoaded(_))
    ));
    c.load(G).unwrap();
    c.check_invariants().unwrap();
}
