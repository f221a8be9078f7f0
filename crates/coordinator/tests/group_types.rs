//! One id, one group: requests of one protocol meeting a group of the other type, with Kafka
//! 4.0's answers (`GroupMetadataManager`: `getOrMaybeCreateConsumerGroup`,
//! `classicGroupJoin`, `classicGroupSync/Heartbeat/LeaveToConsumerGroup`, `describeGroups`,
//! `deleteGroups`). Mixed groups and online migration have their own tests (`migration.rs`).

#![allow(clippy::unwrap_used)]
mod common;

use common::{G, join, join_answer, profile_j};
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::protocol::*;
use group_coordinator::{Cause, ErrorCode, EventKind, GroupState, Request, Response};

fn consumer_join(member: &str, instance: Option<&str>) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        instance_id: instance.map(Into::into),
        rebalance_timeout_ms: 10_000,
        subscribed_topic_names: Some(vec!["foo".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    }
}

fn with_topic() -> common::H {
    let mut h = profile_j();
    h.c.update_metadata(0, &[("foo".into(), None, 4)]).unwrap();
    h
}

fn describe(h: &mut common::H, version: i16) -> DescribedGroup {
    let out = h.send(Request::DescribeGroups(DescribeGroupsRequest {
        api_version: version,
        groups: vec![G.into()],
        ..Default::default()
    }));
    match &out[..] {
        [Response::DescribeGroups(r)] => r.groups[0].clone(),
        other => panic!("{other:?}"),
    }
}

/// Every offset the group has (OffsetFetch v8, as an admin asks).
fn fetch_all(h: &mut common::H) -> OffsetFetchResponse {
    let out = h.send(Request::OffsetFetch(OffsetFetchRequest {
        api_version: 8,
        groups: vec![OffsetFetchRequestGroup {
            group_id: G.into(),
            topics: None,
            ..Default::default()
        }],
        ..Default::default()
    }));
    match out.into_iter().next() {
        Some(Response::OffsetFetch(f)) => f,
        other => panic!("{other:?}"),
    }
}

/// `testConsumerGroupHeartbeatWithEmptyClassicGroup` (shape): offsets committed by a consumer
/// outside group management make an Empty classic group; the first KIP-848 member replaces it,
/// and the offsets stay.
#[test]
fn a_consumer_group_member_replaces_an_empty_classic_group_and_keeps_its_offsets() {
    let mut h = with_topic();
    let r = h.commit("", -1, None, 42);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(h.state(), GroupState::Empty);
    h.events();

    let r =
        h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", None))
            .unwrap();
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, 1));
    assert!(h.c.describe(G).is_none(), "the classic group is gone");
    let events = h.events();
    assert!(events.iter().any(|e| matches!(
        e.kind,
        EventKind::StateChanged {
            from: GroupState::Empty,
            to: GroupState::Dead,
            cause: Cause::ReplacedByOtherType
        }
    )));
    // The offsets the classic group had are still there.
    let f = fetch_all(&mut h);
    assert_eq!(f.groups[0].topics[0].partitions[0].committed_offset, 42);
    h.c.check_invariants().unwrap();
}

