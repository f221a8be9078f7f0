//! The live run's record: one JSON object per line. The first line describes the model as the
//! broker built it (seed, settings, topics); then, in the order the model saw them, every input
//! (`request` with the connection it came from, `advance` when timers were due) with its time,
//! and every output (`event`, `response`). The model is deterministic, so the inputs alone
//! determine the outputs: [`replay`] runs them through a fresh model and checks that it says
//! exactly what the live one said.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use group_coordinator::{BrokerConfig, ConfigValue, Coordinator, Event, Request, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cluster::Topic;
use crate::driver::Failover;
use crate::live::Live;

/// How the broker built its model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The seed of the model's member-id stream.
    pub seed: u64,
    /// Broker settings over Kafka's defaults, as `key=value`.
    pub settings: Vec<String>,
    /// (topic, partitions)
    pub topics: Vec<(String, i32)>,
}

impl Header {
    /// The model this header describes, with its topics in the metadata image.
    pub fn coordinator(&self) -> Result<Coordinator, String> {
        let pairs = self
            .settings
            .iter()
            .map(|s| setting(s))
            .collect::<Result<Vec<_>, _>>()?;
        let config = BrokerConfig::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v)))
            .map_err(|e| e.to_string())?;
        let mut c = Coordinator::with_seed(config, self.seed);
        let topics: Vec<_> = self
            .topics
            .iter()
            .map(|(name, partitions)| (name.clone(), None, *partitions))
            .collect();
        c.update_metadata(0, &topics).map_err(|e| e.to_string())?;
        Ok(c)
    }
}

/// Reads `key=value`: a whole number, `true`/`false`, or text (every numeric setting is whole;
/// `flavour=4.0` is text).
pub fn setting(text: &str) -> Result<(String, ConfigValue), String> {
    let Some((key, value)) = text.split_once('=') else {
        return Err(format!("setting \"{text}\" is not key=value"));
    };
    let value = match value {
        "true" => ConfigValue::Bool(true),
        "false" => ConfigValue::Bool(false),
        v => v.parse::<i64>().map_or_else(
            |_| ConfigValue::Text(v.to_owned()),
            |n| ConfigValue::Number(n as f64),
        ),
    };
    Ok((key.trim().to_owned(), value))
}

impl Header {
    /// The header line: the header, with the settings also as the config object the wasm
    /// `Coordinator` takes (so that the page builds the same model without parsing them).
    pub fn line(&self) -> Value {
        let config: serde_json::Map<String, Value> = self
            .settings
            .iter()
            .filter_map(|s| setting(s).ok())
            .map(|(key, value)| {
                let value = match value {
                    ConfigValue::Number(n) => json!(n as i64),
                    ConfigValue::Bool(b) => json!(b),
                    ConfigValue::Text(t) => json!(t),
                };
                (key, value)
            })
            .collect();
        let mut header = json!(self);
        header["config"] = Value::Object(config);
        json!({ "broker": header })
    }
}

/// Where the record goes: a file, the live feed, both, or nowhere.
#[derive(Debug)]
pub struct Trace {
    out: Option<BufWriter<File>>,
    live: Option<Arc<Live>>,
}

impl Trace {
    pub fn none() -> Trace {
        Trace {
            out: None,
            live: None,
        }
    }

    pub fn new(
        path: Option<&Path>,
        live: Option<Arc<Live>>,
        header: &Header,
    ) -> std::io::Result<Trace> {
        let out = match path {
            Some(path) => Some(BufWriter::new(File::create(path)?)),
            None => None,
        };
        let mut t = Trace { out, live };
        t.line(&header.line());
        Ok(t)
    }

    fn line(&mut self, value: &Value) {
        if self.out.is_none() && self.live.is_none() {
            return;
        }
        let text = value.to_string();
        if let Some(out) = &mut self.out {
            // A full disk ends the record, not the broker.
            let ok = out.write_all(text.as_bytes()).is_ok()
                && out.write_all(b"\n").is_ok()
                && out.flush().is_ok();
            if !ok {
                eprintln!("group-broker: the trace could not be written; it stops here");
                self.out = None;
            }
        }
        if let Some(live) = &self.live {
            live.publish(&text);
        }
    }

    pub fn request(&mut self, at: i64, from: &str, request: &Request) {
        self.line(&json!({ "at": at, "from": from, "request": request }));
    }

    pub fn advance(&mut self, at: i64) {
        self.line(&json!({ "at": at, "advance": true }));
    }

    /// CreateTopics made a topic (an input: the model's image changes at `at`).
    pub fn create_topic(&mut self, at: i64, from: &str, topic: &str, partitions: i32) {
        self.line(&json!({
            "at": at,
            "from": from,
            "createTopic": { "topic": topic, "partitions": partitions },
        }));
    }

