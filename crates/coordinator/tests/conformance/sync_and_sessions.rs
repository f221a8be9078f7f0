//! SyncGroup, the leader and followers, sync and session timeouts, fencing (c33–c49).

use super::*;

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
