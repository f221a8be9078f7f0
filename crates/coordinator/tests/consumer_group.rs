//! ConsumerGroupHeartbeat (KIP-848) request by request: Kafka's `GroupMetadataManagerTest`
//! protocol scenarios (`docs/src/reference/consumer-group-protocol.md#vectors`), played with the real `range`
//! assignor instead of Kafka's mocked one, and the group's invariants checked after every step.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::reconcile::MemberState;
use group_coordinator::consumer_group::{ConsumerGroupState, Uuid};
use group_coordinator::protocol::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, TopicIdPartitions,
};
use group_coordinator::{Coordinator, ErrorCode};

const G: &str = "grp";

fn foo() -> Uuid {
    Uuid::for_topic_name("foo")
}
fn bar() -> Uuid {
    Uuid::for_topic_name("bar")
}

struct World {
    c: Coordinator,
    now: i64,
}

impl World {
    fn new() -> World {
        let mut c = Coordinator::default();
        c.update_metadata(0, &[("foo".into(), None, 6), ("bar".into(), None, 3)])
            .unwrap();
        World { c, now: 0 }
    }

    fn send(&mut self, r: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
        let out = self.c.consumer_group_heartbeat(self.now, &r).unwrap();
        self.c.check_invariants().unwrap();
        out
    }

    /// A join (epoch 0) with the range assignor on foo and bar.
    fn join(&mut self, member: &str) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            server_assignor: Some("range".into()),
            ..join_request(member, &["foo", "bar"])
        })
    }

    /// A heartbeat at `epoch`, reporting `owned` (None: not reported).
    fn beat(
        &mut self,
        member: &str,
        epoch: i32,
        owned: Option<&[(Uuid, &[i32])]>,
    ) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            group_id: G.into(),
            member_id: member.into(),
            member_epoch: epoch,
            topic_partitions: owned.map(tps),
            ..Default::default()
        })
    }

    fn state(&self) -> ConsumerGroupState {
        self.c.consumer_group(G).unwrap().state()
    }

    fn member(&self, id: &str) -> (MemberState, i32) {
        let m = &self.c.consumer_group(G).unwrap().members[id];
        (m.state(), m.member_epoch())
    }
}

/// A full join request (epoch 0, nothing owned) of `member` subscribing to `topics`.
fn join_request(member: &str, topics: &[&str]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 10_000,
        subscribed_topic_names: Some(topics.iter().map(|t| String::from(*t)).collect()),
        topic_partitions: Some(vec![]),
        ..Default::default()
    }
}

fn tps(list: &[(Uuid, &[i32])]) -> Vec<TopicIdPartitions> {
    let mut v: Vec<TopicIdPartitions> = list
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(t, ps)| TopicIdPartitions {
            topic_id: *t,
            partitions: ps.to_vec(),
        })
        .collect();
    v.sort_by_key(|t| t.topic_id);
    v
}

fn assignment(r: &ConsumerGroupHeartbeatResponse) -> Option<Vec<TopicIdPartitions>> {
    r.assignment.as_ref().map(|a| a.topic_partitions.clone())
}

/// m1 and m2 share foo:6 and bar:3 as Kafka's test starts (m1 foo 0-2 bar 0-1, m2 foo 3-5
/// bar 2), at group epoch 2, Stable.
fn two_members() -> World {
    let mut w = World::new();
    assert!(
        w.c.consumer_group(G).is_none(),
        "no group before the first join"
    );
    let r = w.join("m1");
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, 1));
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[0, 1, 2, 3, 4, 5]), (bar(), &[0, 1, 2])]))
    );
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    let r = w.join("m2");
    assert_eq!(r.member_epoch, 2);
    assert_eq!(
        assignment(&r),
        Some(vec![]),
        "m1 still holds m2's partitions"
    );
    assert_eq!(w.member("m2"), (MemberState::UnreleasedPartitions, 2));
    assert_eq!(w.state(), ConsumerGroupState::Reconciling);
    let r = w.beat("m1", 1, None);
    assert_eq!(r.member_epoch, 1, "m1 must revoke first");
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]))
    );
    let r = w.beat("m1", 1, Some(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]));
    assert_eq!(r.member_epoch, 2);
    let r = w.beat("m2", 2, Some(&[]));
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[3, 4, 5]), (bar(), &[2])]))
    );
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    w
}