/// A classic group with members is not a consumer group for a heartbeat past the join, nor for
/// a join when the online upgrade is not allowed; allowed, a group whose members' embedded
/// protocol cannot be read cannot be upgraded (`validateOnlineUpgrade`,
/// `convertToConsumerGroup`).
#[test]
fn a_classic_group_with_members_is_not_a_consumer_group_unless_it_can_upgrade() {
    use group_coordinator::MigrationPolicy;
    let mut h = with_topic();
    h.one_stable();
    for policy in [MigrationPolicy::Disabled, MigrationPolicy::Downgrade] {
        h.c.config_mut().group_consumer_migration_policy = policy;
        for (epoch, what) in [(0, "join"), (3, "heartbeat"), (-1, "leave")] {
            let mut r = consumer_join("m1", None);
            r.member_epoch = epoch;
            let out = h.c.consumer_group_heartbeat(h.now, &r).unwrap();
            assert_eq!(out.error_code, ErrorCode::GroupIdNotFound, "{what}");
            assert_eq!(
                out.error_message.as_deref(),
                Some("Group group-id is not a consumer group"),
                "{what}"
            );
        }
    }
    // Allowed, but the member's subscription (its JoinGroup metadata, empty here) and its
    // assignment do not parse as the consumer protocol.
    h.c.config_mut().group_consumer_migration_policy = MigrationPolicy::Bidirectional;
    let out =
        h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", None))
            .unwrap();
    assert_eq!(out.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(
        out.error_message.as_deref(),
        Some(
            "Cannot upgrade the classic group group-id to consumer group because the embedded consumer protocol is malformed."
        )
    );
    assert_eq!(h.state(), GroupState::Stable);
    assert!(h.c.consumer_group(G).is_none());
    // An invalid request is refused for what it is, before the group is looked at.
    let mut r = consumer_join("", None);
    r.member_epoch = 0;
    let out = h.c.consumer_group_heartbeat(h.now, &r).unwrap();
    assert_eq!(out.error_code, ErrorCode::InvalidRequest);
}

/// `classicGroupJoinToClassicGroup` first deletes an empty consumer group of that id.
#[test]
fn a_classic_join_replaces_an_empty_consumer_group() {
    let mut h = with_topic();
    h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", None))
        .unwrap();
    let mut leave = consumer_join("m1", None);
    leave.member_epoch = -1;
    h.c.consumer_group_heartbeat(h.now, &leave).unwrap();
    assert_eq!(
        h.c.consumer_group(G).unwrap().state(),
        ConsumerGroupState::Empty
    );
    h.events();

    let r = h.join_now(join("").v(4));
    assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
    assert!(h.c.consumer_group(G).is_none());
    assert_eq!(h.state(), GroupState::Empty);
    assert!(h.events().iter().any(|e| matches!(
        e.kind,
        EventKind::ConsumerGroupStateChanged {
            from: ConsumerGroupState::Empty,
            to: ConsumerGroupState::Dead
        }
    )));
    h.c.check_invariants().unwrap();
}

/// The classic requests against a consumer group with (KIP-848) members: none of them is a
/// classic member. A JoinGroup is taken by the consumer group (a v4+ dynamic member is first
/// given a member id, a Kafka `Uuid`), unless its protocol type is not `consumer`; SyncGroup,
/// Heartbeat and LeaveGroup get UNKNOWN_MEMBER_ID, or FENCED_INSTANCE_ID for a static
/// member's instance id under another member id.
#[test]
fn classic_requests_to_a_consumer_group_find_no_classic_member() {
    let mut h = with_topic();
    h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", Some("i1")))
        .unwrap();
    h.events();

    let (id, out) = h.join(join("").protocol_type("connect"));
    let r = join_answer(&out, id).unwrap();
    assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol);
    let (id, out) = h.join(join(""));
    let r = join_answer(&out, id).unwrap();
    assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
    assert_eq!(r.member_id.len(), 22, "a Kafka Uuid: {}", r.member_id);
    assert!(h.c.describe(G).is_none(), "no classic group was made");

    assert_eq!(h.heartbeat("m1", 1), ErrorCode::UnknownMemberId);
    assert_eq!(
        h.heartbeat_with("other", 1, Some("i1")),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.heartbeat_with("m1", 1, Some("i1")),
        ErrorCode::UnknownMemberId
    );
    let (sid, out) = h.sync("m1", 1, &[]);
    let s = common::sync_answer(&out, sid).unwrap();
    assert_eq!(s.error_code, ErrorCode::UnknownMemberId);

    let (r, _) = h.leave(&[("m1", None), ("other", Some("i1")), ("x", Some("nope"))]);
    assert_eq!(r.error_code, ErrorCode::None);
    let codes: Vec<ErrorCode> = r.members.iter().map(|m| m.error_code).collect();
    assert_eq!(
        codes,
        [
            ErrorCode::UnknownMemberId,
            ErrorCode::FencedInstanceId,
            ErrorCode::UnknownMemberId
        ]
    );
    // Nothing changed in the consumer group.
    let g = h.c.consumer_group(G).unwrap();
    assert_eq!((g.members.len(), g.group_epoch), (1, 1));
    assert!(h.events().is_empty());
    h.c.check_invariants().unwrap();
}

/// DescribeGroups describes classic groups: up to v5 a consumer group (or no group) is "Dead"
/// without an error; v6 (KIP-1043) says GROUP_ID_NOT_FOUND and why, the state still "Dead"
/// (KAFKA-17550).
#[test]
fn describe_groups_on_a_consumer_group_by_version() {
    let mut h = with_topic();
    let d = describe(&mut h, 6);
    assert_eq!(d.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(d.group_state, "Dead", "KAFKA-17550");
    assert_eq!(
        d.error_message.as_deref(),
        Some("Group group-id not found.")
    );
    let d = describe(&mut h, 5);
    assert_eq!(
        (d.error_code, d.group_state.as_str()),
        (ErrorCode::None, "Dead")
    );

    h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", None))
        .unwrap();
    let d = describe(&mut h, 6);
    assert_eq!(d.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(
        d.error_message.as_deref(),
        Some("Group group-id is not a classic group.")
    );
    assert!(d.members.is_empty());
    assert_eq!(d.group_state, "Dead", "KAFKA-17550");
    let d = describe(&mut h, 5);
    assert_eq!(
        (d.error_code, d.group_state.as_str(), d.error_message),
        (ErrorCode::None, "Dead", None)
    );
}

/// DeleteGroups deletes an empty consumer group with its offsets; one with members is
/// NON_EMPTY_GROUP.
#[test]
fn delete_groups_on_a_consumer_group() {
    let mut h = with_topic();
    h.c.consumer_group_heartbeat(h.now, &consumer_join("m1", None))
        .unwrap();
    let delete = |h: &mut common::H| {
        let out = h.send(Request::DeleteGroups(DeleteGroupsRequest {
            api_version: 2,
            groups_names: vec![G.into()],
            ..Default::default()
        }));
        match &out[..] {
            [Response::DeleteGroups(r)] => r.results[0].error_code,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(delete(&mut h), ErrorCode::NonEmptyGroup);
    let mut leave = consumer_join("m1", None);
    leave.member_epoch = -1;
    h.c.consumer_group_heartbeat(h.now, &leave).unwrap();
    assert_eq!(h.commit("", -1, None, 7).error_code, ErrorCode::None);
    h.events();
    assert_eq!(delete(&mut h), ErrorCode::None);
    assert!(h.c.consumer_group(G).is_none());
    assert!(
        h.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::Deleted))
    );
    assert_eq!(delete(&mut h), ErrorCode::GroupIdNotFound);
    // Its offsets went with it: a new member starts from nothing.
    let f = fetch_all(&mut h);
    assert!(f.groups[0].topics.is_empty(), "{f:?}");
}
