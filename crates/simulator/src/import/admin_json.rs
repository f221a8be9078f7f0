//! An admin client's description of a group as JSON: Java's `Admin.describeConsumerGroups`
//! (`ConsumerGroupDescription`, its getters' names in camelCase, as Jackson writes them) or
//! confluent-kafka's `AdminClient.describe_consumer_groups` (its attributes in snake_case).
//! Neither client prints JSON itself, so the shape read is the plain one a program writes from
//! those objects:
//!
//! ```json
//! { "groupId": "orders-app", "type": "CONSUMER", "state": "STABLE",
//!   "partitionAssignor": "uniform",
//!   "members": [ { "memberId": "…", "groupInstanceId": null, "clientId": "c1",
//!                  "host": "/10.0.0.7",
//!                  "assignment": { "topicPartitions": [ { "topic": "orders", "partition": 0 } ] },
//!                  "upgraded": true } ] }
//! ```
//!
//! One description, a list of them, or a map from group id to description (what
//! `DescribeConsumerGroupsResult.all()` and confluent-kafka's futures give) are read; of
//! several, the first. An enum is read in any of its spellings (`STABLE`, `Stable`,
//! `ConsumerGroupState.STABLE`) or as librdkafka's number; a partition as `{topic, partition}`
//! or as `"orders-3"`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::{Described, ImportError, Member, Protocol, fault, state_name};

type Object = Map<String, Value>;

/// A field by either of its names (Java's camelCase, Python's snake_case).
fn field<'a>(o: &'a Object, names: &[&str]) -> Option<&'a Value> {
    names
        .iter()
        .find_map(|n| o.get(*n))
        .filter(|v| !v.is_null())
}

fn text<'a>(o: &'a Object, names: &[&str], path: &str) -> Result<Option<&'a str>, ImportError> {
    match field(o, names) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(fault(
            0,
            format!("{path}.{}: expected a string, found {other}", names[0]),
        )),
    }
}

fn has_members(v: &Value) -> bool {
    v.as_object().is_some_and(|o| o.contains_key("members"))
}

/// The description read, with its group id when a map's key gives it.
fn pick(v: &Value) -> Result<(&Object, Option<&str>, usize), ImportError> {
    let none = || {
        fault(
            0,
            "expected a group's description (an object with \"members\"), a list of them, or a map from group id to one",
        )
    };
    match v {
        Value::Object(o) if o.contains_key("members") => Ok((o, None, 1)),
        Value::Object(o) => {
            let count = o.values().filter(|v| has_members(v)).count();
            o.iter()
                .find(|(_, v)| has_members(v))
                .and_then(|(k, v)| Some((v.as_object()?, Some(k.as_str()), count)))
                .ok_or_else(none)
        }
        Value::Array(list) => {
            let count = list.iter().filter(|v| has_members(v)).count();
            list.iter()
                .find_map(|v| v.as_object().filter(|o| o.contains_key("members")))
                .map(|o| (o, None, count))
                .ok_or_else(none)
        }
        _ => Err(none()),
    }
}

/// `STABLE`, `Stable`, `ConsumerGroupState.STABLE`, or librdkafka's number for it
/// (`rd_kafka_consumer_group_state_t`: 0 unknown, 1 preparing, 2 completing, 3 stable, 4 dead,
/// 5 empty).
fn state(v: &Value, path: &str) -> Result<&'static str, ImportError> {
    let found = match v {
        Value::String(s) => state_name(s),
        Value::Number(n) => match n.as_u64() {
            Some(0) => Some("Unknown"),
            Some(1) => Some("PreparingRebalance"),
            Some(2) => Some("CompletingRebalance"),
            Some(3) => Some("Stable"),
            Some(4) => Some("Dead"),
            Some(5) => Some("Empty"),
            _ => None,
        },
        _ => None,
    };
    found.ok_or_else(|| {
        fault(
            0,
            format!("{path}: {v} is not a group state (STABLE, EMPTY, PREPARING_REBALANCE, COMPLETING_REBALANCE, ASSIGNING, RECONCILING)"),
        )
    })
}

/// `CONSUMER` or `CLASSIC` in any spelling, or librdkafka's number
/// (`rd_kafka_consumer_group_type_t`: 1 consumer, 2 classic).
fn group_type(v: &Value, path: &str) -> Result<Option<Protocol>, ImportError> {
    let name = match v {
        Value::String(s) => s.rsplit('.').next().unwrap_or(s).to_ascii_lowercase(),
        Value::Number(n) => match n.as_u64() {
            Some(1) => "consumer".into(),
            Some(2) => "classic".into(),
            _ => String::new(),
        },
        _ => String::new(),
    };
    match name.as_str() {
        "consumer" => Ok(Some(Protocol::Consumer)),
        "classic" => Ok(Some(Protocol::Classic)),
        "unknown" => Ok(None),
        _ => Err(fault(
            0,
            format!("{path}: {v} is not a group type (CONSUMER or CLASSIC)"),
        )),
    }
}

