//! Scenarios: a seeded world (broker and consumer settings by Kafka's names, topics, consumers,
//! network) and a timed script of actions and narration, read from JSON and checked before
//! anything runs.

mod check;

pub use check::apply_settings;

use crate::config::ConsumerConfig;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::ConfigValue;
use group_coordinator::{BrokerConfig, ErrorCode, Request};
use serde::{Deserialize, Serialize};

/// A text in the two languages of the interface.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

/// A setting's value as JSON gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Setting {
    Bool(bool),
    Number(f64),
    Text(String),
}

impl Setting {
    pub fn to_config_value(&self) -> ConfigValue {
        match self {
            Setting::Bool(b) => ConfigValue::Bool(*b),
            Setting::Number(n) => ConfigValue::Number(*n),
            Setting::Text(t) => ConfigValue::Text(t.clone()),
        }
    }

    /// The value as a config's text (what IncrementalAlterConfigs carries): a whole number
    /// without a fraction.
    pub fn to_text(&self) -> String {
        match self {
            Setting::Bool(b) => b.to_string(),
            // (no_std: no `f64::fract`.)
            Setting::Number(n) if (*n as i64) as f64 == *n => format!("{}", *n as i64),
            Setting::Number(n) => format!("{n}"),
            Setting::Text(t) => t.clone(),
        }
    }
}

pub type Settings = BTreeMap<String, Setting>;

/// Latency, jitter and loss of the link between a consumer and the coordinator (each way).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct LinkSpec {
    pub latency_ms: i64,
    /// Each message is delayed by a further 0..=jitter ms, drawn from the seed.
    pub jitter_ms: i64,
    /// Probability in 0..=1 that a message is lost.
    pub loss: f64,
}

