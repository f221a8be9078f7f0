//! Behaviour of `docs/src/reference/classic-protocol.md` outside the conformance scenarios: the seed's leave cases
//! (#leaving), the initial-delay timelines (#initial-delay), protocol selection
//! (#protocol-selection), heartbeats and commits by state, version differences, failover,
//! persist failures, the admin APIs, the Kafka 3.x differences (`docs/src/reference/kafka-3x-and-4.md`), and the JSON form
//! of the messages.
#![allow(clippy::unwrap_used, clippy::cloned_ref_to_slice_refs)]

mod common;

use common::*;
use group_coordinator::protocol::*;
use group_coordinator::{
    BrokerConfig, Coordinator, CoordinatorError, ErrorCode, EventKind, Flavour, GroupState,
    Request, Response,
};

fn kafka3(mut h: H) -> H {
    h.c.config_mut().flavour = Flavour::Kafka3;
    h
}

/// Three dynamic members A (leader), B, C at generation 1, Stable.
fn three_stable(h: &mut H) -> Vec<String> {
    let ids: Vec<i32> = (0..3)
        .map(|_| h.join_parked(join("").v(3).rebalance(10_000).session(10_000)))
        .collect();
    h.advance(3000);
    let out = h.advance(3000);
    let members: Vec<String> = ids
        .iter()
        .map(|id| join_answer(&out, *id).unwrap().member_id)
        .collect();
    h.sync_now(&members[0], 1, &[]);
    for m in &members[1..] {
        h.sync_now(m, 1, &[]);
    }
    assert_eq!(h.state(), GroupState::Stable);
    members
}

// ---- the seed: members leaving in every state (#leaving) ----------------------------------

#[test]
fn seed_6_1_leave_while_stable_rebalances_and_the_rest_form_the_next_generation() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    let (r, _) = h.leave(&[(&m[1], None)]);
    assert_eq!(
        (r.error_code, r.members[0].error_code),
        (ErrorCode::None, ErrorCode::None)
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert_eq!(h.heartbeat(&m[0], 1), ErrorCode::RebalanceInProgress);
    let a = h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let (c, out) = h.join(join(&m[2]).v(3).rebalance(10_000).session(10_000));
    let (ra, rc) = (join_answer(&out, a).unwrap(), join_answer(&out, c).unwrap());
    assert_eq!((ra.generation_id, ra.leader.as_str()), (2, m[0].as_str()));
    assert_eq!(ra.members.len(), 2);
    assert!(rc.members.is_empty());
    h.sync_now(&m[0], 2, &[]);
    assert_eq!(h.state(), GroupState::Stable);
}

#[test]
fn seed_6_1_a_member_that_never_rejoins_is_dropped_at_the_join_deadline() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    h.leave(&[(&m[1], None)]);
    let a = h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let out = h.advance(10_000);
    assert_eq!(join_answer(&out, a).unwrap().generation_id, 2);
    assert_eq!(h.member_ids(), [m[0].clone()]);
}

