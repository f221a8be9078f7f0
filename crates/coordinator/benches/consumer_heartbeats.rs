//! ConsumerGroupHeartbeats per second for one KIP-848 consumer group of 1,000 members on
//! 10,000 partitions: the joins (each one a new group epoch and target), the reconciliation
//! until Stable, then rounds of steady heartbeats (each member at its epoch, owning what it is
//! assigned). `cargo bench -p group-coordinator --bench consumer_heartbeats`; `scripts/bench.sh`
//! prints it beside the classic group's requests per second.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use group_coordinator::Coordinator;
use group_coordinator::protocol::{ConsumerGroupHeartbeatRequest, TopicIdPartitions};
use std::time::Instant;

const MEMBERS: usize = 1000;

fn main() {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("orders".into(), None, 10_000)])
        .unwrap();
    let id = |m: usize| format!("member-{m:04}");
    let started = Instant::now();
    let mut epochs = vec![0; MEMBERS];
    let mut owned: Vec<Vec<TopicIdPartitions>> = vec![Vec::new(); MEMBERS];
    for (m, epoch) in epochs.iter_mut().enumerate() {
        let r = c
            .consumer_group_heartbeat(
                0,
                &ConsumerGroupHeartbeatRequest {
                    group_id: "bench".into(),
                    member_id: id(m),
                    member_epoch: 0,
                    rebalance_timeout_ms: 300_000,
                    subscribed_topic_names: Some(vec!["orders".into()]),
                    topic_partitions: Some(vec![]),
                    ..Default::default()
                },
            )
            .unwrap();
        *epoch = r.member_epoch;
        if let Some(a) = r.assignment {
            owned[m] = a.topic_partitions;
        }
    }
    let joins = started.elapsed();
    let mut requests = 0usize;
    let beat = |c: &mut Coordinator, m: usize, epoch: i32, owned: &[TopicIdPartitions]| {
        c.consumer_group_heartbeat(
            0,
            &ConsumerGroupHeartbeatRequest {
                group_id: "bench".into(),
                member_id: id(m),
                member_epoch: epoch,
                topic_partitions: Some(owned.to_vec()),
                ..Default::default()
            },
        )
        .unwrap()
    };
    let settle_started = Instant::now();
    for _ in 0..10 {
        for m in 0..MEMBERS {
            let r = beat(&mut c, m, epochs[m], &owned[m]);
            requests += 1;
            epochs[m] = r.member_epoch;
            if let Some(a) = r.assignment {
                owned[m] = a.topic_partitions;
            }
        }
    }
    let settle = settle_started.elapsed();
    let group = c.consumer_group("bench").unwrap();
    assert_eq!(group.state().name(), "Stable");
    c.drain_events();
    let steady_started = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        for m in 0..MEMBERS {
            std::hint::black_box(beat(&mut c, m, epochs[m], &owned[m]));
        }
        // (A driver drains the events it draws; the wasm run does the same.)
        c.drain_events();
    }
    let steady = steady_started.elapsed();
    let per_second = (rounds * MEMBERS) as f64 / steady.as_secs_f64();
    println!(
        "joins of {MEMBERS} members: {:.1} ms; reconciling to Stable ({requests} heartbeats): {:.1} ms",
        joins.as_secs_f64() * 1e3,
        settle.as_secs_f64() * 1e3
    );
    println!("BENCH native heartbeats_per_second {per_second:.0}");
}
