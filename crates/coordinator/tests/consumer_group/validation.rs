//! Requests refused naming the field, member ids made by the coordinator, regexes beside topic names, the metadata image, a full group, broker settings.

use super::*;

#[test]
fn invalid_requests_are_refused_naming_the_field() {
    let mut w = World::new();
    let base = join_request("m1", &["foo"]);
    let cases: Vec<(ConsumerGroupHeartbeatRequest, ErrorCode, &str)> = vec![
        (
            // KIP-1082: a v1 client makes its own member id.
            ConsumerGroupHeartbeatRequest {
                api_version: 1,
                member_id: String::new(),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "MemberId",
        ),
        // Kafka's `throwIfEmptyString` trims: ids of spaces are empty (GroupMetadataManagerTest
        // pins "   " as a group id).
        (
            ConsumerGroupHeartbeatRequest {
                group_id: "   ".into(),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "GroupId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                instance_id: Some("  ".into()),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "InstanceId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                rack_id: Some(" \t".into()),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "RackId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_id: "   ".into(),
                member_epoch: 3,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "MemberId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_id: " ".into(),
                member_epoch: -1,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "MemberId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                group_id: String::new(),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "GroupId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_epoch: -3,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "MemberEpoch",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                rebalance_timeout_ms: -1,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "RebalanceTimeoutMs",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                topic_partitions: None,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "TopicPartitions",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: None,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                instance_id: Some(String::new()),
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "InstanceId",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                api_version: 1,
                subscribed_topic_regex: Some("f(".into()),
                ..base.clone()
            },
            ErrorCode::InvalidRegularExpression,
            "SubscribedTopicRegex `f(` is not a valid regular expression: missing closing ).",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                server_assignor: Some("sticky".into()),
                ..base.clone()
            },
            ErrorCode::UnsupportedAssignor,
            "sticky",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_epoch: -2,
                ..base.clone()
            },
            ErrorCode::InvalidRequest,
            "InstanceId",
        ),
    ];
    for (r, code, field) in cases {
        let out = w.send(r);
        assert_eq!(out.error_code, code, "{field}");
        assert!(
            out.error_message.as_deref().unwrap_or("").contains(field),
            "{field}: {:?}",
            out.error_message
        );
    }
    assert!(w.c.consumer_group(G).is_none(), "nothing was created");
    // A regex cannot even be put on the wire at v0.
    let v0 = ConsumerGroupHeartbeatRequest {
        subscribed_topic_regex: Some("f.*".into()),
        ..base
    };
    assert!(w.c.consumer_group_heartbeat(0, &v0).is_err());
}

/// Kafka's `testMemberIdGeneration`: a v0 joiner without a member id is given one (a Kafka
/// `Uuid`), answered with it, and known by it afterwards; two such joiners get two ids.
#[test]
fn test_member_id_generation() {
    let mut w = World::new();
    let first = w.send(ConsumerGroupHeartbeatRequest {
        member_id: String::new(),
        ..join_request("", &["foo"])
    });
    assert_eq!(
        first.error_code,
        ErrorCode::None,
        "{:?}",
        first.error_message
    );
    let id = first.member_id.clone().expect("the id it was given");
    assert_eq!(id.len(), 22, "a Kafka Uuid: {id}");
    assert!(w.c.consumer_group(G).unwrap().members.contains_key(&id));
    let second = w.send(ConsumerGroupHeartbeatRequest {
        member_id: String::new(),
        ..join_request("", &["foo"])
    });
    assert_ne!(second.member_id, first.member_id, "each its own");
    // And it heartbeats with it.
    let again = w.send(ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: id.clone(),
        member_epoch: first.member_epoch,
        ..Default::default()
    });
    assert_eq!(
        again.error_code,
        ErrorCode::None,
        "{:?}",
        again.error_message
    );
}

#[test]
fn an_empty_regex_beside_topic_names_is_no_regex() {
    // librdkafka (group.protocol=consumer) joins at v1 with SubscribedTopicRegex "" and its
    // topic names: Kafka 4.0 reads "" as no regex (found by group-broker's live clients).
    let mut w = World::new();
    let r = w.send(ConsumerGroupHeartbeatRequest {
        api_version: 1,
        subscribed_topic_regex: Some(String::new()),
        ..join_request("m1", &["foo"])
    });
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    assert_eq!(r.member_epoch, 1);
}

