//! The admin APIs, misuse of the API, and the messages' JSON form.

use super::*;

// admin APIs

#[test]
fn describe_list_and_delete() {
    let mut h = profile_j();
    let a = h.one(500, 500);
    let describe = |h: &mut H| {
        let out = h.send(Request::DescribeGroups(DescribeGroupsRequest {
            api_version: 5,
            correlation_id: 1,
            groups: vec![G.into(), "unknown".into()],
            ..Default::default()
        }));
        let Response::DescribeGroups(r) = out.into_iter().next().unwrap() else {
            panic!()
        };
        r
    };
    let r = describe(&mut h);
    assert_eq!(r.groups[0].group_state, "CompletingRebalance");
    assert_eq!(r.groups[0].protocol_data, "", "protocol only while Stable");
    assert!(r.groups[0].members[0].member_assignment.is_empty());
    assert_eq!(
        (r.groups[1].group_state.as_str(), r.groups[1].members.len()),
        ("Dead", 0)
    );
    h.sync_now(&a, 1, &[(&a, b"xy")]);
    let r = describe(&mut h);
    assert_eq!(
        (
            r.groups[0].group_state.as_str(),
            r.groups[0].protocol_data.as_str()
        ),
        ("Stable", "range")
    );
    assert_eq!(r.groups[0].members[0].member_assignment.as_slice(), b"xy");

    let list = |h: &mut H, states: Vec<String>| {
        let out = h.send(Request::ListGroups(ListGroupsRequest {
            api_version: 5,
            correlation_id: 2,
            states_filter: states,
            ..Default::default()
        }));
        let Response::ListGroups(r) = out.into_iter().next().unwrap() else {
            panic!()
        };
        r.groups
    };
    let all = list(&mut h, vec![]);
    assert_eq!(
        (all[0].group_state.as_str(), all[0].group_type.as_str()),
        ("Stable", "classic")
    );
    assert!(list(&mut h, vec!["empty".into()]).is_empty());

    let delete = |h: &mut H| {
        let out = h.send(Request::DeleteGroups(DeleteGroupsRequest {
            api_version: 2,
            correlation_id: 3,
            groups_names: vec![G.into(), "unknown".into()],
            ..Default::default()
        }));
        let Response::DeleteGroups(r) = out.into_iter().next().unwrap() else {
            panic!()
        };
        r.results.iter().map(|x| x.error_code).collect::<Vec<_>>()
    };
    assert_eq!(
        delete(&mut h),
        [ErrorCode::NonEmptyGroup, ErrorCode::GroupIdNotFound]
    );
    h.leave(&[(&a, None)]);
    assert_eq!(
        delete(&mut h),
        [ErrorCode::None, ErrorCode::GroupIdNotFound]
    );
    assert!(h.c.describe(G).is_none());
    assert!(h.c.timers().is_empty());
}

// the API: misuse is an error and changes nothing

#[test]
fn misuse_is_an_error_and_changes_nothing() {
    let mut h = profile_j();
    h.one(500, 500);
    h.events();
    let before = h.view();
    assert!(matches!(
        h.c.advance(h.now - 1),
        Err(CoordinatorError::TimeWentBackwards { .. })
    ));
    let bad = [
        join("").v(10).req,
        JoinGroupRequest {
            api_version: 4,
            group_instance_id: Some("i".into()),
            ..join("").req
        },
        JoinGroupRequest {
            api_version: 7,
            reason: Some("r".into()),
            ..join("").req
        },
    ];
    for req in bad {
        let e = h.c.handle(h.now, Request::JoinGroup(req)).unwrap_err();
        assert!(matches!(e, CoordinatorError::InvalidRequest(_)), "{e}");
    }
    let e =
        h.c.handle(
            h.now,
            Request::LeaveGroup(LeaveGroupRequest {
                api_version: 2,
                members: vec![MemberIdentity::default()],
                ..Default::default()
            }),
        )
        .unwrap_err();
    assert!(e.to_string().contains("members is not in version 2"), "{e}");
    assert_eq!(h.view(), before);
    assert!(h.events().is_empty());
}

