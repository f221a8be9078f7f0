//! The run the page plays, through JS: `Player` (see `group_simulator::player`). Calls that move
//! the run return only where it got to; `frame(request)` then returns, in one crossing, all that
//! the page draws (see `group_simulator::frame`), so the page keeps no copy of the trace and no
//! protocol state of its own.

use crate::args::{self, Items};
use crate::simulation::{narration_of, scenario_error, trace_from};
use crate::to_js;
#[cfg(feature = "live")]
use group_simulator::Follower;
use group_simulator::frame::FrameRequest;
use group_simulator::player::{RECORD_BUDGET_BYTES, TimedAction};
use group_simulator::{Action, Scenario};
use wasm_bindgen::prelude::*;

/// The most steps one `seek` or `forward` moves forward: a bound on one call's work (about a
/// second of a 50-consumer group in wasm at worst); a caller going further calls again.
pub const SEEK_MAX_STEPS: usize = 20_000;

/// A run that moves both ways in time, with checkpoints: what the playground drives.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Player {
    inner: group_simulator::Player,
    /// A live run's follower (`Player.live()`), fed the broker's trace by `follow`.
    #[cfg(feature = "live")]
    follower: Option<Follower>,
}

#[wasm_bindgen]
impl Player {
    /// A run of `scenario` at step 0 with the user's `actions` (`[{ step, action }]`); those at
    /// step 0 are applied now (a refused one throws).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "StepAction[]")] actions: Option<JsValue>,
    ) -> Result<Player, JsValue> {
        let scenario: Scenario = args::json("scenario", &scenario, Items::Scenario)?;
        let actions: Vec<TimedAction> = match actions {
            Some(a) if !args::is_absent(&a) => args::json("actions", &a, Items::Request)?,
            _ => Vec::new(),
        };
        let inner = group_simulator::Player::new(scenario, actions).map_err(scenario_error)?;
        Ok(Player {
            inner,
            #[cfg(feature = "live")]
            follower: None,
        })
    }

    /// The scenario the run plays (a live run's is built from the broker's header).
    #[wasm_bindgen(unchecked_return_type = "Scenario")]
    pub fn scenario(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.simulation().scenario())
    }

    /// Up to `count` steps (default 1, at most [`SEEK_MAX_STEPS`]), each a delivered message,
    /// a fired timer or a script action, then your actions at the new step. With `toEnd`, stops
    /// where playing stops (`playStop()`: the scenario's end, or after your action once the
    /// world is at rest again). Returns the steps taken: fewer than asked when it stopped.
    pub fn forward(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] count: Option<JsValue>,
        #[wasm_bindgen(js_name = toEnd, unchecked_optional_param_type = "boolean")] to_end: Option<
            JsValue,
        >,
    ) -> Result<usize, JsValue> {
        let count = match count {
            Some(c) if !args::is_absent(&c) => args::index("count", &c, 0)?.min(SEEK_MAX_STEPS),
            _ => 1,
        };
        let to_end = match to_end {
            Some(b) if !args::is_absent(&b) => args::boolean("toEnd", &b)?,
            _ => false,
        };
        crate::heap::ahead(|| {
            let mut taken = 0;
            while taken < count && !(to_end && self.inner.play_stop().is_some()) {
                if !self.inner.forward().map_err(scenario_error)? {
                    break;
                }
                taken += 1;
            }
            Ok(taken)
        })
    }

    /// Goes to `step` steps from the start: to the last checkpoint at or before it (back, or
    /// ahead into the known future), then by stepping, at most [`SEEK_MAX_STEPS`] steps per call.
    /// Returns the step reached.
    pub fn seek(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] step: JsValue,
    ) -> Result<usize, JsValue> {
        let step = args::index("step", &step, 0)?;
        crate::heap::ahead(|| self.inner.seek_at_most(step, SEEK_MAX_STEPS))
            .map_err(scenario_error)?;
        Ok(self.inner.cursor())
    }

    /// Goes to the scenario's key moment (its script step marked `key`), stepping on at most
    /// [`SEEK_MAX_STEPS`] steps to find it. Returns its step, or `null` when there is none within
    /// reach.
    #[wasm_bindgen(js_name = seekKey)]
    pub fn seek_key(&mut self) -> Result<Option<usize>, JsValue> {
        self.inner.seek_key(SEEK_MAX_STEPS).map_err(scenario_error)
    }

    /// Acts now (an action in the past forks the run); a refused action throws and changes
    /// nothing.
    pub fn act(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> Result<(), JsValue> {
        let action: Action = args::json("action", &action, Items::Request)?;
        self.inner.act(action).map_err(scenario_error)
    }

    /// What the page draws now, in one piece: the group, the state machine's last transition,
    /// the narration, and as `request` asks, the timeline's window, the assignment table, a
    /// window of the step table, the world and the metrics.
    #[wasm_bindgen(unchecked_return_type = "Frame")]
    pub fn frame(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "FrameRequest")] request: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let request: FrameRequest = match request {
            Some(r) if !args::is_absent(&r) => args::json("request", &r, Items::Request)?,
            _ => FrameRequest::default(),
        };
        to_js(&self.inner.frame(&request))
    }

    /// The moments of the known steps (taken, or in the known future after going back) from
    /// step `from` (1-based, default 1) on: the scrubber's chapters, each labelled by the
    /// narration of what made it.
    #[wasm_bindgen(unchecked_return_type = "MomentAt[]")]
    pub fn moments(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] from: JsValue,
    ) -> Result<JsValue, JsValue> {
        let from = if args::is_absent(&from) {
            1
        } else {
            args::index("from", &from, 0)?
        };
        let moments: Vec<MomentAt> = self
            .inner
            .moments_from(from)
            .map(|(step, m)| MomentAt {
                step,
                mark: m.mark,
                label: &m.label,
            })
            .collect();
        to_js(&moments)
    }

    /// Goes to the next moment (`forward`), stepping on at most [`SEEK_MAX_STEPS`] steps past
    /// the known ones to find it, or to the previous one. Returns its step, or `null` when there
    /// is none within reach.
    #[wasm_bindgen(js_name = seekMoment)]
    pub fn seek_moment(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] forward: JsValue,
    ) -> Result<Option<usize>, JsValue> {
        // Read as a boolean, not by the glue: it took the string "false" as true.
        let forward = args::boolean("forward", &forward)?;
        self.inner
            .seek_moment(forward, SEEK_MAX_STEPS)
            .map_err(scenario_error)
    }

    /// The step records taken so far (what the step table's rows are made of).
    #[wasm_bindgen(unchecked_return_type = "StepRecord[]")]
    pub fn steps(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.steps())
    }

    /// Trace entries from `fromIndex` (default 0), without their narration.
    #[wasm_bindgen(unchecked_return_type = "TraceEntry[]")]
    pub fn entries(
        &self,
        #[wasm_bindgen(js_name = fromIndex, unchecked_optional_param_type = "number")]
        from_index: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        trace_from(self.inner.simulation().trace(), from_index, false)
    }

    pub fn cursor(&self) -> usize {
        self.inner.cursor()
    }

    /// Steps known: taken, or in the known future after going back.
    #[wasm_bindgen(js_name = knownSteps)]
    pub fn known_steps(&self) -> usize {
        self.inner.known_steps().len()
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

    /// Whether playing stops here, and why: `"scenarioEnd"`, `"atRest"` (after your action),
    /// `"playOnLimit"` (6 minutes past your last action), `"nothingLeft"`, `"recordFull"` (the
    /// run has recorded what one run may keep in the module's memory, about 2 GB: it goes no
    /// further; going back and acting in the past still work); `null` to play on.
    #[wasm_bindgen(js_name = playStop, unchecked_return_type = "PlayStop | null")]
    pub fn play_stop(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.play_stop())
    }

    /// About how many bytes the run has recorded: its steps, its trace and the views' indexes
    /// (its checkpoints are bounded apart). Playing stops when this reaches the run's budget.
    #[wasm_bindgen(js_name = recordedBytes)]
    pub fn recorded_bytes(&self) -> f64 {
        self.inner.recorded_bytes() as f64
    }

    /// Sets what the run may record (`recordedBytes`) before playing stops with `"recordFull"`:
    /// by default about 2 GB (2147483648), what leaves a module's 4 GiB room for the rest. A host
    /// that keeps several runs, or has less memory to give, sets less; more is refused.
    #[wasm_bindgen(js_name = setRecordBudget)]
    pub fn set_record_budget(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] bytes: JsValue,
    ) -> Result<(), JsValue> {
        let bytes = args::whole("bytes", &bytes, 0.0, RECORD_BUDGET_BYTES as f64)?;
        self.inner.set_record_budget(bytes as usize);
        Ok(())
    }

    /// Your actions, with the steps they were taken at.
    #[wasm_bindgen(unchecked_return_type = "StepAction[]")]
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

    /// The run's group as it is now, as a scenario to plan a change on: what `importGroup` makes
    /// of a group's description, read from the coordinator itself (a live group served by
    /// group-broker: "what if this group restarts now?"). Throws while the group has no member.
    #[wasm_bindgen(js_name = importGroup, unchecked_return_type = "Scenario")]
    pub fn import_group(&self) -> Result<JsValue, JsValue> {
        let sim = self.inner.simulation();
        let scenario = group_simulator::import_live(sim.coordinator(), &sim.scenario().group_id)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
        to_js(&scenario)
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
        to_js(&group_simulator::ownership(self.inner.simulation().trace()))
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
    #[wasm_bindgen(unchecked_return_type = "Checkpoints")]
    pub fn checkpoints(&self) -> Result<JsValue, JsValue> {
        to_js(&Checkpoints {
            checkpoints: self.inner.checkpoints(),
            spacing: self.inner.spacing(),
        })
    }
}

