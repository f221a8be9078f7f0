//! Mixed groups and online migration (Kafka 4.0, KIP-848), in the shape of
//! `GroupMetadataManagerTest`'s `testOnlineUpgrade*`, `testOnlineDowngrade*`,
//! `testClassicGroup*ToConsumerGroup*` and `testConsumerGroup*WithClassicMember*` cases: a
//! classic group converted when a consumer-protocol member joins it, classic members answered
//! inside a consumer group, and the conversion back when the last consumer-protocol member
//! leaves.

#![allow(clippy::unwrap_used)]
mod common;

use common::{G, H, join, join_answer, profile_j};
use group_coordinator::MigrationPolicy;
use group_coordinator::consumer_group::{ConsumerGroupState, Uuid};
use group_coordinator::consumer_protocol::{Assignment, Subscription, TopicPartitions};
use group_coordinator::event::{ConsumerRemoval, GroupType};
use group_coordinator::protocol::*;
use group_coordinator::{Cause, ErrorCode, EventKind, GroupState, Request, Response};

const SESSION: i32 = 500;
const REBALANCE: i32 = 5_000;

fn tps(parts: &[i32]) -> Vec<TopicPartitions> {
    if parts.is_empty() {
        return vec![];
    }
    vec![TopicPartitions {
        topic: "foo".into(),
        partitions: parts.to_vec(),
    }]
}

/// A consumer's JoinGroup metadata: subscribed to `foo`, owning `owned` of it.
fn subscription(owned: &[i32]) -> Bytes {
    Subscription {
        topics: vec!["foo".into()],
        owned_partitions: tps(owned),
        ..Subscription::default()
    }
    .encode()
}

fn assignment(parts: &[i32]) -> Vec<u8> {
    Assignment {
        assigned_partitions: tps(parts),
        ..Assignment::default()
    }
    .encode()
    .to_vec()
}

/// The partitions of `foo` in assignment bytes.
fn assigned(bytes: &[u8]) -> Vec<i32> {
    let a = Assignment::decode(bytes).unwrap();
    a.assigned_partitions
        .iter()
        .flat_map(|t| t.partitions.iter().copied())
        .collect()
}

fn classic_join(member_id: &str, owned: &[i32]) -> common::Join {
    let mut j = join(member_id).session(SESSION).rebalance(REBALANCE);
    j.req.protocols = vec![JoinGroupRequestProtocol {
        name: "range".into(),
        metadata: subscription(owned),
    }];
    j
}

fn heartbeat(member: &str, epoch: i32, owned: Option<&[i32]>) -> ConsumerGroupHeartbeatRequest {
    let topic = Uuid::for_topic_name("foo");
    ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: epoch,
        rebalance_timeout_ms: if epoch == 0 { REBALANCE } else { -1 },
        subscribed_topic_names: (epoch == 0).then(|| vec!["foo".into()]),
        topic_partitions: owned.map(|ps| {
            if ps.is_empty() {
                vec![]
            } else {
                vec![TopicIdPartitions {
                    topic_id: topic,
                    partitions: ps.to_vec(),
                }]
            }
        }),
        ..Default::default()
    }
}

/// A classic group of `a` (foo 0, 1) and `b` (foo 2, 3), Stable at generation 1.
fn classic_pair() -> (H, String, String) {
    let mut h = profile_j();
    h.c.update_metadata(0, &[("foo".into(), None, 4)]).unwrap();
    let (a, ja) = h.join_dynamic_v4(classic_join("", &[]));
    let (b, jb) = h.join_dynamic_v4(classic_join("", &[]));
    let mut out = h.advance(3000);
    out.extend(h.advance(3000));
    assert_eq!(join_answer(&out, ja).unwrap().generation_id, 1);
    assert!(join_answer(&out, jb).is_some());
    let (aa, ab) = (assignment(&[0, 1]), assignment(&[2, 3]));
    let r = h.sync_now(&a, 1, &[(&a, &aa), (&b, &ab)]);
    assert_eq!(r.error_code, ErrorCode::None);
    h.sync_now(&b, 1, &[]);
    assert_eq!(h.state(), GroupState::Stable);
    h.events();
    (h, a, b)
}

/// `classic_pair`, then `m1` joins with the consumer protocol: the group is upgraded.
fn upgraded() -> (H, String, String) {
    let (mut h, a, b) = classic_pair();
    let r =
        h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", 0, Some(&[])))
            .unwrap();
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    // The generation (1) became the group epoch, and the new member bumped it.
    assert_eq!(r.member_epoch, 2);
    (h, a, b)
}

