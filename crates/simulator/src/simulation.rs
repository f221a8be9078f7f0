//! The simulation: one coordinator, the consumers and the network, driven event by event in
//! (time, sequence) order. Same scenario, same seed, same actions: the same trace.

use crate::action_log::ActionLog;
use crate::consumer::{Consumer, Life};
use crate::refusal::Refusal;
use crate::scenario::{Action, ConsumerSpec, Scenario, ScenarioError, apply_settings};
use crate::trace::{LossReason, Trace, TraceKind};
use crate::view::{Metrics, WorldView};
use crate::world::{Incoming, Outgoing, Pending, World};
use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::consumer_protocol::Assignment;
use group_coordinator::event::{Cause, EventKind};
use group_coordinator::ordered;
use group_coordinator::timer::TimerKey;
use group_coordinator::{Coordinator, ErrorCode, GroupState, Response};

/// How the run says the coordinator refused a request (a misuse of its API, never Kafka's
/// answer to a request, which is an error code).
/// A request the model's coordinator refused, in a violation's text (a simulated consumer's;
/// a real client's is a [`Refusal::CoordinatorRefused`]).
const REFUSED: &str = "the coordinator refused a request";

/// An action's setting that is not valid, as a refusal.
fn setting(e: ScenarioError) -> Refusal {
    Refusal::Setting {
        message: e.to_string(),
    }
}

