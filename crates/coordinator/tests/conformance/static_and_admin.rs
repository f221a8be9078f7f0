//! Static members' restarts and mismatches, batch leave, commits after the group emptied, state and generation bookkeeping, loading over capacity (c51–c67).

use super::*;

fn static_leader_restart(version: i16) {
    let mut h = profile_j();
    let l = h.join_parked(join("").instance("leader-instance-id"));
    let out = h.advance(3000);
    let old = join_answer(&out, l).unwrap().member_id;
    h.sync_now(&old, 1, &[(&old, b"assignment")]);
    let r = h.join_now(
        join("")
            .v(version)
            .instance("leader-instance-id")
            .protocols(&["range", "roundrobin"])
            .rebalance(7000)
            .session(6000),
    );
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.generation_id, 1);
    assert_eq!(r.protocol_name.as_deref(), Some("range"));
    assert_ne!(r.member_id, old);
    if version >= 9 {
        assert_eq!(r.leader, r.member_id);
        assert_eq!(r.members.len(), 1);
        assert!(r.skip_assignment);
    } else {
        assert_eq!(r.leader, old);
        assert!(r.members.is_empty());
        assert!(!r.skip_assignment);
    }
    let v = h.view();
    assert_eq!((v.state, v.generation_id), (GroupState::Stable, 1));
    assert_eq!(v.members[0].member_id, r.member_id);
    assert_eq!(
        (
            v.members[0].rebalance_timeout_ms,
            v.members[0].session_timeout_ms
        ),
        (7000, 6000)
    );
    assert_eq!(v.members[0].protocols, ["range", "roundrobin"]);
    // The restarted member gets its old assignment through SyncGroup.
    assert_eq!(
        h.sync_now(&r.member_id, 1, &[]).assignment.as_slice(),
        b"assignment"
    );
    assert_eq!(
        h.join_now(join(&old).instance("leader-instance-id"))
            .error_code,
        ErrorCode::FencedInstanceId
    );
    let (id, out) = h.sync_with(&old, 1, Some("leader-instance-id"), &[]);
    assert_eq!(
        sync_answer(&out, id).unwrap().error_code,
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.sync_now(&old, 1, &[]).error_code,
        ErrorCode::UnknownMemberId
    );
}

/// `testReplaceStaticMemberInStableStateSucceeds` (v9 and v8)
#[test]
fn c51_static_leader_restart_in_stable_no_rebalance() {
    static_leader_restart(9);
    static_leader_restart(8);
}

/// `testStaticMemberRejoinWithUnknownMemberIdAndChangeOfProtocolWithSelectedProtocolChanged`
#[test]
fn c53_static_restart_that_changes_the_selected_protocol() {
    let mut h = profile_j();
    let (l, _f) = h.static2(10_000, 15_000);
    let f_join = h.join_parked(
        join("")
            .instance("follower-instance-id")
            .protocols(&["roundrobin"])
            .rebalance(10_000)
            .session(15_000),
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let out = h.advance(10_000);
    let r = join_answer(&out, f_join).unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.leader, r.member_id, "the new F id is elected leader");
    assert_eq!(r.generation_id, 2);
    assert_eq!(r.protocol_name.as_deref(), Some("roundrobin"));
    let listed: Vec<_> = r.members.iter().map(|m| m.member_id.clone()).collect();
    assert_eq!(listed, [l, r.member_id.clone()]);
    assert_eq!(h.state(), GroupState::CompletingRebalance);
}