#[test]
fn a_consumer_protocol_member_upgrades_a_classic_group_with_its_members() {
    let (mut h, a, b) = classic_pair();
    h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", 0, Some(&[])))
        .unwrap();
    let events = h.events();
    assert!(events.iter().any(|e| e.kind
        == EventKind::StateChanged {
            from: GroupState::Stable,
            to: GroupState::Dead,
            cause: Cause::ConvertedToConsumerGroup
        }));
    assert!(events.iter().any(|e| e.kind
        == EventKind::GroupConverted {
            to: GroupType::Consumer,
            members: 2
        }));
    assert!(h.c.describe(G).is_none(), "the classic group is gone");
    let g = h.c.consumer_group(G).unwrap();
    assert_eq!((g.group_epoch, g.assignment_epoch), (2, 2));
    let topic = Uuid::for_topic_name("foo");
    for (id, parts) in [(&a, [0, 1]), (&b, [2, 3])] {
        let m = &g.members[id.as_str()];
        assert!(m.uses_classic_protocol());
        assert_eq!(
            m.member_epoch(),
            1,
            "the classic members are at the generation"
        );
        assert_eq!(m.subscribed_topic_names, ["foo"]);
        let owned: Vec<i32> = m.progress.assigned[&topic].iter().copied().collect();
        // Still owning their classic partitions, or revoking some of them for m1.
        let pending: Vec<i32> = m
            .progress
            .pending_revocation
            .get(&topic)
            .map(|p| p.iter().copied().collect())
            .unwrap_or_default();
        let mut all = [owned, pending].concat();
        all.sort();
        assert_eq!(all, parts);
    }
    assert!(!g.members["m1"].uses_classic_protocol());
    // Each classic member's session runs with its own timeout.
    let timers = h.c.timers();
    assert!(timers.contains(&(
        format!("session-timeout-{G}-{a}"),
        i64::from(SESSION) + h.now
    )));
    h.c.check_invariants().unwrap();
}

#[test]
fn classic_members_rejoin_a_consumer_group_and_reconcile_through_join_and_sync() {
    let (mut h, a, b) = upgraded();
    // The group moved on: a's heartbeat asks it to rejoin and arms its join timeout.
    assert_eq!(h.heartbeat(&a, 1), ErrorCode::RebalanceInProgress);
    assert_eq!(h.heartbeat(&a, 0), ErrorCode::IllegalGeneration);
    assert!(
        h.c.timers()
            .iter()
            .any(|(k, _)| k == &format!("join-{G}-{a}"))
    );
    // The rejoin is answered at once: no leader, no member list; the generation is a's epoch.
    for (member, owned) in [(&a, [0, 1]), (&b, [2, 3])] {
        let r = h.join_now(classic_join(member, &owned));
        assert_eq!(r.error_code, ErrorCode::None);
        assert_eq!(r.leader, "");
        assert!(r.members.is_empty());
        assert_eq!(r.protocol_name.as_deref(), Some("range"));
        let m = h.c.consumer_group(G).unwrap().members[member.as_str()].clone();
        assert_eq!(r.generation_id, m.member_epoch());
        assert!(
            !h.c.timers()
                .iter()
                .any(|(k, _)| k == &format!("join-{G}-{member}"))
        );
        assert!(
            h.c.timers()
                .iter()
                .any(|(k, _)| k == &format!("sync-{G}-{member}"))
        );
        // SyncGroup returns what it is assigned now (what it revokes is left out).
        let s = h.sync_now(member, r.generation_id, &[]);
        assert_eq!(s.error_code, ErrorCode::None);
        let topic = Uuid::for_topic_name("foo");
        let expected: Vec<i32> = m
            .progress
            .assigned
            .get(&topic)
            .map(|p| p.iter().copied().collect())
            .unwrap_or_default();
        assert_eq!(assigned(s.assignment.as_slice()), expected);
        assert!(
            !h.c.timers()
                .iter()
                .any(|(k, _)| k == &format!("sync-{G}-{member}"))
        );
        h.c.check_invariants().unwrap();
    }
    // Each classic member rejoins with what SyncGroup gave it until it is at the group epoch;
    // m1 heartbeats with what it was given. The group settles with four partitions spread.
    let topic = Uuid::for_topic_name("foo");
    let mut m1_owned: Vec<i32> = vec![];
    for _ in 0..6 {
        let r =
            h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", 2, Some(&m1_owned)))
                .unwrap();
        if let Some(a) = r.assignment {
            m1_owned = a
                .topic_partitions
                .iter()
                .flat_map(|t| t.partitions.clone())
                .collect();
        }
        for member in [&a, &b] {
            let m = h.c.consumer_group(G).unwrap().members[member.as_str()].clone();
            if h.heartbeat(member, m.member_epoch()) == ErrorCode::RebalanceInProgress {
                let owned: Vec<i32> = m.progress.assigned[&topic].iter().copied().collect();
                let r = h.join_now(classic_join(member, &owned));
                h.sync_now(member, r.generation_id, &[]);
            }
        }
        h.c.check_invariants().unwrap();
    }
    let g = h.c.consumer_group(G).unwrap();
    assert_eq!(g.state(), ConsumerGroupState::Stable);
    let sizes: Vec<usize> = g
        .members
        .values()
        .map(|m| m.progress.assigned.get(&topic).map_or(0, |p| p.len()))
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 4);
    assert!(sizes.iter().all(|&n| n >= 1), "{sizes:?}");
}

