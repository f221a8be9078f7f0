//! Regular-expression subscriptions (`SubscribedTopicRegex`, Kafka 4.0): validation,
//! resolution off the request path, the group epoch they move, topics created later, and the
//! pattern leaving with its last subscriber. After Kafka's `GroupMetadataManagerTest` cases
//! `testConsumerGroupMemberJoinsWithNewRegex`, `testConsumerGroupMemberJoinsWithUpdatedRegex`,
//! `testConsumerGroupMemberJoinsWithExistingRegex`, `testConsumerGroupMemberJoinsWithInvalidRegex`
//! and `testConsumerGroupMemberLeavesWithRegex` (4.0 development line).

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::REGEX_BATCH_REFRESH_INTERVAL_MS;
use group_coordinator::protocol::{ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse};
use group_coordinator::{Coordinator, ErrorCode, EventKind};

const G: &str = "grp";

struct World {
    c: Coordinator,
    now: i64,
}

impl World {
    fn new() -> World {
        let mut c = Coordinator::default();
        c.update_metadata(
            0,
            &[
                ("orders".into(), None, 4),
                ("orders-eu".into(), None, 2),
                ("payments".into(), None, 3),
            ],
        )
        .unwrap();
        World { c, now: 0 }
    }

    fn send(&mut self, r: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
        let out = self.c.consumer_group_heartbeat(self.now, &r).unwrap();
        self.c.check_invariants().unwrap();
        out
    }

    fn join(&mut self, member: &str, regex: &str) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            api_version: 1,
            group_id: G.into(),
            member_id: member.into(),
            member_epoch: 0,
            rebalance_timeout_ms: 30_000,
            subscribed_topic_regex: Some(regex.into()),
            topic_partitions: Some(vec![]),
            ..Default::default()
        })
    }

    fn beat(&mut self, member: &str, epoch: i32) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            api_version: 1,
            group_id: G.into(),
            member_id: member.into(),
            member_epoch: epoch,
            ..Default::default()
        })
    }

    /// Moves the clock, firing what is due (a resolution under way, for one).
    fn at(&mut self, now: i64) {
        self.now = now;
        self.c.advance(now).unwrap();
        self.c.check_invariants().unwrap();
    }

    fn epochs(&self) -> (i32, i32) {
        let g = self.c.consumer_group(G).unwrap();
        (g.group_epoch, g.assignment_epoch)
    }

    fn resolved(&self, regex: &str) -> Option<Vec<String>> {
        let g = self.c.consumer_group(G).unwrap();
        g.resolved_regular_expressions
            .get(regex)
            .map(|r| r.topics.clone())
    }

    fn assigned_partitions(r: &ConsumerGroupHeartbeatResponse) -> usize {
        r.assignment.as_ref().map_or(0, |a| {
            a.topic_partitions.iter().map(|t| t.partitions.len()).sum()
        })
    }
}

#[test]
fn a_new_regex_is_resolved_after_the_heartbeat_and_bumps_the_group_epoch() {
    let mut w = World::new();
    let r = w.join("m1", "orders.*");
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    // The new group leaves epoch 0; nothing is resolved yet, so nothing is assigned.
    assert_eq!(r.member_epoch, 1);
    assert_eq!(World::assigned_partitions(&r), 0);
    assert_eq!(w.resolved("orders.*"), None);
    // The resolution runs off the request path: a timer due at once.
    assert_eq!(w.c.next_deadline(), Some(0));
    w.c.drain_events();
    w.at(0);
    let told: Vec<_> =
        w.c.drain_events()
            .into_iter()
            .filter_map(|e| match e.kind {
                EventKind::RegularExpressionsResolved { resolved } => Some(resolved),
                _ => None,
            })
            .collect();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0][0].regex, "orders.*");
    assert_eq!(told[0][0].topics, ["orders", "orders-eu"]);
    assert_eq!(w.resolved("orders.*").unwrap(), ["orders", "orders-eu"]);
    assert_eq!(
        w.epochs(),
        (2, 1),
        "the group epoch moved; the target waits"
    );
    // The next heartbeat computes the target with the matched topics: 4 + 2 partitions.
    let r = w.beat("m1", 1);
    assert_eq!(r.member_epoch, 2);
    assert_eq!(World::assigned_partitions(&r), 6);
}

#[test]
fn a_bad_regex_is_refused_with_re2js_description_and_creates_nothing() {
    let mut w = World::new();
    let r = w.join("m1", "orders(");
    assert_eq!(r.error_code, ErrorCode::InvalidRegularExpression);
    assert_eq!(
        r.error_message.as_deref(),
        Some(
            "SubscribedTopicRegex `orders(` is not a valid regular expression: missing closing )."
        )
    );
    assert!(w.c.consumer_group(G).is_none());
    assert_eq!(w.c.next_deadline(), None, "no resolution was scheduled");
}

