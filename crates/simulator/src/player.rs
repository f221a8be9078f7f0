//! A run that moves both ways in time: what the page plays, steps, scrubs and forks.
//!
//! A [`Simulation`] only moves forward. The player counts its steps (one recorded event each,
//! [`Simulation::step`]), applies the user's actions at the steps they were taken, keeps a
//! record per step of what the step table shows (the group's state and generation after it,
//! its members and delayed operations), and keeps checkpoints: clones of the world (without
//! its trace, which only grows and is cut back to the checkpoint's length on a restore). Going
//! back restores the last checkpoint at or before the target and replays at most one spacing of
//! steps; acting in the past forks the run (later actions and checkpoints are dropped).
//!
//! Checkpoints are taken every [`Player::spacing`] steps, starting at [`FIRST_SPACING`]; when
//! there are more than the run's [`Player::max_checkpoints`], the spacing doubles and every other
//! one is dropped. So memory stays within that many worlds, and a step back costs one world
//! clone plus at most `spacing` steps: `spacing` grows with the run's length (a simulated hour of
//! 100 consumers, about 590,000 steps, ends with a spacing of 4,096). How many worlds is
//! [`MAX_CHECKPOINTS`], or fewer for a large world, so that all of them fit in
//! [`CHECKPOINT_BUDGET_BYTES`] ([`world_bytes`]): 192 copies of a world of 1,000 consumers on
//! 100,000 partitions were 9 GB, past what a wasm module can address, and the page trapped.

use crate::index::{ViewIndex, client_of};
pub use crate::moments::{Moment, StepMark};
use crate::scenario::{Action, Scenario, ScenarioError};
use crate::simulation::Simulation;
use crate::step_list::StepList;
pub use crate::step_list::Steps;
use crate::trace::TraceKind;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::mem::size_of;
use group_coordinator::GroupState;
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::event::EventKind;

/// The most checkpoints kept (each a clone of the world without its trace).
pub const MAX_CHECKPOINTS: usize = 192;
/// The fewest kept, whatever a world's size: a step back in a run of `n` steps replays at most
/// `n / MIN_CHECKPOINTS` steps.
pub const MIN_CHECKPOINTS: usize = 8;
/// What the checkpoints of one run may hold in all, by [`world_bytes`]' estimate.
pub const CHECKPOINT_BUDGET_BYTES: usize = 512 << 20;

/// A world's size, estimated from its scenario: measured natively (the resident size of ten
/// copies of a world at steady state), about 1 MB, plus 10 KB a consumer (its client state and
/// membership), plus 500 bytes a partition (its owner in the ledger, its committed offset, its
/// place in each assignment). 50 consumers on 500 partitions: ~1.7 MB; 1,000 on 100,000: ~61 MB
/// (55 MB measured).
pub fn world_bytes(scenario: &Scenario) -> usize {
    let partitions: usize = scenario
        .topics
        .values()
        .map(|&n| usize::try_from(n).unwrap_or(0))
        .sum();
    (1 << 20) + 10_240 * scenario.consumers.len() + 500 * partitions
}

/// How many checkpoints a run of `scenario` keeps: [`MAX_CHECKPOINTS`], or as many worlds as
/// fit in [`CHECKPOINT_BUDGET_BYTES`], at least [`MIN_CHECKPOINTS`].
pub fn max_checkpoints(scenario: &Scenario) -> usize {
    (CHECKPOINT_BUDGET_BYTES / world_bytes(scenario)).clamp(MIN_CHECKPOINTS, MAX_CHECKPOINTS)
}
/// What one run may record (its steps' records, trace and indexes, by
/// [`Player::recorded_bytes`]' estimate) before playing stops ([`PlayStop::RecordFull`]); its
/// checkpoints take up to [`CHECKPOINT_BUDGET_BYTES`] more. A wasm module addresses 4 GiB at
/// most, and a run that fills it traps: the page could only be reloaded. Measured in wasm: 1,000
/// consumers on 10,000 partitions reach it after some 2 simulated hours (12 million steps), the
/// module's memory then 2.9 GiB; on 100,000 partitions, whose JoinGroup and SyncGroup bodies are
/// large, after 0.6 to 1.7 hours (as often as they rebalance). The margin is for what is not
/// counted (the allocator's own, the run's working memory) and for a list doubling its
/// capacity near the budget, which holds the old and the new buffer at once.
pub const RECORD_BUDGET_BYTES: usize = 2 << 30;

