//! The simulated world through JS: `Simulation`, `scenarios()`, `scenario(name)`. Every call
//! converts and forwards to `group-simulator`.

use crate::{from_js, range_error, time_arg, to_js, type_error};
use group_simulator::builtin;
use group_simulator::trace::TraceEvent;
use group_simulator::{Action, Scenario, ScenarioError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn scenario_error(e: ScenarioError) -> JsValue {
    range_error(&e.to_string())
}

/// A deterministic world around one coordinator: consumers, network, faults, a script.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Simulation {
    inner: group_simulator::Simulation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TimedAction<'a> {
    at_ms: i64,
    action: &'a Action,
}

#[wasm_bindgen]
impl Simulation {
    /// Checks the scenario (unknown keys, impossible values and absurd sizes are refused, the
    /// message naming the field) and builds its world at time 0.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
    ) -> Result<Simulation, JsValue> {
        let scenario: Scenario = from_js(&scenario, "malformed scenario")?;
        let inner = group_simulator::Simulation::new(scenario).map_err(scenario_error)?;
        Ok(Simulation { inner })
    }

    /// Processes events until one is recorded (a delivered message, a fired timer, an action)
    /// and returns that entry, or `null` when nothing is left to happen.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent | null")]
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        match self.inner.step() {
            Some(i) => to_js(&self.inner.trace()[i].narrated()),
            None => Ok(JsValue::NULL),
        }
    }

    /// `step` for a caller that reads new entries with `trace(from)` anyway (the playground does,
    /// every frame): processes the next event and returns its time, or `null` when nothing is
    /// left to happen. It does not narrate or convert the entry, which is most of `step`'s cost
    /// in a browser (measured: 31 µs of 57 µs per step of a 50-consumer group).
    pub fn advance(&mut self) -> Option<f64> {
        let i = self.inner.step()?;
        Some(self.inner.trace()[i].at_ms as f64)
    }

    /// Processes every event up to `tMs` and moves the clock there.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&mut self, #[wasm_bindgen(js_name = tMs)] t_ms: f64) -> Result<(), JsValue> {
        let t = time_arg("tMs", t_ms)?;
        if t < self.inner.now() {
            return Err(range_error(&format!(
                "tMs = {t} is before the simulation's time {}; time only moves forward (rebuild the run to go back)",
                self.inner.now()
            )));
        }
        self.inner.run_until(t);
        Ok(())
    }

    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    /// When the next event happens, or `null`.
    #[wasm_bindgen(js_name = nextEventTime)]
    pub fn next_event_time(&self) -> Option<f64> {
        self.inner.next_event_time().map(|t| t as f64)
    }

    /// Applies an action now; a refused action throws and changes nothing.
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> Result<(), JsValue> {
        let action: Action = from_js(&action, "malformed action")?;
        self.inner.apply(action).map_err(scenario_error)
    }

    /// The group, the consumers, what is in flight.
    #[wasm_bindgen(unchecked_return_type = "WorldView")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.snapshot())
    }

    /// Only the group's view (what `snapshot().group` holds, without the consumers): cheap
    /// enough to read every frame.
    #[wasm_bindgen(unchecked_return_type = "GroupView | null")]
    pub fn group(&self) -> Result<JsValue, JsValue> {
        let group_id = &self.inner.scenario().group_id;
        match self.inner.coordinator().describe(group_id) {
            Some(view) => to_js(&view),
            None => Ok(JsValue::NULL),
        }
    }

    /// Trace entries from `fromIndex` (default 0), each with its narration in en and zh.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent[]")]
    pub fn trace(
        &self,
        #[wasm_bindgen(js_name = fromIndex)] from_index: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        self.trace_from(from_index, TraceEvent::narrated)
    }

    /// Trace entries from `fromIndex` (default 0) without their narration: what `trace` returns
    /// less `text`, for a caller that reads every entry but narrates only the few it shows (the
    /// playground: narrating both languages is most of `trace`'s cost). `narration(index)` gives
    /// an entry's text.
    #[wasm_bindgen(unchecked_return_type = "TraceEntry[]")]
    pub fn entries(
        &self,
        #[wasm_bindgen(js_name = fromIndex)] from_index: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        self.trace_from(from_index, |e| e)
    }

    /// One trace entry's narration in en and zh; `null` past the end of the trace.
    #[wasm_bindgen(unchecked_return_type = "Text | null")]
    pub fn narration(&self, index: f64) -> Result<JsValue, JsValue> {
        let i = index_arg("index", index)?;
        match self.inner.trace().get(i) {
            Some(e) => to_js(&e.narrated().text),
            None => Ok(JsValue::NULL),
        }
    }

    /// How many trace entries there are.
    #[wasm_bindgen(js_name = traceLength)]
    pub fn trace_length(&self) -> usize {
        self.inner.trace().len()
    }

    #[wasm_bindgen(unchecked_return_type = "Metrics")]
    pub fn metrics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.metrics())
    }

    /// The actions applied so far with their times (to replay a run, or share it).
    #[wasm_bindgen(unchecked_return_type = "{ atMs: number; action: Action }[]")]
    pub fn actions(&self) -> Result<JsValue, JsValue> {
        let actions: Vec<TimedAction<'_>> = self
            .inner
            .actions()
            .iter()
            .map(|(at_ms, action)| TimedAction {
                at_ms: *at_ms,
                action,
            })
            .collect();
        to_js(&actions)
    }

    /// The scenario this world was built from.
    #[wasm_bindgen(unchecked_return_type = "Scenario")]
    pub fn scenario(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.scenario())
    }

    /// A 64-bit hash of the trace as 16 hex digits: equal runs, equal hashes (native or wasm).
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.inner.trace_hash())
    }
}

