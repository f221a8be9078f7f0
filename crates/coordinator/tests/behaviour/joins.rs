//! The initial rebalance delay (#initial-delay), and joins by version and state.

use super::*;

// the initial rebalance delay (#initial-delay)

#[test]
fn initial_delay_is_capped_by_the_rebalance_timeout() {
    // testDelayRebalanceUptoRebalanceTimeout: R = 6000; A, B at 0; C at 3001; all answered at 6001.
    let mut h = profile_j();
    let a = h.join_parked(join("").v(3).rebalance(6000));
    let b = h.join_parked(join("").v(3).rebalance(6000));
    assert!(h.advance(3001).is_empty());
    let c = h.join_parked(join("").v(3).rebalance(6000));
    assert!(h.advance(2999).is_empty(), "nothing at 6000");
    let out = h.advance(1);
    for id in [a, b, c] {
        assert_eq!(join_answer(&out, id).unwrap().error_code, ErrorCode::None);
    }
}

#[test]
fn initial_delay_fires_at_exact_deadlines_when_advanced_to_them() {
    let mut h = profile_j();
    let a = h.join_parked(join("").v(3).rebalance(9000));
    h.advance(2999);
    h.join_parked(join("").v(3).rebalance(9000));
    let mut t = h.c.next_deadline().unwrap();
    assert_eq!(t, 3000);
    assert!(h.c.advance(t).unwrap().is_empty());
    t = h.c.next_deadline().unwrap();
    assert_eq!(t, 6000, "the exact-deadline reading of the initial delay");
    let out = h.c.advance(t).unwrap();
    assert_eq!(join_answer(&out, a).unwrap().generation_id, 1);
}

#[test]
fn kafka3_extends_the_initial_delay_only_for_a_brand_new_group() {
    // D1: after the group emptied (generation 1), a new member joins and another arrives during
    // the window: Kafka 4.0 extends the window, 3.x does not.
    for (flavour, answered_at_first_window) in [(Flavour::Kafka4, false), (Flavour::Kafka3, true)] {
        let mut h = profile_j();
        h.c.config_mut().flavour = flavour;
        let a = h.one(500, 10_000);
        h.leave(&[(&a, None)]);
        assert_eq!(h.generation(), 2);
        let x = h.join_parked(join("").v(3).rebalance(10_000));
        h.join_parked(join("").v(3).rebalance(10_000));
        let out = h.advance(3000);
        assert_eq!(
            join_answer(&out, x).is_some(),
            answered_at_first_window,
            "{flavour:?}"
        );
    }
}

#[test]
fn kafka3_does_not_complete_early_on_expiry_during_the_initial_delay() {
    // D2 (C21 under 3.x): the window decides.
    let mut h = kafka3(profile_j());
    h.c.config_mut().group_initial_rebalance_delay_ms = 600_000;
    let id = h.join_parked(join("").v(3).session(1000).rebalance(1000));
    let out = h.advance(300_000);
    assert_eq!(
        join_answer(&out, id).unwrap().error_code,
        ErrorCode::UnknownMemberId
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    h.advance(300_000);
    assert_eq!((h.state(), h.generation()), (GroupState::Empty, 1));
}

// joins by version and state

#[test]
fn join_v0_uses_the_session_timeout_as_rebalance_timeout_and_static_members_skip_member_id_required()
 {
    let mut h = profile_j();
    h.join_parked(join("").v(0).session(7000).rebalance(1));
    assert_eq!(h.view().members[0].rebalance_timeout_ms, 7000);
    let mut h = profile_j();
    h.join_parked(join("").v(9).instance("i"));
    assert_eq!(
        h.view().members.len(),
        1,
        "static members never get MEMBER_ID_REQUIRED"
    );
    assert!(
        h.view().members[0].member_id.starts_with("i-"),
        "static ids start with the instance id"
    );
}

#[test]
fn join_responses_follow_their_version() {
    let mut h = profile_j();
    let (_, id) = h.join_dynamic_v4(join("").v(6));
    let out = h.advance(3000);
    let r = join_answer(&out, id).unwrap();
    assert_eq!(r.protocol_type, None, "protocolType appears in v7");
    assert_eq!(r.protocol_name.as_deref(), Some("range"));
    let mut h = profile_j();
    let (_, id) = h.join_dynamic_v4(join("").v(7));
    let out = h.advance(3000);
    assert_eq!(
        join_answer(&out, id).unwrap().protocol_type.as_deref(),
        Some("consumer")
    );
}

#[test]
fn new_member_join_timeout_is_300_seconds_not_the_session() {
    let mut h = profile_j();
    h.join_parked(join("").v(3).session(10_000));
    assert_eq!(h.view().members[0].session_deadline_ms, Some(300_000));
}

#[test]
fn stable_leader_rejoin_always_rebalances_and_unchanged_follower_does_not() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    let r = h.join_now(join(&m[1]).v(3).rebalance(10_000).session(10_000));
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 1));
    assert!(r.members.is_empty());
    assert_eq!(h.state(), GroupState::Stable);
    h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

