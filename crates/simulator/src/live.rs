//! Following a live run: `group-broker`'s trace (its `--trace` file, or its `--live` WebSocket
//! feed), line by line, into a [`Player`] that the page draws like any run.
//!
//! The trace's first line says how the broker built its model (seed, settings, topics); this
//! builds a `live` scenario the same way. Each input line becomes an action at the end of the
//! run: a request becomes [`Action::Inject`] on its client's lane, a timer advance
//! [`Action::Advance`], a topic CreateTopics made [`Action::CreateTopic`] (after an advance to
//! its time, as the broker's model took it), the operator's failover [`Action::Unload`] and
//! [`Action::Load`]. Each response line is checked against the answer the run's own model
//! gave: the model is deterministic, so they agree, and if they ever did not, the follower
//! stops and says where. Refusals are part of the record: where the broker's model refused a
//! request (its note says so), this model must refuse it too, and the other way round.
//!
//! A lane is a client's connection: its `client.id`, and `client.id #n` for the n-th connection
//! that uses the same id (an admin client, a restarted process, several consumers with the
//! default id). The scenario's group (the one the views show) is the first group a request
//! names; the run is rebuilt then, with the inputs before it (nothing of that group's).

use crate::player::{PlayStop, Player, TimedAction};
use crate::refusal::Refusal;
use crate::scenario::{Action, MAX_TIME_MS, Scenario, ScenarioError, Setting, Text};
use crate::trace::TraceKind;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::Request;
use group_coordinator::quote::clip_message;
use serde_json::Value;

/// The start of the broker's note for a request its model refused.
const REFUSED_NOTE: &str = "the model refused a request";

/// Where following stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FollowStatus {
    /// No header yet.
    Waiting,
    /// Every line so far applied; `checked` of the broker's responses matched this model's.
    Following { inputs: usize, checked: usize },
    /// A response (or a refusal) differed at `line` (1-based): a model difference.
    Diverged { line: usize, what: String },
    /// Line `line` could not be used (not the broker's trace, a cut-off feed).
    Refused { line: usize, what: String },
}

/// The follower's own state (the run is the [`Player`] it feeds).
#[derive(Clone, Debug)]
pub struct Follower {
    status: FollowStatus,
    line: usize,
    inputs: usize,
    checked: usize,
    /// The scenario built from the header, and the group the run shows once a request named
    /// one (until then, the inputs are kept to apply at the start of the rebuilt run).
    scenario: Option<Scenario>,
    group_bound: bool,
    early: Vec<TimedAction>,
    /// Lane names by connection, and how many connections each client id has had.
    lanes: BTreeMap<String, String>,
    connections: BTreeMap<String, usize>,
    /// This model's answers not yet matched with the broker's, by correlation id.
    produced: BTreeMap<i32, Value>,
    /// Trace entries read for answers and refusals so far.
    scanned: usize,
    /// This model refused the last input: the broker's note must say it did too.
    refusal: Option<String>,
}

impl Default for Follower {
    fn default() -> Self {
        Follower::new()
    }
}

impl Follower {
    pub fn new() -> Follower {
        Follower {
            status: FollowStatus::Waiting,
            line: 0,
            inputs: 0,
            checked: 0,
            scenario: None,
            group_bound: false,
            early: Vec::new(),
            lanes: BTreeMap::new(),
            connections: BTreeMap::new(),
            produced: BTreeMap::new(),
            scanned: 0,
            refusal: None,
        }
    }

    pub fn status(&self) -> &FollowStatus {
        &self.status
    }

    /// The run to draw before the header arrives: an empty live run.
    pub fn empty_run() -> Player {
        let scenario = live_scenario(0, BTreeMap::new(), BTreeMap::new(), "live");
        // An empty live scenario is always sound.
        Player::new(scenario, Vec::new()).unwrap_or_else(|_| unreachable!())
    }

