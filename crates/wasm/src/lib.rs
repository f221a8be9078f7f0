//! The JavaScript binding of the group coordinator model and its simulated world: plain JS
//! objects in and out (Kafka's JSON field names, bytes as base64), errors as JS
//! `TypeError`/`RangeError` with a message that names the parameter and the problem. No logic
//! lives here: every call checks its arguments (`args`), converts, forwards to
//! `group-coordinator` or `group-simulator` and converts back. A refused call changes nothing.
//!
//! Values cross as JSON text (serde_json on this side, `JSON.parse`/`JSON.stringify` on the
//! other) rather than through serde-wasm-bindgen: its struct path reads only the fields a struct
//! expects, so a misspelt field would be silently ignored instead of refused; and JSON is
//! faster for these shapes (measured: 42k -> 53k requests/s in `bench/wasm-requests.mjs`).

use args::{Items, range_error, type_error};
use group_coordinator as core_model;
use group_coordinator::{BrokerConfig, ConfigValue, CoordinatorError, ErrorCode, Request};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod args;
mod compact;
mod player;
mod simulation;
mod types;

pub use compact::assign_compact;
pub use player::Player;
pub use simulation::{
    Simulation, consumer_config_keys, large_group_scenario, scenario, scenarios, vocabulary,
};

/// The package version and the Kafka behaviour it models.
#[wasm_bindgen]
pub fn version() -> String {
    format!(
        "{} (Kafka classic group coordinator, 4.0 behaviour; 3.x flavour available)",
        env!("CARGO_PKG_VERSION")
    )
}

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!(
            "group-coordinator-wasm panicked (a bug in the model): {info}"
        )));
    }));
}

/// Writes a value as a plain JS object through JSON text (V8 parses JSON faster than objects
/// can be built field by field across the boundary).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| js_sys::Error::new(&format!("cannot convert the result to JS: {e}")))?;
    js_sys::JSON::parse(&text)
}

fn into_error(e: CoordinatorError) -> JsValue {
    match &e {
        CoordinatorError::TimeWentBackwards { .. }
        | CoordinatorError::InvalidRequest(_)
        | CoordinatorError::InvalidConfig(_)
        | CoordinatorError::UnknownGroup(_)
        | CoordinatorError::GroupNotLoaded(_)
        | CoordinatorError::GroupAlreadyLoaded(_)
        | CoordinatorError::InvalidMetadata(_) => range_error(&e.to_string()),
    }
}

/// Reads a config object `{ "group.initial.rebalance.delay.ms": 0, ... }` (through its JSON
/// text, so a getter that throws is a refusal, not an exception through the module).
pub fn parse_config(config: &JsValue) -> Result<BrokerConfig, JsValue> {
    if args::is_absent(config) {
        return Ok(BrokerConfig::default());
    }
    if js_sys::Array::is_array(config) {
        return Err(type_error(
            "config must be an object of Kafka broker properties, e.g. { \"group.initial.rebalance.delay.ms\": 0 }, got an array",
        ));
    }
    let pairs: serde_json::Map<String, serde_json::Value> =
        args::json("config", config, Items::Request)?;
    let mut result = BrokerConfig::default();
    for (key, value) in &pairs {
        let value = match value {
            serde_json::Value::Number(n) => ConfigValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => ConfigValue::Text(s.clone()),
            serde_json::Value::Bool(b) => ConfigValue::Bool(*b),
            _ => {
                return Err(type_error(&format!(
                    "config \"{key}\": expected a number, a string or a boolean (NaN and Infinity read as null), got {value}"
                )));
            }
        };
        result.set(key, &value).map_err(|e| {
            if e.unknown_key {
                type_error(&e.to_string())
            } else {
                range_error(&e.to_string())
            }
        })?;
    }
    result.validate().map_err(|e| range_error(&e.to_string()))?;
    Ok(result)
}

/// Kafka's classic group coordinator, driven request by request.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Coordinator {
    inner: core_model::Coordinator,
}