#[test]
fn protocol_selection_by_vote_with_documented_tie_break() {
    // GroupMetadataTest.testSelectProtocol: A=[range, roundrobin] -> range; + B=[roundrobin, range]
    // -> a tie (the leader A prefers range); + C=[roundrobin, range] -> roundrobin.
    let mut h = profile_j();
    let a = h.join_parked(join("").v(3).protocols(&["range", "roundrobin"]));
    h.advance(3000);
    assert_eq!(h.view().protocol_name.as_deref(), Some("range"));
    let _ = a;
    let mut h = profile_j();
    h.join_parked(join("").v(3).protocols(&["range", "roundrobin"]));
    h.join_parked(join("").v(3).protocols(&["roundrobin", "range"]));
    h.advance(3000); // R = 500 < D: one window, no extension
    assert_eq!(
        h.view().protocol_name.as_deref(),
        Some("range"),
        "tie: leader's preference"
    );
    let mut h = profile_j();
    h.join_parked(join("").v(3).protocols(&["range", "roundrobin"]));
    h.join_parked(join("").v(3).protocols(&["roundrobin", "range"]));
    h.join_parked(join("").v(3).protocols(&["roundrobin", "range"]));
    h.advance(3000);
    assert_eq!(h.view().protocol_name.as_deref(), Some("roundrobin"));
    let mut h = profile_j();
    h.join_parked(join("").v(3).protocols(&["range", "roundrobin"]));
    let r = h.join_now(join("").v(3).protocols(&["blah"]));
    assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol);
    h.join_parked(join("").v(3).protocols(&["roundrobin", "blah"]));
    h.advance(3000);
    assert_eq!(h.view().protocol_name.as_deref(), Some("roundrobin"));
}

#[test]
fn group_max_size_in_stable_rejects_new_members_but_not_known_ones() {
    let mut h = profile_s();
    let ids: Vec<i32> = (0..4).map(|_| h.join_parked(join("").v(3))).collect();
    h.advance(50);
    let out = h.advance(50);
    let m: Vec<String> = ids
        .iter()
        .map(|i| join_answer(&out, *i).unwrap().member_id)
        .collect();
    h.sync_now(&m[0], 1, &[]);
    assert_eq!(
        h.join_now(join("").v(3)).error_code,
        ErrorCode::GroupMaxSizeReached
    );
    assert_eq!(h.join_now(join(&m[1]).v(3)).error_code, ErrorCode::None);
}

/// A JoinGroup of `member` naming `names`, each with `metadata`.
fn rejoin(member: &str, names: &[&str], metadata: &[u8]) -> Join {
    let mut j = join(member).v(3).rebalance(10_000).session(10_000);
    j.req.protocols = names
        .iter()
        .map(|n| JoinGroupRequestProtocol {
            name: (*n).into(),
            metadata: Bytes::from(metadata),
        })
        .collect();
    j
}

