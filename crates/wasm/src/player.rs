//! The run the page plays, through JS: `Player` (see `group_simulator::player`). Each call that
//! moves the run returns, in one crossing, what moved: the new step records and the new trace
//! entries (without narration; `narration(i)` gives an entry's text), so the page never asks
//! the simulation for state it then tracks itself.

use crate::args::{self, Items};
use crate::simulation::{narration_of, scenario_error, trace_from};
use crate::to_js;
use group_simulator::player::{StepRecord, TimedAction};
use group_simulator::trace::TraceEvent;
use group_simulator::{Action, Scenario};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most steps one `seek` moves forward: a bound on one call's work (at most about half a
/// second of a 50-consumer group in wasm, records and entries handed over included); a caller
/// going further calls again.
pub const SEEK_MAX_STEPS: usize = 20_000;

/// What a call moved: the run's cursor and trace length after it, and the step records and
/// trace entries it added (none when it went back: the caller cuts its copies to `cursor` and
/// `traceLength`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Moved<'a> {
    cursor: usize,
    trace_length: usize,
    steps: &'a [StepRecord],
    entries: Vec<&'a TraceEvent>,
}

/// A run that moves both ways in time, with checkpoints: what the playground drives.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Player {
    inner: group_simulator::Player,
}

#[wasm_bindgen]
impl Player {
    /// A run of `scenario` at step 0 with the user's `actions` (`[{ step, action }]`); those at
    /// step 0 are applied now (a refused one throws).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "{ step: number; action: Action }[]")]
        actions: Option<JsValue>,
    ) -> Result<Player, JsValue> {
        let scenario: Scenario = args::json("scenario", &scenario, Items::Scenario)?;
        let actions: Vec<TimedAction> = match actions {
            Some(a) if !args::is_absent(&a) => args::json("actions", &a, Items::Request)?,
            _ => Vec::new(),
        };
        let inner = group_simulator::Player::new(scenario, actions).map_err(scenario_error)?;
        Ok(Player { inner })
    }

    /// One step (a delivered message, a fired timer or a script action, then your actions at
    /// the new step); returns what moved, or `null` when nothing is left to happen.
    #[wasm_bindgen(unchecked_return_type = "Moved | null")]
    pub fn forward(&mut self) -> Result<JsValue, JsValue> {
        let (cursor, len) = self.marks();
        if !self.inner.forward().map_err(scenario_error)? {
            return Ok(JsValue::NULL);
        }
        self.moved(cursor, len)
    }

    /// Goes to `step` steps from the start: back by restoring a checkpoint (a few steps' work),
    /// forward by stepping, at most [`SEEK_MAX_STEPS`] per call (the cursor says how far it got).
    #[wasm_bindgen(unchecked_return_type = "Moved")]
    pub fn seek(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] step: JsValue,
    ) -> Result<JsValue, JsValue> {
        let step = args::index("step", &step, 0)?;
        let (cursor, len) = self.marks();
        let step = step.min(cursor + SEEK_MAX_STEPS);
        self.inner.seek(step).map_err(scenario_error)?;
        self.moved(cursor, len)
    }

    /// Acts now (an action in the past forks the run); a refused action throws and changes
    /// nothing. Returns what moved (the entries the action recorded).
    #[wasm_bindgen(unchecked_return_type = "Moved")]
    pub fn act(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> Result<JsValue, JsValue> {
        let action: Action = args::json("action", &action, Items::Request)?;
        let (cursor, len) = self.marks();
        self.inner.act(action).map_err(scenario_error)?;
        self.moved(cursor, len)
    }

    /// Trace entries from `fromIndex` (default 0), without their narration.
    #[wasm_bindgen(unchecked_return_type = "TraceEntry[]")]
    pub fn entries(
        &self,
        #[wasm_bindgen(js_name = fromIndex, unchecked_optional_param_type = "number")]
        from_index: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        trace_from(self.inner.simulation().trace(), from_index, |e| e)
    }

    pub fn cursor(&self) -> usize {
        self.inner.cursor()
    }

    pub fn now(&self) -> f64 {
        self.inner.simulation().now() as f64
    }

    /// Nothing is left to happen.
    pub fn finished(&self) -> bool {
        self.inner.finished()
    }

    /// Past the scenario's end (`durationMs`).
    #[wasm_bindgen(js_name = pastEnd)]
    pub fn past_end(&self) -> bool {
        self.inner.past_end()
    }

    /// Your actions, with the steps they were taken at.
    #[wasm_bindgen(unchecked_return_type = "{ step: number; action: Action }[]")]
    pub fn actions(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.actions())
    }

    /// The group's view now, or `null`.
    #[wasm_bindgen(unchecked_return_type = "GroupView | null")]
    pub fn group(&self) -> Result<JsValue, JsValue> {
        let sim = self.inner.simulation();
        match sim.coordinator().describe(&sim.scenario().group_id) {
            Some(view) => to_js(&view),
            None => Ok(JsValue::NULL),
        }
    }

    /// The world now.
    #[wasm_bindgen(unchecked_return_type = "WorldView")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.simulation().snapshot())
    }

    /// One trace entry's narration in en and zh; `null` past the end of the trace.
    #[wasm_bindgen(unchecked_return_type = "Text | null")]
    pub fn narration(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<JsValue, JsValue> {
        narration_of(self.inner.simulation().trace(), &index)
    }

    /// Who owned which partition when, up to now (the ownership-over-time view).
    #[wasm_bindgen(unchecked_return_type = "Ownership")]
    pub fn ownership(&self) -> Result<JsValue, JsValue> {
        to_js(&group_simulator::ownership::ownership(
            self.inner.simulation().trace(),
        ))
    }

    #[wasm_bindgen(unchecked_return_type = "Metrics")]
    pub fn metrics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.simulation().metrics())
    }

    /// A 64-bit hash of the trace as 16 hex digits (equal runs, equal hashes).
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.inner.simulation().trace_hash())
    }

    /// How the checkpoints stand: `{ checkpoints, spacing }` (for benchmarks and curious users).
    #[wasm_bindgen(unchecked_return_type = "{ checkpoints: number; spacing: number }")]
    pub fn checkpoints(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Checkpoints {
            checkpoints: usize,
            spacing: usize,
        }
        to_js(&Checkpoints {
            checkpoints: self.inner.checkpoints(),
            spacing: self.inner.spacing(),
        })
    }
}

impl Player {
    fn marks(&self) -> (usize, usize) {
        (self.inner.cursor(), self.inner.simulation().trace().len())
    }

    /// What moved since (`cursor`, `len`).
    fn moved(&self, cursor: usize, len: usize) -> Result<JsValue, JsValue> {
        let now = self.inner.cursor();
        let trace = self.inner.simulation().trace();
        let (steps, entries): (&[StepRecord], Vec<&TraceEvent>) = if now >= cursor {
            (
                &self.inner.steps()[cursor.min(now)..],
                trace.iter_from(len.min(trace.len())).collect(),
            )
        } else {
            (&[], Vec::new())
        };
        to_js(&Moved {
            cursor: now,
            trace_length: trace.len(),
            steps,
            entries,
        })
    }
}