impl Default for LinkSpec {
    fn default() -> Self {
        LinkSpec {
            latency_ms: 1,
            jitter_ms: 0,
            loss: 0.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsumerSpec {
    /// The consumer's `client.id`, also its name in the views.
    pub name: String,
    /// `subscribe(topics)`: the topics by name (none with a `pattern`).
    #[serde(default)]
    pub topics: Vec<String>,
    /// Subscribes to the topics whose whole name matches this regular expression (RE2/J syntax)
    /// instead: with `group.protocol=consumer` the coordinator resolves it
    /// (`subscribe(SubscriptionPattern)`, Kafka 4.0's `SubscribedTopicRegex`); a classic consumer
    /// matches it against its own metadata at every refresh (`subscribe(Pattern)`,
    /// `metadata.max.age.ms`) and rejoins when the matching topics change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Kafka consumer properties over the scenario's `consumer` defaults.
    #[serde(default)]
    pub config: Settings,
    /// When the application creates the consumer and starts polling.
    #[serde(default)]
    pub start_ms: i64,
    /// How long the application works on each batch between two `poll()` calls (not a Kafka
    /// setting: the application's behaviour).
    #[serde(default = "default_processing_ms")]
    pub processing_ms: i64,
    /// Overrides the scenario's network for this consumer's link.
    #[serde(default)]
    pub network: Option<LinkSpec>,
    /// Overrides the scenario's application timing for this consumer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application: Option<Application>,
}

/// How long the application's own code takes: not Kafka settings, but what decides how much a
/// rebalance costs a real application. `onPartitionsRevoked` commits offsets, flushes state and
/// stops work for every partition it gives up; `onPartitionsAssigned` restores state and seeks;
/// an eager rebalance pays the revoke for every partition, a cooperative one only for those that
/// move. The consumer's poll thread is busy meanwhile: the JoinGroup that follows a revoke, and
/// every later poll, wait for the listener to return, and a partition assigned is processed only
/// once `onPartitionsAssigned` has returned (the ledger counts it unowned until then).
///
/// All zero by default (the listener returns at once), as the built-in scenarios assume unless
/// they say otherwise. Closing a consumer does not wait for its listener (every strategy pays
/// that alike).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Application {
    /// `onPartitionsRevoked`: ms per partition given up.
    #[serde(default)]
    pub revoke_ms_per_partition: i64,
    /// `onPartitionsAssigned`: ms per partition newly assigned.
    #[serde(default)]
    pub assign_ms_per_partition: i64,
    /// `onPartitionsLost`: ms per partition lost (after the member was fenced or its generation
    /// reset).
    #[serde(default)]
    pub lost_ms_per_partition: i64,
    /// Polls come up to this much later than the steady `processingMs` rhythm, a different
    /// amount each batch (drawn from the seed); below `processingMs`.
    #[serde(default)]
    pub processing_jitter_ms: i64,
}

pub(crate) fn default_processing_ms() -> i64 {
    100
}

/// What a pause stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PauseKind {
    /// The application is stuck between two polls (slow processing); the heartbeat thread
    /// goes on, so the member stays in the group until `max.poll.interval.ms`.
    #[default]
    Processing,
    /// The whole process stops (a long GC pause): no heartbeats, nothing is read; what arrives
    /// waits for the resume.
    Gc,
}

/// Something done to the world at a moment: by the script, or by the user from the page.
// Read from JSON by `action_reader` (one pass, no buffering), which follows these serde
// attributes as the derive would; the JSON Schema comes from them too.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Action {
    /// A new consumer starts.
    AddConsumer(ConsumerSpec),
    /// The application closes the consumer (commit, revoke, LeaveGroup unless static).
    Close {
        consumer: String,
    },
    /// The process dies: nothing more is sent.
    Crash {
        consumer: String,
    },
    /// Close, then start the same consumer (same settings, same `group.instance.id`) again
    /// after `downMs`: one step of a rolling restart.
    Restart {
        consumer: String,
        #[serde(default)]
        down_ms: i64,
    },
    /// A closed or crashed consumer starts again.
    Start {
        consumer: String,
    },
    Pause {
        consumer: String,
        #[serde(default)]
        kind: PauseKind,
    },
    Resume {
        consumer: String,
    },
    /// The link between the consumer and the coordinator drops everything, both ways.
    Cut {
        consumer: String,
    },
    Heal {
        consumer: String,
    },
    /// Changes the network of one consumer's link, or of every link when `consumer` is absent.
    SetNetwork {
        #[serde(default)]
        consumer: Option<String>,
        #[serde(default)]
        latency_ms: Option<i64>,
        #[serde(default)]
        jitter_ms: Option<i64>,
        #[serde(default)]
        loss: Option<f64>,
    },
    /// The application changes its subscription (`subscribe(topics)`, or with `pattern`
    /// `subscribe(Pattern)`).
    Subscribe {
        consumer: String,
        #[serde(default)]
        topics: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
    },
    /// Changes consumer properties; they take effect at the consumer's next request.
    SetConfig {
        consumer: String,
        config: Settings,
    },
    /// An admin adds partitions to a topic (Kafka's CreatePartitions): `count` is the topic's
    /// new partition count, above its current one. Consumer groups see it at their next
    /// heartbeat; a classic group's leader when its metadata is next refreshed
    /// (`metadata.max.age.ms`).
    CreatePartitions {
        topic: String,
        count: i32,
    },
    /// An admin creates a topic (Kafka's CreateTopics) with `partitions` partitions. A pattern
    /// that matches it takes it in: the coordinator's at its next resolution, a classic
    /// consumer's at its next metadata refresh.
    CreateTopic {
        topic: String,
        partitions: i32,
    },
    /// The coordinator loses the group's partition; after `downMs` a coordinator loads it
    /// from the last persisted group record.
    Failover {
        #[serde(default)]
        down_ms: i64,
    },
    /// The next group-record write fails with this Kafka error (e.g. `NOT_LEADER_OR_FOLLOWER`).
    FailNextPersist {
        error: String,
    },
    /// A message in flight arrives now, before anything else due: the consumer's request
    /// (`response: false`) or the coordinator's answer to it. A connection delivers in order, so
    /// only the first message in flight on its link, that way, can be chosen. The book's cases
    /// are races; this plays the other order.
    DeliverNow {
        consumer: String,
        correlation_id: i32,
        #[serde(default)]
        response: bool,
    },
    /// A message in flight is dropped (the consumer's request then times out).
    Drop {
        consumer: String,
        correlation_id: i32,
        #[serde(default)]
        response: bool,
    },
    /// A live run's input (`live` scenarios only): a real client's request, as `group-broker`
    /// recorded it, reaches the coordinator at `atMs`. `client` names the client's lane (the
    /// connection it came on); a new name opens a lane. The request's correlation id is the
    /// broker's routing id, unique in the run.
    // (Read from JSON only with the `live` feature.)
    Inject {
        client: String,
        at_ms: i64,
        #[cfg_attr(
            feature = "schema",
            schemars(
                schema_with = "crate::scenario::request_schema",
                extend("tsType" = "Request")
            )
        )]
        request: Request,
    },
    /// A live run's input (`live` scenarios only): the broker fired the coordinator's due timers
    /// at `atMs` (a live broker fires them when its clock gets there, a little late; the run
    /// fires them then too, so that it says exactly what the broker said).
    // (Read from JSON only with the `live` feature.)
    Advance {
        at_ms: i64,
    },
    /// A live run's input (`live` scenarios only): the broker's coordinator lost the group's
    /// partition (`group-broker`'s `failover` command), at the run's current time. Its requests
    /// get NOT_COORDINATOR until [`Action::Load`]. (Not [`Action::Failover`]: that schedules
    /// the load itself, and a live run's load comes when the broker's does.)
    // (Read from JSON only with the `live` feature.)
    Unload {
        group_id: String,
    },
    /// A live run's input (`live` scenarios only): the broker's coordinator loaded the group
    /// again, from its records.
    // (Read from JSON only with the `live` feature.)
    Load {
        group_id: String,
    },
}