/// `testStaticMemberRejoinAsFollowerWithMismatchedInstanceId` and neighbours
#[test]
fn c55_id_and_instance_mismatches() {
    let mut h = profile_j();
    let (l, f) = h.static2(10_000, 5000);
    let superset = ["range", "roundrobin"];
    assert_eq!(
        h.join_now(join(&f).instance("leader-instance-id").protocols(&superset))
            .error_code,
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.join_now(
            join(&l)
                .instance("follower-instance-id")
                .protocols(&superset)
        )
        .error_code,
        ErrorCode::FencedInstanceId
    );
    let (id, out) = h.sync_with("invalid", 1, Some("leader-instance-id"), &[]);
    assert_eq!(
        sync_answer(&out, id).unwrap().error_code,
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.heartbeat_with("invalid", 1, Some("leader-instance-id")),
        ErrorCode::FencedInstanceId
    );
    let r = h.commit("invalid", 1, Some("leader-instance-id"), 5);
    assert_eq!(
        r.topics[0].partitions[0].error_code,
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.join_now(join(&l).instance("unknown_instance").protocols(&superset))
            .error_code,
        ErrorCode::UnknownMemberId
    );
    assert_eq!(h.state(), GroupState::Stable);
}

/// `testGroupStuckInRebalanceTimeoutDueToNonjoinedStaticMember` and its Scala continuations.
#[test]
fn c57_group_stuck_on_a_non_rejoined_static_member() {
    for continuation in ["expire", "rejoin"] {
        let mut h = profile_j();
        let (l, f) = h.static2(5000, 10_000);
        assert_eq!(h.now, 6000);
        let d = h.join_parked(join("").v(3).session(10_000));
        assert_eq!(h.state(), GroupState::PreparingRebalance);
        let out = h.advance(5000);
        let r = join_answer(&out, d).unwrap();
        assert_eq!(r.leader, r.member_id, "D leads");
        assert_eq!((r.members.len(), r.generation_id), (3, 2));
        assert_eq!(h.state(), GroupState::CompletingRebalance);
        let (leave, _) = h.leave(&[(&f, Some("follower-instance-id"))]);
        assert_eq!(leave.members[0].error_code, ErrorCode::None);
        assert_eq!(h.state(), GroupState::PreparingRebalance);
        h.advance(5000);
        let v = h.view();
        assert_eq!(h.member_ids(), [l.clone()]);
        assert_eq!(
            (v.generation_id, v.state),
            (2, GroupState::PreparingRebalance)
        );
        if continuation == "expire" {
            h.advance(5000);
            let v = h.view();
            assert_eq!(
                (v.state, v.generation_id, v.leader_id),
                (GroupState::Empty, 3, None)
            );
        } else {
            let r = h.join_now(
                join("")
                    .instance("leader-instance-id")
                    .protocols(&["range", "roundrobin"])
                    .rebalance(5000)
                    .session(10_000),
            );
            assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 3));
            assert_eq!(r.members.len(), 1);
            assert_eq!(h.member_ids(), [r.member_id]);
            assert_eq!(h.state(), GroupState::CompletingRebalance);
        }
    }
}

/// `testStaticMembersValidBatchLeaveGroup` and the other batch-leave tests.
#[test]
fn c59_batch_leave() {
    let errors =
        |r: &LeaveGroupResponse| r.members.iter().map(|m| m.error_code).collect::<Vec<_>>();
    let mut h = profile_j();
    h.static2(10_000, 5000);
    let (r, _) = h.leave(&[
        ("", Some("leader-instance-id")),
        ("", Some("follower-instance-id")),
    ]);
    assert_eq!(errors(&r), [ErrorCode::None, ErrorCode::None]);
    assert_eq!(h.state(), GroupState::Empty);

    let mut h = profile_j();
    let (r, _) = h.leave(&[
        ("", Some("leader-instance-id")),
        ("", Some("follower-instance-id")),
    ]);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(
        errors(&r),
        [ErrorCode::UnknownMemberId, ErrorCode::UnknownMemberId]
    );

    let mut h = profile_j();
    h.static2(10_000, 5000);
    let (r, _) = h.leave(&[
        ("", Some("leader-instance-id")),
        ("invalid-member", Some("follower-instance-id")),
    ]);
    assert_eq!(errors(&r), [ErrorCode::None, ErrorCode::FencedInstanceId]);

    let mut h = profile_j();
    h.static2(10_000, 5000);
    let (r, _) = h.leave(&[
        ("", Some("unknown-instance")),
        ("", Some("follower-instance-id")),
    ]);
    assert_eq!(errors(&r), [ErrorCode::UnknownMemberId, ErrorCode::None]);

    let mut h = profile_j();
    let (_, _, pending, _, _) = pending_setup(&mut h);
    let (r, _) = h.leave(&[("", Some("unknown-instance")), (&pending, None)]);
    assert_eq!(errors(&r), [ErrorCode::UnknownMemberId, ErrorCode::None]);

    let mut h = profile_j();
    let (a, b, pending, _, _) = pending_setup(&mut h);
    let (r, _) = h.leave(&[(&a, None), (&b, None), (&pending, None)]);
    assert_eq!(
        errors(&r),
        [ErrorCode::None, ErrorCode::None, ErrorCode::None]
    );
}

