//! A consumer group's (KIP-848) committed offsets expire as Kafka's
//! `OffsetMetadataManager.cleanupExpiredOffsets` expires them
//! (`docs/src/reference/consumer-group-protocol.md#expiry`): `offsets.retention.minutes` after
//! their commit, at the next cleanup run (`offsets.retention.check.interval.ms`), only for
//! topics no member subscribes to; an Empty group left without offsets is deleted.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::protocol::*;
use group_coordinator::{Coordinator, ErrorCode, EventKind, Request, Response};

const G: &str = "grp";
/// `offsets.retention.minutes` = 10080 (7 days).
const WEEK: i64 = 7 * 24 * 3_600_000;
/// `offsets.retention.check.interval.ms`.
const RUN: i64 = 600_000;

fn heartbeat(member: &str, epoch: i32, topics: Option<&[&str]>) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: epoch,
        rebalance_timeout_ms: if epoch == 0 { 10_000 } else { -1 },
        subscribed_topic_names: topics.map(|ts| ts.iter().map(|t| t.to_string()).collect()),
        topic_partitions: (epoch == 0).then(Vec::new),
        ..Default::default()
    }
}

/// m1 subscribes to foo; it commits foo-0 at 1 s and bar-0 (a topic it does not subscribe
/// to, as a consumer that changed its subscription leaves behind) at 2 s.
fn committed() -> Coordinator {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("foo".into(), None, 2), ("bar".into(), None, 2)])
        .unwrap();
    let r = c
        .consumer_group_heartbeat(0, &heartbeat("m1", 0, Some(&["foo"])))
        .unwrap();
    assert_eq!(r.member_epoch, 1);
    commit(&mut c, 1_000, "foo", 1);
    commit(&mut c, 2_000, "bar", 1);
    c
}

fn commit(c: &mut Coordinator, now: i64, topic: &str, epoch: i32) {
    let out = c
        .handle(
            now,
            Request::OffsetCommit(OffsetCommitRequest {
                api_version: 9,
                group_id: G.into(),
                generation_id_or_member_epoch: epoch,
                member_id: if epoch < 0 {
                    String::new()
                } else {
                    "m1".into()
                },
                topics: vec![OffsetCommitRequestTopic {
                    name: topic.into(),
                    partitions: vec![OffsetCommitRequestPartition {
                        partition_index: 0,
                        committed_offset: 42,
                        committed_leader_epoch: -1,
                        commit_timestamp: -1,
                        committed_metadata: None,
                    }],
                }],
                ..Default::default()
            }),
        )
        .unwrap();
    match out.as_slice() {
        [Response::OffsetCommit(r)] => {
            assert_eq!(r.topics[0].partitions[0].error_code, ErrorCode::None)
        }
        other => panic!("{other:?}"),
    }
}

/// The group's committed offsets, as an admin's OffsetFetch sees them.
fn fetched(c: &mut Coordinator, now: i64) -> Vec<String> {
    let out = c
        .handle(
            now,
            Request::OffsetFetch(OffsetFetchRequest {
                api_version: 7,
                group_id: G.into(),
                topics: None,
                ..Default::default()
            }),
        )
        .unwrap();
    match out.as_slice() {
        [Response::OffsetFetch(r)] => r
            .topics
            .iter()
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .map(move |p| format!("{}-{}", t.name, p.partition_index))
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// m1 heartbeats every 40 s (within its 45 s session) from `from` up to `to`; returns the
/// time of the last heartbeat.
fn keep_alive(c: &mut Coordinator, from: i64, to: i64, epoch: i32) -> i64 {
    let mut now = from;
    while now + 40_000 <= to {
        now += 40_000;
        let r = c
            .consumer_group_heartbeat(now, &heartbeat("m1", epoch, None))
            .unwrap();
        assert_eq!(r.error_code, ErrorCode::None, "at {now}");
    }
    now
}

fn cleanup_timer(c: &Coordinator) -> Option<i64> {
    c.timers()
        .into_iter()
        .find(|(k, _)| k == "offsets-expiration-grp")
        .map(|(_, d)| d)
}

/// The first cleanup run at or after `t`.
fn run_after(t: i64) -> i64 {
    t.div_euclid(RUN) * RUN + if t % RUN == 0 { 0 } else { RUN }
}

#[test]
fn an_offset_of_a_topic_no_member_subscribes_to_expires_while_the_group_lives() {
    let mut c = committed();
    // The commit to bar armed the cleanup for the run after bar-0 is a week old; foo-0 never
    // expires while m1 subscribes to foo.
    assert_eq!(cleanup_timer(&c), Some(run_after(2_000 + WEEK)));
    let now = keep_alive(&mut c, 2_000, run_after(2_000 + WEEK) - 1, 1);
    assert_eq!(fetched(&mut c, now), ["bar-0", "foo-0"], "not yet");
    let now = keep_alive(&mut c, now, run_after(2_000 + WEEK) + 40_000, 1);
    let expired: Vec<usize> = c
        .drain_events()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::OffsetsExpired { partitions } => Some(partitions),
            _ => None,
        })
        .collect();
    assert_eq!(expired, [1]);
    assert_eq!(fetched(&mut c, now), ["foo-0"]);
    assert_eq!(cleanup_timer(&c), None, "nothing else can expire");
    c.check_invariants().unwrap();
}