#[test]
fn seed_6_2_leave_while_preparing_rebalance_completes_the_join_and_answers_the_leaver() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    // A rejoins (PreparingRebalance), B rejoins, C leaves: the join completes on the leave.
    let a = h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let b = h.join_parked(join(&m[1]).v(3).rebalance(10_000).session(10_000));
    let (r, out) = h.leave(&[(&m[2], None)]);
    assert_eq!(r.members[0].error_code, ErrorCode::None);
    for id in [a, b] {
        assert_eq!(join_answer(&out, id).unwrap().generation_id, 2);
    }
    assert_eq!(h.state(), GroupState::CompletingRebalance);

    // A parked member leaving gets its JoinGroup answered UNKNOWN_MEMBER_ID (member id "").
    let mut h = profile_j();
    let m = three_stable(&mut h);
    let a = h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let (_, out) = h.leave(&[(&m[0], None)]);
    let r = join_answer(&out, a).unwrap();
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::UnknownMemberId, "")
    );
    assert_eq!(
        h.view().leader_id.as_deref(),
        Some(m[1].as_str()),
        "leadership moved"
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

#[test]
fn seed_6_2_leave_during_the_initial_delay_waits_for_the_window() {
    let mut h = profile_j();
    let a = h.join_parked(join("").v(3));
    let b = h.join_parked(join("").v(3));
    let a_id = {
        let v = h.view();
        v.members[0].member_id.clone()
    };
    let (_, out) = h.leave(&[(&a_id, None)]);
    assert_eq!(
        join_answer(&out, a).unwrap().error_code,
        ErrorCode::UnknownMemberId
    );
    assert!(
        join_answer(&out, b).is_none(),
        "the initial window decides, not the leave"
    );
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let out = h.advance(3000);
    assert_eq!(join_answer(&out, b).unwrap().generation_id, 1);
}

#[test]
fn seed_6_3_leave_while_completing_rebalance_fails_parked_syncs_and_drops_the_leavers() {
    let mut h = profile_j();
    let ids: Vec<i32> = (0..3)
        .map(|_| h.join_parked(join("").v(3).rebalance(10_000).session(10_000)))
        .collect();
    h.advance(3000);
    let out = h.advance(3000);
    let m: Vec<String> = ids
        .iter()
        .map(|id| join_answer(&out, *id).unwrap().member_id)
        .collect();
    let (b_sync, _) = h.sync(&m[1], 1, &[]);
    let (c_sync, _) = h.sync(&m[2], 1, &[]);
    h.events();
    let (_, out) = h.leave(&[(&m[2], None)]);
    let rb = sync_answer(&out, b_sync).unwrap();
    assert_eq!(rb.error_code, ErrorCode::RebalanceInProgress);
    assert!(
        sync_answer(&out, c_sync).is_none(),
        "the leaver's own parked SyncGroup is dropped"
    );
    let events = h.events();
    assert!(events.iter().any(|e| matches!(&e.kind, EventKind::ResponseDropped { correlation_id, .. } if *correlation_id == c_sync)));
    let v = h.view();
    assert_eq!(
        (v.state, v.generation_id),
        (GroupState::PreparingRebalance, 1)
    );
    assert!(
        v.timers.iter().all(|t| t.kind != "sync"),
        "sync timer cancelled"
    );
    // B's session was refreshed when it was answered.
    let b = v.members.iter().find(|x| x.member_id == m[1]).unwrap();
    assert_eq!(b.session_deadline_ms, Some(h.now + 10_000));
    assert_eq!(
        h.sync_now(&m[0], 1, &[]).error_code,
        ErrorCode::RebalanceInProgress
    );
}

#[test]
fn seed_6_4_leave_while_empty_dead_or_unknown() {
    let mut h = profile_j();
    let (r, _) = h.leave(&[("x", None)]);
    assert_eq!(
        (r.error_code, r.members[0].error_code),
        (ErrorCode::None, ErrorCode::UnknownMemberId)
    );
    let a = h.one_stable();
    h.leave(&[(&a, None)]);
    let (r, _) = h.leave(&[(&a, None)]);
    assert_eq!(r.members[0].error_code, ErrorCode::UnknownMemberId);
    assert_eq!(h.state(), GroupState::Empty);
    h.c.unload(G).unwrap();
    let (r, _) = h.leave(&[(&a, None)]);
    assert_eq!(r.error_code, ErrorCode::NotCoordinator);
    assert!(r.members.is_empty());
}

#[test]
fn seed_6_6_last_member_leaving_empties_the_group_and_persists_it() {
    for completing in [false, true] {
        let mut h = profile_j();
        let a = if completing {
            h.one(500, 500)
        } else {
            h.one_stable()
        };
        h.leave(&[(&a, None)]);
        let v = h.view();
        assert_eq!(
            (v.state, v.generation_id, v.leader_id),
            (GroupState::Empty, 2, None)
        );
        let record = h.c.last_record(G).unwrap();
        assert_eq!((record.generation, record.members.len()), (2, 0));
    }
}

#[test]
fn leave_v0_reports_the_member_error_at_the_top_level() {
    let mut h = profile_j();
    let a = h.one_stable();
    let out = h.send(Request::LeaveGroup(LeaveGroupRequest {
        api_version: 1,
        correlation_id: 99,
        group_id: G.into(),
        member_id: "nobody".into(),
        ..Default::default()
    }));
    let Response::LeaveGroup(r) = &out[0] else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert!(r.members.is_empty());
    let out = h.send(Request::LeaveGroup(LeaveGroupRequest {
        api_version: 0,
        correlation_id: 100,
        group_id: G.into(),
        member_id: a.clone(),
        ..Default::default()
    }));
    let Response::LeaveGroup(r) = &out[0] else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(h.state(), GroupState::Empty);
}

#[test]
fn pending_member_leaving_a_stable_group_rebalances_in_kafka_4_not_in_3() {
    for (flavour, expected) in [
        (Flavour::Kafka4, GroupState::PreparingRebalance),
        (Flavour::Kafka3, GroupState::Stable),
    ] {
        let mut h = profile_j();
        h.c.config_mut().flavour = flavour;
        h.one_stable();
        let p = h.join_now(join("").v(4));
        let (r, _) = h.leave(&[(&p.member_id, None)]);
        assert_eq!(r.members[0].error_code, ErrorCode::None);
        assert_eq!(h.state(), expected, "{flavour:?}");
    }
}

// ---- the initial rebalance delay (#initial-delay) ------------------------------------------

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

// ---- joins by version and state ------------------------------------------------------------

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

// ---- heartbeats, syncs and commits by state -------------------------------------------------

#[test]
fn heartbeat_by_state() {
    let mut h = profile_j();
    assert_eq!(
        h.heartbeat("a", 0),
        ErrorCode::UnknownMemberId,
        "unknown group"
    );
    let a = h.one(5000, 500);
    assert_eq!(h.heartbeat(&a, 0), ErrorCode::IllegalGeneration);
    assert_eq!(h.heartbeat(&a, 1), ErrorCode::None, "CompletingRebalance");
    assert_eq!(h.view().members[0].session_deadline_ms, Some(h.now + 5000));
    let send = |h: &mut H, group: &str| {
        let out = h.send(Request::Heartbeat(HeartbeatRequest {
            api_version: 0,
            correlation_id: 5,
            group_id: group.into(),
            generation_id: 1,
            member_id: a.clone(),
            ..Default::default()
        }));
        out[0].error_code()
    };
    assert_eq!(send(&mut h, ""), ErrorCode::InvalidGroupId);
    h.c.unload(G).unwrap();
    assert_eq!(send(&mut h, G), ErrorCode::NotCoordinator);
}

#[test]
fn a_rejected_heartbeat_does_not_refresh_the_session() {
    let mut h = profile_j();
    let a = h.one(5000, 500);
    let before = h.view().members[0].session_deadline_ms;
    h.advance(100);
    assert_eq!(h.heartbeat(&a, 7), ErrorCode::IllegalGeneration);
    assert_eq!(h.view().members[0].session_deadline_ms, before);
}

#[test]
fn commits_by_state() {
    let mut h = profile_j();
    let a = h.one(5000, 500);
    let r = h.commit(&a, 1, None, 1);
    assert_eq!(
        r.error_code,
        ErrorCode::RebalanceInProgress,
        "CompletingRebalance"
    );
    h.sync_now(&a, 1, &[]);
    h.advance(1000);
    assert_eq!(h.commit(&a, 1, None, 2).error_code, ErrorCode::None);
    assert_eq!(
        h.view().members[0].session_deadline_ms,
        Some(h.now + 5000),
        "a commit keeps the session alive"
    );
    assert_eq!(
        h.commit(&a, 0, None, 2).error_code,
        ErrorCode::IllegalGeneration
    );
    assert_eq!(
        h.commit("", -1, None, 2).error_code,
        ErrorCode::UnknownMemberId,
        "no member information in a non-empty group"
    );
    // v9 to a missing group with a generation: GROUP_ID_NOT_FOUND; v8: ILLEGAL_GENERATION (D9).
    let commit = |version: i16| {
        Request::OffsetCommit(OffsetCommitRequest {
            api_version: version,
            correlation_id: 3,
            group_id: "missing".into(),
            generation_id_or_member_epoch: 1,
            member_id: "m".into(),
            topics: vec![],
            ..Default::default()
        })
    };
    assert_eq!(
        h.send(commit(9))[0].error_code(),
        ErrorCode::GroupIdNotFound
    );
    assert_eq!(
        h.send(commit(8))[0].error_code(),
        ErrorCode::IllegalGeneration
    );
    h.c.config_mut().flavour = Flavour::Kafka3;
    assert_eq!(
        h.send(commit(9))[0].error_code(),
        ErrorCode::IllegalGeneration
    );
}

#[test]
fn commit_metadata_too_large_fails_only_that_partition() {
    let mut h = profile_j();
    let metadata = |n: usize| Some("x".repeat(n));
    let out = h.send(Request::OffsetCommit(OffsetCommitRequest {
        api_version: 9,
        correlation_id: 1,
        group_id: "simple".into(),
        topics: vec![OffsetCommitRequestTopic {
            name: "t".into(),
            partitions: vec![
                OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: 5,
                    committed_metadata: metadata(4096),
                    ..Default::default()
                },
                OffsetCommitRequestPartition {
                    partition_index: 1,
                    committed_offset: 6,
                    committed_metadata: metadata(4097),
                    ..Default::default()
                },
            ],
        }],
        ..Default::default()
    }));
    let Response::OffsetCommit(r) = &out[0] else {
        panic!()
    };
    let errors: Vec<_> = r.topics[0]
        .partitions
        .iter()
        .map(|p| p.error_code)
        .collect();
    assert_eq!(errors, [ErrorCode::None, ErrorCode::OffsetMetadataTooLarge]);
    let out = h.send(Request::OffsetFetch(OffsetFetchRequest {
        api_version: 9,
        correlation_id: 2,
        groups: vec![OffsetFetchRequestGroup {
            group_id: "simple".into(),
            ..Default::default()
        }],
        ..Default::default()
    }));
    let Response::OffsetFetch(f) = &out[0] else {
        panic!()
    };
    let parts = &f.groups[0].topics[0].partitions;
    assert_eq!(parts.len(), 1);
    assert_eq!(
        (parts[0].partition_index, parts[0].committed_offset),
        (0, 5)
    );
    assert_eq!(
        h.c.describe("simple").unwrap().protocol_type,
        None,
        "a simple group"
    );
}