#[test]
fn test_reconciliation_process() {
    let mut w = two_members();
    // 1. m3 joins: group epoch 3 and a new target; m3 waits for partitions others hold.
    let r = w.join("m3");
    assert_eq!((r.member_epoch, assignment(&r)), (3, Some(vec![])));
    assert_eq!(w.member("m3"), (MemberState::UnreleasedPartitions, 3));
    let g = w.c.consumer_group(G).unwrap();
    assert_eq!((g.group_epoch, g.assignment_epoch), (3, 3));
    // 2. m1 (epoch 2, nothing reported) must revoke foo-2 and bar-1: it stays at epoch 2.
    let r = w.beat("m1", 2, None);
    assert_eq!(
        (r.member_epoch, assignment(&r)),
        (2, Some(tps(&[(foo(), &[0, 1]), (bar(), &[0])])))
    );
    assert_eq!(w.member("m1"), (MemberState::UnrevokedPartitions, 2));
    assert!(
        w.c.timers()
            .iter()
            .any(|(k, d)| k == "rebalance-timeout-grp-m1" && *d == 10_000),
        "{:?}",
        w.c.timers()
    );
    // 3. m2 must revoke foo-4, foo-5 and bar-2 (m3's).
    let r = w.beat("m2", 2, None);
    assert_eq!(
        (r.member_epoch, assignment(&r)),
        (2, Some(tps(&[(foo(), &[3])])))
    );
    // 4. m3: still waiting, nothing new.
    let r = w.beat("m3", 3, None);
    assert_eq!((r.member_epoch, assignment(&r)), (3, None));
    // 5. m1 reports its revocation done: epoch 3, Stable; its rebalance timer goes.
    let r = w.beat("m1", 2, Some(&[(foo(), &[0, 1]), (bar(), &[0])]));
    assert_eq!(r.member_epoch, 3);
    assert_eq!(w.member("m1"), (MemberState::Stable, 3));
    assert!(
        !w.c.timers()
            .iter()
            .any(|(k, _)| k == "rebalance-timeout-grp-m1")
    );
    // 6. m2 heartbeats without reporting: nothing changes.
    let r = w.beat("m2", 2, None);
    assert_eq!((r.member_epoch, assignment(&r)), (2, None));
    // 7. m3: what it waits for is still m2's.
    let r = w.beat("m3", 3, None);
    assert_eq!(assignment(&r), None);
    // 8. m2 revoked: epoch 3 with foo-2 and bar-1, which m1 released in step 5.
    let r = w.beat("m2", 2, Some(&[(foo(), &[3])]));
    assert_eq!(
        (r.member_epoch, assignment(&r)),
        (3, Some(tps(&[(foo(), &[2, 3]), (bar(), &[1])])))
    );
    // 9. m3 gets foo-4, foo-5 and bar-2: everyone Stable at epoch 3.
    let r = w.beat("m3", 3, Some(&[]));
    assert_eq!(
        (r.member_epoch, assignment(&r)),
        (3, Some(tps(&[(foo(), &[4, 5]), (bar(), &[2])])))
    );
    assert_eq!(w.state(), ConsumerGroupState::Stable);
}

#[test]
fn test_consumer_group_member_epoch_validation() {
    let mut w = two_members();
    // m1 is at epoch 2, previous 1, owning foo 0-2 and bar 0-1.
    assert_eq!(
        w.beat("m1", 3, None).error_code,
        ErrorCode::FencedMemberEpoch,
        "ahead"
    );
    w.join("m3");
    w.beat("m1", 2, Some(&[(foo(), &[0, 1]), (bar(), &[0])]));
    // Now m1 is at 3, previous 2.
    assert_eq!(w.member("m1").1, 3);
    assert_eq!(
        w.beat("m1", 1, None).error_code,
        ErrorCode::FencedMemberEpoch,
        "far behind"
    );
    assert_eq!(
        w.beat("m1", 2, None).error_code,
        ErrorCode::FencedMemberEpoch,
        "previous epoch but nothing reported"
    );
    assert_eq!(
        w.beat("m1", 2, Some(&[(foo(), &[0, 1, 2])])).error_code,
        ErrorCode::FencedMemberEpoch,
        "previous epoch owning more than assigned"
    );
    let r = w.beat("m1", 2, Some(&[(foo(), &[0, 1])]));
    assert_eq!(
        (r.error_code, r.member_epoch),
        (ErrorCode::None, 3),
        "the lost response is told again"
    );
}

#[test]
fn test_unknown_member_id_joins_consumer_group() {
    let mut w = two_members();
    let r = w.beat("stranger", 1, None);
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    let mut none = World::new();
    assert_eq!(
        none.beat("m1", 1, None).error_code,
        ErrorCode::GroupIdNotFound,
        "no such group"
    );
}

#[test]
fn test_rebalance_timeout_expiration() {
    let mut w = World::new();
    w.join("m1");
    w.join("m2");
    let r = w.beat("m1", 1, None);
    assert_eq!(w.member("m1"), (MemberState::UnrevokedPartitions, 1));
    assert_eq!(r.member_epoch, 1);
    // m1 does not revoke in time (10 s): it is fenced and the group epoch moves on.
    w.now = 10_000;
    w.c.advance(10_000).unwrap();
    let g = w.c.consumer_group(G).unwrap();
    assert!(!g.members.contains_key("m1"), "fenced");
    assert_eq!(g.group_epoch, 3);
    g.check_invariants().unwrap();
    // m2 now gets everything.
    let r = w.beat("m2", 2, Some(&[]));
    assert_eq!(r.member_epoch, 3);
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[0, 1, 2, 3, 4, 5]), (bar(), &[0, 1, 2])]))
    );
}