    /// Applies `lines` of the trace to `player`, at the end of the run (where the user is
    /// scrubbed back to, the player is returned after). Never fails: a line it cannot use stops
    /// following, with the reason in [`Follower::status`], and what was applied stays.
    pub fn feed<'a>(&mut self, player: &mut Player, lines: impl IntoIterator<Item = &'a str>) {
        let end = player.known_steps().len();
        let back = player.cursor();
        if back < end && player.seek(end).is_err() {
            return;
        }
        for text in lines {
            if self.stopped() {
                break;
            }
            self.line += 1;
            self.apply(player, text);
        }
        if back < end {
            // The user was looking back: they stay where they were.
            let _ = player.seek(back);
        }
    }

    fn stopped(&self) -> bool {
        matches!(
            self.status,
            FollowStatus::Diverged { .. } | FollowStatus::Refused { .. }
        )
    }

    fn apply(&mut self, player: &mut Player, text: &str) {
        let Ok(line) = serde_json::from_str::<Value>(text) else {
            return self.refuse("not JSON");
        };
        let Some(line) = line.as_object() else {
            return self.refuse("not a JSON object");
        };
        if let Some(why) = line.get("truncated").and_then(Value::as_str) {
            return self.refuse(&format!("the broker says: {why}"));
        }
        let Some(scenario) = &self.scenario else {
            return match line.get("broker").map(header_scenario) {
                Some(Ok(scenario)) => match Player::new(scenario.clone(), Vec::new()) {
                    Ok(run) => {
                        *player = run;
                        self.scenario = Some(scenario);
                        self.following();
                    }
                    Err(e) => self.refuse(&format!("the broker's model cannot be built here: {e}")),
                },
                Some(Err(why)) => {
                    self.refuse(&format!("the broker's model cannot be built here: {why}"))
                }
                None => self.refuse("the first line is not the broker's header"),
            };
        };
        let note = line.get("note").and_then(Value::as_str);
        if let Some(refused) = self.refusal.take() {
            if !note.is_some_and(|n| n.starts_with(REFUSED_NOTE)) {
                return self.diverge(&format!(
                    "this model refused the input, the broker's did not: {refused}"
                ));
            }
            return;
        }
        if let Some(note) = note.filter(|n| n.starts_with(REFUSED_NOTE)) {
            return self.diverge(&format!(
                "the broker's model refused an input this model took: {note}"
            ));
        }
        let at = line.get("at").and_then(Value::as_i64);
        let action = match (line.get("request"), line.get("advance"), at) {
            (Some(request), _, Some(at_ms)) => {
                let request: Request = match serde_json::from_value(request.clone()) {
                    Ok(r) => r,
                    Err(e) => {
                        return self.refuse(&format!("a request this model cannot read: {e}"));
                    }
                };
                let group = request_group(&request);
                if !self.group_bound
                    && let Some(group) = group.filter(|g| !g.is_empty())
                {
                    let mut scenario = scenario.clone();
                    scenario.group_id = String::from(group);
                    match Player::new(scenario.clone(), self.early.clone()) {
                        Ok(run) => *player = run,
                        Err(e) => return self.refuse(&format!("group \"{group}\": {e}")),
                    }
                    self.scenario = Some(scenario);
                    self.group_bound = true;
                    self.early.clear();
                    self.scanned = 0;
                    // (What was scanned before is scanned again: the same answers.)
                    self.produced.clear();
                    let _ = self.run_on(player);
                }
                let from = line.get("from").and_then(Value::as_str).unwrap_or("");
                Action::Inject {
                    client: self.lane(from),
                    at_ms,
                    request,
                }
            }
            (None, Some(_), Some(at_ms)) => Action::Advance { at_ms },
            (None, None, Some(at_ms)) if line.contains_key("createTopic") => {
                let created = &line["createTopic"];
                let (Some(topic), Some(partitions)) = (
                    created.get("topic").and_then(Value::as_str),
                    created
                        .get("partitions")
                        .and_then(Value::as_i64)
                        .and_then(|p| i32::try_from(p).ok()),
                ) else {
                    return self.refuse("a createTopic that is not {topic, partitions}");
                };
                // The broker's model fired the timers due by `at` first, then took the topic
                // (its driver's create_topic): the same two steps here.
                if !self.apply_action(player, Action::Advance { at_ms }, at_ms) {
                    return;
                }
                Action::CreateTopic {
                    topic: String::from(topic),
                    partitions,
                }
            }
            (None, None, Some(_)) if line.contains_key("unload") || line.contains_key("load") => {
                // The operator's failover: the broker advanced to `at` first (a line of its
                // own), then unloaded or loaded the group at the model's time.
                let unload = line.contains_key("unload");
                let step = &line[if unload { "unload" } else { "load" }];
                let Some(group_id) = step.get("groupId").and_then(Value::as_str) else {
                    return self.refuse("an unload or load without a groupId");
                };
                let group_id = String::from(group_id);
                if unload {
                    Action::Unload { group_id }
                } else {
                    Action::Load { group_id }
                }
            }
            _ => {
                if let Some(recorded) = line.get("response") {
                    return self.check(recorded);
                }
                if line.contains_key("event") || note.is_some() {
                    return;
                }
                return self.refuse("neither an input nor an output");
            }
        };
        self.apply_action(player, action, at.unwrap_or(0));
    }

    /// One input of the broker's model, as an action at the end of the run. False when it
    /// stopped following.
    fn apply_action(&mut self, player: &mut Player, action: Action, at_ms: i64) -> bool {
        if !(0..=MAX_TIME_MS).contains(&at_ms) {
            self.refuse(&format!("time {at_ms} is outside 0..={MAX_TIME_MS}"));
            return false;
        }
        if !self.group_bound {
            self.early.push(TimedAction {
                step: 0,
                action: action.clone(),
            });
        }
        if let Err(e) = player.act(action) {
            self.refuse(&e.to_string());
            return false;
        }
        self.inputs += 1;
        if let Err(e) = self.run_on(player) {
            self.refuse(&e.to_string());
            return false;
        }
        if player.play_stop() == Some(PlayStop::RecordFull) {
            self.refuse(
                "the run has recorded as much as one run may keep (its memory is full): following stops here",
            );
            return false;
        }
        self.following();
        true
    }

    /// Plays the run to its end (what the input set off), and reads what it recorded: this
    /// model's answers, and a refusal.
    fn run_on(&mut self, player: &mut Player) -> Result<(), ScenarioError> {
        while player.forward()? {}
        let trace = player.simulation().trace();
        for e in trace.iter_from(self.scanned) {
            match &e.kind {
                TraceKind::ResponseSent {
                    correlation_id,
                    response: Some(response),
                    ..
                } => {
                    let value = serde_json::to_value(&**response).unwrap_or(Value::Null);
                    self.produced.insert(*correlation_id, value);
                }
                TraceKind::ActionIgnored {
                    why: why @ Refusal::CoordinatorRefused { .. },
                    ..
                } => {
                    self.refusal = Some(why.to_string());
                }
                _ => {}
            }
        }
        self.scanned = trace.len();
        Ok(())
    }

    /// The broker's answer against this model's.
    fn check(&mut self, recorded: &Value) {
        let Some(id) = recorded
            .get("correlationId")
            .and_then(Value::as_i64)
            .and_then(|id| i32::try_from(id).ok())
        else {
            return self.refuse("a response without a correlation id");
        };
        let Some(ours) = self.produced.remove(&id) else {
            return self.diverge(&format!("the broker answered #{id}; this model did not"));
        };
        if ours != *recorded {
            return self.diverge(&format!(
                "#{id}: the broker said {recorded}, this model {ours}"
            ));
        }
        self.checked += 1;
        self.following();
    }

    /// The lane of connection `from` ("client.id address", as the broker names it).
    fn lane(&mut self, from: &str) -> String {
        if let Some(lane) = self.lanes.get(from) {
            return lane.clone();
        }
        let client_id = from.rsplit_once(' ').map_or("", |(id, _)| id).trim();
        let id = if client_id.is_empty() {
            "client"
        } else {
            client_id
        };
        let n = self.connections.entry(String::from(id)).or_insert(0);
        *n += 1;
        let lane = if *n == 1 {
            String::from(id)
        } else {
            format!("{id} #{n}")
        };
        self.lanes.insert(String::from(from), lane.clone());
        lane
    }

    fn following(&mut self) {
        self.status = FollowStatus::Following {
            inputs: self.inputs,
            checked: self.checked,
        };
    }

    // The reasons quote the broker's text (its notes, a request serde could not read, a group
    // id): at most a hundred characters of each, as every message of the model's does. A
    // broker's line of megabytes was once shown whole in the live bar.
    fn refuse(&mut self, what: &str) {
        self.status = FollowStatus::Refused {
            line: self.line,
            what: clip_message(what),
        };
    }

    fn diverge(&mut self, what: &str) {
        self.status = FollowStatus::Diverged {
            line: self.line,
            what: clip_message(what),
        };
    }
}

