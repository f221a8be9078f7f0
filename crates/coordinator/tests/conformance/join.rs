//! Joining: JoinGroup's checks, the MEMBER_ID_REQUIRED round trip, the initial delay, rejoins, pending and new members expiring, a full group (c01–c31).

use super::*;

/// `testJoinGroupUnknownMemberNewGroup`
#[test]
fn c01_join_with_known_member_id_to_missing_group() {
    let mut h = profile_j();
    let r = h.join_now(join("memberId"));
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.member_id, "memberId");
    let r = h.join_now(join("memberId").instance("group-instance-id"));
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert!(h.c.describe(G).is_none(), "no group is created");
}

/// Scala `testJoinGroupSessionTimeoutTooSmall` / `TooLarge`
#[test]
fn c03_session_timeout_bounds() {
    let mut h = profile_s();
    assert_eq!(
        h.join_now(join("").session(9)).error_code,
        ErrorCode::InvalidSessionTimeout
    );
    assert_eq!(
        h.join_now(join("").session(600_001)).error_code,
        ErrorCode::InvalidSessionTimeout
    );
    h.join_parked(join("").v(3).session(10));
}

/// `testClassicGroupJoinInconsistentProtocolType`
#[test]
fn c05_protocol_type_mismatch() {
    let mut h = profile_j();
    h.join_parked(join("").v(3));
    let r = h.join_now(join("").v(3).protocol_type("connect"));
    assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol);
    assert_eq!(r.member_id, "");
    assert_eq!(h.view().members.len(), 1);
}

/// `testJoinGroupSecondJoinInconsistentProtocol`
#[test]
fn c07_member_id_required_then_bad_protocols() {
    let mut h = profile_j();
    let first = h.join_now(join("").v(4));
    assert_eq!(first.error_code, ErrorCode::MemberIdRequired);
    assert!(first.member_id.starts_with("client-"));
    let id = first.member_id;
    let r = h.join_now(join(&id).protocols(&[]));
    assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol);
    let parked = h.join_parked(join(&id));
    let out = h.advance(3000);
    let r = join_answer(&out, parked).unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.member_id, id);
}

/// `testResetRebalanceDelayWhenNewMemberJoinsGroupDuringInitialRebalance`
#[test]
fn c09_delay_extended_by_late_joiner() {
    let mut h = profile_j();
    let a = h.join_parked(join("").v(3).rebalance(9000));
    h.advance(2999);
    let b = h.join_parked(join("").v(3).rebalance(9000));
    assert!(h.advance(2).is_empty(), "t=3001: both parked");
    assert!(h.advance(1501).is_empty(), "t=4502: both parked");
    let out = h.advance(1500);
    assert_eq!(h.now, 6002);
    for id in [a, b] {
        let r = join_answer(&out, id).unwrap();
        assert_eq!(r.error_code, ErrorCode::None);
        assert_eq!(r.generation_id, 1);
    }
}

/// `testJoinGroupUnknownConsumerExistingGroup`
#[test]
fn c11_unknown_member_id_on_existing_group() {
    let mut h = profile_j();
    h.one(500, 500);
    let r = h.join_now(join("memberId"));
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.generation_id, -1);
}

/// `testJoinGroupExistingMemberInEmptyState`
#[test]
fn c13_rejoin_into_an_empty_group() {
    let mut h = profile_j();
    let a = h.one(500, 500);
    h.leave(&[(&a, None)]);
    assert_eq!(h.state(), GroupState::Empty);
    let r = h.join_now(join(&a));
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.generation_id, -1);
}

/// `testJoinGroupFromUnchangedFollowerDoesNotRebalance`
#[test]
fn c15_unchanged_follower_rejoin_does_not_rebalance() {
    let mut h = profile_j();
    let (a, b) = two_members_gen2(&mut h);
    let r = h.join_now(join(&b));
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.generation_id, 2);
    assert_eq!(r.leader, a);
    assert!(r.members.is_empty());
    assert_eq!(h.state(), GroupState::CompletingRebalance);
}

/// `testJoinGroupExistingMemberUpdatedMetadataTriggersRebalance` and
/// `testJoinGroupAsExistingMemberWithUpdatedMetadataTriggersRebalanceInStableState`
#[test]
fn c17_changed_metadata_rebalances() {
    let mut h = profile_j();
    let a = h.one(500, 500);
    let r = h.join_now(join(&a).protocols(&["range", "roundrobin"]));
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.generation_id, 2);
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    assert_eq!(h.view().members[0].protocols, ["range", "roundrobin"]);

    let mut h = profile_j();
    let (a, b) = two_members_gen2(&mut h);
    h.sync_now(&a, 2, &[]);
    assert_eq!(h.state(), GroupState::Stable);
    let b_join = h.join_parked(join(&b).protocols(&["range", "roundrobin"]));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let (a_join, out) = h.join(join(&a));
    for id in [a_join, b_join] {
        let r = join_answer(&out, id).unwrap();
        assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 3));
    }
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    assert_eq!(h.view().members.len(), 2);
}

/// `testNewMemberJoinExpiration`
#[test]
fn c19_new_member_expires_while_rebalance_hangs() {
    let mut h = profile_j();
    let a = h.one(305_000, 600_000);
    let b = h.join_parked(join("").v(3).session(305_000).rebalance(600_000));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(h.view().members[1].is_new);
    let out = h.advance(300_001);
    let r = join_answer(&out, b).unwrap();
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.member_id, "");
    assert_eq!(h.member_ids(), [a]);
    assert!(h.view().members.iter().all(|m| !m.is_new));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