/// `testCommitOffsetsAfterGroupIsEmpty`
#[test]
fn c61_commit_after_the_group_emptied() {
    let mut h = profile_j();
    let a = h.one(500, 500);
    h.leave(&[(&a, None)]);
    assert_eq!(h.state(), GroupState::Empty);
    let r = h.commit("", -1, None, 0);
    assert_eq!(r.topics[0].partitions[0].error_code, ErrorCode::None);
    let out = h.send(Request::OffsetFetch(OffsetFetchRequest {
        api_version: 7,
        group_id: G.into(),
        topics: Some(vec![OffsetFetchRequestTopic {
            name: "foo".into(),
            partition_indexes: vec![0],
        }]),
        ..Default::default()
    }));
    let Response::OffsetFetch(f) = &out[0] else {
        panic!()
    };
    assert_eq!(f.topics[0].partitions[0].committed_offset, 0);
}

/// `GroupMetadataTest` / `ClassicGroupTest` state transitions.
#[test]
fn c63_state_transitions() {
    use GroupState::*;
    let allowed = [
        (PreparingRebalance, Empty),
        (Empty, PreparingRebalance),
        (Stable, PreparingRebalance),
        (CompletingRebalance, PreparingRebalance),
        (PreparingRebalance, CompletingRebalance),
        (CompletingRebalance, Stable),
        (Empty, Dead),
        (PreparingRebalance, Dead),
        (CompletingRebalance, Dead),
        (Stable, Dead),
        (Dead, Dead),
    ];
    for from in GroupState::ALL {
        for to in GroupState::ALL {
            assert_eq!(
                GroupState::can_transition(from, to),
                allowed.contains(&(from, to)),
                "{from} -> {to}"
            );
        }
    }
    let rebalance: Vec<bool> = GroupState::ALL.iter().map(|s| s.can_rebalance()).collect();
    assert_eq!(rebalance, [true, false, true, true, false]);
}

/// `testInitNextGeneration`, `testInitNextGenerationEmptyGroup`,
/// `testNewGenerationClearsPendingSyncMembers`
#[test]
fn c65_generation_bookkeeping() {
    let mut h = profile_j();
    let a = h.one(500, 500);
    let v = h.view();
    assert_eq!(
        (v.generation_id, v.protocol_name.as_deref()),
        (1, Some("range"))
    );
    assert_eq!(v.pending_sync_members, [a.clone()]);
    h.leave(&[(&a, None)]);
    let v = h.view();
    assert_eq!(
        (v.state, v.generation_id, v.protocol_name),
        (GroupState::Empty, 2, None)
    );
    assert!(v.pending_sync_members.is_empty());
    assert_eq!(
        v.protocol_type.as_deref(),
        Some("consumer"),
        "protocol type is kept"
    );
}

/// `testOnLoadedExceedGroupMaxSizeTriggersRebalance`
#[test]
fn c67_loading_over_capacity() {
    let mut h = profile_j();
    let (l, f) = h.static2(10_000, 5000);
    h.c.config_mut().group_max_size = 1;
    h.c.unload(G).unwrap();
    h.c.load(G).unwrap();
    let v = h.view();
    assert_eq!(v.state, GroupState::PreparingRebalance);
    assert_eq!(h.member_ids(), [l, f]);
}