#[wasm_bindgen]
impl Coordinator {
    /// `config`: Kafka broker properties by name; unknown keys are an error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(
            unchecked_optional_param_type = "Record<string, number | string | boolean>"
        )]
        config: Option<JsValue>,
    ) -> Result<Coordinator, JsValue> {
        let config = config.unwrap_or(JsValue::UNDEFINED);
        Ok(Coordinator {
            inner: core_model::Coordinator::new(parse_config(&config)?),
        })
    }

    /// A coordinator whose member ids come from the stream `seed` starts (`new` is seed 0):
    /// the ids `group-broker --seed` gives, so that a live run's trace replays with them.
    #[wasm_bindgen(js_name = withSeed)]
    pub fn with_seed(
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "Record<string, number | string | boolean>"
        )]
        config: Option<JsValue>,
    ) -> Result<Coordinator, JsValue> {
        let seed = args::whole("seed", &seed, 0.0, 9_007_199_254_740_991.0)? as u64;
        let config = config.unwrap_or(JsValue::UNDEFINED);
        Ok(Coordinator {
            inner: core_model::Coordinator::with_seed(parse_config(&config)?, seed),
        })
    }

    /// Handles one request at `nowMs` (due timers fire first). Returns the responses it
    /// produced: timers' releases, its own (if immediate), and parked ones it released.
    #[wasm_bindgen(unchecked_return_type = "Response[]")]
    pub fn handle(
        &mut self,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = args::time("nowMs", &now_ms)?;
        let request: Request = args::json("request", &request, Items::Request)?;
        let out = self.inner.handle(now, request).map_err(into_error)?;
        to_js(&out)
    }

    /// Moves the clock to `nowMs` and fires every due timer.
    #[wasm_bindgen(unchecked_return_type = "Response[]")]
    pub fn advance(
        &mut self,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = args::time("nowMs", &now_ms)?;
        let out = self.inner.advance(now).map_err(into_error)?;
        to_js(&out)
    }

    /// When `advance` next has work to do, or null.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        self.inner.next_deadline().map(|t| t as f64)
    }

    /// The latest virtual time the coordinator has seen.
    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    /// A snapshot of the group (`type` says which protocol: "classic" or "consumer"), or null
    /// for an unknown group.
    #[wasm_bindgen(unchecked_return_type = "GroupView | ConsumerGroupView | null")]
    pub fn describe(
        &self,
        #[wasm_bindgen(js_name = groupId, unchecked_param_type = "string")] group_id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let group_id = args::string("groupId", &group_id)?;
        if let Some(view) = self.inner.describe_consumer_group(&group_id) {
            return to_js(&view);
        }
        match self.inner.describe(&group_id) {
            Some(view) => to_js(&view),
            None => Ok(JsValue::NULL),
        }
    }

    /// Every group this coordinator knows, by id (classic groups, then consumer groups).
    #[wasm_bindgen(js_name = groupIds)]
    pub fn group_ids(&self) -> Vec<String> {
        self.inner
            .groups()
            .map(|g| g.group_id().to_string())
            .chain(self.inner.consumer_groups().map(|g| g.group_id.clone()))
            .collect()
    }

    /// Defines or changes topics in the metadata image consumer groups (KIP-848) are assigned
    /// from: `{ topics: [{ name, topicId?, partitions }] }`. A topic without `topicId` gets one
    /// derived from its name (the same name, the same id); partitions can only be added.
    #[wasm_bindgen(js_name = updateMetadata)]
    pub fn update_metadata(
        &mut self,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "MetadataUpdate")] update: JsValue,
    ) -> Result<(), JsValue> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Update {
            topics: Vec<TopicUpdate>,
        }
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct TopicUpdate {
            name: String,
            #[serde(default)]
            topic_id: Option<core_model::consumer_group::Uuid>,
            partitions: i32,
            #[serde(default)]
            #[allow(dead_code)]
            racks: Option<Vec<Vec<String>>>,
        }
        let now = args::time("nowMs", &now_ms)?;
        let update: Update = args::json("update", &update, Items::Request)?;
        let topics: Vec<(String, Option<core_model::consumer_group::Uuid>, i32)> = update
            .topics
            .into_iter()
            .map(|t| (t.name, t.topic_id, t.partitions))
            .collect();
        self.inner.update_metadata(now, &topics).map_err(into_error)
    }

    /// The topics consumer groups are assigned from: `[{ name, topicId, partitions }]`.
    #[wasm_bindgen(
        unchecked_return_type = "{ name: string; topicId: string; partitions: number }[]"
    )]
    pub fn topics(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Topic<'a> {
            name: &'a str,
            topic_id: String,
            partitions: i32,
        }
        let topics: Vec<Topic<'_>> = self
            .inner
            .topics()
            .map(|(name, id, partitions)| Topic {
                name,
                topic_id: id.to_string(),
                partitions,
            })
            .collect();
        to_js(&topics)
    }

    /// The events since the last call, each with its narration in English and Chinese (`text`,
    /// the words the simulator's trace uses).
    #[wasm_bindgen(unchecked_return_type = "(CoordinatorEvent & { text: Text })[]")]
    pub fn events(&mut self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Narrated<'a> {
            #[serde(flatten)]
            event: &'a core_model::event::Event,
            text: group_simulator::scenario::Text,
        }
        let events = self.inner.drain_events();
        let narrated: Vec<Narrated<'_>> = events
            .iter()
            .map(|event| Narrated {
                event,
                text: group_simulator::trace::event_text(&event.kind),
            })
            .collect();
        to_js(&narrated)
    }

    /// The coordinator loses the group's partition: parked requests are answered
    /// NOT_COORDINATOR and the group is Dead here until `load`.
    #[wasm_bindgen(unchecked_return_type = "Response[]")]
    pub fn unload(
        &mut self,
        #[wasm_bindgen(js_name = groupId, unchecked_param_type = "string")] group_id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let group_id = args::string("groupId", &group_id)?;
        let out = self.inner.unload(&group_id).map_err(into_error)?;
        to_js(&out)
    }

    /// A coordinator loads the group from its last persisted record.
    pub fn load(
        &mut self,
        #[wasm_bindgen(js_name = groupId, unchecked_param_type = "string")] group_id: JsValue,
    ) -> Result<(), JsValue> {
        let group_id = args::string("groupId", &group_id)?;
        // `load` can only release responses when the loaded group rebalances at once, which
        // parks nothing; there is nothing to return.
        self.inner.load(&group_id).map(drop).map_err(into_error)
    }

    /// The last group record written for the group (what `load` reads), or null.
    #[wasm_bindgen(js_name = lastRecord, unchecked_return_type = "GroupRecord | null")]
    pub fn last_record(
        &self,
        #[wasm_bindgen(js_name = groupId, unchecked_param_type = "string")] group_id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let group_id = args::string("groupId", &group_id)?;
        match self.inner.last_record(&group_id) {
            Some(r) => to_js(r),
            None => Ok(JsValue::NULL),
        }
    }

    /// The next group-record write whose failure Kafka handles fails with this error code
    /// (e.g. 6 NOT_LEADER_OR_FOLLOWER, which the client sees as NOT_COORDINATOR).
    #[wasm_bindgen(js_name = failNextPersist)]
    pub fn fail_next_persist(
        &mut self,
        #[wasm_bindgen(js_name = errorCode, unchecked_param_type = "number")] error_code: JsValue,
    ) -> Result<(), JsValue> {
        let code = args::whole("errorCode", &error_code, -32768.0, 32767.0)?;
        if code == 0.0 {
            return Err(range_error(
                "errorCode must be a non-zero Kafka error code (an int16), got 0 (NONE)",
            ));
        }
        self.inner
            .fail_next_persist(ErrorCode::from_code(code as i16));
        Ok(())
    }
}

