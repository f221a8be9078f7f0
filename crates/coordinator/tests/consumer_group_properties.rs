//! Random ConsumerGroupHeartbeat sequences (joins, leaves −1/−2, lost responses, stale and
//! garbage epochs, subscription and metadata changes, session and rebalance expiries, static
//! replacement) keep every invariant after every input; and once the inputs stop changing,
//! well-behaved members all reach STABLE at the assignment epoch with every subscribed
//! partition assigned once.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::reconcile::MemberState;
use group_coordinator::consumer_group::{ConsumerGroupState, Uuid};
use group_coordinator::protocol::{ConsumerGroupHeartbeatRequest, TopicIdPartitions};
use group_coordinator::{Coordinator, ErrorCode};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

const G: &str = "g";
const TOPICS: [&str; 3] = ["foo", "bar", "baz"];

#[derive(Clone, Debug)]
enum Op {
    /// Member `m` (static when `instance`) joins with topics chosen by the bit mask.
    Join {
        m: u8,
        instance: bool,
        topics: u8,
        assignor: u8,
    },
    /// A heartbeat acknowledging what the client was last given (`lose`: its response is lost).
    Beat {
        m: u8,
        lose: bool,
    },
    /// A heartbeat at a wrong epoch.
    Stale {
        m: u8,
        delta: i8,
    },
    Leave {
        m: u8,
        temporary: bool,
    },
    Subscribe {
        m: u8,
        topics: u8,
    },
    /// A topic gains partitions.
    Grow {
        topic: u8,
        by: u8,
    },
    Advance {
        ms: u32,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => (0..5u8, any::<bool>(), 1..8u8, 0..3u8).prop_map(|(m, instance, topics, assignor)| Op::Join { m, instance, topics, assignor }),
        4 => (0..5u8, prop::bool::weighted(0.1)).prop_map(|(m, lose)| Op::Beat { m, lose }),
        1 => (0..5u8, -3..3i8).prop_map(|(m, delta)| Op::Stale { m, delta }),
        1 => (0..5u8, any::<bool>()).prop_map(|(m, temporary)| Op::Leave { m, temporary }),
        1 => (0..5u8, 1..8u8).prop_map(|(m, topics)| Op::Subscribe { m, topics }),
        1 => (0..3u8, 1..4u8).prop_map(|(topic, by)| Op::Grow { topic, by }),
        1 => (0..70_000u32).prop_map(|ms| Op::Advance { ms }),
    ]
}

/// What a well-behaved client remembers: its member id, epoch and what it owns.
#[derive(Clone, Debug, Default)]
struct Client {
    member_id: String,
    instance: Option<String>,
    epoch: i32,
    owned: Vec<TopicIdPartitions>,
    incarnation: u32,
}

struct World {
    c: Coordinator,
    now: i64,
    clients: BTreeMap<u8, Client>,
    sizes: [i32; 3],
}

fn names(mask: u8) -> Vec<String> {
    TOPICS
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, t)| t.to_string())
        .collect()
}

