//! Heartbeats, syncs and commits by state.

use super::*;

// heartbeats, syncs and commits by state

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
    assert_eq!(h.fetch_all("simple"), [("t".to_string(), 0, 5)]);
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

/// The leader's SyncGroup gives each member what it names for it: the later of two entries for
/// one member, empty bytes to a member it leaves out (here the leader itself), and nothing to an
/// id that is not a member.
#[test]
fn the_leaders_sync_gives_each_member_its_entry_or_nothing() {
    let mut h = profile_j();
    let l = h.join_parked(join("").instance("leader-instance-id"));
    let f = h.join_parked(join("").instance("follower-instance-id"));
    let out = h.advance(3000);
    let lr = join_answer(&out, l).expect("leader answered");
    let fr = join_answer(&out, f).expect("follower answered");
    assert_eq!(lr.leader, lr.member_id);
    let (lid, fid) = (lr.member_id.clone(), fr.member_id.clone());
    let mut sync = |id: &str, instance: &str, assignments: &[(&str, &[u8])]| {
        let (correlation_id, out) = h.sync_with(id, 1, Some(instance), assignments);
        sync_answer(&out, correlation_id).expect("answered")
    };
    let r = sync(
        &lid,
        "leader-instance-id",
        &[(&fid, &[2]), ("nobody", &[9]), (&fid, &[3])],
    );
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.assignment.as_slice(), &[] as &[u8]);
    let r = sync(&fid, "follower-instance-id", &[]);
    assert_eq!(r.assignment.as_slice(), &[3]);
    assert_eq!(h.state(), GroupState::Stable);
    assert!(h.view().members.iter().all(|m| m.member_id != "nobody"));
}