#[test]
fn the_last_consumer_protocol_member_leaving_downgrades_the_group_and_starts_a_rebalance() {
    let (mut h, a, b) = upgraded();
    h.events();
    let r =
        h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", -1, None))
            .unwrap();
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, -1));
    let events = h.events();
    assert!(events.iter().any(|e| e.kind
        == EventKind::GroupConverted {
            to: GroupType::Classic,
            members: 2
        }));
    assert!(events.iter().any(|e| e.kind
        == EventKind::ConsumerMemberRemoved {
            member_id: "m1".into(),
            reason: ConsumerRemoval::Left
        }));
    assert!(h.c.consumer_group(G).is_none());
    // A classic group at the group epoch, its members' targets as their assignments, and a
    // rebalance under way.
    let view = h.view();
    assert_eq!(view.generation_id, 2);
    assert_eq!(view.state, GroupState::PreparingRebalance);
    assert_eq!(view.protocol_name.as_deref(), Some("range"));
    assert_eq!(view.leader_id.as_deref(), Some(a.min(b.clone()).as_str()));
    // Both rejoin; the rebalance completes with the classic protocol again.
    let ja = h.join_parked(classic_join(&view.members[0].member_id, &[]));
    let out = h.send(Request::JoinGroup(
        classic_join(&view.members[1].member_id, &[]).req,
    ));
    let r = join_answer(&out, ja).unwrap();
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 3));
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    h.c.check_invariants().unwrap();
}