/// `testHeartbeatExpirationShouldRemoveMember`
#[test]
fn c21_new_member_expires_during_a_very_long_initial_delay() {
    let mut h = profile_j();
    h.c.config_mut().group_initial_rebalance_delay_ms = 600_000;
    let id = h.join_parked(join("").v(3).session(1000).rebalance(1000));
    let out = h.advance(300_000);
    let r = join_answer(&out, id).unwrap();
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    let v = h.view();
    assert_eq!(v.members.len(), 0);
    assert_eq!((v.state, v.generation_id), (GroupState::Empty, 1));
    assert_eq!(h.c.last_record(G).unwrap().generation, 1);
}

/// `testSecondMemberPartiallyJoinAndTimeout`
#[test]
fn c23_pending_member_never_returns_stable_group_unaffected() {
    let mut h = profile_j();
    let l = h.join_parked(join("").instance("leader").rebalance(10_000).session(5000));
    let out = h.advance(3000);
    let l = join_answer(&out, l).unwrap().member_id;
    h.sync_now(&l, 1, &[]);
    assert_eq!(h.state(), GroupState::Stable);
    let r = h.join_now(join("").v(4).session(5000));
    assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
    assert_eq!(h.view().pending_members.len(), 1);
    assert_eq!(h.state(), GroupState::Stable);
    h.advance(2500);
    assert_eq!(h.heartbeat_with(&l, 1, Some("leader")), ErrorCode::None);
    h.advance(2500);
    assert_eq!(h.heartbeat_with(&l, 1, Some("leader")), ErrorCode::None);
    let v = h.view();
    assert_eq!(
        (v.members.len(), v.generation_id, v.state),
        (1, 1, GroupState::Stable)
    );
    assert!(v.pending_members.is_empty());
}

/// `testJoinGroupCompletionWhenPendingMemberTimesOut`
#[test]
fn c25_pending_member_expiry_completes_the_join() {
    let mut h = profile_j();
    let (_, _, _, a_join, b_join) = pending_setup(&mut h);
    let out = h.advance(2500);
    for id in [a_join, b_join] {
        assert_eq!(join_answer(&out, id).unwrap().error_code, ErrorCode::None);
    }
    let v = h.view();
    assert_eq!(v.state, GroupState::CompletingRebalance);
    assert_eq!((v.members.len(), v.pending_members.len()), (2, 0));
}

/// `testCompleteJoinRemoveNotYetRejoinedDynamicMembers`
#[test]
fn c27_non_rejoined_dynamic_member_removed_at_completion() {
    let mut h = profile_j();
    h.one(1000, 1000);
    let b = h.join_parked(join("").v(3).session(1000).rebalance(1000));
    assert_eq!(h.view().members.len(), 2);
    let out = h.advance(1000);
    let r = join_answer(&out, b).unwrap();
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 2));
    assert_eq!(h.member_ids(), [r.member_id]);
}

/// `testLastJoiningMembersAreKickedOutWhenRejoiningGroupWithMaxSize` (the group is built by
/// joins and the limit lowered afterwards, where Kafka's test inserts members directly).
#[test]
fn c29_last_rejoiners_kicked_out() {
    let mut h = profile_j();
    h.c.config_mut().group_initial_rebalance_delay_ms = 50;
    let ids: Vec<i32> = (0..12)
        .map(|_| h.join_parked(join("").v(3).rebalance(10_000).session(60_000)))
        .collect();
    let mut members = Vec::new();
    while members.len() < 12 {
        let out = h.advance(50);
        for id in &ids {
            if let Some(r) = join_answer(&out, *id) {
                members.push(r.member_id);
            }
        }
    }
    h.sync_now(&members[0], 1, &[]);
    h.c.config_mut().group_max_size = 10;
    let mut kicked = Vec::new();
    for m in &members {
        let (id, out) = h.join(join(m).v(3).rebalance(10_000).session(60_000));
        if let Some(r) = join_answer(&out, id).filter(|r| r.error_code != ErrorCode::None) {
            assert_eq!(r.error_code, ErrorCode::GroupMaxSizeReached);
            assert_eq!(r.member_id, "");
            kicked.push(m.clone());
        }
    }
    assert_eq!(kicked, members[10..]);
    // Kafka 4.0 does not re-check the join after a kick (D3): the join timer completes it.
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    h.advance(10_000);
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    assert_eq!(h.member_ids(), members[..10]);
}

/// Scala `testJoinGroupShouldReceiveErrorIfGroupOverMaxSize`
#[test]
fn c31_full_group_rejects_newcomers() {
    let mut h = profile_s();
    let ids: Vec<i32> = (0..4).map(|_| h.join_parked(join("").v(3))).collect();
    assert!(h.advance(50).is_empty(), "the window is extended once");
    let out = h.advance(50);
    for id in ids {
        assert_eq!(join_answer(&out, id).unwrap().error_code, ErrorCode::None);
    }
    let r = h.join_now(join("").v(3));
    assert_eq!(r.error_code, ErrorCode::GroupMaxSizeReached);
    assert_eq!(h.view().members.len(), 4);
}