/// Kafka's error name for a code (an int16), e.g. 27 -> "REBALANCE_IN_PROGRESS"; "UNKNOWN"
/// for a code Kafka does not define.
#[wasm_bindgen(js_name = errorName)]
pub fn error_name(
    #[wasm_bindgen(unchecked_param_type = "number")] code: JsValue,
) -> Result<String, JsValue> {
    let code = args::whole("code", &code, -32768.0, 32767.0)?;
    Ok(ErrorCode::from_code(code as i16).name().to_string())
}

/// A setting as the page lists it: its Kafka name, default and what it does (both languages).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConfigKeyInfo {
    pub name: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
    pub doc_zh: &'static str,
}

/// `keys` as the page lists them.
pub(crate) fn config_keys(
    keys: &[group_coordinator::config::ConfigKey],
) -> Result<JsValue, JsValue> {
    let keys: Vec<ConfigKeyInfo> = keys
        .iter()
        .map(|k| ConfigKeyInfo {
            name: k.name,
            default: k.default,
            doc: k.doc,
            doc_zh: k.doc_zh,
        })
        .collect();
    to_js(&keys)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ApiInfo {
    name: &'static str,
    key: i16,
    max_version: i16,
}

/// The broker settings the coordinator accepts, with Kafka's defaults.
#[wasm_bindgen(js_name = brokerConfigKeys, unchecked_return_type = "ConfigKeyInfo[]")]
pub fn broker_config_keys() -> Result<JsValue, JsValue> {
    config_keys(&BrokerConfig::KEYS)
}

/// The APIs the coordinator answers and their highest accepted version.
#[wasm_bindgen(unchecked_return_type = "{ name: string; key: number; maxVersion: number }[]")]
pub fn apis() -> Result<JsValue, JsValue> {
    let apis: Vec<ApiInfo> = core_model::Api::ALL
        .iter()
        .map(|a| ApiInfo {
            name: a.name(),
            key: a.key(),
            max_version: a.max_version(),
        })
        .collect();
    to_js(&apis)
}

/// Runs one of Kafka's client-side assignors ("range", "roundrobin", "sticky",
/// "cooperative-sticky") on `input`; every input member is in the result.
#[wasm_bindgen(unchecked_return_type = "Assignment")]
pub fn assign(
    #[wasm_bindgen(
        unchecked_param_type = "\"range\" | \"roundrobin\" | \"sticky\" | \"cooperative-sticky\""
    )]
    strategy: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AssignmentInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    use group_coordinator::assignor::{self, AssignmentInput};
    let strategy = args::strategy(&strategy)?;
    let input: AssignmentInput = args::json("input", &input, Items::Assignment)?;
    let out = assignor::assign(strategy, &input).map_err(|e| range_error(&e.to_string()))?;
    to_js(&out)
}