/// The group a request names, if it names one.
fn request_group(request: &Request) -> Option<&str> {
    match request {
        Request::JoinGroup(r) => Some(&r.group_id),
        Request::SyncGroup(r) => Some(&r.group_id),
        Request::Heartbeat(r) => Some(&r.group_id),
        Request::LeaveGroup(r) => Some(&r.group_id),
        Request::OffsetCommit(r) => Some(&r.group_id),
        Request::ConsumerGroupHeartbeat(r) => Some(&r.group_id),
        _ => None,
    }
}

/// The live scenario of the broker's header line (`{seed, settings, topics, config}`).
fn header_scenario(header: &Value) -> Result<Scenario, String> {
    let seed = header
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or("the header has no seed")?;
    let mut topics = BTreeMap::new();
    for t in header
        .get("topics")
        .and_then(Value::as_array)
        .ok_or("the header has no topics")?
    {
        let (Some(name), Some(partitions)) = (
            t.get(0).and_then(Value::as_str),
            t.get(1)
                .and_then(Value::as_i64)
                .and_then(|p| i32::try_from(p).ok()),
        ) else {
            return Err(format!("a topic that is not [name, partitions]: {t}"));
        };
        topics.insert(String::from(name), partitions);
    }
    let mut broker = BTreeMap::new();
    if let Some(config) = header.get("config").and_then(Value::as_object) {
        for (key, value) in config {
            let setting = match value {
                Value::Bool(b) => Setting::Bool(*b),
                Value::Number(n) => Setting::Number(n.as_f64().unwrap_or(f64::NAN)),
                Value::String(s) => Setting::Text(s.clone()),
                other => return Err(format!("setting {key} is {other}")),
            };
            broker.insert(key.clone(), setting);
        }
    }
    let scenario = live_scenario(seed, topics, broker, "live");
    scenario.check().map_err(|e| e.to_string())?;
    Ok(scenario)
}

fn live_scenario(
    seed: u64,
    topics: BTreeMap<String, i32>,
    broker: BTreeMap<String, Setting>,
    group_id: &str,
) -> Scenario {
    Scenario {
        name: String::from("live"),
        title: Text {
            en: String::from("A live group, served by group-broker"),
            zh: String::from("实况消费组（由 group-broker 提供服务）"),
        },
        description: Text {
            en: String::from(
                "Real Kafka clients against the model: each request as the broker took it, each \
                 answer checked against this page's own model.",
            ),
            zh: String::from(
                "真实的 Kafka 客户端连接本模型：每个请求按 broker 收到的顺序重放，每个响应都与本页自己的模型核对。",
            ),
        },
        key_moment: None,
        seed,
        group_id: String::from(group_id),
        broker,
        consumer: BTreeMap::new(),
        group: BTreeMap::new(),
        topics,
        network: Default::default(),
        consumers: Vec::new(),
        script: Vec::new(),
        application: Default::default(),
        duration_ms: MAX_TIME_MS,
        live: true,
        imported: None,
    }
}