/// A coordinator request in the JSON form of the wasm `Coordinator.handle` (an object tagged
/// by `api`); its fields are the model's, checked when the action is read.
#[cfg(feature = "schema")]
pub(crate) fn request_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "A coordinator request, tagged by `api` (see the Coordinator's `handle`).",
        "required": ["api"],
        "properties": { "api": { "type": "string" } }
    })
}

impl Action {
    /// The consumer the action names, if any.
    pub fn consumer(&self) -> Option<&str> {
        match self {
            Action::AddConsumer(spec) => Some(&spec.name),
            Action::Close { consumer }
            | Action::Crash { consumer }
            | Action::Restart { consumer, .. }
            | Action::Start { consumer }
            | Action::Pause { consumer, .. }
            | Action::Resume { consumer }
            | Action::Cut { consumer }
            | Action::Heal { consumer }
            | Action::Subscribe { consumer, .. }
            | Action::SetConfig { consumer, .. }
            | Action::DeliverNow { consumer, .. }
            | Action::Drop { consumer, .. } => Some(consumer),
            Action::SetNetwork { consumer, .. } => consumer.as_deref(),
            Action::Failover { .. }
            | Action::FailNextPersist { .. }
            | Action::CreatePartitions { .. }
            | Action::CreateTopic { .. }
            | Action::Inject { .. }
            | Action::Advance { .. }
            | Action::Unload { .. }
            | Action::Load { .. } => None,
        }
    }

    /// Kafka's error for `FailNextPersist`.
    pub fn persist_error(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// One line of the script: an action, a narration checkpoint, or both, at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScriptStep {
    pub at_ms: i64,
    #[serde(default)]
    pub action: Option<Action>,
    #[serde(default)]
    pub narrate: Option<Text>,
    /// The scenario's key moment (at most one step, with a narration): where a link or an embed
    /// with `moment=key`, and the page's "key moment" button, open the run.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub key: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub title: Text,
    #[serde(default)]
    pub description: Text,
    /// What the scenario's key moment (its script step marked `key`) shows, in a few words: the
    /// picker's one-click list of moments names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_moment: Option<Text>,
    #[serde(default)]
    pub seed: u64,
    #[serde(default = "default_group_id")]
    pub group_id: String,
    /// Kafka broker properties (`group.initial.rebalance.delay.ms`, ...).
    #[serde(default)]
    pub broker: Settings,
    /// Kafka consumer properties every consumer starts from.
    #[serde(default)]
    pub consumer: Settings,
    /// The scenario group's own settings (KIP-848 group configs: `consumer.session.timeout.ms`,
    /// `consumer.heartbeat.interval.ms`), over the broker's `group.consumer.*`: as an admin's
    /// IncrementalAlterConfigs of the group before the run starts. Consumer-protocol members
    /// use them; classic members do not.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub group: Settings,
    /// Topic -> partition count.
    pub topics: BTreeMap<String, i32>,
    #[serde(default)]
    pub network: LinkSpec,
    pub consumers: Vec<ConsumerSpec>,
    #[serde(default)]
    pub script: Vec<ScriptStep>,
    /// The application's timing every consumer starts from (see [`Application`]).
    #[serde(default, skip_serializing_if = "is_default")]
    pub application: Application,
    /// How long the scenario runs (the page's end of the scrubber); `runUntil` may go further.
    #[serde(default = "default_duration_ms")]
    pub duration_ms: i64,
    /// A live run: the group's members are real clients outside the run, whose requests come in
    /// as `inject` actions (a `group-broker` trace, which the page follows). Nothing is
    /// simulated around the coordinator: no consumers of the scenario's own, no script actions,
    /// and the coordinator's timers fire only at `advance` actions, when the broker fired them.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub live: bool,
    /// A real group's description this scenario was read from (`importGroup`): its sources,
    /// what was assumed, and the members' assignments as described.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<crate::import::Imported>,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn default_group_id() -> String {
    "demo-group".to_string()
}

fn default_duration_ms() -> i64 {
    60_000
}

/// Why a scenario or an action was refused: the field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl core::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.path.is_empty() {
            write!(f, "scenario: {}", self.message)
        } else {
            write!(f, "scenario field \"{}\": {}", self.path, self.message)
        }
    }
}