/// The coordinator's refusal of a step an action needs.
fn coordinator(e: impl core::fmt::Display) -> Refusal {
    Refusal::Coordinator {
        message: e.to_string(),
    }
}

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
            w.add_consumer(&spec.name, link);
            let app = spec
                .application
                .clone()
                .unwrap_or(scenario.application.clone());
            consumers.push(Consumer::new(i, spec.clone(), config, app));
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
        let queued = self.w.queue.keys().next().map(|k| k.0);
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
        while self.next_event_time().is_some_and(|n| n <= t) {
            if processed == max_events {
                return false;
            }
            self.process_one();
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
            Some(Next::CoordinatorTimer(t)) => {
                self.w.now = t;
                self.advance_coordinator();
                self.after_event();
                true
            }
            Some(Next::Queued(_)) => {
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
            Ok(responses) => self.after_coordinator(responses),
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
            self.w.routes.remove(&correlation_id);
            self.w
                .lost(name, api, correlation_id, false, LossReason::Cut);
            return;
        }
        self.w.record(TraceKind::RequestDelivered {
            consumer: name.clone(),
            api,
            correlation_id,
        });
        match message {
            Outgoing::FindCoordinator { correlation_id } => {
                let Some((c, incarnation)) = self.w.routes.remove(&correlation_id) else {
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
                match self.coordinator.handle(self.w.now, (*request).clone()) {
                    Ok(responses) => self.after_coordinator(responses),
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
        self.w.sent_at.remove(&correlation_id);
        self.w.record(TraceKind::ResponseDelivered {
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
    fn after_coordinator(&mut self, responses: Vec<Response>) {
        let events = self.coordinator.drain_events();
        let mut check = false;
        for e in events {
            match &e.kind {
                // Heartbeat timers move on every heartbeat: the snapshot shows them, the trace
                // keeps only their expiry.
                EventKind::TimerScheduled { key, .. } | EventKind::TimerCancelled { key }
                    if matches!(key, TimerKey::Heartbeat(..)) =>
                {
                    continue;
                }
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
            check |= e.kind.moves_group();
            self.w.record(TraceKind::Coordinator { event: e.kind });
        }
        if check && let Err(e) = self.coordinator.check_invariants() {
            self.w.violation(format!("coordinator: {e}"));
        }
        for response in responses {
            let correlation_id = response.correlation_id();
            let Some((consumer, incarnation)) = self.w.routes.remove(&correlation_id) else {
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
            Ok(responses) => self.after_coordinator(responses),
            Err(e) => self.w.record(TraceKind::ActionIgnored {
                action: Box::new(Action::Failover { down_ms: 0 }),
                why: Refusal::Coordinator {
                    message: e.to_string(),
                },
            }),
        }
        self.w.mark_dirty();
    }

    // ---- checks after every event --------------------------------------------------------

    fn after_event(&mut self) {
        let checks = core::mem::take(&mut self.w.agreement_checks);
        let mut seen = BTreeSet::new();
        for c in checks {
            if seen.insert(c) {
                self.check_agreement(c);
            }
        }
        if self.w.dirty {
            self.w.dirty = false;
            self.update_settled();
        }
    }

    /// A Stable consumer in the group's current generation owns exactly what the coordinator
    /// holds as its assignment, while the group is Stable.
    fn check_agreement(&mut self, index: usize) {
        // A real client's lane holds what it was told; there is nothing else to compare.
        if self.consumers[index].is_external() {
            return;
        }
        if self.consumers[index].uses_consumer_protocol() {
            return self.check_member_agreement(index);
        }
        let c = &self.consumers[index];
        if !c.is_running() || c.state != crate::trace::MemberState::Stable || c.rejoin_needed {
            return;
        }
        let Some(group) = self.coordinator.group(&self.w.group_id) else {
            return;
        };
        if group.state() != GroupState::Stable
            || group.generation_id() != c.generation.generation_id
            || c.group_incarnation != self.w.group_incarnation
        {
            return;
        }
        let Some(member) = group.member(&c.generation.member_id) else {
            let message = format!(
                "{} believes it is member {} of generation {}, which the coordinator does not know",
                c.name, c.generation.member_id, c.generation.generation_id
            );
            self.w.violation(message);
            return;
        };
        let expected: BTreeSet<(String, i32)> = Assignment::decode(member.assignment().as_slice())
            .map(|a| {
                ordered::set(
                    a.assigned_partitions
                        .iter()
                        .flat_map(|tp| tp.partitions.iter().map(|p| (tp.topic.to_string(), *p))),
                )
            })
            .unwrap_or_default();
        let actual = ordered::set(c.owned.iter().map(|(t, p)| (t.to_string(), *p)));
        if expected != actual {
            let message = format!(
                "{} owns {} partitions but the coordinator assigned it {} in generation {}",
                c.name,
                actual.len(),
                expected.len(),
                c.generation.generation_id
            );
            self.w.violation(message);
        }
    }

    /// Consumer protocol: a member STABLE at some epoch on the client and STABLE at the same
    /// epoch on the coordinator owns exactly the coordinator's assignment for it, once the
    /// coordinator's answer to its last heartbeat has arrived.
    fn check_member_agreement(&mut self, index: usize) {
        let c = &self.consumers[index];
        if !c.is_running() || c.state != crate::trace::MemberState::Stable {
            return;
        }
        let Some(group) = self.coordinator.consumer_group(&self.w.group_id) else {
            return;
        };
        let Some(member) = group.members.get(&c.generation.member_id) else {
            return;
        };
        if !member.is_reconciled_to(c.epoch()) {
            return;
        }
        let names = ordered::map(self.coordinator.topics().map(|(n, id, _)| (id, n)));
        let expected: BTreeSet<(String, i32)> =
            ordered::set(member.progress.assigned.iter().flat_map(|(id, ps)| {
                let topic = names.get(id).copied().unwrap_or("?");
                ps.iter().map(move |p| (topic.to_string(), *p))
            }));
        let actual = ordered::set(c.owned.iter().map(|(t, p)| (t.to_string(), *p)));
        if expected != actual {
            let message = format!(
                "{} owns {} partitions at epoch {} but the coordinator assigned it {}",
                c.name,
                actual.len(),
                c.epoch(),
                expected.len()
            );
            self.w.violation(message);
        }
    }

    /// Settled, and every member of the group is a running consumer (none is a crashed one the
    /// coordinator has yet to time out); or nobody runs and the group is Empty.
    pub fn is_at_rest(&self) -> bool {
        let running = self
            .consumers
            .iter()
            .filter(|c| c.life == Life::Running)
            .count();
        if let Some(group) = self.coordinator.consumer_group(&self.w.group_id) {
            return if running == 0 {
                group.members.is_empty()
            } else {
                group.members.len() == running && self.is_settled()
            };
        }
        match self.coordinator.group(&self.w.group_id) {
            Some(group) if running == 0 => group.state() == GroupState::Empty,
            Some(group) => group.num_members() == running && self.is_settled(),
            None => running == 0,
        }
    }

    /// Whether the coordinator holds the scenario's group (false from a failover's unload to
    /// its load).
    pub fn coordinator_available(&self) -> bool {
        self.coordinator_available
    }

    /// The group is Stable, every running consumer is Stable in its generation with nothing
    /// left to do, and every partition someone subscribes to is owned.
    pub fn is_settled(&self) -> bool {
        if !self.coordinator_available {
            return false;
        }
        // The group's epoch every running member must have reached: a consumer group's
        // (KIP-848) group epoch, its target reconciled and acknowledged; or a classic group's
        // generation. Either group Stable.
        let epoch = match self.coordinator.consumer_group(&self.w.group_id) {
            Some(group) => (group.state()
                == group_coordinator::consumer_group::ConsumerGroupState::Stable)
                .then_some(group.group_epoch),
            None => self
                .coordinator
                .group(&self.w.group_id)
                .filter(|g| g.state() == GroupState::Stable)
                .map(|g| g.generation_id()),
        };
        let Some(epoch) = epoch else {
            return false;
        };
        let mut subscribed: BTreeSet<&str> = BTreeSet::new();
        // A live run's lanes are not in the ledger: the group's state is all that tells.
        for c in self
            .consumers
            .iter()
            .filter(|c| c.life == Life::Running && !c.is_external())
        {
            if c.state != crate::trace::MemberState::Stable || c.rejoin_needed || c.epoch() != epoch
            {
                return false;
            }
            // A pattern subscribes to every topic it matches now, whether or not the
            // coordinator (or a classic client) has resolved it yet.
            match &c.pattern {
                Some(p) => subscribed.extend(
                    self.w
                        .topics
                        .keys()
                        .filter(|t| p.matches(t))
                        .map(String::as_str),
                ),
                None => subscribed.extend(c.topics.iter().map(String::as_str)),
            }
        }
        self.all_subscribed_owned(&subscribed)
    }

    /// Every partition of the subscribed topics is owned by someone.
    fn all_subscribed_owned(&self, subscribed: &BTreeSet<&str>) -> bool {
        let wanted: i64 = self
            .w
            .topics
            .iter()
            .filter(|(t, _)| subscribed.contains(t.as_str()))
            .map(|(_, n)| i64::from(*n))
            .sum();
        self.w.ledger.owned_count() as i64 == wanted
    }

    fn update_settled(&mut self) {
        let now = self.w.now;
        let settled = self.is_settled();
        match (settled, self.settled_since) {
            (true, None) => {
                self.settled_since = Some(now);
                self.first_settled.get_or_insert(now);
                if let Some(since) = self.unsettled_since.take() {
                    self.unsettled_ms += now - since;
                }
            }
            (false, Some(_)) => {
                self.settled_since = None;
                if self.first_settled.is_some() {
                    self.unsettled_since = Some(now);
                }
            }
            _ => {}
        }
    }

    pub(crate) fn unsettled_until_now(&self) -> i64 {
        self.unsettled_ms + self.unsettled_since.map_or(0, |s| self.w.now - s)
    }

    // ---- actions -------------------------------------------------------------------------

    /// Applies an action now (from the page or a test). The action is checked first; on error
    /// nothing changes and the message names what is wrong.
    pub fn apply(&mut self, action: Action) -> Result<(), ScenarioError> {
        let mut names = ordered::set(self.consumers.iter().map(|c| c.spec.name.clone()));
        let mut instances = ordered::set(
            self.consumers
                .iter()
                .filter_map(|c| c.config.group_instance_id.clone()),
        );
        self.scenario
            .check_action(&action, "action", &mut names, &mut instances)?;
        self.apply_checked(action)
            .map_err(|refusal| ScenarioError {
                path: "action".to_string(),
                message: refusal.to_string(),
            })?;
        self.after_event();
        Ok(())
    }

    fn find(&self, name: &str) -> Result<usize, Refusal> {
        self.consumers
            .iter()
            .position(|c| &*c.name == name)
            .ok_or_else(|| Refusal::NoConsumer {
                name: name.to_string(),
            })
    }

    /// Applies an action whose fields are sound; `Err` says why it does not apply now.
    fn apply_checked(&mut self, action: Action) -> Result<(), Refusal> {
        let running = |c: &Consumer| -> Result<(), Refusal> {
            if c.is_running() {
                Ok(())
            } else {
                Err(Refusal::NotRunning {
                    consumer: c.name.to_string(),
                })
            }
        };
        match &action {
            Action::AddConsumer(spec) => {
                if self.consumers.iter().any(|c| c.spec.name == spec.name) {
                    return Err(Refusal::ConsumerExists {
                        name: spec.name.clone(),
                    });
                }
                let config = self
                    .scenario
                    .consumer_config(spec, "action")
                    .map_err(setting)?;
                let i = self.consumers.len();
                let link = spec
                    .network
                    .clone()
                    .unwrap_or(self.scenario.network.clone());
                self.w.add_consumer(&spec.name, link);
                let spec = ConsumerSpec {
                    start_ms: self.w.now,
                    ..spec.clone()
                };
                let app = spec
                    .application
                    .clone()
                    .unwrap_or(self.scenario.application.clone());
                self.consumers.push(Consumer::new(i, spec, config, app));
                self.record_action(action);
                self.consumers[i].start(&mut self.w);
            }
            Action::Close { consumer } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                if self.consumers[i].life == Life::Closing {
                    return Err(Refusal::AlreadyClosing {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                self.consumers[i].close(&mut self.w);
            }
            Action::Crash { consumer } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                self.record_action(action);
                self.consumers[i].crash(&mut self.w);
            }
            Action::Restart { consumer, down_ms } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                let at = self.w.now + down_ms;
                self.record_action(action);
                self.consumers[i].close(&mut self.w);
                self.w.schedule(at, Pending::Start(i));
            }
            Action::Start { consumer } => {
                let i = self.find(consumer)?;
                if self.consumers[i].is_running() {
                    return Err(Refusal::AlreadyRunning {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                self.consumers[i].start(&mut self.w);
            }
            Action::Pause { consumer, kind } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                if self.consumers[i].paused.is_some() {
                    return Err(Refusal::AlreadyPaused {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action.clone());
                self.consumers[i].pause(&mut self.w, *kind);
            }
            Action::Resume { consumer } => {
                let i = self.find(consumer)?;
                if self.consumers[i].paused.is_none() {
                    return Err(Refusal::NotPaused {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                let deferred = self.consumers[i].resume(&mut self.w);
                let now = self.w.now;
                for pending in deferred {
                    self.w.schedule(now, pending);
                }
            }
            Action::Cut { consumer } | Action::Heal { consumer } => {
                let i = self.find(consumer)?;
                let cut = matches!(action, Action::Cut { .. });
                if self.w.links[i].cut == cut {
                    return Err(Refusal::LinkAlready {
                        consumer: consumer.clone(),
                        cut,
                    });
                }
                self.w.links[i].cut = cut;
                self.record_action(action);
            }
            Action::SetNetwork {
                consumer,
                latency_ms,
                jitter_ms,
                loss,
            } => {
                let targets: Vec<usize> = match consumer {
                    Some(name) => alloc::vec![self.find(name)?],
                    None => (0..self.consumers.len()).collect(),
                };
                for i in targets {
                    let spec = &mut self.w.links[i].spec;
                    spec.latency_ms = latency_ms.unwrap_or(spec.latency_ms);
                    spec.jitter_ms = jitter_ms.unwrap_or(spec.jitter_ms);
                    spec.loss = loss.unwrap_or(spec.loss);
                }
                if consumer.is_none() {
                    let spec = &mut Rc::make_mut(&mut self.scenario).network;
                    spec.latency_ms = latency_ms.unwrap_or(spec.latency_ms);
                    spec.jitter_ms = jitter_ms.unwrap_or(spec.jitter_ms);
                    spec.loss = loss.unwrap_or(spec.loss);
                }
                self.record_action(action);
            }
            Action::Subscribe {
                consumer,
                topics,
                pattern,
            } => {
                let i = self.find(consumer)?;
                self.record_action(action.clone());
                self.consumers[i].subscribe(&mut self.w, topics, pattern.as_deref());
            }
            Action::SetConfig { consumer, config } => {
                let i = self.find(consumer)?;
                let mut c = self.consumers[i].config.clone();
                apply_settings(&mut c, config, "config").map_err(setting)?;
                if let Some(instance) = &c.group_instance_id
                    && self.consumers.iter().any(|o| {
                        o.index != i && o.config.group_instance_id.as_ref() == Some(instance)
                    })
                {
                    return Err(Refusal::InstanceIdInUse {
                        instance: instance.clone(),
                    });
                }
                self.consumers[i].config = c;
                self.record_action(action);
            }
            Action::CreatePartitions { topic, count } => {
                let current = *self.w.topics.get(topic).ok_or_else(|| Refusal::NoTopic {
                    topic: topic.clone(),
                })?;
                if *count <= current {
                    return Err(Refusal::PartitionsOnlyAdded {
                        topic: topic.clone(),
                        current,
                    });
                }
                let total: i64 = self.w.topics.values().map(|n| i64::from(*n)).sum::<i64>()
                    + i64::from(count - current);
                if total > crate::scenario::MAX_PARTITIONS {
                    return Err(Refusal::TooManyPartitions {
                        total,
                        max: crate::scenario::MAX_PARTITIONS,
                    });
                }
                // Timers due now fire first (their answers go out), then the image changes.
                let responses = self.coordinator.advance(self.w.now).map_err(coordinator)?;
                self.after_coordinator(responses);
                self.coordinator
                    .update_metadata(self.w.now, &[(topic.clone(), None, *count)])
                    .map_err(coordinator)?;
                self.w.topics.insert(topic.clone(), *count);
                self.record_action(action.clone());
                self.w.mark_dirty();
            }
            Action::CreateTopic { topic, partitions } => {
                if self.w.topics.contains_key(topic) {
                    return Err(Refusal::TopicExists {
                        topic: topic.clone(),
                    });
                }
                let total: i64 = self.w.topics.values().map(|n| i64::from(*n)).sum::<i64>()
                    + i64::from(*partitions);
                if total > crate::scenario::MAX_PARTITIONS {
                    return Err(Refusal::TooManyPartitions {
                        total,
                        max: crate::scenario::MAX_PARTITIONS,
                    });
                }
                let responses = self.coordinator.advance(self.w.now).map_err(coordinator)?;
                self.after_coordinator(responses);
                self.coordinator
                    .update_metadata(self.w.now, &[(topic.clone(), None, *partitions)])
                    .map_err(coordinator)?;
                self.w.topics.insert(topic.clone(), *partitions);
                self.record_action(action.clone());
                self.w.mark_dirty();
            }
            Action::Failover { down_ms } => {
                if !self.coordinator_available {
                    return Err(Refusal::FailoverUnderWay);
                }
                let group_id = self.w.group_id.clone();
                let responses = self.coordinator.unload(&group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                self.coordinator_available = false;
                self.after_coordinator(responses);
                let at = self.w.now + down_ms;
                self.w.schedule(at, Pending::LoadGroup);
                self.w.mark_dirty();
            }
            Action::FailNextPersist { error } => {
                let code = Action::persist_error(error).ok_or_else(|| Refusal::NotAKafkaError {
                    error: error.clone(),
                })?;
                self.coordinator.fail_next_persist(code);
                self.record_action(action);
            }
            Action::DeliverNow {
                consumer,
                correlation_id,
                response,
            } => {
                let c = self.find(consumer)?;
                let pending = self.w.take_in_flight(c, *correlation_id, *response)?;
                self.record_action(action.clone());
                self.w.schedule_first(pending);
            }
            Action::Inject {
                client,
                at_ms,
                request,
            } => {
                self.not_before(*at_ms)?;
                let i = match self.find(client) {
                    Ok(i) => i,
                    Err(_) => self.open_lane(client)?,
                };
                // Kept for a fork's replay, not told in the trace: the request is, when sent.
                self.actions.push(self.w.now, action.clone());
                let request = Rc::new(request.clone());
                self.w.schedule(
                    *at_ms,
                    Pending::Inject {
                        consumer: i,
                        request,
                    },
                );
            }
            Action::Advance { at_ms } => {
                self.not_before(*at_ms)?;
                self.actions.push(self.w.now, action.clone());
                self.w.schedule(*at_ms, Pending::Advance);
            }
            // The broker's failover, in two inputs at the broker's times (each after an advance
            // to its time, so the model's clock is already there).
            Action::Unload { group_id } => {
                let responses = self.coordinator.unload(group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                if *group_id == self.w.group_id {
                    self.coordinator_available = false;
                }
                self.after_coordinator(responses);
                self.w.mark_dirty();
            }
            Action::Load { group_id } => {
                let responses = self.coordinator.load(group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                if *group_id == self.w.group_id {
                    self.coordinator_available = true;
                }
                self.after_coordinator(responses);
                self.w.mark_dirty();
            }
            Action::Drop {
                consumer,
                correlation_id,
                response,
            } => {
                let c = self.find(consumer)?;
                let pending = self.w.take_in_flight(c, *correlation_id, *response)?;
                let api = match &pending {
                    Pending::ToBroker { message, .. } => message.describe().0,
                    Pending::ToConsumer { message, .. } => message.describe().0,
                    _ => return Err(Refusal::NotAMessage),
                };
                self.record_action(action.clone());
                let name = self.w.names[c].clone();
                self.w
                    .lost(name, api, *correlation_id, *response, LossReason::Dropped);
            }
        }
        Ok(())
    }

    /// A live input's time: the run's clock only moves forward.
    fn not_before(&self, at_ms: i64) -> Result<(), Refusal> {
        if at_ms < self.w.now {
            return Err(Refusal::BackInTime {
                at_ms,
                now_ms: self.w.now,
            });
        }
        Ok(())
    }

    /// A lane for a real client that sends its first request (a live run).
    fn open_lane(&mut self, client: &str) -> Result<usize, Refusal> {
        if self.consumers.len() >= crate::scenario::MAX_CONSUMERS {
            return Err(Refusal::TooManyClients {
                max: crate::scenario::MAX_CONSUMERS,
            });
        }
        let spec = ConsumerSpec {
            name: String::from(client),
            topics: Vec::new(),
            pattern: None,
            config: Default::default(),
            start_ms: self.w.now,
            processing_ms: 0,
            network: None,
            application: None,
        };
        let config = self
            .scenario
            .consumer_config(&spec, "action")
            .map_err(setting)?;
        let i = self.consumers.len();
        // The broker recorded each request when the model took it: no latency, no loss.
        self.w.add_consumer(
            client,
            crate::scenario::LinkSpec {
                latency_ms: 0,
                jitter_ms: 0,
                loss: 0.0,
            },
        );
        self.consumers.push(Consumer::external(i, client, config));
        Ok(i)
    }

    fn record_action(&mut self, action: Action) {
        self.actions.push(self.w.now, action.clone());
        self.w.record(TraceKind::Action {
            action: Box::new(action),
        });
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