/// Runs one of the broker's server-side assignors (KIP-848: "uniform" or "range") on `input`,
/// as the coordinator would for a consumer group whose members are `input.members` (taken in
/// member-id order, as the coordinator does) and whose previous target is their `assignment`.
/// Topic ids are derived from the names. Every member is in the result.
#[wasm_bindgen(js_name = serverAssign, unchecked_return_type = "Record<string, { topic: string; partitions: number[] }[]>")]
pub fn server_assign(
    #[wasm_bindgen(unchecked_param_type = "\"uniform\" | \"range\"")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ServerAssignInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    use core_model::consumer_group::Uuid;
    use core_model::consumer_group::assignor::{GroupSpec, MemberSpec, ServerAssignor, topic_ids};
    use std::collections::{BTreeMap, BTreeSet};
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Input {
        topics: BTreeMap<String, i32>,
        members: Vec<Member>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Member {
        member_id: String,
        #[serde(default)]
        instance_id: Option<String>,
        #[serde(default)]
        rack_id: Option<String>,
        subscribed_topics: Vec<String>,
        #[serde(default)]
        assignment: Vec<TopicPartitionsIn>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TopicPartitionsIn {
        topic: String,
        partitions: Vec<i32>,
    }
    #[derive(Serialize)]
    struct TopicPartitionsOut<'a> {
        topic: &'a str,
        partitions: Vec<i32>,
    }
    let name = args::string("name", &name)?;
    let assignor = ServerAssignor::from_name(&name).ok_or_else(|| {
        range_error(&format!(
            "name must be uniform or range (the server assignors), got {}",
            args::quote(&name)
        ))
    })?;
    let input: Input = args::json("input", &input, Items::Assignment)?;
    for (topic, n) in &input.topics {
        if !(0..=1_000_000).contains(n) {
            return Err(range_error(&format!(
                "topics.{topic}: {n} partitions is outside 0..=1000000"
            )));
        }
    }
    let mut seen = BTreeSet::new();
    let mut members: Vec<MemberSpec> = Vec::new();
    for (i, m) in input.members.iter().enumerate() {
        if !seen.insert(m.member_id.clone()) {
            return Err(range_error(&format!(
                "members[{i}].memberId: \"{}\" is given twice",
                m.member_id
            )));
        }
        let mut previous = core_model::consumer_group::assignor::MemberAssignment::new();
        for tp in &m.assignment {
            previous
                .entry(Uuid::for_topic_name(&tp.topic))
                .or_default()
                .extend(tp.partitions.iter().copied());
        }
        members.push(MemberSpec {
            member_id: m.member_id.as_str().into(),
            instance_id: m.instance_id.as_deref().map(Into::into),
            rack_id: m.rack_id.as_deref().map(Into::into),
            // Topics without metadata are left out, as the coordinator resolves names.
            subscribed: topic_ids(
                m.subscribed_topics
                    .iter()
                    .filter(|t| input.topics.contains_key(*t))
                    .map(|t| Uuid::for_topic_name(t)),
            )
            .into(),
            previous: std::borrow::Cow::Owned(previous),
        });
    }
    members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    let names: BTreeMap<Uuid, &str> = group_coordinator::ordered::map(
        input
            .topics
            .keys()
            .map(|t| (Uuid::for_topic_name(t), t.as_str())),
    );
    let spec = GroupSpec {
        subscription_type: None,
        partitions: input
            .topics
            .iter()
            .map(|(t, n)| (Uuid::for_topic_name(t), *n))
            .collect(),
        members,
    };
    let out = assignor.assign(&spec).map_err(|e| range_error(&e.0))?;
    let out: BTreeMap<&str, Vec<TopicPartitionsOut<'_>>> = spec
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            // The member's pairs come sorted by topic id: one entry per run of a topic.
            let mut list: Vec<TopicPartitionsOut<'_>> = Vec::new();
            let mut topic = None;
            for (t, p) in out.member(i) {
                if topic != Some(t) {
                    topic = Some(t);
                    list.push(TopicPartitionsOut {
                        topic: names.get(&t).copied().unwrap_or("?"),
                        partitions: Vec::new(),
                    });
                }
                if let Some(last) = list.last_mut() {
                    last.partitions.push(p);
                }
            }
            list.sort_by(|x, y| x.topic.cmp(y.topic));
            (m.member_id.as_ref(), list)
        })
        .collect();
    to_js(&out)
}

