//! The simulation: one coordinator, the consumers and the network, driven event by event in
//! (time, sequence) order. Same scenario, same seed, same actions: the same trace.
//!
//! This file is the event loop: what happens when each pending event comes due, and how the
//! coordinator's answers go back out. Beside it, each job on its own: `actions.rs` (the action
//! interpreter: an action checked, applied, or refused with a [`Refusal`]), `agreement.rs` (the
//! checks after every event that each consumer holds what the coordinator gave it) and
//! `settled.rs` (whether the group is at rest, and since when).

use crate::action_log::ActionLog;
use crate::consumer::{Consumer, Life};
use crate::refusal::Refusal;
use crate::scenario::{Action, Scenario, ScenarioError};
use crate::trace::{LossReason, Trace, TraceKind};
use crate::world::{Incoming, Outgoing, Pending, World};
use crate::world_view::{Metrics, WorldView};

mod actions;
mod agreement;
mod settled;
use alloc::boxed::Box;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::event::{Cause, EventKind};
use group_coordinator::{Coordinator, ErrorCode, GroupState, Response};

/// How the run says the coordinator refused a request (a misuse of its API, never Kafka's
/// answer to a request, which is an error code), in a violation's text (a simulated
/// consumer's; a real client's is a [`Refusal::CoordinatorRefused`]).
const REFUSED: &str = "the coordinator refused a request";

#[derive(Clone, Debug)]
pub struct Simulation {
    /// Shared with the copies of this world the player keeps: a scenario's script can be
    /// 100,000 steps (7 MB), and copying it at each checkpoint made a long script's run
    /// quadratic. Changed only by a network action, which then copies it once.
    pub(crate) scenario: Rc<Scenario>,
    pub(crate) w: World,
    pub(crate) coordinator: Coordinator,
    pub(crate) consumers: Vec<Consumer>,
    /// The group is served (false between a failover's unload and load).
    pub(crate) coordinator_available: bool,
    /// The time of the last `advance` of the coordinator: a timer due again at that time (a
    /// zero-length re-armed join timer) fires 1 ms later, as Kafka's real timer ticks.
    last_advance: Option<i64>,
    /// The highest generation seen since the group was last loaded.
    generation_seen: i32,
    /// When the world last became settled, and the time spent unsettled since the first.
    pub(crate) settled_since: Option<i64>,
    first_settled: Option<i64>,
    pub(crate) unsettled_ms: i64,
    unsettled_since: Option<i64>,
    /// Every action applied, with its time (the page replays them to fork a run); shared with
    /// the copies of this world the player keeps, see [`ActionLog`].
    pub(crate) actions: ActionLog,
    /// The buffer the coordinator's events are drained into after each input (kept empty
    /// between inputs; reused so that draining allocates nothing).
    events: Vec<group_coordinator::event::Event>,
    /// The buffer a request's responses come back in (see `Coordinator::handle_into`).
    responses: Vec<Response>,
    /// The coordinator's invariant check: when it last ran, and whether the group has moved
    /// since (see `after_coordinator`).
    invariants: InvariantChecks,
}

/// When the coordinator's own bookkeeping is checked (`Coordinator::check_invariants`): after
/// every input that moves the group's membership or state, in a group of up to
/// [`InvariantChecks::EVERY_MOVE_UP_TO`] consumers. The check walks the whole group, so in a
/// larger one it runs at once for a change of state (the moments a reader looks at), and
/// otherwise at most once per simulated [`InvariantChecks::SPACING_MS`] while members come and
/// go: 1,000 consumer-protocol members joining one by one are 1,000 moves, and checking each
/// one made the joins quadratic (a tenth of the hour of 1,000 consumers in wasm). A move left
/// unchecked is checked at the coordinator's first input after the spacing.
#[derive(Clone, Debug, Default)]
struct InvariantChecks {
    last_ms: Option<i64>,
    pending: bool,
}

