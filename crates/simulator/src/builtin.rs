//! The built-in scenarios: JSON files in `crates/simulator/scenarios/`, the seed's cases first,
//! the consumer protocol's (KIP-848) last.

use crate::scenario::{Scenario, Text};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

/// (name, JSON), in the order the page lists them.
pub const SCENARIOS: [(&str, &str); 30] = [
    ("normal-join", include_str!("../scenarios/normal-join.json")),
    (
        "leave-while-preparing-rebalance",
        include_str!("../scenarios/leave-while-preparing-rebalance.json"),
    ),
    (
        "normal-rebalance",
        include_str!("../scenarios/normal-rebalance.json"),
    ),
    (
        "leave-while-completing-rebalance",
        include_str!("../scenarios/leave-while-completing-rebalance.json"),
    ),
    (
        "leave-while-stable",
        include_str!("../scenarios/leave-while-stable.json"),
    ),
    (
        "last-member-leaves",
        include_str!("../scenarios/last-member-leaves.json"),
    ),
    (
        "rolling-restart-eager",
        include_str!("../scenarios/rolling-restart-eager.json"),
    ),
    (
        "rolling-restart-cooperative",
        include_str!("../scenarios/rolling-restart-cooperative.json"),
    ),
    (
        "rolling-restart-static",
        include_str!("../scenarios/rolling-restart-static.json"),
    ),
    (
        "max-poll-interval-exceeded",
        include_str!("../scenarios/max-poll-interval-exceeded.json"),
    ),
    (
        "crash-session-timeout",
        include_str!("../scenarios/crash-session-timeout.json"),
    ),
    (
        "zombie-fenced",
        include_str!("../scenarios/zombie-fenced.json"),
    ),
    (
        "leader-leaves-mid-rebalance",
        include_str!("../scenarios/leader-leaves-mid-rebalance.json"),
    ),
    (
        "late-joiner-initial-delay",
        include_str!("../scenarios/late-joiner-initial-delay.json"),
    ),
    (
        "group-max-size",
        include_str!("../scenarios/group-max-size.json"),
    ),
    (
        "failover-mid-rebalance",
        include_str!("../scenarios/failover-mid-rebalance.json"),
    ),
    (
        "subscription-dropped-topic",
        include_str!("../scenarios/subscription-dropped-topic.json"),
    ),
    (
        "partition-count-change",
        include_str!("../scenarios/partition-count-change.json"),
    ),
    (
        "regex-new-topic",
        include_str!("../scenarios/regex-new-topic.json"),
    ),
    // The consumer protocol (KIP-848): the seed's cases again, and what only it has.
    (
        "consumer-protocol-leave-while-reconciling",
        include_str!("../scenarios/consumer-protocol-leave-while-reconciling.json"),
    ),
    (
        "consumer-protocol-leave-while-stable",
        include_str!("../scenarios/consumer-protocol-leave-while-stable.json"),
    ),
    (
        "consumer-protocol-last-member-leaves",
        include_str!("../scenarios/consumer-protocol-last-member-leaves.json"),
    ),
    (
        "consumer-protocol-static-leave-and-return",
        include_str!("../scenarios/consumer-protocol-static-leave-and-return.json"),
    ),
    (
        "consumer-protocol-rolling-restart",
        include_str!("../scenarios/consumer-protocol-rolling-restart.json"),
    ),
    (
        "consumer-protocol-rebalance-timeout",
        include_str!("../scenarios/consumer-protocol-rebalance-timeout.json"),
    ),
    (
        "consumer-protocol-stale-epoch-commit",
        include_str!("../scenarios/consumer-protocol-stale-epoch-commit.json"),
    ),
    (
        "consumer-protocol-partition-count-change",
        include_str!("../scenarios/consumer-protocol-partition-count-change.json"),
    ),
    (
        "consumer-protocol-regex-new-topic",
        include_str!("../scenarios/consumer-protocol-regex-new-topic.json"),
    ),
    // Online migration between the protocols (Kafka 4.0).
    (
        "rolling-upgrade-to-consumer-protocol",
        include_str!("../scenarios/rolling-upgrade-to-consumer-protocol.json"),
    ),
    (
        "rolling-downgrade-to-classic",
        include_str!("../scenarios/rolling-downgrade-to-classic.json"),
    ),
];