#[test]
fn sync_protocol_consistency_differs_by_flavour() {
    // A differing protocol name is refused by both; a named protocol while the group has none
    // (the first rebalance, generation 0) only by 3.x (D10).
    for (flavour, expected) in [
        (Flavour::Kafka4, ErrorCode::RebalanceInProgress),
        (Flavour::Kafka3, ErrorCode::InconsistentGroupProtocol),
    ] {
        let mut h = profile_j();
        h.c.config_mut().flavour = flavour;
        h.join_parked(join("").v(3));
        let a = h.member_ids()[0].clone();
        let sync = |generation_id: i32, name: &str| {
            Request::SyncGroup(SyncGroupRequest {
                api_version: 5,
                correlation_id: 9,
                group_id: G.into(),
                generation_id,
                member_id: a.clone(),
                protocol_type: Some("consumer".into()),
                protocol_name: Some(name.into()),
                ..Default::default()
            })
        };
        assert_eq!(
            h.send(sync(0, "range"))[0].error_code(),
            expected,
            "{flavour:?}"
        );
        h.advance(3000);
        assert_eq!(
            h.send(sync(1, "roundrobin"))[0].error_code(),
            ErrorCode::InconsistentGroupProtocol
        );
        assert_eq!(h.send(sync(1, "range"))[0].error_code(), ErrorCode::None);
    }
}

