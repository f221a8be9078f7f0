//! Persistence and failover.

use super::*;

// persistence, failover

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

#[test]
fn each_record_names_the_members_of_its_generation() {
    let mut h = profile_j();
    let m = three_stable(&mut h);
    let clients = |h: &H| -> Vec<(String, String)> {
        let r = h.c.last_record(G).unwrap();
        r.members
            .iter()
            .map(|x| (x.member_id.clone(), x.client_id.clone()))
            .collect()
    };
    let client = |id: &str| (id.to_string(), "client".to_string());
    assert_eq!(clients(&h), m.iter().map(|x| client(x)).collect::<Vec<_>>());
    // The second member leaves, a member with another client id comes: the record written at
    // generation 2 lists the members of generation 2, in their order.
    h.leave(&[(&m[1], None)]);
    let id = h.join_parked(
        join("")
            .v(3)
            .client("other")
            .rebalance(10_000)
            .session(10_000),
    );
    h.join_parked(join(&m[0]).v(3).rebalance(10_000).session(10_000));
    let (_, out) = h.join(join(&m[2]).v(3).rebalance(10_000).session(10_000));
    let newcomer = join_answer(&out, id).unwrap().member_id;
    assert_eq!(h.generation(), 2);
    for x in [&m[0], &m[2], &newcomer] {
        h.sync_now(x, 2, &[]);
    }
    assert_eq!(
        clients(&h),
        vec![
            client(&m[0]),
            client(&m[2]),
            (newcomer.clone(), "other".to_string())
        ]
    );
    h.c.unload(G).unwrap();
    h.c.load(G).unwrap();
    assert_eq!(h.member_ids(), vec![m[0].clone(), m[2].clone(), newcomer]);
}

/// A member in the middle of the group leaves (a rolling restart's leaver): the next record is
/// written with every member after it one place up (record.rs keeps their strings from the
/// record it replaces, skipping the leaver's entry), and a failover restores exactly the group
/// that was Stable: the same members in order, with their clients, timeouts and assignments.
#[test]
fn the_record_after_a_member_in_the_middle_left_restores_the_group() {
    let mut h = profile_j();
    let clients = ["client-a", "client-b", "client-c", "client-d"];
    let member = |id: &str, client: &str| {
        join(id)
            .v(3)
            .client(client)
            .rebalance(10_000)
            .session(10_000)
    };
    let m = first_generation(&mut h, clients.iter().map(|c| member("", c)));
    let everyone: Vec<(&str, &[u8])> = m
        .iter()
        .zip([b"0", b"1", b"2", b"3"])
        .map(|(x, a)| (x.as_str(), &a[..]))
        .collect();
    h.sync_now(&m[0], 1, &everyone);
    for x in &m[1..] {
        h.sync_now(x, 1, &[]);
    }
    h.leave(&[(&m[1], None)]);
    h.join_parked(member(&m[0], clients[0]));
    h.join_parked(member(&m[2], clients[2]));
    let (_, out) = h.join(member(&m[3], clients[3]));
    assert_eq!(out.len(), 3, "the third rejoin completes the join: {out:?}");
    let rest: [(&str, &[u8]); 3] = [(&m[0], b"a"), (&m[2], b"c"), (&m[3], b"d")];
    h.sync_now(&m[0], 2, &rest);
    for x in [&m[2], &m[3]] {
        h.sync_now(x, 2, &[]);
    }
    let stable = h.view();
    assert_eq!(
        (stable.state, stable.generation_id),
        (GroupState::Stable, 2)
    );
    h.c.unload(G).unwrap();
    h.c.load(G).unwrap();
    let loaded = h.view();
    assert_eq!(
        (loaded.state, loaded.generation_id),
        (GroupState::Stable, 2)
    );
    let described = |v: &group_coordinator::GroupView| -> Vec<(String, String, i32, i32, Vec<u8>)> {
        v.members
            .iter()
            .map(|x| {
                (
                    x.member_id.clone(),
                    x.client_id.clone(),
                    x.session_timeout_ms,
                    x.rebalance_timeout_ms,
                    x.assignment.as_slice().to_vec(),
                )
            })
            .collect()
    };
    assert_eq!(described(&loaded), described(&stable));
    assert_eq!(
        described(&loaded)
            .iter()
            .map(|x| (x.1.as_str(), x.4.clone()))
            .collect::<Vec<_>>(),
        [
            ("client-a", b"a".to_vec()),
            ("client-c", b"c".to_vec()),
            ("client-d", b"d".to_vec())
        ]
    );
}