fn err(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError {
        path: path.into(),
        message: message.into(),
    }
}

/// Bounds that keep a run within what a browser tab can hold, and each event's work small enough
/// that a bounded number of them returns quickly (measured in wasm under Node: at 1,000
/// consumers an event costs ~6 µs on average and a whole rebalance's assignment ~20 ms; at
/// 10,000 consumers an event cost ~0.5 ms, so 100,000 of them took close to a minute).
pub const MAX_CONSUMERS: usize = 1_000;
pub const MAX_TOPICS: usize = 10_000;
pub const MAX_PARTITIONS: i64 = 100_000;
pub const MAX_SCRIPT_STEPS: usize = 100_000;
pub const MAX_TIME_MS: i64 = 7 * 24 * 3_600_000;
const MAX_NAME: usize = 249;

impl Scenario {
    /// Reads and checks a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let scenario: Scenario = serde_json::from_str(text).map_err(|e| err("", format!("{e}")))?;
        scenario.check()?;
        Ok(scenario)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The broker configuration the scenario asks for.
    pub fn broker_config(&self) -> Result<BrokerConfig, ScenarioError> {
        let mut config = BrokerConfig::default();
        for (key, value) in &self.broker {
            config
                .set(key, &value.to_config_value())
                .map_err(|e| err(format!("broker.{key}"), e.message))?;
        }
        config
            .validate()
            .map_err(|e| err(format!("broker.{}", e.key), e.message))?;
        Ok(config)
    }

    /// The group configs the scenario sets, as IncrementalAlterConfigs' SET operations, checked
    /// as Kafka's `GroupConfig.validate` checks them against the broker's bounds.
    pub fn group_configs(&self) -> Result<Vec<group_coordinator::AlterableConfig>, ScenarioError> {
        use group_coordinator::{AlterConfigOp, AlterableConfig, altered};
        let ops: Vec<AlterableConfig> = self
            .group
            .iter()
            .map(|(name, value)| AlterableConfig {
                name: name.clone(),
                op: AlterConfigOp::Set,
                value: Some(value.to_text()),
            })
            .collect();
        if !ops.is_empty() {
            let broker = self.broker_config()?;
            altered(&broker, &BTreeMap::new(), &self.group_id, &ops).map_err(|(_, message)| {
                // Kafka's messages name the setting first ("Unknown group config name: x",
                // "consumer.session.timeout.ms must be ...").
                let key = self
                    .group
                    .keys()
                    .find(|k| message.contains(k.as_str()))
                    .map_or_else(|| String::from("group"), |k| format!("group.{k}"));
                err(key, message)
            })?;
        }
        Ok(ops)
    }

    /// The settings of a consumer: the defaults, the scenario's `consumer`, then its own.
    pub fn consumer_config(
        &self,
        spec: &ConsumerSpec,
        path: &str,
    ) -> Result<ConsumerConfig, ScenarioError> {
        let mut config = ConsumerConfig::default();
        for (key, value) in &self.consumer {
            config
                .set(key, &value.to_config_value())
                .map_err(|m| err(format!("consumer.{key}"), m))?;
        }
        apply_settings(&mut config, &spec.config, &format!("{path}.config"))?;
        Ok(config)
    }
}

impl LinkSpec {
    /// The loss probability in parts per million (integer draws keep runs identical everywhere).
    pub fn loss_ppm(&self) -> u32 {
        (self.loss * 1_000_000.0) as u32
    }
}
