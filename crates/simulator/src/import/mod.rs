//! A real group's description read into a scenario: the text `kafka-consumer-groups.sh
//! --describe` prints (`--members --verbose`, `--state`, `--offsets`, in Kafka 4's layout or an
//! older one) or the JSON of an admin client's `describeConsumerGroups`. An operator pastes what
//! their tools print; the scenario has the group's members, their client ids and hosts as names,
//! the topics with their partition counts, the group's protocol and assignor, and the members'
//! assignments as described (`Scenario.imported`).
//!
//! A description does not say everything a run needs: the timeouts, the heartbeat interval, the
//! subscriptions and the application's processing time are not in it. Those take Kafka's
//! defaults, and the scenario lists them as assumed (`Imported.assumed`) so that the page shows
//! them as editable. Nothing else is guessed: a line that cannot be read is refused with its
//! number and what was expected there.

mod admin_json;
mod tool_text;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::scenario::{ConsumerSpec, MAX_CONSUMERS, Scenario, Setting, Settings, Text};

/// Why a description could not be read: the line (1-based; 0 when the fault is not on one line,
/// as a JSON field's) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub message: String,
}

impl core::fmt::Display for ImportError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

pub(crate) fn fault(line: usize, message: impl Into<String>) -> ImportError {
    ImportError {
        line,
        message: message.into(),
    }
}

/// Where an imported scenario came from, and what it assumed: kept in the scenario
/// (`Scenario.imported`) so that a page, a link or a file shows it with the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Imported {
    /// What was read, in the tool's words (`kafka-consumer-groups.sh --describe --members
    /// --verbose`, `describeConsumerGroups JSON`, ...).
    pub sources: Vec<String>,
    /// The group's protocol as described: `classic` or `consumer`.
    pub protocol: String,
    /// The group's state when it was described (`Stable`, `PreparingRebalance`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The assignor the group used (the classic protocol's name, or the server assignor's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignor: Option<String>,
    /// The settings the description does not carry, taken at Kafka's defaults: each a key of
    /// the scenario's `consumer` or `broker` settings (`consumer.session.timeout.ms`), or
    /// `processingMs` for the application's time per batch.
    pub assumed: Vec<String>,
    /// Each member's assignment as described (consumer name → `topic-partition`s), which the
    /// run's own first assignment may not repeat.
    pub assignment: BTreeMap<String, Vec<String>>,
    /// What the reader should know about the import (a guess made, a line skipped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Text>,
}

/// The group's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Protocol {
    Classic,
    Consumer,
}

/// One member as described.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Member {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub client_id: String,
    pub host: String,
    /// Its partitions; `None` when the description counts them without naming their topics
    /// (Kafka 3.7–3.9's `--members --verbose`).
    pub assignment: Option<Vec<(String, i32)>>,
    /// In a consumer group, whether it speaks the consumer protocol (`UPGRADED`): false for a
    /// classic member of a group being migrated.
    pub upgraded: Option<bool>,
}

/// A group as read from one or more descriptions, before it becomes a scenario.
#[derive(Debug, Default)]
pub(crate) struct Described {
    pub group_id: Option<String>,
    pub protocol: Option<Protocol>,
    pub state: Option<String>,
    pub assignor: Option<String>,
    pub members: Vec<Member>,
    /// Each topic's highest partition seen, plus one.
    pub partitions: BTreeMap<String, i32>,
    pub sources: Vec<String>,
    pub notes: Vec<Text>,
}

impl Described {
    pub(crate) fn saw_partition(&mut self, topic: &str, partition: i32) {
        let count = self.partitions.entry(topic.to_string()).or_insert(0);
        *count = (*count).max(partition.saturating_add(1));
    }

    pub(crate) fn note(&mut self, en: String, zh: String) {
        if !self.notes.iter().any(|n| n.en == en) {
            self.notes.push(Text { en, zh });
        }
    }
}

/// Reads a group's description (the tool's text or an admin client's JSON) into a scenario that
/// starts the group's members and runs for a minute.
pub fn import_group(text: &str) -> Result<Scenario, ImportError> {
    let first = text.trim_start().chars().next();
    let described = if matches!(first, Some('{' | '[')) {
        admin_json::read(text)?
    } else {
        tool_text::read(text)?
    };
    scenario(described)
}

