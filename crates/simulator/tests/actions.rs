//! `Action`'s one-pass JSON reader (`src/action_reader.rs`) against the serde derive it replaced:
//! `Derived` below is the enum's old declaration with its old derive, kept as the oracle. Random
//! objects built from every action's fields (right and wrong types, nulls, unknown keys, keys
//! of other actions, no `type`) are accepted by both or refused by both, read alike, and the
//! refusals the page shows are worded alike.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use group_coordinator::Request;
use group_simulator::Action;
use group_simulator::builtin::{SCENARIOS, scenario};
use group_simulator::scenario::{Application, ConsumerSpec, LinkSpec, PauseKind, Settings};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
#[allow(dead_code)]
enum Derived {
    AddConsumer(ConsumerSpec),
    Close {
        consumer: String,
    },
    Crash {
        consumer: String,
    },
    Restart {
        consumer: String,
        #[serde(default)]
        down_ms: i64,
    },
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
    Cut {
        consumer: String,
    },
    Heal {
        consumer: String,
    },
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
    Subscribe {
        consumer: String,
        #[serde(default)]
        topics: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
    },
    SetConfig {
        consumer: String,
        config: Settings,
    },
    CreatePartitions {
        topic: String,
        count: i32,
    },
    CreateTopic {
        topic: String,
        partitions: i32,
    },
    Failover {
        #[serde(default)]
        down_ms: i64,
    },
    FailNextPersist {
        error: String,
    },
    DeliverNow {
        consumer: String,
        correlation_id: i32,
        #[serde(default)]
        response: bool,
    },
    Drop {
        consumer: String,
        correlation_id: i32,
        #[serde(default)]
        response: bool,
    },
    Inject {
        client: String,
        at_ms: i64,
        request: Request,
    },
    Advance {
        at_ms: i64,
    },
    Unload {
        group_id: String,
    },
    Load {
        group_id: String,
    },
}

// (Unused otherwise: they make sure the oracle's field types are the real ones.)
#[allow(dead_code)]
fn _types(_: LinkSpec, _: Application) {}

/// Both readers on one JSON text: Ok(the action as JSON) or Err(the message).
fn both(text: &str) -> (Result<Value, String>, Result<Value, String>) {
    let ours = serde_json::from_str::<Action>(text)
        .map(|a| serde_json::to_value(a).unwrap())
        .map_err(|e| e.to_string());
    let derived = serde_json::from_str::<Derived>(text)
        .map(|a| serde_json::to_value(a).unwrap())
        .map_err(|e| e.to_string());
    (ours, derived)
}

/// Drops serde_json's position suffix (the page drops it too).
fn words(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |i| &message[..i])
}

