//! What the views read: a snapshot of the world, and the run's metrics.

use crate::consumer::{CoordinatorStatus, Life, to_topic_partitions};
use crate::scenario::{LinkSpec, PauseKind};
use crate::simulation::Simulation;
use crate::trace::{MemberState, MessageApi};
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::GroupView;
use group_coordinator::consumer_protocol::TopicPartitions;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorldView {
    pub now_ms: i64,
    pub group: Option<GroupView>,
    /// False while a failover is under way.
    pub coordinator_available: bool,
    pub consumers: Vec<ConsumerView>,
    /// Requests sent and not yet answered (or lost), oldest first.
    pub in_flight: Vec<InFlightView>,
    pub topics: BTreeMap<String, i32>,
    pub next_event_ms: Option<i64>,
    pub settled: bool,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConsumerView {
    pub name: String,
    pub life: Life,
    pub paused: Option<PauseKind>,
    pub state: MemberState,
    pub generation_id: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub protocol_name: Option<String>,
    pub is_leader: bool,
    pub rebalance_protocol: crate::config::RebalanceProtocol,
    pub topics: Vec<String>,
    pub owned: Vec<TopicPartitions>,
    pub owned_generation: i32,
    pub rejoin_needed: bool,
    pub coordinator: CoordinatorStatus,
    pub heartbeat_enabled: bool,
    pub session_deadline_ms: Option<i64>,
    pub poll_deadline_ms: Option<i64>,
    pub link: LinkView,
    /// Every consumer property by its Kafka name, as the consumer uses it now.
    pub config: BTreeMap<&'static str, String>,
    pub processing_ms: i64,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkView {
    #[serde(flatten)]
    pub spec: LinkSpec,
    pub cut: bool,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct InFlightView {
    pub consumer: String,
    pub api: MessageApi,
    pub correlation_id: i32,
    pub sent_at_ms: i64,
}

impl WorldView {
    pub fn of(sim: &Simulation) -> WorldView {
        let w = &sim.w;
        let mut in_flight = Vec::new();
        let consumers = sim
            .consumers
            .iter()
            .map(|c| {
                for (correlation_id, api) in c.in_flight() {
                    if let Some(&sent_at_ms) = w.sent_at.get(correlation_id) {
                        in_flight.push(InFlightView {
                            consumer: c.name.to_string(),
                            api,
                            correlation_id,
                            sent_at_ms,
                        });
                    }
                }
                let config = &c.config;
                let settings = config.values().into_iter().collect();
                let link = &w.links[c.index];
                ConsumerView {
                    name: c.name.to_string(),
                    life: c.life,
                    paused: c.paused,
                    state: c.state,
                    generation_id: c.generation.generation_id,
                    member_id: c.generation.member_id.clone(),
                    group_instance_id: config.group_instance_id.clone(),
                    protocol_name: c.generation.protocol_name.clone(),
                    is_leader: c.is_leader,
                    rebalance_protocol: config.rebalance_protocol(),
                    topics: c.topics.clone(),
                    owned: to_topic_partitions(&c.owned),
                    owned_generation: c.owned_generation,
                    rejoin_needed: c.rejoin_needed,
                    coordinator: c.coordinator,
                    heartbeat_enabled: c.heartbeat_enabled,
                    session_deadline_ms: c.heartbeat_enabled.then_some(c.session_deadline),
                    poll_deadline_ms: c.poll_deadline,
                    link: LinkView {
                        spec: link.spec.clone(),
                        cut: link.cut,
                    },
                    config: settings,
                    processing_ms: c.spec.processing_ms,
                }
            })
            .collect();
        group_coordinator::ordered::sort_by_key(&mut in_flight, |f| {
            (f.sent_at_ms, f.correlation_id)
        });
        WorldView {
            now_ms: w.now,
            group: sim.coordinator.describe(&w.group_id),
            coordinator_available: sim.coordinator_available,
            consumers,
            in_flight,
            topics: w.topics.clone(),
            next_event_ms: sim.next_event_time(),
            settled: sim.is_settled(),
        }
    }
}

/// The run's cost, in the terms PLAYGROUND.md compares configurations by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub now_ms: i64,
    /// Times the group entered PreparingRebalance.
    pub rebalances: u64,
    /// Generations completed (join phases).
    pub generations: u64,
    pub generation_id: i32,
    /// Partitions handed to a different consumer than the one that had them last.
    pub partitions_moved: u64,
    /// Partition-milliseconds during which an already-consumed partition had no owner.
    pub unowned_partition_ms: i64,
    /// The longest time one partition was unowned in all.
    pub max_unowned_partition_ms: i64,
    pub unowned_by_partition: Vec<PartitionTime>,
    /// Partition-milliseconds during which a partition had two owners (a zombie that had not
    /// learnt it was out of the group; the classic protocol allows it, commits fence it).
    pub overlap_partition_ms: i64,
    /// Whether the group is settled now, since when, and the time spent unsettled after it
    /// first settled.
    pub settled: bool,
    pub settled_since_ms: Option<i64>,
    pub unsettled_ms: i64,
    pub messages_sent: u64,
    pub messages_lost: u64,
    pub requests_timed_out: u64,
    pub heartbeats: u64,
    pub consumer_failures: u64,
    pub invariant_violations: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PartitionTime {
    pub topic: String,
    pub partition: i32,
    pub ms: i64,
}

impl Metrics {
    pub fn of(sim: &Simulation) -> Metrics {
        let w = &sim.w;
        let (unowned, per) = w.ledger.unowned_until(w.now);
        let counters = &w.counters;
        Metrics {
            now_ms: w.now,
            rebalances: counters.rebalances,
            generations: counters.generations,
            // A consumer group's (KIP-848) group epoch plays the generation's part.
            generation_id: match sim.coordinator.consumer_group(&w.group_id) {
                Some(g) => g.group_epoch,
                _ => sim
                    .coordinator
                    .group(&w.group_id)
                    .map_or(0, |g| g.generation_id()),
            },
            partitions_moved: w.ledger.moved,
            unowned_partition_ms: unowned,
            max_unowned_partition_ms: per.iter().map(|(_, ms)| *ms).max().unwrap_or(0),
            unowned_by_partition: per
                .into_iter()
                .map(|((topic, partition), ms)| PartitionTime {
                    topic: topic.to_string(),
                    partition,
                    ms,
                })
                .collect(),
            overlap_partition_ms: w.ledger.overlap_until(w.now),
            settled: sim.settled_since.is_some(),
            settled_since_ms: sim.settled_since,
            unsettled_ms: sim.unsettled_until_now(),
            messages_sent: counters.messages_sent,
            messages_lost: counters.messages_lost,
            requests_timed_out: counters.requests_timed_out,
            heartbeats: counters.heartbeats,
            consumer_failures: counters.consumer_failures,
            invariant_violations: counters.invariant_violations,
        }
    }
}