/// A group the coordinator holds (a live group served by `group-broker`) read into a scenario as
/// [`import_group`] reads its description: what `describeConsumerGroups` would say of it, with
/// the partition counts of the coordinator's own metadata where it has them. "What if this group
/// restarts now?"
pub fn import_live(
    coordinator: &group_coordinator::Coordinator,
    group_id: &str,
) -> Result<Scenario, ImportError> {
    let mut d = Described {
        group_id: Some(group_id.to_string()),
        sources: alloc::vec![String::from(
            "the live group, as group-broker's coordinator holds it"
        )],
        ..Described::default()
    };
    if let Some(g) = coordinator.describe_consumer_group(group_id) {
        d.protocol = Some(Protocol::Consumer);
        d.state = Some(format!("{:?}", g.state));
        d.assignor = Some(g.preferred_assignor.to_string());
        for m in &g.members {
            let owned: Vec<(String, i32)> = m
                .assigned
                .iter()
                .flat_map(|t| t.partitions.iter().map(move |p| (t.topic.clone(), *p)))
                .collect();
            d.members.push(Member {
                member_id: m.member_id.clone(),
                instance_id: m.instance_id.clone(),
                client_id: m.client_id.clone(),
                host: String::new(),
                assignment: Some(owned),
                upgraded: Some(!m.classic_protocol),
            });
        }
    } else if let Some(g) = coordinator.describe(group_id) {
        d.protocol = Some(Protocol::Classic);
        d.state = Some(g.state.name().to_string());
        d.assignor = g.protocol_name.clone();
        for m in &g.members {
            // What the leader assigned it (the consumer protocol's Assignment, in SyncGroup).
            let owned = group_coordinator::consumer_protocol::Assignment::decode(&m.assignment)
                .map(|a| {
                    a.assigned_partitions
                        .iter()
                        .flat_map(|t| t.partitions.iter().map(move |p| (t.topic.to_string(), *p)))
                        .collect()
                })
                .unwrap_or_default();
            d.members.push(Member {
                member_id: m.member_id.clone(),
                instance_id: m.group_instance_id.clone(),
                client_id: m.client_id.clone(),
                host: String::new(),
                assignment: Some(owned),
                upgraded: None,
            });
        }
    } else {
        return Err(fault(
            0,
            format!("the coordinator holds no group {group_id}"),
        ));
    }
    let assigned: Vec<(String, i32)> = d
        .members
        .iter()
        .flat_map(|m| m.assignment.iter().flatten().cloned())
        .collect();
    for (topic, partition) in &assigned {
        d.saw_partition(topic, *partition);
    }
    // The coordinator's metadata knows each topic's whole partition count.
    for (name, _, partitions) in coordinator.topics() {
        if let Some(count) = d.partitions.get_mut(name) {
            *count = (*count).max(partitions);
        }
    }
    scenario(d)
}

/// The state names as Kafka's `GroupState.toString` spells them, from any of the spellings the
/// tools print (`STABLE`, `Stable`, `ConsumerGroupState.STABLE`, `PREPARING_REBALANCE`).
pub(crate) fn state_name(text: &str) -> Option<&'static str> {
    let bare = text.rsplit('.').next().unwrap_or(text);
    let key: String = bare
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "empty" => "Empty",
        "preparingrebalance" => "PreparingRebalance",
        "completingrebalance" => "CompletingRebalance",
        "stable" => "Stable",
        "dead" => "Dead",
        "assigning" => "Assigning",
        "reconciling" => "Reconciling",
        "unknown" => "Unknown",
        _ => return None,
    })
}

/// A member's name in the run: its client id, with its host where client ids repeat (the Java
/// client's default `consumer-<group>-<n>` counts per process), and a number where both do.
fn names(members: &[Member]) -> Vec<String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for m in members {
        *count.entry(m.client_id.as_str()).or_default() += 1;
    }
    let mut used = BTreeSet::new();
    members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let base = if m.client_id.is_empty() {
                format!("member-{}", i + 1)
            } else if count[m.client_id.as_str()] > 1 && !m.host.is_empty() {
                format!("{}@{}", m.client_id, m.host.trim_start_matches('/'))
            } else {
                m.client_id.clone()
            };
            let mut name = base.clone();
            let mut n = 2;
            while used.contains(&name) {
                name = format!("{base}#{n}");
                n += 1;
            }
            used.insert(name.clone());
            name
        })
        .collect()
}

