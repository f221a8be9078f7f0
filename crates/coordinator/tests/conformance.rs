//! The conformance scenarios (`docs/src/reference/classic-protocol.md#conformance`), each named after the
//! scenario and the Kafka test it comes from.
#![allow(clippy::unwrap_used, clippy::cloned_ref_to_slice_refs)]

mod common;

use common::*;
use group_coordinator::protocol::*;
use group_coordinator::{ErrorCode, GroupState, Request, Response};

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

/// Two members at generation 2, CompletingRebalance, leader A and follower B.
fn two_members_gen2(h: &mut H) -> (String, String) {
    let a = h.one_stable();
    let b_join = h.join_parked(join("").v(3));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let (a_join, out) = h.join(join(&a));
    let ra = join_answer(&out, a_join).unwrap();
    let rb = join_answer(&out, b_join).unwrap();
    assert_eq!((ra.generation_id, rb.generation_id), (2, 2));
    assert_eq!(ra.leader, a);
    assert_eq!(ra.members.len(), 2);
    assert!(rb.members.is_empty());
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    (a, rb.member_id)
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

/// J.PENDING: returns (A, B, pending id, A's and B's parked correlation ids).
fn pending_setup(h: &mut H) -> (String, String, String, i32, i32) {
    let (a, a_join) = h.join_dynamic_v4(join("").rebalance(10_000).session(5000));
    let out = h.advance(3000);
    assert_eq!(join_answer(&out, a_join).unwrap().generation_id, 1);
    h.sync_now(&a, 1, &[]);
    let b_join = h.join_parked(join("").v(3).rebalance(10_000).session(5000));
    let (a_join, out) = h.join(join(&a).rebalance(10_000).session(5000));
    let b = join_answer(&out, b_join).unwrap().member_id;
    assert_eq!(join_answer(&out, a_join).unwrap().generation_id, 2);
    h.sync_now(&a, 2, &[]);
    assert_eq!(h.state(), GroupState::Stable);
    let a_join = h.join_parked(join(&a).rebalance(10_000).session(5000));
    let c = h.join_now(join("").v(4).session(2500));
    assert_eq!(c.error_code, ErrorCode::MemberIdRequired);
    let b_join = h.join_parked(join(&b).rebalance(10_000).session(5000));
    let v = h.view();
    assert_eq!(v.state, GroupState::PreparingRebalance);
    assert_eq!(v.pending_members, [c.member_id.clone()]);
    assert_eq!(v.num_awaiting_join, 2);
    (a, b, c.member_id, a_join, b_join)
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

/// `testSyncGroupFromUnknownGroup`, `testSyncGroupFromUnknownMember`,
/// `testSyncGroupFromIllegalGeneration`
#[test]
fn c33_sync_unknown_group_member_generation() {
    let mut h = profile_j();
    let (id, out) = h.sync("member", 1, &[]);
    assert_eq!(
        sync_answer(&out, id).unwrap().error_code,
        ErrorCode::UnknownMemberId
    );
    let a = h.one_stable();
    assert_eq!(
        h.sync_now("blah", 1, &[]).error_code,
        ErrorCode::UnknownMemberId
    );
    let _ = a;
    let mut h = profile_j();
    let a = h.one(500, 500);
    assert_eq!(
        h.sync_now(&a, 2, &[]).error_code,
        ErrorCode::IllegalGeneration
    );
}

/// `testSyncGroupFollowerAfterLeader`, `testSyncGroupLeaderAfterFollower`
#[test]
fn c35_follower_after_and_before_leader() {
    let mut h = profile_j();
    let (a, b) = two_members_gen2(&mut h);
    let r = h.sync_now(&a, 2, &[(&a, &[0]), (&b, &[1])]);
    assert_eq!(
        (r.error_code, r.assignment.as_slice()),
        (ErrorCode::None, &[0][..])
    );
    assert_eq!(h.state(), GroupState::Stable);
    let r = h.sync_now(&b, 2, &[]);
    assert_eq!(
        (r.error_code, r.assignment.as_slice()),
        (ErrorCode::None, &[1][..])
    );

    let mut h = profile_j();
    let (a, b) = two_members_gen2(&mut h);
    let (b_sync, out) = h.sync(&b, 2, &[]);
    assert!(out.is_empty(), "follower parked");
    let (a_sync, out) = h.sync(&a, 2, &[(&a, &[0]), (&b, &[1])]);
    assert_eq!(
        sync_answer(&out, a_sync).unwrap().assignment.as_slice(),
        &[0]
    );
    let rb = sync_answer(&out, b_sync).unwrap();
    assert_eq!(
        (rb.error_code, rb.assignment.as_slice()),
        (ErrorCode::None, &[1][..])
    );
    assert_eq!(rb.protocol_name.as_deref(), Some("range"));
}

/// `testLeaderFailureInSyncGroup`
#[test]
fn c37_leader_never_syncs() {
    let mut h = profile_j();
    let (_a, b) = two_members_gen2(&mut h);
    let (b_sync, out) = h.sync(&b, 2, &[]);
    assert!(out.is_empty());
    let out = h.advance(500);
    let r = sync_answer(&out, b_sync).unwrap();
    assert_eq!(r.error_code, ErrorCode::RebalanceInProgress);
    assert!(r.assignment.is_empty());
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

/// Three members (rebalance 5000, session 10000) at generation 1, CompletingRebalance.
fn three_members(h: &mut H) -> Vec<String> {
    let ids: Vec<i32> = (0..3)
        .map(|_| h.join_parked(join("").v(3).rebalance(5000).session(10_000)))
        .collect();
    h.advance(3000);
    let out = h.advance(2000);
    ids.iter()
        .map(|id| join_answer(&out, *id).unwrap().member_id)
        .collect()
}

/// `testRebalanceTimesOutWhenSyncRequestIsNotReceivedFromFollowers`
#[test]
fn c39_sync_timeout_followers_missing() {
    let mut h = profile_j();
    let m = three_members(&mut h);
    assert_eq!(h.sync_now(&m[0], 1, &[]).error_code, ErrorCode::None);
    assert_eq!(h.state(), GroupState::Stable);
    h.advance(5000);
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert_eq!(h.heartbeat(&m[0], 1), ErrorCode::RebalanceInProgress);
    assert_eq!(h.heartbeat(&m[1], 1), ErrorCode::UnknownMemberId);
    assert_eq!(h.heartbeat(&m[2], 1), ErrorCode::UnknownMemberId);
}

/// `testRebalanceDoesNotTimeOutWhenAllSyncAreReceived`
#[test]
fn c41_no_timeout_when_all_synced() {
    let mut h = profile_j();
    let m = three_members(&mut h);
    for id in &m {
        h.sync_now(id, 1, &[]);
    }
    assert_eq!(h.state(), GroupState::Stable);
    for _ in 0..2 {
        h.advance(5001);
        for id in &m {
            assert_eq!(h.heartbeat(id, 1), ErrorCode::None);
        }
    }
}

/// `testClassicGroupMemberSessionTimeout`
#[test]
fn c43_session_expiry_in_stable() {
    let mut h = profile_j();
    h.session = 5000;
    let a = h.one_stable();
    h.advance(5000);
    let v = h.view();
    assert_eq!(
        (v.state, v.generation_id, v.members.len()),
        (GroupState::Empty, 2, 0)
    );
    assert_eq!(h.heartbeat(&a, 1), ErrorCode::UnknownMemberId);
}

/// `testClassicGroupMemberSessionTimeoutDuringRebalance`
#[test]
fn c45_session_expiry_during_rebalance() {
    let mut h = profile_j();
    let a = h.one(5000, 10_000);
    h.sync_now(&a, 1, &[]);
    let b = h.join_parked(join("").v(3).rebalance(10_000).session(5000));
    assert_eq!(
        h.c.describe(G)
            .unwrap()
            .timers
            .iter()
            .find(|t| t.kind == "join")
            .unwrap()
            .deadline_ms,
        13_000
    );
    h.advance(2500);
    assert_eq!(h.heartbeat(&a, 1), ErrorCode::RebalanceInProgress);
    let out = h.advance(5000);
    assert_eq!(h.now, 10_500);
    let r = join_answer(&out, b).unwrap();
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 2));
    assert_eq!(h.heartbeat(&a, 2), ErrorCode::UnknownMemberId);
    h.advance(2500);
    let v = h.view();
    assert_eq!(
        (v.members.len(), v.generation_id, v.state),
        (1, 2, GroupState::CompletingRebalance)
    );
}

/// `testStaticMemberRejoinWithExplicitUnknownMemberId`
#[test]
fn c47_fencing_by_a_stale_member_id() {
    let mut h = profile_j();
    let s = h.join_parked(join("").instance("group-instance-id"));
    let out = h.advance(3000);
    assert_eq!(join_answer(&out, s).unwrap().error_code, ErrorCode::None);
    let r = h.join_now(join("unknown_member").instance("group-instance-id"));
    assert_eq!(r.error_code, ErrorCode::FencedInstanceId);
}

/// `testStaticMemberFenceDuplicateRejoinedFollower`
#[test]
fn c49_duplicate_follower_fences_the_rejoining_old_follower() {
    let mut h = profile_j();
    let (_l, f) = h.static2(10_000, 5000);
    h.join_parked(join("").v(3));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let old_f = h.join_parked(
        join(&f)
            .instance("follower-instance-id")
            .protocols(&["range", "roundrobin"]),
    );
    let (dup, out) = h.join(
        join("")
            .instance("follower-instance-id")
            .protocols(&["range", "roundrobin"]),
    );
    let r = join_answer(&out, old_f).unwrap();
    assert_eq!(r.error_code, ErrorCode::FencedInstanceId);
    assert_eq!((r.generation_id, r.leader.as_str()), (-1, ""));
    assert_eq!(r.protocol_name, None);
    assert!(
        join_answer(&out, dup).is_none(),
        "the duplicate stays parked"
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

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