/// The built-in scenarios, the seed's cases first.
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> Result<JsValue, JsValue> {
    to_js(&builtin::infos())
}

/// A built-in scenario by name (a plain object: change it and pass it to `new Simulation`).
#[wasm_bindgen(unchecked_return_type = "Scenario")]
pub fn scenario(name: &str) -> Result<JsValue, JsValue> {
    let s = builtin::scenario(name).ok_or_else(|| {
        let names: Vec<&str> = builtin::SCENARIOS.iter().map(|(n, _)| *n).collect();
        type_error(&format!(
            "no built-in scenario \"{name}\" (known: {})",
            names.join(", ")
        ))
    })?;
    to_js(&s)
}

/// The consumer settings a scenario or `setConfig` accepts, with Kafka's defaults.
#[wasm_bindgen(js_name = consumerConfigKeys, unchecked_return_type = "{ name: string; default: string; doc: string }[]")]
pub fn consumer_config_keys() -> Result<JsValue, JsValue> {
    let keys: Vec<crate::ConfigKeyInfo> = group_simulator::ConsumerConfig::KEYS
        .iter()
        .map(|k| crate::ConfigKeyInfo {
            name: k.name,
            default: k.default,
            doc: k.doc,
        })
        .collect();
    to_js(&keys)
}

/// A large living group (cooperative-sticky, two topics, every tenth consumer restarted once):
/// the page's stress scenario and the benchmark's workload.
#[wasm_bindgen(js_name = largeGroupScenario, unchecked_return_type = "Scenario")]
pub fn large_group_scenario(
    consumers: f64,
    #[wasm_bindgen(js_name = partitionsPerConsumer)] partitions_per_consumer: f64,
    #[wasm_bindgen(js_name = durationMs)] duration_ms: f64,
) -> Result<JsValue, JsValue> {
    let whole = |name: &str, v: f64, max: f64| {
        if v.is_finite() && v.fract() == 0.0 && (1.0..=max).contains(&v) {
            Ok(v)
        } else {
            Err(range_error(&format!(
                "{name} must be a whole number in 1..={max}, got {v}"
            )))
        }
    };
    let consumers = whole("consumers", consumers, 10_000.0)? as usize;
    let per = whole("partitionsPerConsumer", partitions_per_consumer, 100.0)? as usize;
    let duration = time_arg("durationMs", duration_ms)?;
    to_js(&builtin::large_group(consumers, per, duration.max(1)))
}

impl Simulation {
    /// The trace from `fromIndex` (default 0) as a JS array, each entry written as `each` gives it.
    fn trace_from<'s, T: Serialize>(
        &'s self,
        from_index: Option<f64>,
        each: impl Fn(&'s TraceEvent) -> T,
    ) -> Result<JsValue, JsValue> {
        let from = index_arg("fromIndex", from_index.unwrap_or(0.0))?;
        let events: Vec<T> = self.inner.trace().iter_from(from).map(each).collect();
        to_js(&events)
    }
}

/// A trace index from JS: a whole number >= 0.
fn index_arg(name: &str, value: f64) -> Result<usize, JsValue> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 {
        Ok(value as usize)
    } else {
        Err(type_error(&format!(
            "{name} must be a whole number >= 0, got {value}"
        )))
    }
}