/// The action types the schema names (from the same enum the reader builds), and one it does not.
fn types() -> Vec<String> {
    let schema = serde_json::to_value(schemars::schema_for!(group_simulator::Scenario)).unwrap();
    let mut types: Vec<String> = schema["$defs"]["Action"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            v["properties"]["type"]["const"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(types.len(), 22, "{types:?}");
    types.push("explode".to_string());
    types
}

/// Values for each key: right ones, nulls and wrong types.
fn values(key: &str) -> Vec<Value> {
    let mut v = match key {
        "name" | "consumer" | "topic" | "error" | "client" | "groupId" => {
            vec![json!("c1"), json!("")]
        }
        "topics" => vec![json!(["orders"]), json!([]), json!("orders")],
        "config" => vec![json!({"session.timeout.ms": 10000}), json!({})],
        "startMs" | "processingMs" | "downMs" | "latencyMs" | "jitterMs" | "atMs" => {
            vec![json!(0), json!(1500), json!(-1), json!(1.5)]
        }
        "network" => vec![json!({"latencyMs": 5}), json!({"bogus": 1})],
        "application" => vec![json!({"revokeMsPerPartition": 3}), json!({})],
        "kind" => vec![json!("gc"), json!("processing"), json!("nap")],
        "loss" => vec![json!(0.1), json!(2)],
        "count" | "correlationId" | "partitions" => vec![json!(3), json!(4_000_000_000_i64)],
        "pattern" => vec![json!("orders.*"), json!("(")],
        "response" => vec![json!(true), json!(1)],
        "request" => vec![
            json!({"api": "Heartbeat", "apiVersion": 4, "groupId": "g", "generationId": 1, "memberId": "m"}),
            json!({"api": "Nope"}),
        ],
        _ => vec![json!(1)],
    };
    v.push(Value::Null);
    v.push(json!({}));
    v
}

const KEYS: [&str; 25] = [
    "groupId",
    "name",
    "topics",
    "pattern",
    "config",
    "startMs",
    "processingMs",
    "network",
    "application",
    "consumer",
    "downMs",
    "kind",
    "latencyMs",
    "jitterMs",
    "loss",
    "topic",
    "count",
    "partitions",
    "error",
    "correlationId",
    "response",
    "client",
    "atMs",
    "request",
    "colour",
];

fn object() -> impl Strategy<Value = String> {
    let types = types();
    let ty = prop_oneof![
        8 => (0..types.len()).prop_map(move |i| Some(json!(types[i]))),
        1 => Just(None),
        1 => Just(Some(json!(7))),
    ];
    let entries = prop::collection::vec((0..KEYS.len(), 0..6usize), 0..5);
    (ty, entries, any::<bool>()).prop_map(|(ty, entries, tag_last)| {
        let mut parts: Vec<String> = entries
            .into_iter()
            .map(|(k, v)| {
                let values = values(KEYS[k]);
                format!("\"{}\":{}", KEYS[k], values[v % values.len()])
            })
            .collect();
        if let Some(ty) = ty {
            let tag = format!("\"type\":{ty}");
            if tag_last {
                parts.push(tag);
            } else {
                parts.insert(0, tag);
            }
        }
        format!("{{{}}}", parts.join(","))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn accepts_and_refuses_what_the_derive_did(text in object()) {
        let (ours, derived) = both(&text);
        match (&ours, &derived) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{}", text),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{text}: ours {ours:?}, derived {derived:?}"),
        }
    }
}

#[test]
fn every_action_of_every_built_in_scenario_reads_back() {
    let mut n = 0;
    for (name, _) in SCENARIOS {
        let s = scenario(name).unwrap();
        for step in &s.script {
            if let Some(action) = &step.action {
                let text = serde_json::to_string(action).unwrap();
                assert_eq!(
                    &serde_json::from_str::<Action>(&text).unwrap(),
                    action,
                    "{text}"
                );
                n += 1;
            }
        }
    }
    assert!(n > 20, "{n} actions");
}

#[test]
fn refusals_are_worded_as_the_derive_worded_them() {
    for text in [
        r#"{"type":"explode","consumer":"a"}"#,
        r#"{"consumer":"a"}"#,
        r#"{"type":"close"}"#,
        r#"{"type":"close","consumer":"a","colour":1}"#,
        r#"{"type":"close","consumer":"a","topics":["t"]}"#,
        r#"{"type":"close","consumer":"a","consumer":"b"}"#,
        r#"{"type":"close","consumer":null}"#,
        r#"{"type":"close","consumer":5}"#,
        r#"{"type":"subscribe","topics":[]}"#,
        r#"{"type":"createTopic","topic":"t"}"#,
        r#"{"type":"setConfig","consumer":"a","config":5}"#,
        r#"{"type":"addConsumer","topics":[]}"#,
        r#"{"type":"addConsumer","name":"a","topics":[],"consumer":"b"}"#,
        r#"{"type":"pause","consumer":"a","kind":"nap"}"#,
        r#"{"type":"deliverNow","consumer":"a"}"#,
        r#"{"type":"inject","client":"c","atMs":0}"#,
        r#"{"type":"unload","groupId":5}"#,
        r#"{"type":"load"}"#,
        r#""close""#,
    ] {
        let (ours, derived) = both(text);
        let (ours, derived) = (ours.unwrap_err(), derived.unwrap_err());
        let derived = derived.replace("enum Derived", "enum Action");
        assert_eq!(words(&ours), words(&derived), "{text}");
    }
    // An action is an object: the derive also took a sequence with the tag first, which the
    // schema never allowed; this reader refuses it.
    let (ours, derived) = both(r#"["close","a"]"#);
    assert!(derived.is_ok(), "{derived:?}");
    assert_eq!(
        words(&ours.unwrap_err()),
        "invalid type: sequence, expected internally tagged enum Action"
    );
    // Where an optional field may be null, null is absent.
    let (ours, derived) = both(r#"{"type":"setNetwork","consumer":null,"loss":null}"#);
    assert_eq!(ours.unwrap(), derived.unwrap());
}
