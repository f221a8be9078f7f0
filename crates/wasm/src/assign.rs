//! The assignors and the consumer-protocol codecs as functions: `assign`, `serverAssign`,
//! `assignCompact` and `encode`/`decode` of subscriptions and assignments (the `assign` widget
//! and the console use them). In the full module only (cargo feature `assign`); a scenario's
//! assignors run inside the simulator, which every module has.

use crate::args::{self, Items, range_error, type_error};
use crate::to_js;
use group_coordinator as core_model;
use serde::Serialize;
use wasm_bindgen::prelude::*;

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
/// Topic ids are derived from the names. Every member is in the result.
#[wasm_bindgen(js_name = serverAssign, unchecked_return_type = "Record<string, { topic: string; partitions: number[] }[]>")]
pub fn server_assign(
    #[wasm_bindgen(unchecked_param_type = "\"uniform\" | \"range\"")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ServerAssignInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    use core_model::consumer_group::Uuid;
    use core_model::consumer_group::assignor::{
        GroupSpec, MemberSpec, ServerAssignor, SubscriptionType, topic_ids,
    };
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
    let input: Input =
        args::json_requiring("input", &input, Items::Assignment, &["topics", "members"])?;
    for (topic, n) in &input.topics {
        if !(0..=1_000_000).contains(n) {
            return Err(range_error(&format!(
                "topics.{topic}: {n} partitions is outside 0..=1000000"
            )));
        }
    }
    // In all, not only per topic (200 topics of a million each ran for a minute, then trapped):
    // the bounds of the client-side assignors.
    let total: i64 = input.topics.values().map(|&n| i64::from(n)).sum();
    if total > group_coordinator::assignor::MAX_PARTITIONS {
        return Err(range_error(&format!(
            "topics: {total} partitions in all, more than the {} this model assigns",
            group_coordinator::assignor::MAX_PARTITIONS
        )));
    }
    if input.members.len() > group_coordinator::assignor::MAX_MEMBERS {
        return Err(range_error(&format!(
            "members: {} members, more than the {} this model assigns",
            input.members.len(),
            group_coordinator::assignor::MAX_MEMBERS
        )));
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
    // Homogeneous or not as the coordinator decides it: by the names subscribed to, topics
    // without metadata included (from the resolved ids, a group where only some members name a
    // missing topic read as homogeneous).
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &input.members {
        let names: BTreeSet<&str> = m.subscribed_topics.iter().map(String::as_str).collect();
        for t in names {
            *counts.entry(t).or_default() += 1;
        }
    }
    let spec = GroupSpec {
        subscription_type: Some(SubscriptionType::of_counts(
            counts.into_values(),
            input.members.len(),
        )),
        partitions: group_coordinator::ordered::map(
            input
                .topics
                .iter()
                .map(|(t, n)| (Uuid::for_topic_name(t), *n)),
        ),
        members,
    };
    let out = assignor.assign(&spec).map_err(|e| range_error(&e.0))?;
    let out: BTreeMap<&str, Vec<TopicPartitionsOut<'_>>> =
        group_coordinator::ordered::map(spec.members.iter().enumerate().map(|(i, m)| {
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
        }));
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
