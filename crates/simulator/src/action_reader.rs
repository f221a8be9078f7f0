//! Reading an [`Action`] from JSON in one pass.
//!
//! `Action` is internally tagged (`{"type": "close", "consumer": "c1"}`), and serde's derive reads
//! such an enum by buffering the whole object into its generic `Content` tree first (the tag may
//! come last), then reading each variant's fields out of that tree: about 90 KB of the wasm
//! module, for a value of a few fields. This reader takes every field any action has in one pass
//! over the object, then builds the variant its `type` names. It accepts and refuses what the
//! derive did (but for one form the schema never allowed: the derive also read a sequence with
//! the tag first, `["close", "c1"]`), with serde's own messages: an unknown `type` is `unknown variant`, a field the
//! action does not have is `unknown field` listing the ones it has, a missing field is `missing
//! field`, a repeated one `duplicate field`; `null` is read as absent only where the field is
//! optional. (`tests/actions.rs` checks each action both ways.) The JSON Schema still comes from
//! the enum's serde attributes, which this reader follows.

use crate::scenario::{Action, Application, ConsumerSpec, LinkSpec, PauseKind, Settings};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Unexpected, Visitor};

/// The action types, in the enum's order (as the derive lists them in `unknown variant`). A
/// live run's four inputs come last: without the `live` feature they are not read.
const ALL_TYPES: [&str; 22] = [
    "addConsumer",
    "close",
    "crash",
    "restart",
    "start",
    "pause",
    "resume",
    "cut",
    "heal",
    "setNetwork",
    "subscribe",
    "setConfig",
    "createPartitions",
    "createTopic",
    "failover",
    "failNextPersist",
    "deliverNow",
    "drop",
    "inject",
    "advance",
    "unload",
    "load",
];
const TYPES: &[&str] = if cfg!(feature = "live") {
    &ALL_TYPES
} else {
    ALL_TYPES.split_at(ALL_TYPES.len() - 4).0
};

/// Each action type's fields, in declaration order (as the derive lists them in `unknown field`).
fn fields(kind: &str) -> &'static [&'static str] {
    match kind {
        "addConsumer" => &[
            "name",
            "topics",
            "pattern",
            "config",
            "startMs",
            "processingMs",
            "network",
            "application",
        ],
        "restart" => &["consumer", "downMs"],
        "pause" => &["consumer", "kind"],
        "setNetwork" => &["consumer", "latencyMs", "jitterMs", "loss"],
        "subscribe" => &["consumer", "topics", "pattern"],
        "setConfig" => &["consumer", "config"],
        "createPartitions" => &["topic", "count"],
        "createTopic" => &["topic", "partitions"],
        "failover" => &["downMs"],
        "failNextPersist" => &["error"],
        "deliverNow" | "drop" => &["consumer", "correlationId", "response"],
        "inject" => &["client", "atMs", "request"],
        "advance" => &["atMs"],
        "unload" | "load" => &["groupId"],
        // close, crash, start, resume, cut, heal
        _ => &["consumer"],
    }
}

/// Every field of every action, as read (`Some` once the field was given; an optional field
/// given as `null` is `Some(None)`).
#[derive(Default)]
struct Fields {
    kind: Option<String>,
    name: Option<String>,
    topics: Option<Vec<String>>,
    pattern: Option<Option<String>>,
    config: Option<Settings>,
    start_ms: Option<i64>,
    processing_ms: Option<i64>,
    network: Option<Option<LinkSpec>>,
    application: Option<Option<Application>>,
    consumer: Option<Option<String>>,
    down_ms: Option<i64>,
    pause: Option<PauseKind>,
    latency_ms: Option<Option<i64>>,
    jitter_ms: Option<Option<i64>>,
    loss: Option<Option<f64>>,
    topic: Option<String>,
    count: Option<i32>,
    partitions: Option<i32>,
    error: Option<String>,
    correlation_id: Option<i32>,
    response: Option<bool>,
    client: Option<String>,
    at_ms: Option<i64>,
    group_id: Option<String>,
    #[cfg(feature = "live")]
    request: Option<group_coordinator::Request>,
    /// The fields given, by name, in order; and the first key no action has.
    given: Vec<&'static str>,
    unknown: Option<String>,
}

/// Reads the next value into `slot`, refusing a second one.
fn take<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    given: &mut Vec<&'static str>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    given.push(name);
    Ok(())
}

/// A required field.
fn need<T, E: de::Error>(value: Option<T>, name: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(name))
}

/// `consumer`, required (every action but `setNetwork`, where it may be absent or null).
fn consumer<E: de::Error>(value: Option<Option<String>>) -> Result<String, E> {
    match value {
        None => Err(E::missing_field("consumer")),
        Some(None) => Err(E::invalid_type(Unexpected::Unit, &"a string")),
        Some(Some(c)) => Ok(c),
    }
}