/// A partition: `{"topic": "orders", "partition": 3}` or `"orders-3"`.
fn topic_partition(v: &Value, path: &str) -> Result<(String, i32), ImportError> {
    let bad = || {
        fault(
            0,
            format!(
                "{path}: expected {{\"topic\": \"orders\", \"partition\": 3}} or \"orders-3\", found {v}"
            ),
        )
    };
    let (topic, partition) = match v {
        Value::Object(o) => {
            let topic = o.get("topic").and_then(Value::as_str).ok_or_else(bad)?;
            let partition = o
                .get("partition")
                .and_then(Value::as_i64)
                .and_then(|p| i32::try_from(p).ok())
                .ok_or_else(bad)?;
            (topic.to_string(), partition)
        }
        Value::String(s) => {
            let (topic, partition) = s.rsplit_once('-').ok_or_else(bad)?;
            (topic.to_string(), partition.parse().map_err(|_| bad())?)
        }
        _ => return Err(bad()),
    };
    if partition < 0 {
        return Err(bad());
    }
    group_coordinator::topic_name::validate(&topic)
        .map_err(|e| fault(0, format!("{path}: \"{topic}\" is not a topic's name: {e}")))?;
    Ok((topic, partition))
}

/// A member's assignment: `{"topicPartitions": [...]}` (Java's `MemberAssignment`),
/// `{"topic_partitions": [...]}` (confluent-kafka's) or the list itself.
fn assignment(v: &Value, path: &str) -> Result<Vec<(String, i32)>, ImportError> {
    let (list, path) = match v {
        Value::Array(list) => (list, path.to_string()),
        Value::Object(o) => match field(o, &["topicPartitions", "topic_partitions"]) {
            Some(Value::Array(list)) => (list, format!("{path}.topicPartitions")),
            None => return Ok(Vec::new()),
            Some(other) => {
                return Err(fault(
                    0,
                    format!("{path}.topicPartitions: expected a list, found {other}"),
                ));
            }
        },
        other => {
            return Err(fault(
                0,
                format!("{path}: expected {{\"topicPartitions\": [...]}} or a list, found {other}"),
            ));
        }
    };
    list.iter()
        .enumerate()
        .map(|(i, tp)| topic_partition(tp, &format!("{path}[{i}]")))
        .collect()
}

fn member(v: &Value, path: &str) -> Result<Member, ImportError> {
    let o = v
        .as_object()
        .ok_or_else(|| fault(0, format!("{path}: expected an object, found {v}")))?;
    let member_id = text(
        o,
        &["memberId", "member_id", "consumerId", "consumer_id"],
        path,
    )?
    .ok_or_else(|| fault(0, format!("{path}: no memberId")))?;
    let upgraded = match field(o, &["upgraded"]) {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(other) => {
            return Err(fault(
                0,
                format!("{path}.upgraded: expected true or false, found {other}"),
            ));
        }
    };
    Ok(Member {
        member_id: member_id.to_string(),
        instance_id: text(o, &["groupInstanceId", "group_instance_id"], path)?
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        client_id: text(o, &["clientId", "client_id"], path)?
            .unwrap_or_default()
            .to_string(),
        host: text(o, &["host"], path)?.unwrap_or_default().to_string(),
        assignment: Some(match field(o, &["assignment"]) {
            Some(a) => assignment(a, &format!("{path}.assignment"))?,
            None => Vec::new(),
        }),
        upgraded,
    })
}

pub(super) fn read(text_in: &str) -> Result<Described, ImportError> {
    let value: Value = serde_json::from_str(text_in)
        .map_err(|e| fault(e.line(), format!("not valid JSON: {e}")))?;
    let (o, key, count) = pick(&value)?;
    let mut d = Described {
        sources: alloc::vec!["describeConsumerGroups JSON".to_string()],
        ..Described::default()
    };
    d.group_id = text(o, &["groupId", "group_id"], "group")?
        .or(key)
        .map(str::to_string);
    if count > 1 {
        let group = d.group_id.clone().unwrap_or_default();
        d.note(
            format!("The JSON describes {count} groups; only the first, {group}, was read."),
            format!("JSON 描述了 {count} 个消费组；只读取了第一个 {group}。"),
        );
    }
    if let Some(v) = field(o, &["type"]) {
        d.protocol = group_type(v, "type")?;
    }
    if let Some(v) = field(o, &["groupState", "group_state", "state"]) {
        let name = state(v, "state")?;
        if name == "Dead" {
            return Err(fault(0, "state: the group is Dead: it does not exist"));
        }
        if matches!(name, "Assigning" | "Reconciling") {
            d.protocol.get_or_insert(Protocol::Consumer);
        }
        d.state = Some(name.into());
    }
    d.assignor = text(o, &["partitionAssignor", "partition_assignor"], "group")?
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let Some(Value::Array(members)) = field(o, &["members"]) else {
        return Err(fault(0, "members: expected a list of the group's members"));
    };
    for (i, m) in members.iter().enumerate() {
        let m = member(m, &format!("members[{i}]"))?;
        for (t, p) in m.assignment.iter().flatten() {
            d.saw_partition(t, *p);
        }
        if m.upgraded.is_some() {
            d.protocol.get_or_insert(Protocol::Consumer);
        }
        d.members.push(m);
    }
    Ok(d)
}