#[test]
fn a_member_subscribing_to_the_topic_keeps_its_offsets() {
    let mut c = committed();
    let r = c
        .consumer_group_heartbeat(3_000, &heartbeat("m1", 1, Some(&["foo", "bar"])))
        .unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(cleanup_timer(&c), None, "both topics are subscribed");
    // Long after, with m1 still heartbeating, both offsets are there.
    let now = keep_alive(&mut c, 3_000, 2 * WEEK, 2);
    assert_eq!(fetched(&mut c, now), ["bar-0", "foo-0"]);
}

/// Unlike a classic group's, the retention counts from each commit, not from the time the group
/// became Empty; the run that empties an Empty group deletes it.
#[test]
fn an_empty_group_loses_its_offsets_a_week_after_their_commits_then_the_group_goes() {
    let mut c = committed();
    // m1 leaves at day 3.
    let left = keep_alive(&mut c, 2_000, 3 * 24 * 3_600_000, 1);
    let r = c
        .consumer_group_heartbeat(left, &heartbeat("m1", -1, None))
        .unwrap();
    assert_eq!(r.member_epoch, -1);
    assert_eq!(
        c.consumer_group(G).unwrap().state(),
        ConsumerGroupState::Empty
    );
    // The first offset to expire is foo-0, a week after its commit at 1 s.
    assert_eq!(cleanup_timer(&c), Some(run_after(1_000 + WEEK)));
    c.advance(run_after(1_000 + WEEK)).unwrap();
    // Both were committed within the same run interval: both go at that run, and the group
    // with them.
    assert!(c.consumer_group(G).is_none(), "deleted");
    let kinds: Vec<String> = c
        .drain_events()
        .into_iter()
        .filter(|e| e.at_ms == run_after(1_000 + WEEK))
        .map(|e| format!("{:?}", e.kind))
        .filter(|k| !k.starts_with("Timer"))
        .collect();
    assert_eq!(
        kinds,
        [
            "OffsetsExpired { partitions: 2 }",
            "ConsumerGroupStateChanged { from: Empty, to: Dead }",
            "Deleted"
        ]
    );
    assert!(fetched(&mut c, run_after(1_000 + WEEK)).is_empty());
    assert!(c.timers().is_empty());
    c.check_invariants().unwrap();
}

#[test]
fn an_empty_group_without_offsets_goes_at_the_next_cleanup_run() {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("foo".into(), None, 2)]).unwrap();
    c.consumer_group_heartbeat(0, &heartbeat("m1", 0, Some(&["foo"])))
        .unwrap();
    let now = keep_alive(&mut c, 0, 700_000, 1);
    assert_eq!(
        cleanup_timer(&c),
        None,
        "a group with members and no offsets has nothing to clean"
    );
    c.consumer_group_heartbeat(now, &heartbeat("m1", -1, None))
        .unwrap();
    assert_eq!(cleanup_timer(&c), Some(1_200_000));
    c.advance(1_199_999).unwrap();
    assert!(c.consumer_group(G).is_some());
    c.advance(1_200_000).unwrap();
    assert!(c.consumer_group(G).is_none());
}

/// An admin's commit (no member epoch) to an Empty group is stored and expires a week later.
#[test]
fn an_admin_commit_to_an_empty_group_arms_the_cleanup_for_its_own_expiry() {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("foo".into(), None, 2)]).unwrap();
    c.consumer_group_heartbeat(0, &heartbeat("m1", 0, Some(&["foo"])))
        .unwrap();
    c.consumer_group_heartbeat(0, &heartbeat("m1", -1, None))
        .unwrap();
    commit(&mut c, 100, "foo", -1);
    assert_eq!(
        cleanup_timer(&c),
        Some(RUN),
        "the planned run finds the offset young and re-arms"
    );
    c.advance(RUN).unwrap();
    assert!(c.consumer_group(G).is_some());
    assert_eq!(cleanup_timer(&c), Some(run_after(100 + WEEK)));
    c.advance(run_after(100 + WEEK)).unwrap();
    assert!(c.consumer_group(G).is_none());
}