/// Decodes a base64 argument into bytes.
fn bytes_arg(name: &str, base64: &JsValue) -> Result<Vec<u8>, JsValue> {
    let text = args::base64(name, base64)?;
    group_coordinator::protocol::base64_decode(&text)
        .map_err(|e| type_error(&format!("{name}: {e}")))
}

/// `ConsumerProtocolSubscription` bytes (base64) of a subscription object.
#[wasm_bindgen(js_name = encodeSubscription)]
pub fn encode_subscription(
    #[wasm_bindgen(unchecked_param_type = "Subscription")] subscription: JsValue,
) -> Result<String, JsValue> {
    let s: group_coordinator::consumer_protocol::Subscription =
        args::json("subscription", &subscription, Items::Request)?;
    Ok(s.encode().to_base64())
}

/// Decodes `ConsumerProtocolSubscription` bytes (base64).
#[wasm_bindgen(js_name = decodeSubscription, unchecked_return_type = "Subscription")]
pub fn decode_subscription(
    #[wasm_bindgen(unchecked_param_type = "string")] base64: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = bytes_arg("base64", &base64)?;
    let s = group_coordinator::consumer_protocol::Subscription::decode(&bytes).map_err(|e| {
        range_error(&format!(
            "base64 is not a consumer-protocol subscription: {e}"
        ))
    })?;
    to_js(&s)
}

/// `ConsumerProtocolAssignment` bytes (base64) of an assignment object.
#[wasm_bindgen(js_name = encodeAssignment)]
pub fn encode_assignment(
    #[wasm_bindgen(unchecked_param_type = "ConsumerAssignment")] assignment: JsValue,
) -> Result<String, JsValue> {
    let a: group_coordinator::consumer_protocol::Assignment =
        args::json("assignment", &assignment, Items::Request)?;
    Ok(a.encode().to_base64())
}

/// Decodes `ConsumerProtocolAssignment` bytes (base64).
#[wasm_bindgen(js_name = decodeAssignment, unchecked_return_type = "ConsumerAssignment")]
pub fn decode_assignment(
    #[wasm_bindgen(unchecked_param_type = "string")] base64: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = bytes_arg("base64", &base64)?;
    let a = group_coordinator::consumer_protocol::Assignment::decode(&bytes).map_err(|e| {
        range_error(&format!(
            "base64 is not a consumer-protocol assignment: {e}"
        ))
    })?;
    to_js(&a)
}