/// Live mode (cargo feature `live`, the full module only).
#[cfg(feature = "live")]
#[wasm_bindgen]
impl Player {
    /// A live run that follows `group-broker` (see `group_simulator::live`): empty until
    /// `follow` is given the first lines of the broker's trace (its `--live` feed or its
    /// `--trace` file). Its clients' lanes, states and assignments are drawn like any run's.
    pub fn live() -> Player {
        Player {
            inner: Follower::empty_run(),
            follower: Some(Follower::new()),
        }
    }

    /// Applies lines of the broker's trace (one or more, separated by newlines; blank lines
    /// are skipped) at the end of the run (a user looking back stays
    /// where they are), checking each answer the broker recorded against this model's. Never
    /// throws for what the lines say: a line that cannot be used, or an answer that differs,
    /// stops following, and the returned status says which line and why. Throws only when this
    /// run does not follow a broker.
    #[wasm_bindgen(unchecked_return_type = "FollowStatus")]
    pub fn follow(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] lines: JsValue,
    ) -> Result<JsValue, JsValue> {
        let Some(follower) = self.follower.as_mut() else {
            // (An Error, as every refusal of the module is; the argument is not at fault.)
            return Err(js_sys::Error::new(
                "this run does not follow a broker (open one with Player.live())",
            )
            .into());
        };
        let text = args::lines("lines", &lines)?;
        let lines = text.split('\n').filter(|l| !l.trim().is_empty());
        follower.feed(&mut self.inner, lines);
        to_js(follower.status())
    }
}

/// A moment of the run and its step, as `moments` returns them: the scrubber's chapters.
#[derive(serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct MomentAt<'a> {
    step: usize,
    mark: group_simulator::StepMark,
    label: &'a group_simulator::scenario::Text,
}

/// How a run's checkpoints stand, as `checkpoints` returns it.
#[derive(serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Checkpoints {
    checkpoints: usize,
    spacing: usize,
}
