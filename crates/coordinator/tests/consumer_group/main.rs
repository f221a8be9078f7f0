//! ConsumerGroupHeartbeat (KIP-848) request by request: Kafka's `GroupMetadataManagerTest`
//! protocol scenarios (`docs/src/reference/consumer-group-protocol.md#vectors`), played with the real `range`
//! assignor instead of Kafka's mocked one, and the group's invariants checked after every step.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::reconcile::MemberState;
use group_coordinator::consumer_group::{ConsumerGroupState, Uuid};
use group_coordinator::protocol::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, TopicIdPartitions,
};
use group_coordinator::{Coordinator, ErrorCode};

mod admin;
mod protocol;
mod validation;

const G: &str = "grp";

fn foo() -> Uuid {
    Uuid::for_topic_name("foo")
}
fn bar() -> Uuid {
    Uuid::for_topic_name("bar")
}

struct World {
    c: Coordinator,
    now: i64,
}

impl World {
    fn new() -> World {
        let mut c = Coordinator::default();
        c.update_metadata(0, &[("foo".into(), None, 6), ("bar".into(), None, 3)])
            .unwrap();
        World { c, now: 0 }
    }

    fn send(&mut self, r: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
        let out = self.c.consumer_group_heartbeat(self.now, &r).unwrap();
        self.c.check_invariants().unwrap();
        out
    }

    /// A join (epoch 0) with the range assignor on foo and bar.
    fn join(&mut self, member: &str) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            server_assignor: Some("range".into()),
            ..join_request(member, &["foo", "bar"])
        })
    }

    /// A heartbeat at `epoch`, reporting `owned` (None: not reported).
    fn beat(
        &mut self,
        member: &str,
        epoch: i32,
        owned: Option<&[(Uuid, &[i32])]>,
    ) -> ConsumerGroupHeartbeatResponse {
        self.send(ConsumerGroupHeartbeatRequest {
            group_id: G.into(),
            member_id: member.into(),
            member_epoch: epoch,
            topic_partitions: owned.map(tps),
            ..Default::default()
        })
    }

    fn state(&self) -> ConsumerGroupState {
        self.c.consumer_group(G).unwrap().state()
    }

    fn member(&self, id: &str) -> (MemberState, i32) {
        let m = &self.c.consumer_group(G).unwrap().members[id];
        (m.state(), m.member_epoch())
    }
}

/// A full join request (epoch 0, nothing owned) of `member` subscribing to `topics`.
fn join_request(member: &str, topics: &[&str]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 10_000,
        subscribed_topic_names: Some(topics.iter().map(|t| String::from(*t)).collect()),
        topic_partitions: Some(vec![]),
        ..Default::default()
    }
}

fn tps(list: &[(Uuid, &[i32])]) -> Vec<TopicIdPartitions> {
    let mut v: Vec<TopicIdPartitions> = list
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(t, ps)| TopicIdPartitions {
            topic_id: *t,
            partitions: ps.to_vec(),
        })
        .collect();
    v.sort_by_key(|t| t.topic_id);
    v
}

fn assignment(r: &ConsumerGroupHeartbeatResponse) -> Option<Vec<TopicIdPartitions>> {
    r.assignment.as_ref().map(|a| a.topic_partitions.clone())
}

/// m1 and m2 share foo:6 and bar:3 as Kafka's test starts (m1 foo 0-2 bar 0-1, m2 foo 3-5
/// bar 2), at group epoch 2, Stable.
fn two_members() -> World {
    let mut w = World::new();
    assert!(
        w.c.consumer_group(G).is_none(),
        "no group before the first join"
    );
    let r = w.join("m1");
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, 1));
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[0, 1, 2, 3, 4, 5]), (bar(), &[0, 1, 2])]))
    );
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    let r = w.join("m2");
    assert_eq!(r.member_epoch, 2);
    assert_eq!(
        assignment(&r),
        Some(vec![]),
        "m1 still holds m2's partitions"
    );
    assert_eq!(w.member("m2"), (MemberState::UnreleasedPartitions, 2));
    assert_eq!(w.state(), ConsumerGroupState::Reconciling);
    let r = w.beat("m1", 1, None);
    assert_eq!(r.member_epoch, 1, "m1 must revoke first");
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]))
    );
    let r = w.beat("m1", 1, Some(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]));
    assert_eq!(r.member_epoch, 2);
    let r = w.beat("m2", 2, Some(&[]));
    assert_eq!(
        assignment(&r),
        Some(tps(&[(foo(), &[3, 4, 5]), (bar(), &[2])]))
    );
    assert_eq!(w.state(), ConsumerGroupState::Stable);
    w
}

/// Timer events counted instead of made (`count_timer_events`, a metrics-only simulation): the
/// same timers at the same deadlines, every other event as before, and the count is the
/// number of `TimerScheduled` and `TimerCancelled` events the same requests make otherwise.
#[test]
fn timer_events_counted_are_the_same_timers() {
    use group_coordinator::event::EventKind;
    let play = |count: bool| {
        let mut w = World::new();
        w.c.count_timer_events(count);
        w.join("m1");
        w.join("m2");
        w.beat("m1", 1, None);
        w.now = 2_000;
        w.beat("m1", 1, Some(&[(foo(), &[0, 1, 2]), (bar(), &[0, 1])]));
        w.beat("m2", 2, Some(&[]));
        w.now = 50_000;
        w.c.advance(w.now).unwrap();
        let counted = w.c.take_timer_events_counted();
        (w.c.timers(), w.c.drain_events(), counted)
    };
    let (made_timers, made, none) = play(false);
    let (counted_timers, others, counted) = play(true);
    assert_eq!(none, 0, "nothing counted while events are made");
    assert_eq!(counted_timers, made_timers);
    let is_timer = |k: &EventKind| {
        matches!(
            k,
            EventKind::TimerScheduled { .. } | EventKind::TimerCancelled { .. }
        )
    };
    let timer_events = made.iter().filter(|e| is_timer(&e.kind)).count();
    assert!(timer_events > 4, "{timer_events} timer events");
    assert_eq!(counted, timer_events as u64);
    let rest: Vec<_> = made.into_iter().filter(|e| !is_timer(&e.kind)).collect();
    assert_eq!(others, rest);
}
