//! The simulated world through JS: `Simulation`, `scenarios()`, `scenario(name)`. Every call
//! converts and forwards to `group-simulator`.

use crate::args::{self, Items, range_error};
use crate::to_js;
use group_simulator::builtin;
use group_simulator::player::RECORD_BUDGET_BYTES;
use group_simulator::trace::{Trace, TraceEvent};
use group_simulator::{Action, Scenario, ScenarioError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// How many events one `runUntil` call processes at most, unless told fewer: a bound on the
/// work of one call, so that a far-future target cannot freeze a page.
/// (Measured in wasm under Node: 50,000 events of a 1,000-consumer group rolling its members
/// take ~0.3 s; of a 50-consumer group, ~0.1 s.)
pub const RUN_UNTIL_MAX_EVENTS: usize = 50_000;

/// A refused scenario or action: a `RangeError` naming the field, which also carries the field's
/// path (`error.path`, e.g. `consumers[1].config.session.timeout.ms`) so a form can mark it.
pub(crate) fn scenario_error(e: ScenarioError) -> JsValue {
    let error = range_error(&e.to_string());
    // Setting a property on a fresh Error object cannot fail; if it did, the message still says it.
    let _ = js_sys::Reflect::set(&error, &"path".into(), &e.path.as_str().into());
    error
}

/// A deterministic world around one coordinator: consumers, network, faults, a script.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Simulation {
    inner: group_simulator::Simulation,
}