    /// The operator unloaded or loaded a group (an input, at the model's time `at`).
    pub fn failover(&mut self, at: i64, step: crate::driver::Failover, group_id: &str) {
        self.line(&json!({ "at": at, step.key(): { "groupId": group_id } }));
    }

    pub fn response(&mut self, at: i64, response: &Response) {
        self.line(&json!({ "at": at, "response": response }));
    }

    pub fn event(&mut self, event: &Event) {
        self.line(&json!({ "event": event }));
    }

    pub fn note(&mut self, at: i64, note: &str) {
        self.line(&json!({ "at": at, "note": note }));
    }
}

/// The note a refused request leaves in the record.
pub fn refused(e: &impl core::fmt::Display) -> String {
    format!("the model refused a request: {e}")
}

/// What a replay found.
#[derive(Debug, PartialEq, Eq)]
pub struct Replayed {
    pub requests: usize,
    pub advances: usize,
    pub topics_created: usize,
    /// Unloads and loads (the operator's failovers).
    pub failovers: usize,
    pub outputs: usize,
}

/// Runs a trace's inputs through a fresh model and checks every output against the record.
pub fn replay(path: &Path) -> Result<Replayed, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = BufReader::new(file).lines().enumerate();
    let parse = |n: usize, line: std::io::Result<String>| -> Result<Value, String> {
        let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
        serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", n + 1))
    };
    let header: Header = match lines.next() {
        Some((n, line)) => {
            let v = parse(n, line)?;
            serde_json::from_value(v["broker"].clone())
                .map_err(|e| format!("line 1 is not the broker header: {e}"))?
        }
        None => return Err("the trace is empty".into()),
    };
    let mut model = header.coordinator()?;
    let mut done = Replayed {
        requests: 0,
        advances: 0,
        topics_created: 0,
        failovers: 0,
        outputs: 0,
    };
    let mut expected: Vec<(usize, Value)> = Vec::new();
    let mut produced: Vec<Value> = Vec::new();
    for (n, line) in lines {
        let v = parse(n, line)?;
        let at = v["at"].as_i64();
        let outputs = if let Some(request) = v.get("request") {
            let request: Request = serde_json::from_value(request.clone())
                .map_err(|e| format!("line {}: not a request: {e}", n + 1))?;
            done.requests += 1;
            model.handle(at.unwrap_or(0), request)
        } else if v.get("advance").is_some() {
            done.advances += 1;
            model.advance(at.unwrap_or(0))
        } else if let Some(created) = v.get("createTopic") {
            let (Some(name), Some(partitions)) = (
                created["topic"].as_str(),
                created["partitions"]
                    .as_i64()
                    .and_then(|p| i32::try_from(p).ok()),
            ) else {
                return Err(format!(
                    "line {}: a createTopic that is not {{topic, partitions}}",
                    n + 1
                ));
            };
            let topic = Topic {
                name: name.to_owned(),
                partitions,
            };
            done.topics_created += 1;
            crate::driver::create_topic(&mut model, at.unwrap_or(0), &topic)
        } else if let Some((step, group)) = [Failover::Unload, Failover::Load]
            .into_iter()
            .find_map(|step| Some((step, v.get(step.key())?)))
        {
            let Some(group_id) = group["groupId"].as_str() else {
                return Err(format!("line {}: {} without a groupId", n + 1, step.key()));
            };
            done.failovers += 1;
            step.apply(&mut model, group_id)
        } else {
            if v.get("event").is_some() || v.get("response").is_some() || v.get("note").is_some() {
                expected.push((n + 1, v));
            }
            continue;
        };
        // A request the model refused is a note in the record (the driver's words), so that
        // a replay refusing differently does not pass unseen.
        let outputs = match outputs {
            Ok(outputs) => Some(outputs),
            Err(e) => {
                produced.push(json!({ "at": at, "note": refused(&e) }));
                None
            }
        };
        for event in model.drain_events() {
            produced.push(json!({ "event": event }));
        }
        for response in outputs.unwrap_or_default() {
            produced.push(json!({ "at": at, "response": response }));
        }
    }
    for (i, (line, recorded)) in expected.iter().enumerate() {
        match produced.get(i) {
            Some(p) if p == recorded => {}
            Some(p) => {
                return Err(format!(
                    "line {line}: the trace says {recorded}, the replay {p}"
                ));
            }
            None => {
                return Err(format!(
                    "line {line}: the replay has no output for {recorded}"
                ));
            }
        }
    }
    if produced.len() > expected.len() {
        return Err(format!(
            "the replay has {} outputs more than the trace, from {}",
            produced.len() - expected.len(),
            produced[expected.len()]
        ));
    }
    done.outputs = produced.len();
    Ok(done)
}