#[test]
fn kafka3_sync_in_stable_refreshes_the_session() {
    for (flavour, refreshed) in [(Flavour::Kafka4, false), (Flavour::Kafka3, true)] {
        let mut h = profile_j();
        h.c.config_mut().flavour = flavour;
        h.session = 5000;
        let a = h.one_stable();
        let before = h.view().members[0].session_deadline_ms.unwrap();
        h.advance(1000);
        h.sync_now(&a, 1, &[]);
        let after = h.view().members[0].session_deadline_ms.unwrap();
        assert_eq!(after != before, refreshed, "{flavour:?}");
    }
}

// ---- persistence, failover ------------------------------------------------------------------

#[test]
fn failed_leader_sync_write_fails_every_parked_sync_and_rebalances() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let b = h.join_parked(join(&m[1]).v(3).rebalance(10_000).session(10_000));
    let (c, out) = h.join(join(&m[2]).v(3).rebalance(10_000).session(10_000));
    assert!(join_answer(&out, b).is_some() && join_answer(&out, c).is_some());
    let (b_sync, _) = h.sync(&m[1], 2, &[]);
    h.c.fail_next_persist(ErrorCode::NotLeaderOrFollower);
    let (a_sync, out) = h.sync(&m[0], 2, &[(&m[0], &[1]), (&m[1], &[2])]);
    for id in [a_sync, b_sync] {
        let r = sync_answer(&out, id).unwrap();
        assert_eq!(
            r.error_code,
            ErrorCode::NotCoordinator,
            "NOT_LEADER_OR_FOLLOWER maps to NOT_COORDINATOR"
        );
        assert!(r.assignment.is_empty());
    }
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(h.view().members.iter().all(|m| m.assignment.is_empty()));
}