/// The first spacing between checkpoints, in steps.
pub const FIRST_SPACING: usize = 64;
/// Members and delayed operations are recorded per step only for groups up to this size (a
/// step table of a larger group is not read line by line, and the records would cost).
pub const DETAILED_UP_TO: usize = 12;

/// How far past the scenario's end a run plays on after an action of the user's, unless the world
/// comes to rest first: Kafka's default session timeout and rebalance timeout (45 s + 300 s),
/// rounded up, so a crash's or a leave's consequences play out.
pub const PLAY_ON_MS: i64 = 360_000;

/// Why playing stops here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PlayStop {
    /// The scenario's end (`durationMs`), and the user has not acted.
    ScenarioEnd,
    /// Past the scenario's end, the group is at rest again after the user's action.
    AtRest,
    /// [`PLAY_ON_MS`] past the user's last action.
    PlayOnLimit,
    /// Nothing is left to happen.
    NothingLeft,
    /// The run has recorded what one run may ([`RECORD_BUDGET_BYTES`]): it goes no further.
    /// Going back, and acting in the past (which drops the known future), still work.
    RecordFull,
}

/// An action the user took, applied after `step` steps.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "StepAction"))]
pub struct TimedAction {
    pub step: usize,
    pub action: Action,
}

/// What one step did and left: the step table's row.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    /// Trace entries `[first, end)` were recorded by this step (and by actions taken after it).
    pub first: usize,
    pub end: usize,
    pub at_ms: i64,
    /// The group after the step (its fields are the record's own in JSON).
    #[serde(flatten)]
    pub group: GroupAfter,
    /// What the step's entries mark, one per entry that calls for a mark.
    pub marks: Vec<StepMark>,
    /// The moment the step is, if it is one (boxed: most steps are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moment: Option<Box<Moment>>,
    /// The last change of the group's state in this step (with the actions after it), if any:
    /// what the state machine shows as the transition that just fired.
    pub transition: Option<StepTransition>,
}

/// The group after a step, as the step table shows it: what the player records per step, and
/// what a row of the table (`frame::StepRow`) shows of it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GroupAfter {
    /// The group's state after the step, as the trace told it (`None` before the group exists).
    pub state: Option<GroupState>,
    /// A consumer group's (KIP-848) state after the step, as the trace told it; then
    /// `generation_id` is its group epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_state: Option<ConsumerGroupState>,
    pub generation_id: i32,
    /// The members' client ids after the step (groups of up to [`DETAILED_UP_TO`] consumers).
    pub members: Vec<Rc<str>>,
    /// The group's delayed join and sync operations after the step, by timer key (idem; the
    /// heartbeats' are left out: one per member, they would fill the row).
    pub delayed: Vec<String>,
}

/// A change of the group's state: a transition of the table (`from` is the state left), or a
/// load from the group's record (`from` is `None`: no transition happened).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepTransition {
    pub from: Option<GroupState>,
    pub to: GroupState,
    /// The trace entry that tells it.
    pub index: usize,
}

impl StepTransition {
    /// The last state change among trace entries `[first, end)`.
    fn of_entries(sim: &Simulation, first: usize, end: usize) -> Option<StepTransition> {
        sim.trace()
            .iter_from(first)
            .take(end - first)
            .filter_map(|e| match &e.kind {
                TraceKind::Coordinator {
                    event: EventKind::StateChanged { from, to, .. },
                } => Some(StepTransition {
                    from: Some(*from),
                    to: *to,
                    index: e.index,
                }),
                TraceKind::Coordinator {
                    event: EventKind::Loaded { state, .. },
                } => Some(StepTransition {
                    from: None,
                    to: *state,
                    index: e.index,
                }),
                _ => None,
            })
            .last()
    }
}

/// The group's state and generation as the trace has told them so far.
#[derive(Clone, Copy, Debug, Default)]
struct Told {
    state: Option<GroupState>,
    consumer_state: Option<ConsumerGroupState>,
    generation_id: i32,
}