impl Fields {
    fn into_action<E: de::Error>(self) -> Result<Action, E> {
        let kind = need::<_, E>(self.kind, "type")?;
        let Some(&kind) = TYPES.iter().find(|&&t| t == kind) else {
            return Err(E::unknown_variant(&kind, TYPES));
        };
        let allowed = fields(kind);
        if let Some(key) = &self.unknown {
            return Err(E::unknown_field(key, allowed));
        }
        if let Some(name) = self.given.iter().find(|g| !allowed.contains(g)) {
            return Err(E::unknown_field(name, allowed));
        }
        Ok(match kind {
            "addConsumer" => Action::AddConsumer(ConsumerSpec {
                name: need(self.name, "name")?,
                topics: self.topics.unwrap_or_default(),
                pattern: self.pattern.flatten(),
                config: self.config.unwrap_or_default(),
                start_ms: self.start_ms.unwrap_or(0),
                processing_ms: self
                    .processing_ms
                    .unwrap_or_else(crate::scenario::default_processing_ms),
                network: self.network.flatten(),
                application: self.application.flatten(),
            }),
            "close" => Action::Close {
                consumer: consumer(self.consumer)?,
            },
            "crash" => Action::Crash {
                consumer: consumer(self.consumer)?,
            },
            "restart" => Action::Restart {
                consumer: consumer(self.consumer)?,
                down_ms: self.down_ms.unwrap_or(0),
            },
            "start" => Action::Start {
                consumer: consumer(self.consumer)?,
            },
            "pause" => Action::Pause {
                consumer: consumer(self.consumer)?,
                kind: self.pause.unwrap_or_default(),
            },
            "resume" => Action::Resume {
                consumer: consumer(self.consumer)?,
            },
            "cut" => Action::Cut {
                consumer: consumer(self.consumer)?,
            },
            "heal" => Action::Heal {
                consumer: consumer(self.consumer)?,
            },
            "setNetwork" => Action::SetNetwork {
                consumer: self.consumer.flatten(),
                latency_ms: self.latency_ms.flatten(),
                jitter_ms: self.jitter_ms.flatten(),
                loss: self.loss.flatten(),
            },
            "subscribe" => Action::Subscribe {
                consumer: consumer(self.consumer)?,
                topics: self.topics.unwrap_or_default(),
                pattern: self.pattern.flatten(),
            },
            "setConfig" => Action::SetConfig {
                consumer: consumer(self.consumer)?,
                config: need(self.config, "config")?,
            },
            "createPartitions" => Action::CreatePartitions {
                topic: need(self.topic, "topic")?,
                count: need(self.count, "count")?,
            },
            "createTopic" => Action::CreateTopic {
                topic: need(self.topic, "topic")?,
                partitions: need(self.partitions, "partitions")?,
            },
            "failover" => Action::Failover {
                down_ms: self.down_ms.unwrap_or(0),
            },
            "failNextPersist" => Action::FailNextPersist {
                error: need(self.error, "error")?,
            },
            "deliverNow" => Action::DeliverNow {
                consumer: consumer(self.consumer)?,
                correlation_id: need(self.correlation_id, "correlationId")?,
                response: self.response.unwrap_or(false),
            },
            "drop" => Action::Drop {
                consumer: consumer(self.consumer)?,
                correlation_id: need(self.correlation_id, "correlationId")?,
                response: self.response.unwrap_or(false),
            },
            #[cfg(feature = "live")]
            "inject" => Action::Inject {
                client: need(self.client, "client")?,
                at_ms: need(self.at_ms, "atMs")?,
                request: need(self.request, "request")?,
            },
            #[cfg(feature = "live")]
            "unload" => Action::Unload {
                group_id: need(self.group_id, "groupId")?,
            },
            #[cfg(feature = "live")]
            "load" => Action::Load {
                group_id: need(self.group_id, "groupId")?,
            },
            // "advance", the only type left
            _ => Action::Advance {
                at_ms: need(self.at_ms, "atMs")?,
            },
        })
    }
}

struct ActionVisitor;

impl<'de> Visitor<'de> for ActionVisitor {
    type Value = Action;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("internally tagged enum Action")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Action, A::Error> {
        let mut f = Fields::default();
        let g = &mut f.given;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "type" => {
                    if f.kind.is_some() {
                        return Err(de::Error::duplicate_field("type"));
                    }
                    f.kind = Some(map.next_value()?);
                }
                "name" => take(&mut map, &mut f.name, g, "name")?,
                "topics" => take(&mut map, &mut f.topics, g, "topics")?,
                "pattern" => take(&mut map, &mut f.pattern, g, "pattern")?,
                "config" => take(&mut map, &mut f.config, g, "config")?,
                "startMs" => take(&mut map, &mut f.start_ms, g, "startMs")?,
                "processingMs" => take(&mut map, &mut f.processing_ms, g, "processingMs")?,
                "network" => take(&mut map, &mut f.network, g, "network")?,
                "application" => take(&mut map, &mut f.application, g, "application")?,
                "consumer" => take(&mut map, &mut f.consumer, g, "consumer")?,
                "downMs" => take(&mut map, &mut f.down_ms, g, "downMs")?,
                "kind" => take(&mut map, &mut f.pause, g, "kind")?,
                "latencyMs" => take(&mut map, &mut f.latency_ms, g, "latencyMs")?,
                "jitterMs" => take(&mut map, &mut f.jitter_ms, g, "jitterMs")?,
                "loss" => take(&mut map, &mut f.loss, g, "loss")?,
                "topic" => take(&mut map, &mut f.topic, g, "topic")?,
                "count" => take(&mut map, &mut f.count, g, "count")?,
                "partitions" => take(&mut map, &mut f.partitions, g, "partitions")?,
                "error" => take(&mut map, &mut f.error, g, "error")?,
                "correlationId" => take(&mut map, &mut f.correlation_id, g, "correlationId")?,
                "response" => take(&mut map, &mut f.response, g, "response")?,
                "client" => take(&mut map, &mut f.client, g, "client")?,
                "atMs" => take(&mut map, &mut f.at_ms, g, "atMs")?,
                "groupId" => take(&mut map, &mut f.group_id, g, "groupId")?,
                #[cfg(feature = "live")]
                "request" => take(&mut map, &mut f.request, g, "request")?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    f.unknown.get_or_insert(key);
                }
            }
        }
        f.into_action()
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Action, D::Error> {
        deserializer.deserialize_map(ActionVisitor)
    }
}