#[test]
fn the_migration_policy_decides_which_conversions_happen() {
    // Upgrades only: m1 leaving leaves a consumer group of classic members.
    let (mut h, _a, _b) = upgraded();
    h.c.config_mut().group_consumer_migration_policy = MigrationPolicy::Upgrade;
    h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", -1, None))
        .unwrap();
    let g = h.c.consumer_group(G).unwrap();
    assert_eq!((g.members.len(), g.group_epoch), (2, 3));
    assert!(h.c.describe(G).is_none());
    // Downgrades only: no upgrade.
    let (mut h, _a, _b) = classic_pair();
    h.c.config_mut().group_consumer_migration_policy = MigrationPolicy::Downgrade;
    let r =
        h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", 0, Some(&[])))
            .unwrap();
    assert_eq!(r.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(h.state(), GroupState::Stable);
}

#[test]
fn a_classic_leave_bumps_the_epoch_once_and_never_converts() {
    let (mut h, a, b) = upgraded();
    let (r, _) = h.leave(&[(&a, None), ("nobody", None), ("m1", None)]);
    let codes: Vec<ErrorCode> = r.members.iter().map(|m| m.error_code).collect();
    // m1 speaks the consumer protocol: not a classic member.
    assert_eq!(
        codes,
        [
            ErrorCode::None,
            ErrorCode::UnknownMemberId,
            ErrorCode::UnknownMemberId
        ]
    );
    let g = h.c.consumer_group(G).unwrap();
    assert_eq!((g.members.len(), g.group_epoch), (2, 3));
    // m1 leaves: b, a classic member, remains alone, and the group goes back to classic.
    h.c.consumer_group_heartbeat(h.now, &heartbeat("m1", -1, None))
        .unwrap();
    assert!(h.c.consumer_group(G).is_none());
    assert_eq!(h.view().members.len(), 1);
    assert_eq!(h.view().members[0].member_id, b);
}

#[test]
fn a_classic_member_that_does_not_sync_or_rejoin_in_time_is_fenced() {
    let (mut h, a, _b) = upgraded();
    // a rejoins with a long session but never syncs: its sync timeout (the rebalance timeout)
    // fences it.
    let r = h.join_now(classic_join(&a, &[0, 1]).session(60_000));
    assert_eq!(r.error_code, ErrorCode::None);
    h.events();
    h.advance(i64::from(REBALANCE));
    let events = h.events();
    assert!(
        events.iter().any(|e| e.kind
            == EventKind::ConsumerMemberRemoved {
                member_id: a.clone(),
                reason: ConsumerRemoval::SyncTimeout
            }),
        "{events:#?}"
    );
    h.c.check_invariants().unwrap();
    // b, told to rejoin, never does: its join timeout fences it (its session is kept alive).
    let b = _b;
    h.join_now(classic_join(&b, &[2, 3]).session(60_000));
    let g = h.c.consumer_group(G).unwrap();
    let epoch = g.members[b.as_str()].member_epoch();
    h.sync_now(&b, epoch, &[]);
    h.c.consumer_group_heartbeat(h.now, &heartbeat("m2", 0, Some(&[])))
        .unwrap();
    assert_eq!(h.heartbeat(&b, epoch), ErrorCode::RebalanceInProgress);
    h.events();
    h.advance(i64::from(REBALANCE));
    assert!(h.events().iter().any(|e| e.kind
        == EventKind::ConsumerMemberRemoved {
            member_id: b.clone(),
            reason: ConsumerRemoval::JoinTimeout
        }));
    h.c.check_invariants().unwrap();
}

#[test]
fn a_classic_member_commits_with_its_generation_at_any_version() {
    let (mut h, a, _b) = upgraded();
    let commit = |h: &mut H, generation: i32| {
        let out = h.send(Request::OffsetCommit(OffsetCommitRequest {
            api_version: 8,
            group_id: G.into(),
            generation_id_or_member_epoch: generation,
            member_id: a.clone(),
            topics: vec![OffsetCommitRequestTopic {
                name: "foo".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: 7,
                    ..Default::default()
                }],
            }],
            ..Default::default()
        }));
        match &out[..] {
            [Response::OffsetCommit(r)] => r.topics[0].partitions[0].error_code,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(commit(&mut h, 1), ErrorCode::None);
    assert_eq!(commit(&mut h, 2), ErrorCode::IllegalGeneration);
}

#[test]
fn an_upgrade_answers_the_parked_joins_with_rebalance_in_progress() {
    let (mut h, a, _b) = classic_pair();
    // a rejoins: the group prepares a rebalance and parks a's JoinGroup.
    let ja = h.join_parked(classic_join(&a, &[0, 1]));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let out = h.send(Request::ConsumerGroupHeartbeat(heartbeat(
        "m1",
        0,
        Some(&[]),
    )));
    let parked = join_answer(&out, ja).expect("the parked join is answered");
    assert_eq!(parked.error_code, ErrorCode::RebalanceInProgress);
    assert!(matches!(
        out.last(),
        Some(Response::ConsumerGroupHeartbeat(r)) if r.error_code == ErrorCode::None
    ));
    assert!(h.c.consumer_group(G).is_some());
    // a's rejoin now goes to the consumer group and is answered at once.
    let r = h.join_now(classic_join(&a, &[0, 1]));
    assert_eq!(r.error_code, ErrorCode::None);
    h.c.check_invariants().unwrap();
}

/// `validateOnlineDowngradeWithReplacedMemberId`: the last consumer-protocol member is static;
/// after its temporary leave (epoch −2) a classic consumer rejoins with its instance id. It
/// takes the member's place and its target, and the group goes back to classic without a
/// rebalance.
#[test]
fn a_classic_static_member_replacing_the_last_consumer_protocol_one_downgrades_without_a_rebalance()
{
    let (mut h, _a, b) = classic_pair();
    let mut join = heartbeat("s1", 0, Some(&[]));
    join.instance_id = Some("i1".into());
    let r = h.c.consumer_group_heartbeat(h.now, &join).unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    // a leaves (classic LeaveGroup): b (classic) and s1 (consumer protocol, static) remain.
    let a =
        h.c.consumer_group(G)
            .unwrap()
            .members
            .keys()
            .find(|m| **m != b && *m != "s1")
            .cloned()
            .unwrap();
    h.leave(&[(&a, None)]);
    // s1's next heartbeat computes the target without a.
    let epoch = h.c.consumer_group(G).unwrap().members["s1"].member_epoch();
    let mut beat = heartbeat("s1", epoch, None);
    beat.instance_id = Some("i1".into());
    h.c.consumer_group_heartbeat(h.now, &beat).unwrap();
    let target_of_s1 = h.c.consumer_group(G).unwrap().target.get("s1").cloned();
    let mut away = heartbeat("s1", -2, None);
    away.instance_id = Some("i1".into());
    h.c.consumer_group_heartbeat(h.now, &away).unwrap();
    h.events();
    // The classic consumer with instance id i1 and no member id.
    let r = h.join_now(classic_join("", &[]).instance("i1"));
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert!(
        h.c.consumer_group(G).is_none(),
        "no longer a consumer group"
    );
    let view = h.view();
    assert_eq!(view.state, GroupState::Stable, "no rebalance");
    let ids: Vec<&str> = view.members.iter().map(|m| m.member_id.as_str()).collect();
    assert!(
        ids.contains(&b.as_str()) && ids.contains(&r.member_id.as_str()),
        "{ids:?}"
    );
    assert!(h.events().iter().any(|e| e.kind
        == EventKind::GroupConverted {
            to: GroupType::Classic,
            members: 2
        }));
    // The newcomer's assignment is s1's target.
    let record = h.c.last_record(G).unwrap();
    let mine = record
        .members
        .iter()
        .find(|m| m.member_id == r.member_id)
        .unwrap();
    let expected: Vec<i32> = target_of_s1
        .unwrap_or_default()
        .values()
        .flat_map(|ps| ps.iter().copied())
        .collect();
    assert_eq!(assigned(mine.assignment.as_slice()), expected);
    h.c.check_invariants().unwrap();
}

/// Found by the `consumer_group` fuzz target. A static member's session timer fires while it
/// waits in its first JoinGroup (a waiting member satisfies its heartbeat, so the timer is not
/// re-armed). Then a consumer-protocol member tries to upgrade the group, which has never chosen
/// a protocol: Kafka's `convertToConsumerGroup` answers the parked joins REBALANCE_IN_PROGRESS
/// before `protocolName().get()` throws. The static member is left with no session timer and no
/// parked join, in PreparingRebalance; the join's completion re-arms its timer.
#[test]
fn a_failed_upgrade_during_the_first_join_leaves_a_static_member_to_the_join_completion() {
    let mut h = profile_j();
    h.c.update_metadata(0, &[("foo".into(), None, 4)]).unwrap();
    let first = join("")
        .v(5)
        .instance("i0")
        .session(10_000)
        .rebalance(10_000);
    h.join_parked(first.clone());
    // The same instance joins again without a member id: it replaces the first, whose join is
    // answered FENCED_INSTANCE_ID, and its session timer runs with its session timeout.
    let replacing = h.join_parked(first);
    let member = h.member_ids().pop().expect("one static member");
    let i0 = |h: &H| {
        h.view()
            .members
            .into_iter()
            .find(|m| m.member_id == member)
            .expect("i0 is a member")
    };
    assert_eq!(i0(&h).session_deadline_ms, Some(10_000));
    // A second new member keeps the initial delay going past i0's session timeout.
    h.join_parked(
        join("")
            .v(5)
            .instance("i2")
            .session(10_000)
            .rebalance(10_000),
    );
    h.advance(11_000);
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert_eq!(i0(&h).session_deadline_ms, None, "satisfied while waiting");
    assert!(i0(&h).awaiting_join);

    let mut upgrade = heartbeat("m1", 0, Some(&[]));
    upgrade.instance_id = Some("i9".into());
    let out = h.send(Request::ConsumerGroupHeartbeat(upgrade));
    assert_eq!(
        join_answer(&out, replacing).map(|r| r.error_code),
        Some(ErrorCode::RebalanceInProgress)
    );
    match out.last() {
        Some(Response::ConsumerGroupHeartbeat(r)) => {
            assert_eq!(r.error_code, ErrorCode::UnknownServerError);
            // `protocolName().get()` threw "No value present"; Kafka's `ApiError` sends no
            // message with UNKNOWN_SERVER_ERROR.
            assert_eq!(r.error_message, None);
        }
        other => panic!("{other:?}"),
    }
    assert!(h.c.consumer_group(G).is_none(), "still a classic group");
    let m = i0(&h);
    assert_eq!((m.awaiting_join, m.session_deadline_ms), (false, None));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    h.c.check_invariants().unwrap();

    // It rejoins with its member id; the join completes and its timer is armed again.
    let rejoin = h.join_parked(
        join(&member)
            .v(5)
            .instance("i0")
            .session(10_000)
            .rebalance(10_000),
    );
    let answer = (0..8)
        .find_map(|_| {
            let out = h.advance(3_000);
            join_answer(&out, rejoin)
        })
        .expect("the join completed");
    assert_eq!(
        (answer.error_code, answer.leader.as_str()),
        (ErrorCode::None, member.as_str())
    );
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    assert!(i0(&h).session_deadline_ms.is_some());
    h.c.check_invariants().unwrap();
}