/// The scenario's consumer settings for the described protocol and assignor, with the
/// settings the description does not carry written out at Kafka's defaults (and listed).
fn settings(d: &mut Described, protocol: Protocol) -> (Settings, Settings, Vec<String>) {
    let mut consumer = Settings::new();
    let mut broker = Settings::new();
    let mut assumed = Vec::new();
    let num = |n: i64| Setting::Number(n as f64);
    match protocol {
        Protocol::Classic => {
            if let Some(name) = d.assignor.clone() {
                match classic_strategy(&name) {
                    Some(strategy) => {
                        consumer.insert(
                            "partition.assignment.strategy".into(),
                            Setting::Text(strategy.into()),
                        );
                    }
                    None => d.note(
                        format!("The assignor \"{name}\" is not one of Kafka's; the run uses the Java client's default (range, cooperative-sticky)."),
                        format!("分配器 \"{name}\" 不是 Kafka 自带的；运行使用 Java 客户端的默认值（range, cooperative-sticky）。"),
                    ),
                }
            }
            if d.assignor.is_none() {
                d.note(
                    "The description does not name the assignor (--state does): the run takes the Java client's default, range then cooperative-sticky, so the group rebalances eagerly with range.".into(),
                    "描述中没有分配器（--state 输出里有）：运行使用 Java 客户端的默认值 range、cooperative-sticky，因此消费组以 range 做 eager 再均衡。".into(),
                );
            }
            for (key, value) in [
                ("session.timeout.ms", 45_000),
                ("heartbeat.interval.ms", 3_000),
            ] {
                consumer.insert(key.into(), num(value));
                assumed.push(format!("consumer.{key}"));
            }
        }
        Protocol::Consumer => {
            consumer.insert("group.protocol".into(), Setting::Text("consumer".into()));
            if let Some(name) = d.assignor.clone() {
                if name == "uniform" || name == "range" {
                    consumer.insert("group.remote.assignor".into(), Setting::Text(name));
                } else {
                    d.note(
                        format!("The server assignor \"{name}\" is not one of Kafka's; the run uses the broker's default (uniform)."),
                        format!("服务端分配器 \"{name}\" 不是 Kafka 自带的；运行使用 broker 的默认值（uniform）。"),
                    );
                }
            }
            for (key, value) in [
                ("group.consumer.session.timeout.ms", 45_000),
                ("group.consumer.heartbeat.interval.ms", 5_000),
            ] {
                broker.insert(key.into(), num(value));
                assumed.push(format!("broker.{key}"));
            }
        }
    }
    consumer.insert("max.poll.interval.ms".into(), num(300_000));
    assumed.push("consumer.max.poll.interval.ms".into());
    assumed.push("processingMs".into());
    (consumer, broker, assumed)
}

/// A classic protocol name (as `--state` prints it, or an assignor's class name) as the
/// simulator's `partition.assignment.strategy`.
fn classic_strategy(name: &str) -> Option<&'static str> {
    let bare = name.rsplit('.').next().unwrap_or(name);
    Some(match bare {
        "range" | "RangeAssignor" => "range",
        "roundrobin" | "RoundRobinAssignor" => "roundrobin",
        "sticky" | "StickyAssignor" => "sticky",
        "cooperative-sticky" | "CooperativeStickyAssignor" => "cooperative-sticky",
        _ => return None,
    })
}

fn tp_name((topic, partition): &(String, i32)) -> String {
    format!("{topic}-{partition}")
}

