//! Offsets of an Empty group expire; the cleanup removes the group (#empty).

use super::*;

// offsets of an Empty group expire; the cleanup removes the group (#empty)

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

/// One OffsetCommit naming several topics, each with several partitions (as a consumer's
/// auto-commit does): every partition's offset is kept under its own topic, and a partition
/// refused (metadata too large) is skipped without moving the others.
#[test]
fn one_commit_of_several_topics_keeps_each_topic_apart() {
    let mut h = profile_j();
    let partition = |p: i32, offset: i64, metadata: usize| OffsetCommitRequestPartition {
        partition_index: p,
        committed_offset: offset,
        committed_metadata: Some("x".repeat(metadata)),
        ..Default::default()
    };
    let out = h.send(Request::OffsetCommit(OffsetCommitRequest {
        api_version: 9,
        correlation_id: 1,
        group_id: "simple".into(),
        topics: vec![
            OffsetCommitRequestTopic {
                name: "a".into(),
                partitions: vec![
                    partition(0, 10, 0),
                    partition(1, 11, 4097),
                    partition(2, 12, 0),
                ],
            },
            OffsetCommitRequestTopic {
                name: "b".into(),
                partitions: vec![partition(1, 21, 0), partition(0, 20, 0)],
            },
        ],
        ..Default::default()
    }));
    let Response::OffsetCommit(r) = &out[0] else {
        panic!("{out:?}")
    };
    let answered: Vec<(&str, i32, ErrorCode)> = r
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(move |p| (t.name.as_str(), p.partition_index, p.error_code))
        })
        .collect();
    assert_eq!(
        answered,
        [
            ("a", 0, ErrorCode::None),
            ("a", 1, ErrorCode::OffsetMetadataTooLarge),
            ("a", 2, ErrorCode::None),
            ("b", 1, ErrorCode::None),
            ("b", 0, ErrorCode::None),
        ]
    );
    let fetched = h.fetch_all("simple");
    let expected = [("a", 0, 10), ("a", 2, 12), ("b", 0, 20), ("b", 1, 21)];
    assert_eq!(fetched, expected.map(|(t, p, o)| (t.to_string(), p, o)));
}
