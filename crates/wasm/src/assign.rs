//! The assignors and the consumer-protocol codecs as functions: `assign`, `serverAssign`,
//! `assignCompact` and `encode`/`decode` of subscriptions and assignments (the `assign` widget
//! and the console use them). In the full module only (cargo feature `assign`); a scenario's
//! assignors run inside the simulator, which every module has.

use crate::args::{self, Items, range_error, type_error};
use crate::to_js;
use group_coordinator as core_model;
use group_coordinator::consumer_protocol::TopicPartitions;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// `serverAssign`'s input: partition counts by topic name, and the members with their previous
/// target assignment.
#[derive(serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerAssignInput {
    topics: BTreeMap<String, i32>,
    members: Vec<ServerAssignMember>,
}

/// A member of a consumer group as the server assignors see it.
#[derive(serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ServerAssignMember {
    member_id: String,
    #[serde(default)]
    instance_id: Option<String>,
    /// Taken, as Kafka's ConsumerGroupHeartbeat carries it; neither server assignor reads it.
    #[serde(default)]
    #[allow(dead_code)]
    rack_id: Option<String>,
    subscribed_topics: Vec<String>,
    /// Its previous target assignment.
    #[serde(default)]
    assignment: Vec<TopicPartitions>,
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
    let input: AssignmentInput =
        args::json_requiring("input", &input, Items::Assignment, &["topics", "members"])?;
    let out = assignor::assign(strategy, &input).map_err(|e| range_error(&e.to_string()))?;
    to_js(&out)
}

/// Runs one of the broker's server-side assignors (KIP-848: "uniform" or "range") on `input`,
/// as the coordinator would for a consumer group whose members are `input.members` (taken in
/// member-id order, as the coordinator does) and whose previous target is their `assignment`.
/// Topic ids are derived from the names. Every member is in the result. The input goes to the
/// compact form's function (`serverAssignCompact`), which serves both.
#[wasm_bindgen(js_name = serverAssign, unchecked_return_type = "Assignment")]
pub fn server_assign(
    #[wasm_bindgen(unchecked_param_type = "\"uniform\" | \"range\"")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ServerAssignInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    use group_coordinator::assignor::CompactInput;
    let assignor = server_assignor(&name)?;
    let input: ServerAssignInput =
        args::json_requiring("input", &input, Items::Assignment, &["topics", "members"])?;
    for (topic, n) in &input.topics {
        if !(0..=1_000_000).contains(n) {
            return Err(range_error(&format!(
                "topics.{topic}: {n} partitions is outside 0..=1000000"
            )));
        }
    }
    // The topic table: the topics with metadata, then the names only subscribed to or held
    // (-1: no metadata).
    let mut table: BTreeMap<&str, i32> =
        input.topics.iter().map(|(t, n)| (t.as_str(), *n)).collect();
    for m in &input.members {
        let held = m.assignment.iter().map(|tp| &*tp.topic);
        for t in m.subscribed_topics.iter().map(String::as_str).chain(held) {
            table.entry(t).or_insert(-1);
        }
    }
    let index: BTreeMap<&str, i32> = table
        .keys()
        .enumerate()
        .map(|(k, t)| (*t, k as i32))
        .collect();
    let mut subscriptions = Vec::new();
    let mut owned = Vec::new();
    for m in &input.members {
        subscriptions.push(m.subscribed_topics.len() as i32);
        subscriptions.extend(m.subscribed_topics.iter().map(|t| index[t.as_str()]));
        let pairs: usize = m.assignment.iter().map(|tp| tp.partitions.len()).sum();
        owned.push(pairs as i32);
        for tp in &m.assignment {
            let k = index[&*tp.topic];
            owned.extend(tp.partitions.iter().flat_map(|&p| [k, p]));
        }
    }
    let c = CompactInput {
        topics: table.keys().map(|t| (*t).to_owned()).collect(),
        partitions: table.values().copied().collect(),
        members: input.members.iter().map(|m| m.member_id.clone()).collect(),
        instance_ids: Some(
            input
                .members
                .iter()
                .map(|m| m.instance_id.clone())
                .collect(),
        ),
        subscriptions,
        owned,
        generations: Vec::new(),
    };
    let out = core_model::consumer_group::assignor::server_assign_compact(assignor, &c)
        .map_err(|e| range_error(&e.0))?;
    // Per member in input order: a count, then (topic index, partition) pairs by topic name.
    let mut result: BTreeMap<&str, Vec<TopicPartitions>> = BTreeMap::new();
    let mut at = 0;
    for member_id in &c.members {
        let count = out[at] as usize;
        let pairs = &out[at + 1..at + 1 + 2 * count];
        at += 1 + 2 * count;
        let mut list: Vec<TopicPartitions> = Vec::new();
        for pair in pairs.chunks_exact(2) {
            let topic = c.topics[pair[0] as usize].as_str();
            match list.last_mut() {
                Some(last) if &*last.topic == topic => last.partitions.push(pair[1]),
                _ => list.push(TopicPartitions {
                    topic: topic.into(),
                    partitions: vec![pair[1]],
                }),
            }
        }
        result.insert(member_id.as_str(), list);
    }
    to_js(&result)
}

/// A server assignor by its `group.consumer.assignors` name.
fn server_assignor(
    name: &JsValue,
) -> Result<core_model::consumer_group::assignor::ServerAssignor, JsValue> {
    let name = args::string("name", name)?;
    core_model::consumer_group::assignor::ServerAssignor::from_name(&name).ok_or_else(|| {
        range_error(&format!(
            "name must be uniform or range (the server assignors), got {}",
            args::quote(&name)
        ))
    })
}

/// Runs a server assignor (KIP-848: "uniform" or "range") on the compact form of an input
/// (`CompactServerAssignInput`: names once, integer arrays for the rest), for large groups: as
/// `serverAssign` does, members in member-id order, `owned` their previous targets, a topic
/// count of -1 a name without metadata. The result is `assignCompact`'s: per member (input
/// order), how many partitions, then (topic index, partition) pairs by topic name then
/// partition.
#[wasm_bindgen(js_name = serverAssignCompact)]
pub fn server_assign_compact(
    #[wasm_bindgen(unchecked_param_type = "\"uniform\" | \"range\"")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactServerAssignInput")] input: JsValue,
) -> Result<js_sys::Int32Array, JsValue> {
    let assignor = server_assignor(&name)?;
    let c = crate::compact::input(&input)?;
    let out = core_model::consumer_group::assignor::server_assign_compact(assignor, &c)
        .map_err(|e| range_error(&e.0))?;
    Ok(js_sys::Int32Array::from(out.as_slice()))
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
        args::json_requiring("subscription", &subscription, Items::Request, &["topics"])?;
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
    let a: group_coordinator::consumer_protocol::Assignment = args::json_requiring(
        "assignment",
        &assignment,
        Items::Request,
        &["assignedPartitions"],
    )?;
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