fn scenario(mut d: Described) -> Result<Scenario, ImportError> {
    if d.members.is_empty() {
        return Err(fault(
            0,
            match d.state.as_deref() {
                Some("Empty") => "the group has no members (it is Empty): there is nothing to restart".to_string(),
                _ => "the text describes no member: paste the output of kafka-consumer-groups.sh --describe --group G --members --verbose (or --offsets), or an admin client's describeConsumerGroups JSON".to_string(),
            },
        ));
    }
    if d.members.len() > MAX_CONSUMERS {
        return Err(fault(
            0,
            format!(
                "the group has {} members; a run holds at most {MAX_CONSUMERS}",
                d.members.len()
            ),
        ));
    }
    let protocol = d.protocol.unwrap_or_else(|| {
        d.note(
            "The description does not say the group's protocol; the run takes the classic protocol (Kafka 4's --verbose output and the admin clients' type say it).".into(),
            "描述中没有消费组的协议；运行按经典协议处理（Kafka 4 的 --verbose 输出和管理客户端的 type 字段会注明）。".into(),
        );
        Protocol::Classic
    });
    if d.partitions.is_empty() {
        return Err(fault(
            0,
            "no member owns a partition and no topic is named: paste --members --verbose or --offsets output, which list the partitions",
        ));
    }
    if d.members.iter().any(|m| m.assignment.is_none()) {
        return Err(fault(
            0,
            "the members' rows count their partitions without naming the topics (--members without --verbose, or the --verbose of Kafka 3.7 to 3.9): paste the --offsets output of the same group with them",
        ));
    }
    let names = names(&d.members);
    let topics: Vec<String> = d.partitions.keys().cloned().collect();
    let (consumer, broker, assumed) = settings(&mut d, protocol);
    if d.members.iter().any(|m| m.upgraded == Some(false)) && protocol == Protocol::Consumer {
        d.note(
            "Members the description marks UPGRADED false speak the classic protocol in the consumer group (a migration under way): the run starts them with group.protocol=classic.".into(),
            "描述中 UPGRADED 为 false 的成员在 consumer 协议组中使用经典协议（迁移进行中）：运行以 group.protocol=classic 启动它们。".into(),
        );
    }
    let shown: Vec<&str> = topics.iter().take(5).map(String::as_str).collect();
    let more = if topics.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    d.note(
        format!(
            "Subscriptions are not in a description: every member is taken to subscribe to every topic the group's partitions are on ({}{more}).",
            shown.join(", ")
        ),
        format!(
            "描述中没有订阅：每个成员都按订阅该组分区所在的全部主题处理（{}{more}）。",
            shown.join("、")
        ),
    );
    d.note(
        "Partition counts are the highest partition the description names, plus one: a topic's partitions that no member owns and that have no committed offset are not seen.".into(),
        "分区数取描述中出现的最大分区号加一：没有成员拥有、也没有提交位移的分区看不到。".into(),
    );
    let mut assignment = BTreeMap::new();
    let consumers: Vec<ConsumerSpec> = d
        .members
        .iter()
        .zip(&names)
        .map(|(m, name)| {
            let mut config = Settings::new();
            if let Some(id) = &m.instance_id {
                config.insert("group.instance.id".into(), Setting::Text(id.clone()));
            }
            if protocol == Protocol::Consumer && m.upgraded == Some(false) {
                config.insert("group.protocol".into(), Setting::Text("classic".into()));
            }
            let mut owned: Vec<(String, i32)> = m.assignment.clone().unwrap_or_default();
            owned.sort();
            assignment.insert(name.clone(), owned.iter().map(tp_name).collect());
            ConsumerSpec {
                name: name.clone(),
                topics: topics.clone(),
                pattern: None,
                config,
                start_ms: 0,
                processing_ms: crate::scenario::default_processing_ms(),
                network: None,
                application: None,
            }
        })
        .collect();
    let group_id = d
        .group_id
        .clone()
        .unwrap_or_else(|| "imported-group".into());
    let partitions: i64 = d.partitions.values().map(|&n| i64::from(n)).sum();
    let protocol_name = match protocol {
        Protocol::Classic => "classic",
        Protocol::Consumer => "consumer",
    };
    let assignor = d.assignor.clone();
    let description = Text {
        en: format!(
            "{} members of {group_id} on {partitions} partitions of {} topics ({protocol_name} protocol{}), read from {}.",
            consumers.len(),
            topics.len(),
            assignor
                .as_deref()
                .map_or_else(String::new, |a| format!(", assignor {a}")),
            d.sources.join(" and "),
        ),
        zh: format!(
            "{group_id} 的 {} 个成员，{} 个主题共 {partitions} 个分区（{protocol_name} 协议{}），读自 {}。",
            consumers.len(),
            topics.len(),
            assignor
                .as_deref()
                .map_or_else(String::new, |a| format!("，分配器 {a}")),
            d.sources.join("、"),
        ),
    };
    let scenario = Scenario {
        name: "imported".into(),
        title: Text {
            en: format!("Your group: {group_id}"),
            zh: format!("你的消费组：{group_id}"),
        },
        description,
        key_moment: None,
        seed: 1,
        group_id,
        broker,
        consumer,
        group: Settings::new(),
        topics: d.partitions.clone(),
        network: Default::default(),
        consumers,
        script: Vec::new(),
        application: Default::default(),
        duration_ms: 60_000,
        live: false,
        imported: Some(Imported {
            sources: d.sources,
            protocol: protocol_name.into(),
            state: d.state,
            assignor,
            assumed,
            assignment,
            notes: d.notes,
        }),
    };
    scenario.check().map_err(|e| fault(0, e.to_string()))?;
    Ok(scenario)
}

#[cfg(test)]
mod tests;