impl World {
    fn new() -> World {
        let mut c = Coordinator::default();
        let sizes = [6, 3, 4];
        c.update_metadata(
            0,
            &TOPICS
                .iter()
                .zip(sizes)
                .map(|(t, n)| (t.to_string(), None, n))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        World {
            c,
            now: 0,
            clients: BTreeMap::new(),
            sizes,
        }
    }

    fn send(&mut self, m: u8, r: ConsumerGroupHeartbeatRequest, lose: bool) {
        let out = self.c.consumer_group_heartbeat(self.now, &r).unwrap();
        self.c
            .check_invariants()
            .unwrap_or_else(|e| panic!("after {r:?}: {e}"));
        if lose {
            return;
        }
        let Some(client) = self.clients.get_mut(&m) else {
            return;
        };
        match out.error_code {
            ErrorCode::None => {
                client.epoch = out.member_epoch;
                if let Some(a) = out.assignment {
                    client.owned = a.topic_partitions;
                }
            }
            // Fenced or unknown: the client loses its partitions and rejoins (epoch 0).
            ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId => {
                client.epoch = 0;
                client.owned.clear();
            }
            _ => {}
        }
    }

    fn run(&mut self, op: &Op) {
        match *op {
            Op::Join {
                m,
                instance,
                topics,
                assignor,
            } => {
                let client = self.clients.entry(m).or_default();
                client.incarnation += 1;
                // A restarted static member keeps its instance id with a new member id.
                client.member_id = format!("m{m}-{}", client.incarnation);
                if instance {
                    client.instance = Some(format!("i{m}"));
                }
                client.epoch = 0;
                client.owned.clear();
                let r = ConsumerGroupHeartbeatRequest {
                    group_id: G.into(),
                    member_id: client.member_id.clone(),
                    member_epoch: 0,
                    instance_id: client.instance.clone(),
                    rebalance_timeout_ms: 20_000,
                    subscribed_topic_names: Some(names(topics)),
                    server_assignor: [None, Some("uniform"), Some("range")][assignor as usize]
                        .map(str::to_string),
                    topic_partitions: Some(vec![]),
                    ..Default::default()
                };
                self.send(m, r, false);
            }
            Op::Beat { m, lose } => {
                let Some(client) = self.clients.get(&m).cloned() else {
                    return;
                };
                let r = ConsumerGroupHeartbeatRequest {
                    group_id: G.into(),
                    member_id: client.member_id.clone(),
                    member_epoch: client.epoch,
                    instance_id: client.instance.clone(),
                    topic_partitions: Some(client.owned.clone()),
                    ..Default::default()
                };
                if client.epoch == 0 {
                    return; // rejoining needs a full request: a Join op
                }
                self.send(m, r, lose);
            }
            Op::Stale { m, delta } => {
                let Some(client) = self.clients.get(&m).cloned() else {
                    return;
                };
                let epoch = client.epoch + i32::from(delta);
                if epoch <= 0 {
                    return;
                }
                let r = ConsumerGroupHeartbeatRequest {
                    group_id: G.into(),
                    member_id: client.member_id.clone(),
                    member_epoch: epoch,
                    instance_id: client.instance.clone(),
                    ..Default::default()
                };
                self.send(m, r, true);
            }
            Op::Leave { m, temporary } => {
                let Some(client) = self.clients.get(&m).cloned() else {
                    return;
                };
                let epoch = if temporary && client.instance.is_some() {
                    -2
                } else {
                    -1
                };
                let r = ConsumerGroupHeartbeatRequest {
                    group_id: G.into(),
                    member_id: client.member_id.clone(),
                    member_epoch: epoch,
                    instance_id: client.instance.clone(),
                    ..Default::default()
                };
                self.send(m, r, true);
                if let Some(c) = self.clients.get_mut(&m) {
                    c.epoch = 0;
                    c.owned.clear();
                }
            }
            Op::Subscribe { m, topics } => {
                let Some(client) = self.clients.get(&m).cloned() else {
                    return;
                };
                if client.epoch == 0 {
                    return;
                }
                let r = ConsumerGroupHeartbeatRequest {
                    group_id: G.into(),
                    member_id: client.member_id.clone(),
                    member_epoch: client.epoch,
                    instance_id: client.instance.clone(),
                    subscribed_topic_names: Some(names(topics)),
                    topic_partitions: Some(client.owned.clone()),
                    ..Default::default()
                };
                self.send(m, r, false);
            }
            Op::Grow { topic, by } => {
                let i = topic as usize;
                self.sizes[i] += i32::from(by);
                self.c
                    .update_metadata(self.now, &[(TOPICS[i].to_string(), None, self.sizes[i])])
                    .unwrap();
                self.c.check_invariants().unwrap();
            }
            Op::Advance { ms } => {
                self.now += i64::from(ms);
                self.c.advance(self.now).unwrap();
                self.c.check_invariants().unwrap();
            }
        }
    }

    /// Heartbeats from every member still in the group, acknowledging what each was given,
    /// a second apart, until nothing changes.
    fn settle(&mut self) {
        for _ in 0..80 {
            self.c.advance(self.now).unwrap();
            let Some(group) = self.c.consumer_group(G) else {
                return;
            };
            let in_group: BTreeSet<String> = group.members.keys().cloned().collect();
            let ids: Vec<u8> = self
                .clients
                .iter()
                .filter(|(_, c)| in_group.contains(&c.member_id) && c.epoch > 0)
                .map(|(m, _)| *m)
                .collect();
            self.now += 1_000;
            for m in ids {
                self.run(&Op::Beat { m, lose: false });
            }
        }
    }
}

/// How many sequences ended with members in the group (checked below: the test is not vacuous).
static SETTLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn most_random_sequences_end_with_a_live_group() {
    random_heartbeat_sequences_keep_the_invariants_and_settle();
    assert!(
        SETTLED.load(std::sync::atomic::Ordering::Relaxed) > 100,
        "{}",
        SETTLED.load(std::sync::atomic::Ordering::Relaxed)
    );
}

fn rng_seed() -> u64 {
    match std::env::var("PROPTEST_RNG_SEED") {
        Ok(seed) => seed
            .parse()
            .unwrap_or_else(|_| panic!("PROPTEST_RNG_SEED must be a number, got {seed:?}")),
        Err(_) => 20261201,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, rng_seed: proptest::test_runner::RngSeed::Fixed(rng_seed()), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_heartbeat_sequences_keep_the_invariants_and_settle(ops in proptest::collection::vec(op(), 1..60)) {
        let mut w = World::new();
        for op in &ops {
            w.run(op);
        }
        // Every client still in the group heartbeats each second; members the clients lost
        // track of (a lost leave, a fenced or away client) stop and their sessions expire.
        w.settle();
        let Some(group) = w.c.consumer_group(G) else { return Ok(()) };
        if group.members.is_empty() {
            prop_assert_eq!(group.state(), ConsumerGroupState::Empty);
            return Ok(());
        }
        SETTLED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        prop_assert_eq!(group.state(), ConsumerGroupState::Stable, "{:#?}", group.members);
        for m in group.members.values() {
            prop_assert_eq!((m.state(), m.member_epoch()), (MemberState::Stable, group.assignment_epoch));
        }
        // Every partition of every subscribed topic is assigned exactly once.
        let mut assigned: BTreeSet<(Uuid, i32)> = BTreeSet::new();
        for m in group.members.values() {
            for (t, ps) in m.progress.assigned.iter() {
                for p in ps {
                    prop_assert!(assigned.insert((*t, *p)), "{t}-{p} twice");
                }
            }
        }
        let subscribed: BTreeSet<&String> = group.members.values().flat_map(|m| m.subscribed_topic_names.iter()).collect();
        let want: usize = subscribed.iter().map(|t| w.sizes[TOPICS.iter().position(|x| x == &t.as_str()).unwrap()] as usize).sum();
        prop_assert_eq!(assigned.len(), want);
    }
}
