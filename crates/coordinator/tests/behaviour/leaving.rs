//! The seed: members leaving in every state (#leaving).

use super::*;

// the seed: members leaving in every state (#leaving)

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
    let m = first_generation(
        &mut h,
        (0..3).map(|_| join("").v(3).rebalance(10_000).session(10_000)),
    );
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