#[test]
fn a_member_taking_up_a_resolved_regex_bumps_at_once() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    w.at(0);
    w.beat("m1", 1);
    assert_eq!(w.epochs(), (2, 2));
    w.at(1);
    let r = w.join("m2", "orders.*");
    // Resolved already: no new resolution, the group epoch moves with this heartbeat and the
    // target is computed for both.
    assert_eq!(w.epochs(), (3, 3));
    assert_eq!(r.member_epoch, 3);
    assert!(w.c.next_deadline().is_none_or(|d| d > 1));
}

#[test]
fn a_topic_created_later_joins_at_the_first_heartbeat_ten_seconds_after_the_last_resolution() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    w.at(0);
    let r = w.beat("m1", 1);
    assert_eq!(World::assigned_partitions(&r), 6);
    let epoch = r.member_epoch;
    w.c.update_metadata(1_000, &[("orders-us".into(), None, 5)])
        .unwrap();
    // Within 10 s of the last resolution: no new one.
    w.at(REGEX_BATCH_REFRESH_INTERVAL_MS);
    w.beat("m1", epoch);
    assert_eq!(w.resolved("orders.*").unwrap(), ["orders", "orders-eu"]);
    // Past it: the heartbeat asks, the resolution takes the new topic, the epoch moves.
    w.at(REGEX_BATCH_REFRESH_INTERVAL_MS + 1);
    w.beat("m1", epoch);
    w.at(REGEX_BATCH_REFRESH_INTERVAL_MS + 1);
    assert_eq!(
        w.resolved("orders.*").unwrap(),
        ["orders", "orders-eu", "orders-us"]
    );
    let (group_epoch, _) = w.epochs();
    assert_eq!(group_epoch, epoch + 1);
    let r = w.beat("m1", epoch);
    assert_eq!(r.member_epoch, epoch + 1);
    assert_eq!(World::assigned_partitions(&r), 11);
}

#[test]
fn a_topic_that_matches_nothing_new_is_resolved_without_a_new_epoch() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    w.at(0);
    w.beat("m1", 1);
    w.c.update_metadata(1, &[("audit".into(), None, 1)])
        .unwrap();
    w.at(20_000);
    w.beat("m1", 2);
    w.at(20_000);
    let g = w.c.consumer_group(G).unwrap();
    assert_eq!(g.resolved_regular_expressions["orders.*"].timestamp, 20_000);
    assert_eq!(w.epochs(), (2, 2), "same topics: the group epoch stays");
}

#[test]
fn the_regex_goes_with_its_last_subscriber_and_a_change_of_regex_resolves_the_new_one() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    w.join("m2", "orders.*");
    w.at(0);
    assert!(w.resolved("orders.*").is_some());
    // m1 moves to another pattern: the old one keeps m2; the new one waits for a resolution,
    // which the 10 s batching holds back.
    w.at(1);
    let r = w.send(ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: G.into(),
        member_id: "m1".into(),
        member_epoch: 1,
        subscribed_topic_regex: Some("pay.*".into()),
        ..Default::default()
    });
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    assert!(w.resolved("orders.*").is_some());
    assert_eq!(w.resolved("pay.*"), None);
    w.at(10_001);
    let r = w.beat("m1", r.member_epoch);
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    w.at(10_001);
    assert_eq!(w.resolved("pay.*").unwrap(), ["payments"]);
    // m2 leaves: its pattern goes with it.
    w.send(ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: G.into(),
        member_id: "m2".into(),
        member_epoch: -1,
        ..Default::default()
    });
    assert_eq!(w.resolved("orders.*"), None);
    assert!(w.resolved("pay.*").is_some());
}

#[test]
fn an_empty_list_of_names_joins_subscribed_to_nothing() {
    let mut w = World::new();
    let r = w.send(ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: G.into(),
        member_id: "m1".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec![]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    });
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    assert_eq!(r.member_epoch, 1, "a new group moves off epoch 0");
    assert_eq!(World::assigned_partitions(&r), 0);
}

#[test]
fn describe_shows_each_members_regex() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    let d = w.c.describe_consumer_group(G).unwrap();
    let m = d.members.iter().find(|m| m.member_id == "m1").unwrap();
    assert_eq!(m.subscribed_topic_regex.as_deref(), Some("orders.*"));
    assert!(
        d.resolved_regular_expressions.is_empty(),
        "not resolved yet"
    );
}

#[test]
fn a_failover_drops_a_resolution_under_way_and_the_next_heartbeat_asks_again() {
    let mut w = World::new();
    w.join("m1", "orders.*");
    w.c.unload(G).unwrap();
    w.c.load(G).unwrap();
    w.at(0);
    assert_eq!(w.resolved("orders.*"), None, "the task was lost");
    w.at(1);
    let r = w.beat("m1", 1);
    assert_eq!(r.error_code, ErrorCode::None, "{:?}", r.error_message);
    w.at(1);
    assert_eq!(w.resolved("orders.*").unwrap(), ["orders", "orders-eu"]);
}