impl Told {
    fn read(&mut self, sim: &Simulation, from: usize) {
        for e in sim.trace().iter_from(from) {
            if let TraceKind::Coordinator { event } = &e.kind {
                match event {
                    EventKind::StateChanged { to, .. } | EventKind::Loaded { state: to, .. } => {
                        self.state = Some(*to)
                    }
                    EventKind::GenerationBumped { generation_id, .. } => {
                        self.generation_id = *generation_id
                    }
                    // A consumer group's epoch stands in its step rows' generation column.
                    EventKind::GroupEpochBumped { group_epoch } => {
                        self.generation_id = *group_epoch
                    }
                    EventKind::ConsumerGroupStateChanged { to, .. } => {
                        self.consumer_state = Some(*to)
                    }
                    EventKind::Deleted => self.generation_id = 0,
                    _ => {}
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
struct Checkpoint {
    /// Steps taken (and the actions at that step applied).
    step: usize,
    /// The trace's length then; the world below carries no trace.
    trace_len: usize,
    told: Told,
    world: Simulation,
}

#[derive(Debug)]
pub struct Player {
    sim: Simulation,
    /// The user's actions (a live run's inputs), in step order.
    actions: Vec<TimedAction>,
    /// Every step's record known: those taken (`..cursor`) and, after going back, the known
    /// future (until a fork drops it).
    steps: StepList,
    cursor: usize,
    told: Told,
    /// Sorted by step; the one of step 0 is always kept.
    checkpoints: Vec<Checkpoint>,
    spacing: usize,
    /// The most checkpoints kept (see [`max_checkpoints`]).
    max_checkpoints: usize,
    /// The world's estimated size ([`world_bytes`]).
    world_bytes: usize,
    /// Worlds of checkpoints dropped (by a doubled spacing or a fork) and not yet freed: they
    /// are freed one a step. Freeing a world of 1,000 consumers on 100,000 partitions costs half
    /// as much as cloning it (15 ms natively), and a doubled spacing drops half the checkpoints
    /// at once: one step of that size took 90 ms natively, several hundred in a browser.
    discarded: Vec<Simulation>,
    finished: bool,
    detailed: bool,
    /// The views' indexes over every trace entry recorded (the known future included).
    index: ViewIndex,
    /// The steps (0-based) whose record has a transition, in order.
    with_transition: Vec<usize>,
    /// Where the user's first action's entries begin in the trace: from there on the run is no
    /// longer the scenario as scripted (its notes may no longer apply).
    diverged_at: Option<usize>,
    /// What the steps' marks and moments hold, beyond their records (see
    /// [`Player::recorded_bytes`]).
    marks_bytes: usize,
    /// What the run may record ([`RECORD_BUDGET_BYTES`] unless set otherwise).
    record_budget: usize,
}

impl Player {
    /// A run of `scenario` at step 0, with the user's `actions` (those at step 0 applied now,
    /// the others when the run reaches their step). A refused action at step 0 is an error.
    pub fn new(scenario: Scenario, mut actions: Vec<TimedAction>) -> Result<Player, ScenarioError> {
        // By step, those of one step in the order given (a stable sort: the order they are
        // applied in, as before), so that each step finds its own by a search, not a scan.
        actions.sort_by_key(|a| a.step);
        let detailed = scenario.consumers.len() <= DETAILED_UP_TO;
        let max_checkpoints = max_checkpoints(&scenario);
        let world_bytes = world_bytes(&scenario);
        let mut player = Player {
            sim: Simulation::new(scenario)?,
            actions,
            steps: StepList::default(),
            cursor: 0,
            told: Told::default(),
            checkpoints: Vec::new(),
            spacing: FIRST_SPACING,
            max_checkpoints,
            world_bytes,
            discarded: Vec::new(),
            finished: false,
            detailed,
            index: ViewIndex::default(),
            with_transition: Vec::new(),
            diverged_at: None,
            marks_bytes: 0,
            record_budget: RECORD_BUDGET_BYTES,
        };
        player.apply_actions_at(0)?;
        player.checkpoint();
        player.index.catch_up(player.sim.trace());
        Ok(player)
    }

    /// About the bytes the run has recorded: its steps' records, its trace and the views'
    /// indexes, which grow with every step (the checkpoints are bounded on their own, by
    /// [`CHECKPOINT_BUDGET_BYTES`]). The lists count by their capacity: that memory is taken
    /// whether or not it is filled yet.
    pub fn recorded_bytes(&self) -> usize {
        self.steps.bytes()
            + self.marks_bytes
            + self.with_transition.capacity() * size_of::<usize>()
            + self.sim.trace().kept_bytes()
            + self.index.bytes()
    }

    /// Sets what the run may record before playing stops ([`PlayStop::RecordFull`]): for a host
    /// with more or less room than a wasm module's, and for tests.
    pub fn set_record_budget(&mut self, bytes: usize) {
        self.record_budget = bytes;
    }

    /// At the end of what is known, with the run's record full: no step further.
    fn record_full(&self) -> bool {
        self.cursor == self.steps.len() && self.recorded_bytes() >= self.record_budget
    }

    /// What a step's marks and moment hold beyond its record.
    fn marks_bytes_of(step: &StepRecord) -> usize {
        step.marks.capacity() * size_of::<StepMark>()
            + step.moment.as_ref().map_or(0, |_| size_of::<Moment>())
    }

    /// Steps taken so far.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// One record per step taken (index k = the (k+1)-th step).
    pub fn steps(&self) -> Steps<'_> {
        self.steps.view(self.cursor)
    }

    /// Every step's record known: those taken and, after going back, the known future.
    pub fn known_steps(&self) -> Steps<'_> {
        self.steps.view(usize::MAX)
    }

    pub fn actions(&self) -> &[TimedAction] {
        &self.actions
    }

    /// Nothing is left to happen (only after a step found nothing).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Past the scenario's end (`durationMs`): nothing left before it.
    pub fn past_end(&self) -> bool {
        self.finished
            || self
                .sim
                .next_event_time()
                .is_none_or(|t| t > self.sim.scenario().duration_ms)
    }

    /// Whether playing stops before the next step, and why: at the scenario's end, unless the
    /// user has acted; then at most [`PLAY_ON_MS`] past the last action, or as soon as the world
    /// is at rest ([`Simulation::is_at_rest`]).
    pub fn play_stop(&self) -> Option<PlayStop> {
        if self.finished {
            return Some(PlayStop::NothingLeft);
        }
        if self.record_full() {
            return Some(PlayStop::RecordFull);
        }
        let Some(next) = self.sim.next_event_time() else {
            return Some(PlayStop::NothingLeft);
        };
        if next <= self.sim.scenario().duration_ms {
            return None;
        }
        let acted = self
            .actions
            .iter()
            .rev()
            .find(|a| a.step <= self.cursor)
            .map(|a| match a.step.checked_sub(1) {
                Some(k) => self.steps.get(k).map_or(0, |r| r.at_ms),
                None => 0,
            });
        match acted {
            None => Some(PlayStop::ScenarioEnd),
            Some(at) if next > at + PLAY_ON_MS => Some(PlayStop::PlayOnLimit),
            Some(_) if self.sim.is_at_rest() => Some(PlayStop::AtRest),
            Some(_) => None,
        }
    }

    /// The spacing of checkpoints now, in steps.
    pub fn spacing(&self) -> usize {
        self.spacing
    }

    /// How many checkpoints are kept now.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// The most checkpoints this run keeps ([`max_checkpoints`] of its scenario).
    pub fn max_checkpoints(&self) -> usize {
        self.max_checkpoints
    }

    /// One step: the next delivered message, fired timer or script action, then the user's
    /// actions at the new step. False at the end (nothing left to happen), and when the run's
    /// record is full ([`PlayStop::RecordFull`]).
    pub fn forward(&mut self) -> Result<bool, ScenarioError> {
        if self.record_full() {
            return Ok(false);
        }
        drop(self.discarded.pop());
        let first = self.sim.trace().len();
        let Some(_) = self.sim.step() else {
            self.finished = true;
            return Ok(false);
        };
        self.told.read(&self.sim, first);
        if self.cursor == self.steps.len() {
            let at_ms = self.sim.trace().at_ms(first).unwrap_or(0);
            let (members, delayed) = self.details();
            let end = self.sim.trace().len();
            let (marks, moment) = Moment::of_entries(&self.sim, first, end);
            let step = StepRecord {
                first,
                end,
                at_ms,
                group: GroupAfter {
                    state: self.told.state,
                    consumer_state: self.told.consumer_state,
                    generation_id: self.told.generation_id,
                    members,
                    delayed,
                },
                marks,
                moment: moment.map(Box::new),
                transition: StepTransition::of_entries(&self.sim, first, end),
            };
            self.marks_bytes += Self::marks_bytes_of(&step);
            self.steps.push(step);
            self.note_transition(self.cursor);
        }
        // (A step of the known future: its record is kept from the first time.)
        self.cursor += 1;
        self.apply_actions_at(self.cursor)?;
        if self.cursor.is_multiple_of(self.spacing) {
            self.checkpoint();
        }
        self.index.catch_up(self.sim.trace());
        Ok(true)
    }

    /// Moves to `step` steps from the start (or as near as the run goes): from the last
    /// checkpoint at or before it when that is behind the cursor or ahead of it (a known
    /// future), then step by step.
    pub fn seek(&mut self, step: usize) -> Result<(), ScenarioError> {
        self.seek_at_most(step, usize::MAX)
    }

    /// [`seek`](Self::seek), replaying at most `max_steps` steps after the checkpoint it starts
    /// from (a bound on one call's work; jumping to a checkpoint of the known future is free).
    pub fn seek_at_most(&mut self, step: usize, max_steps: usize) -> Result<(), ScenarioError> {
        let known = step.min(self.steps.len());
        let from = self.checkpoints.iter().rposition(|c| c.step <= known);
        if let Some(i) = from
            && (known < self.cursor || self.checkpoints[i].step > self.cursor)
        {
            self.restore(i);
        }
        let mut taken = 0;
        while self.cursor < step && taken < max_steps && self.forward()? {
            taken += 1;
        }
        Ok(())
    }

    /// Goes to the scenario's key moment: the step that recorded its key narration, from the
    /// known steps or by stepping on (at most `max_steps` past the known ones, and not past
    /// where playing stops: the key is a script step). Returns that step, or `None` when the
    /// scenario has none within reach; the run has then not moved. A scenario whose script
    /// marks no step `key` answers at once: stepping on to look for one would only grow the
    /// known run, call after call.
    pub fn seek_key(&mut self, max_steps: usize) -> Result<Option<usize>, ScenarioError> {
        if !self.sim.scenario().script.iter().any(|s| s.key) {
            return Ok(None);
        }
        let has_key = |r: &StepRecord| r.marks.contains(&StepMark::Key);
        let from = self.cursor;
        let found = self.seek_first(0, has_key, max_steps, true)?;
        if found.is_none() {
            self.seek(from)?;
        }
        Ok(found)
    }

    /// Goes to the first step after `after` steps whose record `wanted` picks: from the known
    /// steps, or stepping on past them at most `max_steps` steps (with `bounded`, not past where
    /// playing stops). Returns its step, or `None` when none is within reach.
    fn seek_first(
        &mut self,
        after: usize,
        wanted: impl Fn(&StepRecord) -> bool,
        max_steps: usize,
        bounded: bool,
    ) -> Result<Option<usize>, ScenarioError> {
        let known = self
            .known_steps()
            .range(after..usize::MAX)
            .position(&wanted);
        if let Some(k) = known {
            let step = after + k + 1;
            self.seek(step)?;
            return Ok(Some(step));
        }
        self.seek(self.steps.len())?;
        for _ in 0..max_steps {
            if (bounded && self.play_stop().is_some()) || !self.forward()? {
                break;
            }
            if self.steps.get(self.cursor - 1).is_some_and(&wanted) {
                return Ok(Some(self.cursor));
            }
        }
        Ok(None)
    }

    /// The known steps' moments from step `from` (1-based) on: `(step, moment)`.
    pub fn moments_from(&self, from: usize) -> impl Iterator<Item = (usize, &Moment)> {
        let skip = from.saturating_sub(1);
        self.known_steps()
            .range(skip..usize::MAX)
            .enumerate()
            .filter_map(move |(k, r)| r.moment.as_deref().map(|m| (skip + k + 1, m)))
    }

    /// Goes to the next moment after the cursor (from the known steps, or stepping on at most
    /// `max_steps` past them and not past where playing stops), or to the last one before it.
    /// Returns its step, or `None` when there is none within reach (the run has not moved).
    pub fn seek_moment(
        &mut self,
        forward: bool,
        max_steps: usize,
    ) -> Result<Option<usize>, ScenarioError> {
        let is_moment = |r: &StepRecord| r.moment.is_some();
        if !forward {
            let before = self.cursor.saturating_sub(1);
            let Some(k) = self
                .known_steps()
                .prefix(before)
                .iter()
                .rposition(is_moment)
            else {
                return Ok(None);
            };
            self.seek(k + 1)?;
            return Ok(Some(k + 1));
        }
        let from = self.cursor;
        let found = self.seek_first(from, is_moment, max_steps, true)?;
        if found.is_none() {
            self.seek(from)?;
        }
        Ok(found)
    }

    /// Acts now. An action in the past forks the run: the actions after this step are dropped,
    /// and so are the known future and the checkpoints in it. A refused action changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), ScenarioError> {
        let first = self.sim.trace().len();
        self.sim.apply(action.clone())?;
        self.diverged(first);
        let cursor = self.cursor;
        self.actions
            .truncate(self.actions.partition_point(|a| a.step <= cursor));
        self.actions.push(TimedAction {
            step: cursor,
            action,
        });
        self.sim.w.trace.forget_future();
        self.index.truncate(first);
        if self.steps.len() > cursor {
            // The dropped future's room is given back (what a run records is bounded).
            self.steps.truncate(cursor);
            self.marks_bytes = self.known_steps().iter().map(Self::marks_bytes_of).sum();
        }
        self.with_transition
            .truncate(self.with_transition.partition_point(|&k| k < cursor));
        self.told.read(&self.sim, first);
        self.extend_last(self.cursor);
        self.finished = false;
        self.discard(|c| c.step >= cursor);
        self.checkpoint();
        self.index.catch_up(self.sim.trace());
        Ok(())
    }

    fn details(&self) -> (Vec<Rc<str>>, Vec<String>) {
        if !self.detailed {
            return (Vec::new(), Vec::new());
        }
        let coordinator = self.sim.coordinator();
        let group_id = &self.sim.scenario().group_id;
        // (member id, client id), and the delayed operations a row lists: a classic group's
        // join and sync by timer key; a consumer group's rebalance timeouts, by member.
        let (members, delayed): (Vec<(String, String)>, Vec<String>) =
            if let Some(view) = coordinator.describe(group_id) {
                (
                    view.members
                        .iter()
                        .map(|m| (m.member_id.clone(), m.client_id.clone()))
                        .collect(),
                    view.timers
                        .iter()
                        .filter(|t| matches!(t.kind.as_str(), "join" | "sync"))
                        .map(|t| t.key.to_string())
                        .collect(),
                )
            } else if let Some(view) = coordinator.describe_consumer_group(group_id) {
                let members: Vec<(String, String)> = view
                    .members
                    .iter()
                    .map(|m| (m.member_id.clone(), m.client_id.clone()))
                    .collect();
                let pairs = || members.iter().map(|(m, c)| (m.as_str(), c.as_str()));
                let delayed = view
                    .timers
                    .iter()
                    .filter(|t| t.kind == "rebalance")
                    .map(|t| {
                        let member = t.member_id.as_deref().unwrap_or_default();
                        alloc::format!("rebalance({})", client_of(pairs(), member))
                    })
                    .collect();
                (members, delayed)
            } else {
                (Vec::new(), Vec::new())
            };
        (
            members
                .iter()
                .map(|(_, client)| Rc::from(client.as_str()))
                .collect(),
            delayed,
        )
    }

    fn apply_actions_at(&mut self, step: usize) -> Result<(), ScenarioError> {
        let first = self.sim.trace().len();
        let mut applied = false;
        // The actions are in step order (see `new` and `act`): a live run has one per input,
        // and scanning them all at every step made following a broker quadratic.
        let from = self.actions.partition_point(|a| a.step < step);
        for a in self.actions[from..].iter().take_while(|a| a.step == step) {
            self.sim.apply(a.action.clone())?;
            applied = true;
        }
        if applied {
            self.diverged(first);
            self.told.read(&self.sim, first);
            self.extend_last(step);
        }
        Ok(())
    }

    /// The user's action recorded entries from `first` on.
    fn diverged(&mut self, first: usize) {
        self.diverged_at = Some(self.diverged_at.map_or(first, |d| d.min(first)));
    }

    /// Where the run stopped being the scenario as scripted: the trace index of the user's first
    /// action's entries (`None` while it is the scenario as scripted).
    pub fn diverged_at(&self) -> Option<usize> {
        self.diverged_at.filter(|&d| d < self.sim.trace().len())
    }

    /// The record of step `step` (the last taken) now ends where the trace does: actions taken
    /// after it belong to it, marks included.
    fn extend_last(&mut self, step: usize) {
        let end = self.sim.trace().len();
        let Some(i) = step.checked_sub(1) else {
            return;
        };
        let Some(first) = self.steps.get(i).map(|r| r.first) else {
            return;
        };
        let (marks, moment) = Moment::of_entries(&self.sim, first, end);
        let transition = StepTransition::of_entries(&self.sim, first, end);
        if let Some(record) = self.steps.get_mut(i) {
            let before = Self::marks_bytes_of(record);
            record.end = end;
            record.marks = marks;
            record.moment = moment.map(Box::new);
            record.transition = transition;
            self.marks_bytes =
                self.marks_bytes.saturating_sub(before) + Self::marks_bytes_of(record);
        }
        self.note_transition(i);
    }

    /// Keeps `with_transition` in step with the record of step `k` (0-based), the last known.
    fn note_transition(&mut self, k: usize) {
        if self.with_transition.last() == Some(&k) {
            self.with_transition.pop();
        }
        if self.steps.get(k).is_some_and(|r| r.transition.is_some()) {
            self.with_transition.push(k);
        }
    }

    /// The last transition among the steps taken.
    pub fn last_transition(&self) -> Option<StepTransition> {
        let taken = self.with_transition.partition_point(|&k| k < self.cursor);
        let k = *self.with_transition[..taken].last()?;
        self.known_steps()[k].transition
    }

    /// The views' indexes (over every entry recorded; read them for the trace's length).
    pub fn index(&self) -> &ViewIndex {
        &self.index
    }

    /// Keeps the world as it is now (without its trace), unless a checkpoint of this step is
    /// kept already.
    fn checkpoint(&mut self) {
        let step = self.cursor;
        let Err(at) = self.checkpoints.binary_search_by_key(&step, |c| c.step) else {
            return;
        };
        // The copy is many small allocations. In wasm the allocator grows the module's memory
        // 64 KB at a time when it runs out, and a browser's grow costs about 0.1 ms: a world of
        // 1,000 consumers on 100,000 partitions (27 MB there) took 430 grows, 50-200 ms of one
        // step. Asking for the world's estimated size at once grows the memory in one call; the
        // block, freed, is where the copy is then made. (Natively a block this large is mapped
        // and unmapped apart from the small allocations: a few microseconds lost.)
        drop(Vec::<u8>::with_capacity(self.world_bytes));
        let trace = core::mem::take(&mut self.sim.w.trace);
        let world = self.sim.clone();
        let trace_len = trace.len();
        self.sim.w.trace = trace;
        self.checkpoints.insert(
            at,
            Checkpoint {
                step,
                trace_len,
                told: self.told,
                world,
            },
        );
        if self.checkpoints.len() > self.max_checkpoints {
            // Twice as far apart: keep step 0, the points on the new spacing, and the newest
            // (a fork's point is not on the spacing).
            self.spacing *= 2;
            let spacing = self.spacing;
            self.discard(|c| !(c.step == 0 || c.step.is_multiple_of(spacing) || c.step == step));
        }
    }

    /// Drops the checkpoints `drop` names, their worlds to be freed by the steps to come.
    fn discard(&mut self, drop: impl Fn(&Checkpoint) -> bool) {
        let dropped = self.checkpoints.extract_if(.., |c| drop(c));
        self.discarded.extend(dropped.map(|c| c.world));
    }

    /// To checkpoint `i`: its world, the trace rewound to its length (the entries after it kept
    /// as the known future).
    fn restore(&mut self, i: usize) {
        let cp = &self.checkpoints[i];
        let mut trace = core::mem::take(&mut self.sim.w.trace);
        trace.rewind(cp.trace_len);
        self.sim = cp.world.clone();
        self.sim.w.trace = trace;
        self.told = cp.told;
        self.cursor = cp.step;
        self.finished = false;
    }
}
