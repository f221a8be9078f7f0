//! The built-in scenarios: JSON files in `crates/simulator/scenarios/`, the seed's cases first.

use crate::scenario::{Scenario, Text};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

/// (name, JSON), in the order the page lists them.
pub const SCENARIOS: [(&str, &str); 15] = [
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
];

/// What the scenario picker lists.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioInfo {
    pub name: String,
    pub title: Text,
    pub description: Text,
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
            Some(ScenarioInfo {
                name: name.to_string(),
                title: s.title,
                description: s.description,
                consumers: s.consumers.len(),
                duration_ms: s.duration_ms,
            })
        })
        .collect()
}