#[test]
fn describe_groups_v6_still_asks_for_authorized_operations() {
    // IncludeAuthorizedOperations is in DescribeGroups from v3 on, v6 (Kafka 4.0) included;
    // kafka-python's admin client sends it at v6 (found by group-broker's live tests).
    let mut h = profile_j();
    for api_version in [3, 5, 6] {
        let r = h.c.handle(
            h.now,
            Request::DescribeGroups(DescribeGroupsRequest {
                api_version,
                groups: vec!["g".into()],
                include_authorized_operations: true,
                ..Default::default()
            }),
        );
        assert!(r.is_ok(), "v{api_version}: {r:?}");
    }
    let e =
        h.c.handle(
            h.now,
            Request::DescribeGroups(DescribeGroupsRequest {
                api_version: 2,
                groups: vec!["g".into()],
                include_authorized_operations: true,
                ..Default::default()
            }),
        )
        .unwrap_err();
    assert!(e.to_string().contains("it exists in v3-v6"), "{e}");
}

#[test]
fn a_zero_length_timer_cannot_spin_forever() {
    // A static member alone with rebalance timeout 0: the join timer re-arms at "now" forever
    // while the member does not rejoin. Each advance fires it once.
    let mut h = profile_j();
    let s = h.join_parked(join("").instance("s").rebalance(0).session(60_000));
    let out = h.advance(3000);
    let id = join_answer(&out, s).unwrap().member_id;
    h.sync_now(&id, 1, &[]);
    h.join_parked(join("").v(3).rebalance(0).session(60_000));
    h.advance(0);
    h.advance(0);
    assert!(h.c.next_deadline().is_some());
}

// JSON (Kafka's JSON converter names)

#[test]
fn requests_parse_from_kafka_json_and_responses_serialise_to_it() {
    let json = r#"{ "api": "JoinGroup", "apiVersion": 9, "correlationId": 7, "clientId": "c",
        "groupId": "g", "sessionTimeoutMs": 45000, "rebalanceTimeoutMs": 300000, "memberId": "",
        "groupInstanceId": null, "protocolType": "consumer",
        "protocols": [{ "name": "range", "metadata": "AAEC" }], "reason": null }"#;
    let request: Request = serde_json::from_str(json).unwrap();
    let Request::JoinGroup(j) = &request else {
        panic!()
    };
    assert_eq!(j.protocols[0].metadata.as_slice(), &[0, 1, 2]);
    let mut c = Coordinator::new(BrokerConfig::default());
    let out = c.handle(0, request).unwrap();
    let value = serde_json::to_value(&out[0]).unwrap();
    assert_eq!(value["api"], "JoinGroup");
    assert_eq!(value["errorCode"], 79);
    assert_eq!(value["correlationId"], 7);
    assert!(value["memberId"].as_str().unwrap().starts_with("c-"));
    assert_eq!(value["generationId"], -1);
    assert!(value["protocolName"].is_null());
    // Unknown fields and bad base64 are refused with their names.
    let e = serde_json::from_str::<Request>(
        r#"{ "api": "Heartbeat", "apiVersion": 4, "memberID": "x" }"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("memberID"), "{e}");
    let e = serde_json::from_str::<Request>(r#"{ "api": "JoinGroup", "apiVersion": 4, "protocols": [{ "name": "r", "metadata": "!!" }] }"#).unwrap_err();
    assert!(e.to_string().contains("base64"), "{e}");
    let e = serde_json::from_str::<Request>(r#"{ "api": "JoinGroup" }"#).unwrap();
    assert!(
        Coordinator::default()
            .handle(0, e)
            .unwrap_err()
            .to_string()
            .contains("apiVersion is required")
    );
    let events = serde_json::to_value(c.drain_events()).unwrap();
    assert_eq!(events[0]["type"], "GroupCreated");
    assert_eq!(events[0]["groupId"], "g");
    assert!(
        events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "PendingMemberAdded")
    );
}

#[test]
fn member_ids_are_java_uuid_shaped_and_repeat_for_the_same_seed() {
    let run = |seed| {
        let mut c = Coordinator::with_seed(BrokerConfig::default(), seed);
        let out = c
            .handle(
                0,
                Request::JoinGroup(JoinGroupRequest {
                    api_version: 9,
                    client_id: "consumer-1".into(),
                    session_timeout_ms: 10_000,
                    ..join("").req
                }),
            )
            .unwrap();
        let Response::JoinGroup(r) = &out[0] else {
            panic!()
        };
        r.member_id.clone()
    };
    let id = run(1);
    assert_eq!(id, run(1));
    assert_ne!(id, run(2));
    let uuid = id.strip_prefix("consumer-1-").unwrap();
    let blocks: Vec<usize> = uuid.split('-').map(str::len).collect();
    assert_eq!(blocks, [8, 4, 4, 4, 12]);
    assert_eq!(&uuid[14..15], "4", "version 4");
}
