//! Kafka's GroupMetadataManagerTest scenarios: reconciliation, member epochs, unknown members, timeouts, the group's states, a static member's rejoin.

use super::*;

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