#[test]
fn a_session_that_expires_fences_the_member() {
    let mut w = two_members();
    w.now = 44_999;
    w.beat("m2", 2, None);
    w.now = 45_000;
    w.c.advance(45_000).unwrap();
    let g = w.c.consumer_group(G).unwrap();
    assert!(
        !g.members.contains_key("m1"),
        "m1's last heartbeat was at 0"
    );
    assert!(g.members.contains_key("m2"));
    assert_eq!(g.group_epoch, 3);
}

#[test]
fn test_consumer_group_states() {
    let mut w = World::new();
    w.join("m1");
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    w.join("m2");
    assert_eq!(w.state(), ConsumerGroupState::Reconciling);
    w.beat("m1", 1, Some(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]));
    assert_eq!(
        w.state(),
        ConsumerGroupState::Reconciling,
        "m2 has not picked up its partitions"
    );
    w.beat("m2", 2, Some(&[]));
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    // The last member leaves: Empty, and the group epoch still moves on.
    let r = w.beat("m1", -1, None);
    assert_eq!(r.member_epoch, -1);
    let r = w.beat("m2", -1, None);
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, -1));
    assert_eq!(w.state(), ConsumerGroupState::Empty);
    assert_eq!(w.c.consumer_group(G).unwrap().group_epoch, 4);
    // Only the offsets cleanup is left: at its next run an Empty group without offsets goes.
    assert_eq!(
        w.c.timers(),
        [("offsets-expiration-grp".to_string(), 600_000)]
    );
    // Every change of state was told once, through the one funnel, in order.
    use group_coordinator::EventKind;
    let changes: Vec<(ConsumerGroupState, ConsumerGroupState)> =
        w.c.drain_events()
            .into_iter()
            .filter_map(|e| match e.kind {
                EventKind::ConsumerGroupStateChanged { from, to } => Some((from, to)),
                _ => None,
            })
            .collect();
    use ConsumerGroupState::*;
    assert_eq!(
        changes,
        vec![
            (Empty, Stable),
            (Stable, Reconciling),
            (Reconciling, Stable),
            (Stable, Assigning),
            (Assigning, Empty)
        ]
    );
}

#[test]
fn test_static_member_gets_back_assignment_upon_rejoin() {
    let mut w = World::new();
    let join = |member: &str| ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        instance_id: Some("instance-a".into()),
        rebalance_timeout_ms: 10_000,
        subscribed_topic_names: Some(vec!["foo".into(), "bar".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    };
    let r = w.send(join("a1"));
    assert_eq!(r.member_epoch, 1);
    let held = assignment(&r);
    w.join("m2");
    w.beat("a1", 1, Some(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]));
    let before = w.c.consumer_group(G).unwrap().clone();
    let a1_assigned = before.members["a1"].progress.assigned.clone();
    assert!(held.is_some());
    // A second instance with the same id while a1 is in: UNRELEASED_INSTANCE_ID.
    assert_eq!(
        w.send(join("a2")).error_code,
        ErrorCode::UnreleasedInstanceId
    );
    // a1 itself joining again (epoch 0, its own member id) while it holds the instance id:
    // Kafka compares no member ids, so UNRELEASED_INSTANCE_ID too, and nothing changes.
    assert_eq!(
        w.send(join("a1")).error_code,
        ErrorCode::UnreleasedInstanceId
    );
    assert_eq!(
        w.c.consumer_group(G).unwrap(),
        &before,
        "nothing changed in the group"
    );
    // a1 leaves for a while (−2): no new epoch.
    let r = w.send(ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: "a1".into(),
        member_epoch: -2,
        instance_id: Some("instance-a".into()),
        ..Default::default()
    });
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, -2));
    let g = w.c.consumer_group(G).unwrap();
    assert_eq!(
        g.group_epoch, before.group_epoch,
        "no new epoch for a temporary leave"
    );
    assert_eq!(g.members["a1"].member_epoch(), -2);
    // It comes back as a2 before its session ends: its partitions back at the current epoch.
    let r = w.send(join("a2"));
    assert_eq!(
        (r.error_code, r.member_epoch),
        (ErrorCode::None, before.assignment_epoch)
    );
    let got = assignment(&r).unwrap();
    let want: Vec<TopicIdPartitions> = a1_assigned
        .iter()
        .map(|(t, ps)| TopicIdPartitions {
            topic_id: *t,
            partitions: ps.iter().copied().collect(),
        })
        .collect();
    assert_eq!(got, want);
    let g = w.c.consumer_group(G).unwrap();
    assert!(!g.members.contains_key("a1"));
    assert_eq!(g.group_epoch, before.group_epoch, "no rebalance");
    assert!(
        !w.c.timers().iter().any(|(k, _)| k.ends_with("-a1")),
        "no timers left for a1: {:?}",
        w.c.timers()
    );
}

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
    use group_coordinator::config::{BrokerConfig, ConfigValue};
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