/// An action and the time it was applied at, as `actions` returns them.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct TimedAction<'a> {
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
        let scenario: Scenario = args::json("scenario", &scenario, Items::Scenario)?;
        let inner = group_simulator::Simulation::new(scenario).map_err(scenario_error)?;
        Ok(Simulation { inner })
    }

    /// Processes events until one is recorded (a delivered message, a fired timer, an action)
    /// and returns that entry, or `null` when nothing is left to happen.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent | null")]
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        self.trace_room()?;
        match self.inner.step() {
            Some(i) => match self.inner.trace().get(i) {
                Some(e) => to_js(&e.narrated()),
                // (Stepped all the same: the time says how far.)
                None => Err(args::range_error(
                    "step: the trace is not kept (keepTrace(false)); stepTime steps without it",
                )),
            },
            None => Ok(JsValue::NULL),
        }
    }

    /// `step` for a caller that reads new entries with `entries(from)` anyway: processes the
    /// next event and returns only its time, or `null` when nothing is left to happen. It does not
    /// narrate or convert the entry, which is most of `step`'s cost in a browser (measured: 31 µs
    /// of 57 µs per step of a 50-consumer group). (Named apart from `Coordinator.advance(nowMs)`,
    /// which moves a clock and fires timers.)
    #[wasm_bindgen(js_name = stepTime)]
    pub fn step_time(&mut self) -> Result<Option<f64>, JsValue> {
        self.trace_room()?;
        Ok(self.inner.step().map(|_| self.inner.now() as f64))
    }

    /// Processes the events up to `tMs` and moves the clock there, at most `maxEvents` of them
    /// (default and most [`RUN_UNTIL_MAX_EVENTS`]) so that no call runs for long whatever the
    /// target: returns the time reached, which is below `tMs` when the budget ran out first (call
    /// again to go on). Like `step` and `stepTime`, it throws a `RangeError` once the trace holds
    /// what one run may keep in the module's memory (about 2 GB: some 50 million entries, seven
    /// hours of 1,000 consumers); `keepTrace(false)` goes on without it.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(
        &mut self,
        #[wasm_bindgen(js_name = tMs, unchecked_param_type = "number")] t_ms: JsValue,
        #[wasm_bindgen(js_name = maxEvents, unchecked_optional_param_type = "number")]
        max_events: Option<JsValue>,
    ) -> Result<f64, JsValue> {
        let t = args::time("tMs", &t_ms)?;
        let max_events = match max_events {
            None => RUN_UNTIL_MAX_EVENTS,
            Some(n) => args::whole("maxEvents", &n, 1.0, RUN_UNTIL_MAX_EVENTS as f64)? as usize,
        };
        if t < self.inner.now() {
            return Err(range_error(&format!(
                "tMs = {t} is before the simulation's time {}; time only moves forward (rebuild the run to go back)",
                self.inner.now()
            )));
        }
        self.trace_room()?;
        crate::heap::ahead(|| self.inner.run_until_at_most(t, max_events));
        Ok(self.inner.now() as f64)
    }

    /// Refuses to go on when the trace holds what one run may keep in the module's memory
    /// ([`RECORD_BUDGET_BYTES`]): a run that filled the module's 4 GiB would trap, and every
    /// object of the module with it. Nothing is lost: what was recorded can still be read.
    fn trace_room(&self) -> Result<(), JsValue> {
        let trace = self.inner.trace();
        if trace.kept_bytes() < RECORD_BUDGET_BYTES {
            return Ok(());
        }
        Err(range_error(&format!(
            "the trace holds {} entries, about {} MB: as much as one run may keep in the \
             module's memory. keepTrace(false) goes on counting them only (the metrics stay), or \
             run a shorter scenario",
            trace.len(),
            trace.kept_bytes() >> 20
        )))
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
        let action: Action = args::json("action", &action, Items::Request)?;
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
        #[wasm_bindgen(js_name = fromIndex, unchecked_optional_param_type = "number")]
        from_index: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        trace_from(self.inner.trace(), from_index, true)
    }

    /// Trace entries from `fromIndex` (default 0) without their narration: what `trace` returns
    /// less `text`, for a caller that reads every entry but narrates only the few it shows (the
    /// playground: narrating both languages is most of `trace`'s cost). `narration(index)` gives
    /// an entry's text.
    #[wasm_bindgen(unchecked_return_type = "TraceEntry[]")]
    pub fn entries(
        &self,
        #[wasm_bindgen(js_name = fromIndex, unchecked_optional_param_type = "number")]
        from_index: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        trace_from(self.inner.trace(), from_index, false)
    }

    /// One trace entry's narration in en and zh; `null` past the end of the trace.
    #[wasm_bindgen(unchecked_return_type = "Text | null")]
    pub fn narration(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<JsValue, JsValue> {
        narration_of(self.inner.trace(), &index)
    }

    /// `keepTrace(false)`: the trace is counted (`traceLength`) but no longer kept, and what it
    /// held is dropped: for a run wanted only for its metrics (a comparison), whose trace would
    /// take hundreds of megabytes. The run is the same; `trace` and `entries` then give nothing.
    #[wasm_bindgen(js_name = keepTrace)]
    pub fn keep_trace(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] keep: JsValue,
    ) -> Result<(), JsValue> {
        let keep = args::boolean("keep", &keep)?;
        self.inner.keep_trace(keep);
        Ok(())
    }

    /// How many trace entries there are (kept or only counted).
    #[wasm_bindgen(js_name = traceLength)]
    pub fn trace_length(&self) -> usize {
        self.inner.trace().len()
    }

    #[wasm_bindgen(unchecked_return_type = "Metrics")]
    pub fn metrics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.metrics())
    }

    /// The actions applied so far with their times (to replay a run, or share it).
    #[wasm_bindgen(unchecked_return_type = "TimedAction[]")]
    pub fn actions(&self) -> Result<JsValue, JsValue> {
        let all = self.inner.actions();
        let actions: Vec<TimedAction<'_>> = all
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
pub fn scenario(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let name = args::string("name", &name)?;
    let s = builtin::scenario(&name).ok_or_else(|| {
        let names: Vec<&str> = builtin::SCENARIOS.iter().map(|(n, _)| *n).collect();
        range_error(&format!(
            "name: no built-in scenario {} (known: {})",
            args::quote(&name),
            names.join(", ")
        ))
    })?;
    to_js(&s)
}

/// A real group's description read into a scenario: the text of `kafka-consumer-groups.sh
/// --describe` (`--members --verbose`, `--offsets`, `--state`, several pasted together) or an
/// admin client's `describeConsumerGroups` as JSON. What the description does not carry is
/// assumed at Kafka's defaults and listed in `scenario.imported.assumed`. Text it cannot read
/// throws a SyntaxError naming the line (its `line` property; 0 for a JSON field, which the
/// message names) and what was expected there.
#[wasm_bindgen(js_name = importGroup, unchecked_return_type = "Scenario")]
pub fn import_group(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    let text = args::description("text", &text)?;
    let scenario = group_simulator::import_group(&text).map_err(|e| {
        let error = js_sys::SyntaxError::new(&e.to_string());
        let _ = js_sys::Reflect::set(&error, &"line".into(), &JsValue::from(e.line as u32));
        JsValue::from(error)
    })?;
    to_js(&scenario)
}

/// The consumer settings a scenario or `setConfig` accepts, with Kafka's defaults.
#[wasm_bindgen(js_name = consumerConfigKeys, unchecked_return_type = "ConfigKeyInfo[]")]
pub fn consumer_config_keys() -> Result<JsValue, JsValue> {
    crate::config_keys(&group_simulator::ConsumerConfig::KEYS)
}

/// A large living group (cooperative-sticky, two topics, every tenth consumer restarted once):
/// the page's stress scenario and the benchmark's workload.
#[wasm_bindgen(js_name = largeGroupScenario, unchecked_return_type = "Scenario")]
pub fn large_group_scenario(
    #[wasm_bindgen(unchecked_param_type = "number")] consumers: JsValue,
    #[wasm_bindgen(js_name = partitionsPerConsumer, unchecked_param_type = "number")]
    partitions_per_consumer: JsValue,
    #[wasm_bindgen(js_name = durationMs, unchecked_param_type = "number")] duration_ms: JsValue,
) -> Result<JsValue, JsValue> {
    let consumers = args::whole(
        "consumers",
        &consumers,
        1.0,
        group_simulator::scenario::MAX_CONSUMERS as f64,
    )? as usize;
    let per = args::whole(
        "partitionsPerConsumer",
        &partitions_per_consumer,
        1.0,
        100.0,
    )? as usize;
    let duration = args::time("durationMs", &duration_ms)?;
    to_js(&builtin::large_group(consumers, per, duration.max(1)))
}

/// A trace's entries from `fromIndex` (default 0) as a JS array, narrated or not
/// (`Simulation` and `Player` read their traces the same way).
pub(crate) fn trace_from(
    trace: &Trace,
    from_index: Option<JsValue>,
    narrated: bool,
) -> Result<JsValue, JsValue> {
    let from = match from_index {
        None => 0,
        Some(i) => args::index("fromIndex", &i, 0)?,
    };
    let events: Vec<TraceEvent> = trace.iter_from(from).collect();
    if narrated {
        to_js(&events.iter().map(TraceEvent::narrated).collect::<Vec<_>>())
    } else {
        to_js(&events)
    }
}

/// One entry's narration in en and zh; `null` past the end of the trace.
pub(crate) fn narration_of(trace: &Trace, index: &JsValue) -> Result<JsValue, JsValue> {
    if args::is_absent(index) {
        return Err(args::type_error(&format!(
            "index must be a number, got {}",
            args::describe(index)
        )));
    }
    let i = args::index("index", index, 0)?;
    match trace.get(i) {
        Some(e) => to_js(&e.narrated().text),
        None => Ok(JsValue::NULL),
    }
}

/// The protocol's names in English and Chinese and the classic group's transition table with
/// each transition's trigger: what the page names and draws (it keeps no copy of its own).
#[wasm_bindgen(unchecked_return_type = "Vocabulary")]
pub fn vocabulary() -> Result<JsValue, JsValue> {
    to_js(&group_simulator::vocabulary::vocabulary())
}