impl InvariantChecks {
    const EVERY_MOVE_UP_TO: usize = 64;
    const SPACING_MS: i64 = 1_000;

    /// Whether to check now: after an input that moved the group (`moved`) or its state
    /// (`state_moved`), in a world of `consumers`, at `now`.
    fn due(&mut self, moved: bool, state_moved: bool, consumers: usize, now: i64) -> bool {
        self.pending |= moved;
        let due = self.pending
            && (state_moved
                || consumers <= Self::EVERY_MOVE_UP_TO
                || self
                    .last_ms
                    .is_none_or(|last| now - last >= Self::SPACING_MS));
        if due {
            self.pending = false;
            self.last_ms = Some(now);
        }
        due
    }
}

/// The next thing to happen.
enum Next {
    CoordinatorTimer(i64),
    Queued(i64),
}

impl Simulation {
    /// Builds the world of a checked scenario; nothing runs until `step` or `run_until`.
    pub fn new(scenario: Scenario) -> Result<Simulation, ScenarioError> {
        scenario.check()?;
        let broker = scenario.broker_config()?;
        let mut w = World::new(
            scenario.seed,
            scenario.group_id.clone(),
            scenario.topics.clone(),
        );
        w.keep_bodies = scenario.live;
        let mut coordinator = Coordinator::with_seed(broker, scenario.seed);
        // The trace keeps only a heartbeat timer's expiry (the snapshot shows the timers).
        coordinator.emit_heartbeat_timer_events(false);
        // The cluster's metadata, which consumer groups (KIP-848) are assigned from; topic ids
        // are derived from the names, as the consumers resolve them.
        let metadata: Vec<(String, Option<group_coordinator::consumer_group::Uuid>, i32)> =
            scenario
                .topics
                .iter()
                .map(|(name, partitions)| (name.clone(), None, *partitions))
                .collect();
        coordinator
            .update_metadata(0, &metadata)
            .map_err(|e| ScenarioError {
                path: "topics".to_string(),
                message: e.to_string(),
            })?;
        // The group's own settings, set before the run as an admin would (checked above).
        let group_configs = scenario.group_configs()?;
        if !group_configs.is_empty() {
            coordinator
                .incremental_alter_group_configs(&scenario.group_id, &group_configs, false)
                .map_err(|(_, message)| ScenarioError {
                    path: "group".to_string(),
                    message,
                })?;
        }
        let mut consumers = Vec::new();
        for (i, spec) in scenario.consumers.iter().enumerate() {
            let config = scenario.consumer_config(spec, &format!("consumers[{i}]"))?;
            let link = spec.network.clone().unwrap_or(scenario.network.clone());
            let name = w.add_consumer(&spec.name, link);
            let app = spec
                .application
                .clone()
                .unwrap_or(scenario.application.clone());
            consumers.push(Consumer::new(i, name, spec.clone(), config, app));
            w.schedule(spec.start_ms, Pending::Start(i));
        }
        for (i, step) in scenario.script.iter().enumerate() {
            w.schedule(step.at_ms, Pending::Script(i));
        }
        Ok(Simulation {
            scenario: Rc::new(scenario),
            w,
            coordinator,
            consumers,
            coordinator_available: true,
            last_advance: None,
            generation_seen: 0,
            settled_since: None,
            first_settled: None,
            unsettled_ms: 0,
            unsettled_since: None,
            actions: ActionLog::default(),
            events: Vec::new(),
            invariants: InvariantChecks::default(),
            responses: Vec::new(),
        })
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn now(&self) -> i64 {
        self.w.now
    }

    pub fn trace(&self) -> &Trace {
        &self.w.trace
    }

    /// With `false`, the trace is counted but no longer kept (and what it held is dropped): for
    /// a run wanted only for its metrics, as a comparison's, whose trace would take hundreds of
    /// megabytes (a rolling restart of 300 consumers records over five million entries). The
    /// run itself is the same: its events, metrics and invariants do not depend on the trace.
    /// A trace once dropped is not kept again.
    pub fn keep_trace(&mut self, keep: bool) {
        if !keep {
            self.w.trace.count_only();
            // The coordinator's timer events too: counted where they would have been made
            // (`after_coordinator`), so that the count is the kept trace's length.
            self.coordinator.count_timer_events(true);
        }
    }

    pub fn consumers(&self) -> &[Consumer] {
        &self.consumers
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// The actions applied so far, with their times.
    pub fn actions(&self) -> core::cell::Ref<'_, [(i64, Action)]> {
        self.actions.get()
    }

    fn next(&self) -> Option<Next> {
        let queued = self.w.queue.first_key().map(|k| k.0);
        // A live run's timers fire at the broker's `advance` inputs, not on their own.
        let timer = (!self.scenario.live)
            .then(|| self.coordinator.next_deadline())
            .flatten()
            .map(|d| match self.last_advance {
                Some(t) if d <= t => t + 1,
                _ => d,
            });
        match (timer, queued) {
            // Timers due at a time fire before the requests of that time (Kafka's order).
            (Some(t), Some(q)) if t <= q => Some(Next::CoordinatorTimer(t)),
            (Some(t), None) => Some(Next::CoordinatorTimer(t)),
            (_, Some(q)) => Some(Next::Queued(q)),
            (None, None) => None,
        }
    }

    /// When the next event happens, if any.
    pub fn next_event_time(&self) -> Option<i64> {
        self.next().map(|n| match n {
            Next::CoordinatorTimer(t) | Next::Queued(t) => t,
        })
    }

    /// Processes events until one is recorded (a delivered message, a fired timer, an action):
    /// returns the index of the first trace entry it recorded, or `None` when nothing is left.
    pub fn step(&mut self) -> Option<usize> {
        loop {
            let before = self.w.trace.len();
            if !self.process_one() {
                return None;
            }
            if self.w.trace.len() > before {
                return Some(before);
            }
        }
    }

    /// Processes every event up to `t` and moves the clock to `t`.
    pub fn run_until(&mut self, t: i64) {
        self.run_until_at_most(t, usize::MAX);
    }

    /// `run_until` that processes at most `max_events` events (a caller that must return in
    /// bounded time, such as a page, calls it again to go on). The clock moves to `t` only when
    /// every event up to `t` has been processed; returns whether it got there.
    pub fn run_until_at_most(&mut self, t: i64, max_events: usize) -> bool {
        let mut processed = 0;
        while let Some(next) = self.next() {
            let (Next::CoordinatorTimer(at) | Next::Queued(at)) = next;
            if at > t {
                break;
            }
            if processed == max_events {
                return false;
            }
            self.process(next);
            processed += 1;
        }
        if t > self.w.now {
            self.w.now = t;
        }
        true
    }

    fn process_one(&mut self) -> bool {
        match self.next() {
            None => false,
            Some(next) => self.process(next),
        }
    }

    /// Processes the event `next` found first.
    fn process(&mut self, next: Next) -> bool {
        match next {
            Next::CoordinatorTimer(t) => {
                self.w.now = t;
                self.advance_coordinator();
                self.after_event();
                true
            }
            Next::Queued(_) => {
                let Some(((t, _), pending)) = self.w.queue.pop_first() else {
                    return false;
                };
                self.w.now = t;
                self.dispatch(pending);
                self.after_event();
                true
            }
        }
    }

    /// Fires the coordinator's timers due now.
    fn advance_coordinator(&mut self) {
        let t = self.w.now;
        self.last_advance = Some(t);
        match self.coordinator.advance(t) {
            Ok(mut responses) => self.after_coordinator(&mut responses),
            Err(e) => self
                .w
                .violation(format!("coordinator refused advance: {e}")),
        }
    }

    fn dispatch(&mut self, pending: Pending) {
        match pending {
            Pending::ToBroker { consumer, message } => self.deliver_to_broker(consumer, message),
            Pending::ToConsumer {
                consumer,
                incarnation,
                message,
            } => self.deliver_to_consumer(consumer, incarnation, message),
            Pending::Timer {
                consumer,
                incarnation,
                timer,
            } => {
                let c = &mut self.consumers[consumer];
                if c.incarnation != incarnation || !c.is_running() {
                    return;
                }
                if c.is_frozen() {
                    c.deferred.push(Pending::Timer {
                        consumer,
                        incarnation,
                        timer,
                    });
                    return;
                }
                c.on_timer(&mut self.w, timer);
            }
            Pending::Script(i) => {
                let step = self.scenario.script[i].clone();
                if let Some(text) = step.narrate {
                    self.w.record(TraceKind::Narration {
                        note: text,
                        key: step.key,
                    });
                }
                if let Some(action) = step.action
                    && let Err(why) = self.apply_checked(action.clone())
                {
                    self.w.record(TraceKind::ActionIgnored {
                        action: Box::new(action),
                        why,
                    });
                }
            }
            Pending::Start(i) => {
                if !self.consumers[i].is_running() {
                    self.consumers[i].start(&mut self.w);
                }
            }
            Pending::LoadGroup => self.load_group(),
            Pending::Inject { consumer, request } => {
                self.consumers[consumer].inject(&mut self.w, request)
            }
            Pending::Advance => self.advance_coordinator(),
        }
    }

    fn deliver_to_broker(&mut self, consumer: usize, message: Outgoing) {
        let (api, correlation_id) = message.describe();
        let name = self.w.names[consumer].clone();
        if self.w.links[consumer].cut {
            self.w.routes.remove(correlation_id);
            self.w
                .lost(name, api, correlation_id, false, LossReason::Cut);
            return;
        }
        self.w.record_with(|| TraceKind::RequestDelivered {
            consumer: name.clone(),
            api,
            correlation_id,
        });
        match message {
            Outgoing::FindCoordinator { correlation_id } => {
                let Some((c, incarnation)) = self.w.routes.remove(correlation_id) else {
                    return;
                };
                let error_code = if self.coordinator_available {
                    ErrorCode::None
                } else {
                    ErrorCode::CoordinatorNotAvailable
                };
                self.w.respond(
                    c,
                    incarnation,
                    Incoming::FindCoordinator {
                        correlation_id,
                        error_code,
                    },
                );
            }
            Outgoing::Request(request) => {
                // One buffer for every request's responses (kept between requests).
                let mut responses = core::mem::take(&mut self.responses);
                let handled = self
                    .coordinator
                    .handle_into(self.w.now, &*request, &mut responses);
                if handled.is_ok() {
                    self.after_coordinator(&mut responses);
                }
                self.responses = responses;
                match handled {
                    Ok(()) => {}
                    // A real client's request the model refuses is an input refused (the
                    // broker's model refused it too, and the follower checks that it did), not
                    // a broken invariant of the run.
                    Err(e) if self.consumers[consumer].is_external() => {
                        self.w.record(TraceKind::ActionIgnored {
                            action: Box::new(Action::Inject {
                                client: name.to_string(),
                                at_ms: self.w.now,
                                request: (*request).clone(),
                            }),
                            why: Refusal::CoordinatorRefused {
                                message: e.to_string(),
                            },
                        })
                    }
                    Err(e) => self.w.violation(format!("{REFUSED}: {e}")),
                }
            }
        }
    }

    fn deliver_to_consumer(&mut self, consumer: usize, incarnation: u32, message: Incoming) {
        let (api, correlation_id, error_code) = message.describe();
        let name = self.w.names[consumer].clone();
        let c = &mut self.consumers[consumer];
        if self.w.links[consumer].cut {
            self.w
                .lost(name, api, correlation_id, true, LossReason::Cut);
            return;
        }
        if c.incarnation != incarnation || matches!(c.life, Life::Crashed | Life::NotStarted) {
            self.w
                .lost(name, api, correlation_id, true, LossReason::ConsumerDown);
            return;
        }
        if c.is_frozen() {
            c.deferred.push(Pending::ToConsumer {
                consumer,
                incarnation,
                message,
            });
            return;
        }
        self.w.sent_at.remove(correlation_id);
        self.w.record_with(|| TraceKind::ResponseDelivered {
            consumer: name,
            api,
            correlation_id,
            error_code,
            error: error_code.name(),
        });
        if c.is_external() {
            c.observe(&mut self.w, message);
        } else {
            c.on_message(&mut self.w, message);
        }
    }

    /// Records the coordinator's events and sends its responses.
    /// `responses` is left empty, its capacity kept (see `deliver_to_broker`'s buffer).
    fn after_coordinator(&mut self, responses: &mut Vec<Response>) {
        let mut events = core::mem::take(&mut self.events);
        self.coordinator.drain_events_into(&mut events);
        self.w
            .trace
            .count_more(self.coordinator.take_timer_events_counted());
        let (mut moved, mut state_moved) = (false, false);
        for e in events.drain(..) {
            match &e.kind {
                EventKind::StateChanged { to, cause, .. } => {
                    // An Empty group of the other type gave its id away: the new group counts
                    // from 0, as a deleted one does (a conversion with members carries the
                    // generation over as the epoch, and back).
                    if *cause == Cause::ReplacedByOtherType {
                        self.w.group_incarnation += 1;
                        self.generation_seen = 0;
                    }
                    if *to == GroupState::PreparingRebalance {
                        self.w.counters.rebalances += 1;
                    }
                    if *to == GroupState::Stable {
                        let ids: Vec<usize> = (0..self.consumers.len()).collect();
                        self.w.agreement_checks.extend(ids);
                    }
                    self.w.mark_dirty();
                }
                // A consumer group's new group epoch is its rebalance (a new target follows).
                EventKind::GroupEpochBumped { .. } => {
                    self.w.counters.rebalances += 1;
                    self.w.counters.generations += 1;
                    self.w.mark_dirty();
                }
                // A member id the coordinator takes in as new while its consumer still holds
                // partitions: a classic consumer fenced while its JoinGroup was lost, rejoining
                // a consumer group (Kafka 4.0 does not answer UNKNOWN_MEMBER_ID there).
                EventKind::ConsumerMemberJoined { member_id } => {
                    if let Some(c) = self
                        .consumers
                        .iter()
                        .position(|c| c.is_running() && &c.generation.member_id == member_id)
                    {
                        self.w.ledger.mark_zombie(c);
                    }
                }
                EventKind::ConsumerGroupStateChanged { from, to } => {
                    if *from == ConsumerGroupState::Empty && *to == ConsumerGroupState::Dead {
                        self.w.group_incarnation += 1;
                        self.generation_seen = 0;
                    }
                    self.w.mark_dirty();
                }
                EventKind::GenerationBumped { generation_id, .. } => {
                    self.w.counters.generations += 1;
                    if *generation_id < self.generation_seen {
                        self.w.violation(format!(
                            "the generation went back from {} to {generation_id}",
                            self.generation_seen
                        ));
                    }
                    self.generation_seen = self.generation_seen.max(*generation_id);
                }
                // A deleted group (DeleteGroups, or the offsets cleanup of an Empty group) is
                // recreated by the next JoinGroup with generations from 0 again.
                EventKind::Deleted => {
                    self.w.group_incarnation += 1;
                    self.generation_seen = 0;
                }
                // A failover may load an older generation than the one in memory (the last
                // record wins): Kafka allows it, so the baseline restarts.
                EventKind::Loaded { .. } => {
                    self.generation_seen = self
                        .coordinator
                        .group(&self.w.group_id)
                        .map_or(0, |g| g.generation_id());
                }
                _ => {}
            }
            // The core's own bookkeeping is checked when membership or state moves (not on
            // every parked response: that would be quadratic in the group size).
            moved |= e.kind.moves_group();
            state_moved |= matches!(
                e.kind,
                EventKind::StateChanged { .. } | EventKind::ConsumerGroupStateChanged { .. }
            );
            // (A metrics-only run counts the event and drops it: a schedule, a cancel, a
            // persisted record at every heartbeat and commit is most of what the core says.)
            let event = e.kind;
            self.w.record_with(|| TraceKind::Coordinator { event });
        }
        self.events = events;
        let check = self
            .invariants
            .due(moved, state_moved, self.consumers.len(), self.w.now);
        if check && let Err(e) = self.coordinator.check_invariants() {
            self.w.violation(format!("coordinator: {e}"));
        }
        for response in responses.drain(..) {
            let correlation_id = response.correlation_id();
            let Some((consumer, incarnation)) = self.w.routes.remove(correlation_id) else {
                continue;
            };
            self.w
                .respond(consumer, incarnation, Incoming::Response(Rc::new(response)));
        }
    }

    fn load_group(&mut self) {
        let group_id = self.w.group_id.clone();
        self.coordinator_available = true;
        match self.coordinator.load(&group_id) {
            Ok(mut responses) => self.after_coordinator(&mut responses),
            Err(e) => self.w.record(TraceKind::ActionIgnored {
                action: Box::new(Action::Failover { down_ms: 0 }),
                why: Refusal::Coordinator {
                    message: e.to_string(),
                },
            }),
        }
        self.w.mark_dirty();
    }

    // ---- reading -------------------------------------------------------------------------

    pub fn snapshot(&self) -> WorldView {
        WorldView::of(self)
    }

    pub fn metrics(&self) -> Metrics {
        Metrics::of(self)
    }

    /// The trace as reviewable text, one line per entry (the golden-trace format).
    pub fn render(&self) -> String {
        let mut out = String::new();
        for e in self.w.trace.iter() {
            out += &format!("{:>9} {}\n", e.at_ms, e.narrate(crate::trace::Lang::En));
        }
        out
    }

    /// A 64-bit FNV-1a hash of the rendered trace: equal hashes, equal runs.
    pub fn trace_hash(&self) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for e in self.w.trace.iter() {
            let line = format!("{} {}\n", e.at_ms, e.narrate(crate::trace::Lang::En));
            for b in line.bytes() {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

#[cfg(test)]
mod invariant_checks {
    use super::InvariantChecks;

    #[test]
    fn a_small_group_is_checked_at_every_move_a_large_one_at_its_state_changes_and_spaced() {
        // (moved, state moved, at ms, checked, why), one world after another.
        let small = [
            (true, false, 0, true, "a move"),
            (true, false, 1, true, "a move 1 ms later"),
            (true, false, 2, true, "and another"),
            (false, false, 3, false, "nothing moved"),
        ];
        let large = [
            (true, false, 0, true, "the first move"),
            (true, false, 10, false, "a move 10 ms later waits"),
            (false, false, 999, false, "still within the spacing"),
            (
                false,
                false,
                1_000,
                true,
                "the waiting move, after the spacing",
            ),
            (false, false, 1_500, false, "nothing waits any more"),
            (true, false, 1_600, false, "waits again"),
            (true, true, 1_700, true, "a change of state, at once"),
            (
                false,
                true,
                1_800,
                false,
                "a state event with nothing waiting",
            ),
            (
                true,
                false,
                2_700,
                true,
                "a move a spacing after the last check",
            ),
        ];
        for (consumers, steps) in [(64, &small[..]), (65, &large[..])] {
            let mut checks = InvariantChecks::default();
            for &(moved, state_moved, now, checked, why) in steps {
                assert_eq!(
                    checks.due(moved, state_moved, consumers, now),
                    checked,
                    "{consumers} consumers, {now} ms: {why}"
                );
            }
        }
    }
}