#[test]
fn failed_static_replacement_write_rolls_back() {
    let mut h = profile_j();
    let (l, f) = h.static2(10_000, 5000);
    h.c.fail_next_persist(ErrorCode::RequestTimedOut);
    let r = h.join_now(
        join("")
            .instance("follower-instance-id")
            .protocols(&["range", "roundrobin"])
            .session(9000),
    );
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert_eq!(
        (r.member_id.as_str(), r.generation_id, r.leader.as_str()),
        ("", 1, l.as_str())
    );
    let v = h.view();
    assert_eq!(h.member_ids(), [l.clone(), f.clone()]);
    assert_eq!(
        v.members[1].session_timeout_ms, 5000,
        "old timeouts restored"
    );
    assert_eq!(h.c.describe(G).unwrap().state, GroupState::Stable);
    assert_eq!(
        h.heartbeat_with(&f, 1, Some("follower-instance-id")),
        ErrorCode::None
    );
}

#[test]
fn unload_answers_parked_requests_not_coordinator_and_load_restores_the_last_record() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    let a = h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let out = h.c.unload(G).unwrap();
    let r = join_answer(&out, a).unwrap();
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::NotCoordinator, m[0].as_str())
    );
    let v = h.view();
    assert_eq!((v.state, v.unloaded), (GroupState::Dead, true));
    assert!(v.timers.is_empty());
    // A new JoinGroup meets the runtime's refusal: Kafka 4.0 answers it without a member id.
    let r = h.join_now(join(&m[0]).v(3));
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::NotCoordinator, "")
    );
    // 3.x's Scala coordinator echoes the member id.
    h.c.config_mut().flavour = Flavour::Kafka3;
    let r = h.join_now(join(&m[0]).v(3));
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::NotCoordinator, m[0].as_str())
    );
    h.c.config_mut().flavour = Flavour::Kafka4;
    assert!(matches!(
        h.c.unload(G),
        Err(CoordinatorError::GroupNotLoaded(_))
    ));
    h.c.load(G).unwrap();
    let v = h.view();
    assert_eq!((v.state, v.generation_id), (GroupState::Stable, 1));
    assert_eq!(h.member_ids(), m);
    assert!(
        v.members
            .iter()
            .all(|x| x.session_deadline_ms == Some(h.now + 10_000))
    );
    assert_eq!(h.heartbeat(&m[1], 1), ErrorCode::None);
    assert!(matches!(
        h.c.load(G),
        Err(CoordinatorError::GroupAlreadyLoaded(_))
    ));
    assert!(matches!(
        h.c.load("nope"),
        Err(CoordinatorError::UnknownGroup(_))
    ));
}

