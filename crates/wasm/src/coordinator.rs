//! The coordinator alone, driven request by request: the `Coordinator` class (the protocol
//! console and conformance tests drive it) and `apis()`. In the full module only (cargo feature
//! `console`): an embed that plays scenarios never reads a request from JS, and leaving this out
//! leaves out the request and config readers too.

use crate::args::{self, Items, range_error, type_error};
use crate::to_js;
use group_coordinator as core_model;
use group_coordinator::{BrokerConfig, ConfigValue, CoordinatorError, ErrorCode, Request};
use serde::Serialize;
use wasm_bindgen::prelude::*;

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

/// Kafka's group coordinator (classic and consumer groups), driven request by request.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Coordinator {
    inner: core_model::Coordinator,
    /// The responses of the last `handle`, `advance` or `unload`, for `responseTexts` (kept,
    /// not copied: they were only serialised).
    last: Vec<core_model::Response>,
}

#[wasm_bindgen]
impl Coordinator {
    /// `config`: Kafka broker properties by name; unknown keys are an error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Settings")] config: Option<JsValue>,
    ) -> Result<Coordinator, JsValue> {
        let config = config.unwrap_or(JsValue::UNDEFINED);
        Ok(Coordinator {
            inner: core_model::Coordinator::new(parse_config(&config)?),
            last: Vec::new(),
        })
    }

    /// A coordinator whose member ids come from the stream `seed` starts (`new` is seed 0):
    /// the ids `group-broker --seed` gives, so that a live run's trace replays with them.
    #[wasm_bindgen(js_name = withSeed)]
    pub fn with_seed(
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Settings")] config: Option<JsValue>,
    ) -> Result<Coordinator, JsValue> {
        let seed = args::whole("seed", &seed, 0.0, 9_007_199_254_740_991.0)? as u64;
        let config = config.unwrap_or(JsValue::UNDEFINED);
        Ok(Coordinator {
            inner: core_model::Coordinator::with_seed(parse_config(&config)?, seed),
            last: Vec::new(),
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
        self.answered(out)
    }

    /// Moves the clock to `nowMs` and fires every due timer.
    #[wasm_bindgen(unchecked_return_type = "Response[]")]
    pub fn advance(
        &mut self,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = args::time("nowMs", &now_ms)?;
        let out = self.inner.advance(now).map_err(into_error)?;
        self.answered(out)
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
        let now = args::time("nowMs", &now_ms)?;
        let update: MetadataUpdate = args::json("update", &update, Items::Request)?;
        let topics: Vec<(String, Option<core_model::consumer_group::Uuid>, i32)> = update
            .topics
            .into_iter()
            .map(|t| (t.name, t.topic_id, t.partitions))
            .collect();
        self.inner.update_metadata(now, &topics).map_err(into_error)
    }

    /// The topics consumer groups are assigned from: `[{ name, topicId, partitions }]`.
    #[wasm_bindgen(unchecked_return_type = "TopicInfo[]")]
    pub fn topics(&self) -> Result<JsValue, JsValue> {
        let topics: Vec<TopicInfo<'_>> = self
            .inner
            .topics()
            .map(|(name, id, partitions)| TopicInfo {
                name,
                topic_id: id.to_string(),
                partitions,
            })
            .collect();
        to_js(&topics)
    }

    /// The events since the last call, each with its narration in English and Chinese (`text`,
    /// the words the simulator's trace uses).
    #[wasm_bindgen(unchecked_return_type = "NarratedCoordinatorEvent[]")]
    pub fn events(&mut self) -> Result<JsValue, JsValue> {
        let events = self.inner.drain_events();
        let narrated: Vec<NarratedCoordinatorEvent<'_>> = events
            .iter()
            .map(|event| NarratedCoordinatorEvent {
                event,
                text: group_simulator::narration::event_text(&event.kind),
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
        self.answered(out)
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

    /// What each response of the last `handle`, `advance` or `unload` says, in one line in
    /// each language (the model's narration, `group_simulator::narration::response_text`),
    /// with the error it carries (for ConsumerGroupDescribe and the config APIs, the first of
    /// their groups' or resources').
    #[wasm_bindgen(js_name = responseTexts, unchecked_return_type = "ResponseText[]")]
    pub fn response_texts(&self) -> Result<JsValue, JsValue> {
        use group_simulator::narration::{response_error, response_text};
        use group_simulator::trace::Lang;
        let texts: Vec<ResponseText> = self
            .last
            .iter()
            .map(|r| ResponseText {
                error_code: response_error(r).code(),
                text: group_simulator::scenario::Text {
                    en: response_text(r, Lang::En),
                    zh: response_text(r, Lang::Zh),
                },
            })
            .collect();
        to_js(&texts)
    }
}

impl Coordinator {
    /// Hands `out` to JavaScript and keeps it for `responseTexts`.
    fn answered(&mut self, out: Vec<core_model::Response>) -> Result<JsValue, JsValue> {
        let js = to_js(&out)?;
        self.last = out;
        Ok(js)
    }
}

/// A response in one line in each language (the model's narration), and the error it carries.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResponseText {
    error_code: i16,
    text: group_simulator::scenario::Text,
}

/// A request in one line, as the protocol console logs it: its API, version and correlation
/// id, and its member (the id shortened) and epoch where it has them.
#[wasm_bindgen(js_name = requestText)]
pub fn request_text(
    #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
) -> Result<String, JsValue> {
    let request: Request = args::json("request", &request, Items::Request)?;
    Ok(group_simulator::narration::request_text(&request))
}

/// `text` with every member id's UUID cut to its first block (`consumer-1-088712be…`), as the
/// narration writes them.
#[wasm_bindgen(js_name = shortIds)]
pub fn short_ids(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
    Ok(group_simulator::narration::short_ids(&args::string(
        "text", &text,
    )?))
}

/// An API the coordinator answers: its name, key and highest accepted version.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApiInfo {
    name: &'static str,
    key: i16,
    max_version: i16,
}

/// The APIs the coordinator answers and their highest accepted version.
#[wasm_bindgen(unchecked_return_type = "ApiInfo[]")]
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

/// `updateMetadata`'s argument: topics consumer groups are assigned from.
#[derive(serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct MetadataUpdate {
    topics: Vec<TopicUpdate>,
}

/// A topic of `updateMetadata`: without `topicId`, one derived from its name.
#[derive(serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct TopicUpdate {
    name: String,
    #[serde(default)]
    topic_id: Option<core_model::consumer_group::Uuid>,
    partitions: i32,
    /// For each partition, its replicas' racks (taken; the server assignors do not read them).
    #[serde(default)]
    #[allow(dead_code)]
    racks: Option<Vec<Vec<String>>>,
}

/// A topic consumer groups are assigned from, as `topics` lists it.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct TopicInfo<'a> {
    name: &'a str,
    topic_id: String,
    partitions: i32,
}

/// A coordinator event with its narration in English and Chinese, as `events` returns it.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct NarratedCoordinatorEvent<'a> {
    #[serde(flatten)]
    event: &'a core_model::event::Event,
    text: group_simulator::scenario::Text,
}