/// What the scenario picker lists.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ScenarioInfo {
    pub name: String,
    pub title: Text,
    pub description: Text,
    /// What its key moment shows, when it names one in a few words (the picker's one-click
    /// list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_moment: Option<Text>,
    /// The protocol its consumers speak (`group.protocol` of the first).
    pub protocol: crate::config::GroupProtocol,
    /// Its script switches consumers to the other protocol (a rolling upgrade or downgrade).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub migration: bool,
    /// A consumer subscribes by pattern (`subscribe(Pattern)`), from the start or by an action.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub pattern: bool,
    pub consumers: usize,
    pub duration_ms: i64,
}

/// A built-in scenario by name.
pub fn scenario(name: &str) -> Option<Scenario> {
    SCENARIOS
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, json)| Scenario::from_json(json).ok())
}

pub fn infos() -> Vec<ScenarioInfo> {
    SCENARIOS
        .iter()
        .filter_map(|(name, json)| {
            let s = Scenario::from_json(json).ok()?;
            let protocol = s
                .consumers
                .first()
                .and_then(|c| s.consumer_config(c, "consumers[0]").ok())
                .map_or_else(Default::default, |c| c.group_protocol);
            let migration = s.script.iter().any(|step| {
                matches!(&step.action, Some(crate::scenario::Action::SetConfig { config, .. })
                    if config.contains_key("group.protocol"))
            });
            let pattern = s.consumers.iter().any(|c| c.pattern.is_some())
                || s.script.iter().any(|step| {
                    matches!(
                        &step.action,
                        Some(crate::scenario::Action::Subscribe {
                            pattern: Some(_),
                            ..
                        })
                    )
                });
            Some(ScenarioInfo {
                protocol,
                migration,
                pattern,
                name: name.to_string(),
                title: s.title,
                description: s.description,
                key_moment: s.key_moment,
                consumers: s.consumers.len(),
                duration_ms: s.duration_ms,
            })
        })
        .collect()
}

/// A large living group: `consumers` cooperative-sticky consumers on two topics with
/// `partitions_per_consumer` partitions each in all, started 10 ms apart, and a restart of every
/// tenth consumer spread over `duration_ms` (after the first 10 minutes, or the first tenth of the
/// run if shorter). The page's stress scenario and the simulator benchmark's workload.
pub fn large_group(consumers: usize, partitions_per_consumer: usize, duration_ms: i64) -> Scenario {
    use crate::scenario::{Action, ConsumerSpec, ScriptStep, Setting};
    let consumers = consumers.clamp(1, crate::scenario::MAX_CONSUMERS);
    let per_topic = (consumers * partitions_per_consumer)
        .div_ceil(2)
        .clamp(1, crate::scenario::MAX_PARTITIONS as usize / 2) as i32;
    let topics: Vec<String> = alloc::vec!["t0".to_string(), "t1".to_string()];
    let specs = (0..consumers)
        .map(|i| ConsumerSpec {
            name: alloc::format!("c{i}"),
            topics: topics.clone(),
            pattern: None,
            config: Default::default(),
            start_ms: i as i64 * 10,
            processing_ms: 100,
            network: None,
            application: None,
        })
        .collect();
    let restarted: Vec<usize> = (0..consumers).step_by(10).collect();
    let first = (duration_ms / 10).min(600_000);
    let span = (duration_ms - first) * 2 / 3;
    let script = restarted
        .iter()
        .enumerate()
        .map(|(k, &i)| ScriptStep {
            at_ms: first + k as i64 * span / restarted.len() as i64,
            action: Some(Action::Restart {
                consumer: alloc::format!("c{i}"),
                down_ms: 5_000,
            }),
            narrate: None,
            key: false,
        })
        .collect();
    let mut consumer_defaults = crate::scenario::Settings::new();
    consumer_defaults.insert(
        "partition.assignment.strategy".to_string(),
        Setting::Text("cooperative-sticky".to_string()),
    );
    Scenario {
        name: alloc::format!("large-group-{consumers}"),
        title: Text {
            en: alloc::format!("A living group of {consumers} consumers"),
            zh: alloc::format!("{consumers} 个消费者的消费组"),
        },
        description: Text {
            en: "Cooperative-sticky consumers on two topics; every tenth consumer restarts once."
                .to_string(),
            zh: "两个主题上的 cooperative-sticky 消费者；每十个中有一个重启一次。".to_string(),
        },
        key_moment: None,
        seed: 42,
        group_id: "large-group".to_string(),
        broker: Default::default(),
        consumer: consumer_defaults,
        group: Default::default(),
        topics: group_coordinator::ordered::map(topics.iter().map(|t| (t.clone(), per_topic))),
        network: Default::default(),
        consumers: specs,
        script,
        application: Default::default(),
        duration_ms,
        live: false,
        imported: None,
    }
}