#[test]
fn a_rejoin_replaces_the_members_protocols_and_their_votes() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    // Everyone rejoins preferring roundrobin: the vote moves, the leader sees the new metadata.
    let leader = h.join_parked(rejoin(&m[0], &["roundrobin", "range"], &[1]));
    h.join_parked(rejoin(&m[1], &["roundrobin", "range"], &[1]));
    let (_, out) = h.join(rejoin(&m[2], &["roundrobin", "range"], &[1]));
    let r = join_answer(&out, leader).unwrap();
    assert_eq!(h.view().protocol_name.as_deref(), Some("roundrobin"));
    assert!(r.members.iter().all(|x| x.metadata.as_slice() == [1]));
    for x in &m {
        h.sync_now(x, 2, &[]);
    }
    // The same protocols with new metadata: the new metadata is what the leader is given.
    let leader = h.join_parked(rejoin(&m[0], &["roundrobin", "range"], &[2]));
    h.join_parked(rejoin(&m[1], &["roundrobin", "range"], &[2]));
    let (_, out) = h.join(rejoin(&m[2], &["roundrobin", "range"], &[2]));
    let r = join_answer(&out, leader).unwrap();
    assert_eq!(r.generation_id, 3);
    assert!(r.members.iter().all(|x| x.metadata.as_slice() == [2]));
    for x in &m {
        h.sync_now(x, 3, &[]);
    }
    // One member drops roundrobin: it is no longer every member's, so range is chosen.
    let leader = h.join_parked(rejoin(&m[0], &["roundrobin", "range"], &[3]));
    h.join_parked(rejoin(&m[1], &["roundrobin", "range"], &[3]));
    let (_, out) = h.join(rejoin(&m[2], &["range"], &[3]));
    assert_eq!(join_answer(&out, leader).unwrap().generation_id, 4);
    assert_eq!(h.view().protocol_name.as_deref(), Some("range"));
    // And a member naming only roundrobin now is refused: range is the one all others share.
    let r = h.join_now(rejoin("", &["roundrobin"], &[]));
    assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol);
}

/// A static member's Heartbeat is validated as Kafka's `validateMember` does, each way: its
/// own id and instance pass; another member's id with its instance, or an id replaced since,
/// is FENCED_INSTANCE_ID; an instance nobody has is UNKNOWN_MEMBER_ID; a dynamic check of a
/// static member's id (no instance) passes. (The coordinator answers the first from the member
/// found by its id; the others read the instance's mapping.)
#[test]
fn a_static_members_heartbeat_is_validated_each_way() {
    let mut h = profile_j();
    let (l, f) = h.static2(10_000, 10_000);
    let leader = Some("leader-instance-id");
    let follower = Some("follower-instance-id");
    assert_eq!(h.heartbeat_with(&l, 1, leader), ErrorCode::None);
    assert_eq!(h.heartbeat_with(&f, 1, follower), ErrorCode::None);
    assert_eq!(h.heartbeat_with(&f, 1, leader), ErrorCode::FencedInstanceId);
    assert_eq!(
        h.heartbeat_with(&l, 1, follower),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.heartbeat_with(&l, 1, Some("nobody")),
        ErrorCode::UnknownMemberId
    );
    assert_eq!(h.heartbeat_with(&l, 1, None), ErrorCode::None);
    // The follower restarts: it joins with no member id and its instance, and is given a new
    // id in the old one's place; the old id is fenced from then on.
    let r = h.join_now(
        join("")
            .instance("follower-instance-id")
            .protocols(&["range", "roundrobin"])
            .rebalance(10_000)
            .session(10_000),
    );
    assert_eq!(r.error_code, ErrorCode::None);
    assert_ne!(r.member_id, f);
    assert_eq!(
        h.heartbeat_with(&f, 1, follower),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(h.heartbeat_with(&r.member_id, 1, follower), ErrorCode::None);
}