#[test]
fn a_new_partition_on_a_subscribed_topic_bumps_the_group_epoch() {
    let mut w = two_members();
    w.c.update_metadata(1, &[("foo".into(), None, 8)]).unwrap();
    w.now = 1;
    let r = w.beat("m2", 2, None);
    let g = w.c.consumer_group(G).unwrap();
    assert_eq!((g.group_epoch, g.assignment_epoch), (3, 3));
    assert!(r.member_epoch == 2 || r.member_epoch == 3);
    // Partitions cannot be taken away; ids cannot be shared.
    assert!(w.c.update_metadata(1, &[("foo".into(), None, 4)]).is_err());
    assert!(
        w.c.update_metadata(1, &[("baz".into(), Some(foo()), 1)])
            .is_err()
    );
}

/// The image is bounded in all, not only per topic: a million partitions over every topic,
/// whether in one update or over several; a refused update changes nothing.
#[test]
fn the_metadata_image_holds_at_most_a_million_partitions_in_all() {
    use group_coordinator::assignor::MAX_PARTITIONS;
    let mut w = World::new();
    // 9 partitions already (foo 6, bar 3).
    let room = (MAX_PARTITIONS - 9) as i32;
    let many: Vec<(String, Option<Uuid>, i32)> = (0..200)
        .map(|k| (format!("t{k}"), None, 1_000_000))
        .collect();
    let e = w.c.update_metadata(0, &many).unwrap_err().to_string();
    assert!(e.contains("200000009 partitions in all topics"), "{e}");
    w.c.update_metadata(0, &[("big".into(), None, room)])
        .unwrap();
    let before = w.c.topics().count();
    let e =
        w.c.update_metadata(0, &[("one-more".into(), None, 1)])
            .unwrap_err()
            .to_string();
    assert!(e.contains("1000001 partitions in all topics"), "{e}");
    assert!(
        w.c.update_metadata(0, &[("big".into(), None, room + 1)])
            .is_err()
    );
    assert_eq!(
        w.c.topics().count(),
        before,
        "nothing of a refused update is kept"
    );
}

#[test]
fn a_full_group_refuses_a_new_member() {
    let mut w = World::new();
    w.c.config_mut().group_consumer_max_size = 1;
    w.join("m1");
    assert_eq!(w.join("m2").error_code, ErrorCode::GroupMaxSizeReached);
    // m1 joining again at epoch 0 owning nothing is the lost-response case (0 is its previous
    // epoch): it is told its epoch again; the group is not "full" for a member already in it.
    let r = w.join("m1");
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, 1));
}

#[test]
fn broker_settings_by_kafka_name() {
    use group_coordinator::{BrokerConfig, ConfigValue};
    let text = |s: &str| ConfigValue::Text(s.into());
    let n = |v: f64| ConfigValue::Number(v);
    let c = BrokerConfig::from_pairs([
        ("group.consumer.session.timeout.ms", &n(50_000.0)),
        ("group.consumer.heartbeat.interval.ms", &n(6_000.0)),
        ("group.consumer.max.size", &n(3.0)),
        ("group.consumer.assignors", &text("range, uniform")),
        (
            "group.coordinator.rebalance.protocols",
            &text("classic,consumer"),
        ),
    ])
    .unwrap();
    assert_eq!(c.group_consumer_session_timeout_ms, 50_000);
    assert_eq!(
        c.group_consumer_assignors[0].name(),
        "range",
        "the first is the default"
    );
    for (pairs, key) in [
        (
            vec![("group.consumer.session.timeout.ms", n(30_000.0))],
            "group.consumer.session.timeout.ms",
        ),
        (
            vec![("group.consumer.heartbeat.interval.ms", n(20_000.0))],
            "group.consumer.heartbeat.interval.ms",
        ),
        (
            vec![("group.consumer.assignors", text("sticky"))],
            "group.consumer.assignors",
        ),
        (
            vec![("group.coordinator.rebalance.protocols", text("consumer"))],
            "group.coordinator.rebalance.protocols",
        ),
    ] {
        let err = BrokerConfig::from_pairs(pairs.iter().map(|(k, v)| (*k, v))).unwrap_err();
        assert_eq!(err.key, key, "{err}");
    }
    // The session timeout and heartbeat interval the broker sets are what members get.
    let mut w = World::new();
    w.c.config_mut().group_consumer_heartbeat_interval_ms = 6_000;
    let r = w.join("m1");
    assert_eq!(r.heartbeat_interval_ms, 6_000);
    // Without `consumer` in group.coordinator.rebalance.protocols, or on Kafka 3.x's
    // coordinator, the API is not there.
    w.c.config_mut().consumer_protocol_enabled = false;
    assert_eq!(
        w.beat("m1", 1, None).error_code,
        ErrorCode::UnsupportedVersion
    );
    w.c.config_mut().consumer_protocol_enabled = true;
    w.c.config_mut().flavour = group_coordinator::Flavour::Kafka3;
    assert_eq!(
        w.beat("m1", 1, None).error_code,
        ErrorCode::UnsupportedVersion
    );
}
