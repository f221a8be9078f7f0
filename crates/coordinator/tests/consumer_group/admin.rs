//! ConsumerGroupDescribe, ListGroups, offsets checked against the member epoch, and DescribeGroups of a consumer group.

use super::*;

#[test]
fn consumer_group_describe() {
    use group_coordinator::Request;
    use group_coordinator::protocol::ConsumerGroupDescribeRequest;
    let mut w = two_members();
    w.join("m3");
    let out =
        w.c.handle(
            w.now,
            Request::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                api_version: 0,
                correlation_id: 7,
                group_ids: vec![G.into(), "nope".into()],
                ..Default::default()
            }),
        )
        .unwrap();
    let [group_coordinator::Response::ConsumerGroupDescribe(r)] = &out[..] else {
        panic!("{out:?}")
    };
    assert_eq!(r.correlation_id, 7);
    let g = &r.groups[0];
    assert_eq!(
        (
            g.error_code,
            g.group_state.as_str(),
            g.group_epoch,
            g.assignment_epoch
        ),
        (ErrorCode::None, "Reconciling", 3, 3)
    );
    assert_eq!(g.assignor_name, "range");
    let m3 = g.members.iter().find(|m| m.member_id == "m3").unwrap();
    assert!(
        m3.assignment.topic_partitions.is_empty(),
        "m3 waits for its partitions"
    );
    let target: Vec<(&str, Vec<i32>)> = m3
        .target_assignment
        .topic_partitions
        .iter()
        .map(|t| (t.topic_name.as_str(), t.partitions.clone()))
        .collect();
    assert_eq!(target.len(), 2, "{target:?}");
    assert!(
        target.contains(&("foo", vec![4, 5])) && target.contains(&("bar", vec![2])),
        "{target:?}"
    );
    assert_eq!(r.groups[1].error_code, ErrorCode::GroupIdNotFound);
}

#[test]
fn list_groups_names_each_groups_type_and_state() {
    use group_coordinator::Request;
    use group_coordinator::protocol::ListGroupsRequest;
    let mut w = two_members();
    let list = |w: &mut World, types: &[&str], states: &[&str]| {
        let out =
            w.c.handle(
                w.now,
                Request::ListGroups(ListGroupsRequest {
                    api_version: 5,
                    types_filter: types.iter().map(|s| s.to_string()).collect(),
                    states_filter: states.iter().map(|s| s.to_string()).collect(),
                    ..Default::default()
                }),
            )
            .unwrap();
        let [group_coordinator::Response::ListGroups(r)] = &out[..] else {
            panic!()
        };
        r.groups
            .iter()
            .map(|g| {
                format!(
                    "{} {} {} {}",
                    g.group_id, g.protocol_type, g.group_state, g.group_type
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(list(&mut w, &[], &[]), vec!["grp consumer Stable consumer"]);
    assert_eq!(list(&mut w, &["classic"], &[]), Vec::<String>::new());
    assert_eq!(
        list(&mut w, &["Consumer"], &["stable"]),
        vec!["grp consumer Stable consumer"]
    );
    assert_eq!(list(&mut w, &[], &["Empty"]), Vec::<String>::new());
}

/// Offsets of a consumer group: a member commits at OffsetCommit v9+ at its current member epoch
/// (STALE_MEMBER_EPOCH otherwise, UNSUPPORTED_VERSION below v9, UNKNOWN_MEMBER_ID for a
/// stranger); a fetch at v9+ by a member checks its epoch too, an admin's does not.
#[test]
fn offsets_of_a_consumer_group_check_the_member_epoch() {
    use group_coordinator::Request;
    use group_coordinator::protocol::{
        OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
        OffsetFetchRequest, OffsetFetchRequestGroup, OffsetFetchRequestTopic,
    };
    let mut w = two_members();
    let commit = |w: &mut World, version: i16, member: &str, epoch: i32| {
        let out =
            w.c.handle(
                w.now,
                Request::OffsetCommit(OffsetCommitRequest {
                    api_version: version,
                    group_id: G.into(),
                    generation_id_or_member_epoch: epoch,
                    member_id: member.into(),
                    topics: vec![OffsetCommitRequestTopic {
                        name: "foo".into(),
                        partitions: vec![OffsetCommitRequestPartition {
                            partition_index: 0,
                            committed_offset: 42,
                            committed_leader_epoch: -1,
                            commit_timestamp: -1,
                            committed_metadata: None,
                        }],
                    }],
                    ..Default::default()
                }),
            )
            .unwrap();
        match &out[..] {
            [group_coordinator::Response::OffsetCommit(r)] => r.topics[0].partitions[0].error_code,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(commit(&mut w, 9, "m1", 2), ErrorCode::None);
    assert_eq!(commit(&mut w, 9, "m1", 1), ErrorCode::StaleMemberEpoch);
    assert_eq!(commit(&mut w, 8, "m1", 2), ErrorCode::UnsupportedVersion);
    assert_eq!(commit(&mut w, 9, "stranger", 2), ErrorCode::UnknownMemberId);
    assert_eq!(
        commit(&mut w, 9, "", -1),
        ErrorCode::UnknownMemberId,
        "not while the group has members"
    );
    let fetch = |w: &mut World, member: Option<&str>, epoch: i32| {
        let out =
            w.c.handle(
                w.now,
                Request::OffsetFetch(OffsetFetchRequest {
                    api_version: 9,
                    groups: vec![OffsetFetchRequestGroup {
                        group_id: G.into(),
                        member_id: member.map(str::to_string),
                        member_epoch: epoch,
                        topics: Some(vec![OffsetFetchRequestTopic {
                            name: "foo".into(),
                            partition_indexes: vec![0],
                        }]),
                    }],
                    ..Default::default()
                }),
            )
            .unwrap();
        match &out[..] {
            [group_coordinator::Response::OffsetFetch(r)] => (
                r.groups[0].error_code,
                r.groups[0]
                    .topics
                    .first()
                    .map(|t| t.partitions[0].committed_offset),
            ),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(fetch(&mut w, Some("m2"), 2), (ErrorCode::None, Some(42)));
    assert_eq!(
        fetch(&mut w, Some("m2"), 1),
        (ErrorCode::StaleMemberEpoch, None)
    );
    assert_eq!(
        fetch(&mut w, None, -1),
        (ErrorCode::None, Some(42)),
        "an admin"
    );
}

/// DescribeGroups (v0–v5) describes classic groups only: a consumer group's id is answered as an
/// unknown group is, Dead with no members (Kafka's `describeGroups` looks the id up as a
/// classic group); ConsumerGroupDescribe is the API for it.
#[test]
fn describe_groups_answers_a_consumer_group_as_kafka_does() {
    use group_coordinator::Request;
    use group_coordinator::protocol::DescribeGroupsRequest;
    let mut w = two_members();
    let out =
        w.c.handle(
            w.now,
            Request::DescribeGroups(DescribeGroupsRequest {
                api_version: 5,
                groups: vec![G.into()],
                ..Default::default()
            }),
        )
        .unwrap();
    let [group_coordinator::Response::DescribeGroups(r)] = &out[..] else {
        panic!("{out:?}")
    };
    assert_eq!(
        (r.groups[0].error_code, r.groups[0].group_state.as_str()),
        (ErrorCode::None, "Dead")
    );
    assert!(r.groups[0].members.is_empty());
}