#[test]
fn failover_mid_rebalance_goes_back_to_the_last_written_generation() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    h.join_parked(join(&m[1]).v(3).rebalance(10_000).session(10_000));
    h.join_now(join(&m[2]).v(3).rebalance(10_000).session(10_000));
    assert_eq!(
        (h.state(), h.generation()),
        (GroupState::CompletingRebalance, 2)
    );
    h.c.unload(G).unwrap();
    h.c.load(G).unwrap();
    assert_eq!(
        (h.state(), h.generation()),
        (GroupState::Stable, 1),
        "generation 2 was never written"
    );
    assert_eq!(
        h.sync_now(&m[0], 2, &[]).error_code,
        ErrorCode::IllegalGeneration
    );
}

// ---- admin APIs ----------------------------------------------------------------------------

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

// ---- the API: misuse is an error and changes nothing ----------------------------------------

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

// ---- JSON (Kafka's JSON converter names) ----------------------------------------------------

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

// ---- offsets of an Empty group expire; the cleanup removes the group (#empty) -------------

#[test]
fn an_empty_group_keeps_its_offsets_for_the_retention_then_is_removed() {
    let mut h = profile_j();
    let a = h.one_stable();
    assert_eq!(h.commit(&a, 1, None, 42).error_code, ErrorCode::None);
    h.leave(&[(&a, None)]);
    let empty_since = h.now;
    let retention = 10_080 * 60_000;
    let key = format!("offsets-expiration-{G}");
    let tick = |t: i64| (t + 599_999) / 600_000 * 600_000;
    let deadline = h.c.timers().into_iter().find(|(k, _)| *k == key).unwrap().1;
    assert_eq!(
        deadline,
        tick(empty_since + retention),
        "the first cleanup run after the retention"
    );
    h.advance(deadline - h.now - 1);
    assert_eq!(h.state(), GroupState::Empty, "offsets kept until then");
    h.events();
    h.advance(1);
    assert!(
        h.c.describe(G).is_none(),
        "all offsets expired: the Empty group is removed"
    );
    let events = h.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::OffsetsExpired { partitions: 1 }))
    );
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Deleted)));
}

#[test]
fn an_empty_group_without_offsets_goes_at_the_next_cleanup_unless_members_return() {
    let mut h = profile_j();
    let a = h.one_stable();
    h.leave(&[(&a, None)]);
    let mut h2 = profile_j();
    let b = h2.one_stable();
    h2.leave(&[(&b, None)]);
    // h: nobody comes back; h2: a member rejoins before the cleanup runs.
    h.advance(600_000 - h.now);
    assert!(h.c.describe(G).is_none());
    h2.join_parked(join("").v(3));
    h2.advance(600_000 - h2.now);
    assert_eq!(h2.state(), GroupState::CompletingRebalance);
}

#[test]
fn simple_group_offsets_expire_by_commit_time_or_their_own_retention() {
    let mut h = profile_j();
    let commit = |retention: i64| {
        Request::OffsetCommit(OffsetCommitRequest {
            api_version: 2,
            correlation_id: 1,
            group_id: "simple".into(),
            retention_time_ms: retention,
            topics: vec![OffsetCommitRequestTopic {
                name: "t".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: 1,
                    ..Default::default()
                }],
            }],
            ..Default::default()
        })
    };
    h.advance(1000);
    h.send(commit(60_000));
    assert_eq!(
        h.c.timers(),
        [("offsets-expiration-simple".to_string(), 600_000)]
    );
    h.advance(599_000);
    assert!(h.c.describe("simple").is_none());

    // Kafka adds the retention to the commit time as a Java long, which wraps: a retention
    // near i64::MAX expires at the next cleanup, not never.
    h.send(commit(i64::MAX - 10));
    assert_eq!(
        h.c.timers(),
        [("offsets-expiration-simple".to_string(), 1_200_000)]
    );
    h.advance(1_200_000 - h.now);
    assert!(h.c.describe("simple").is_none());
}
