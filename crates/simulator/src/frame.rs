//! What one frame of the page draws, in one piece: the group and its state machine's last
//! transition, the narration, and, as asked, the timeline's window, the assignment table, a
//! window of the step table, the world and the metrics. The views draw what they are given and
//! keep no protocol state; the indexes behind it are built once as the trace grows and read for
//! the prefix of the trace the run is at, so a frame after going back costs what any frame does.

use crate::assignments::{AssignmentIndex, AssignmentTable};
pub use crate::consumer_row::ConsumerRow;
use crate::index::client_of;
pub use crate::index::{RowWindow, ViewIndex};
use crate::narration::short_ids;
use crate::player::{GroupAfter, PlayStop, Player, Steps};
use crate::simulation::Simulation;
use crate::timeline::TimelineWindow;
use crate::trace::{Lang, Tp, Trace, TraceKind};
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::GroupState;
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::consumer_group::reconcile::MemberState as ConsumerMemberState;
use group_coordinator::consumer_group::view::TopicPartitionsView;
use group_coordinator::event::EventKind;
use serde::{Deserialize, Serialize};

/// What a frame should carry besides the group, its state machine and the narration.
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FrameRequest {
    #[serde(default)]
    pub lang: Lang,
    #[serde(default)]
    pub timeline: Option<TimelineRequest>,
    /// The assignment table with this many generations (the last ones) as columns.
    #[serde(default)]
    pub assignments: Option<usize>,
    /// Leave out of the assignment table the generations in which nothing moved.
    #[serde(default)]
    pub assignments_changed_only: bool,
    #[serde(default)]
    pub steps: Option<StepsRequest>,
    /// The consumers and the metrics.
    #[serde(default)]
    pub world: bool,
    /// What is about to happen: this many of the next events.
    #[serde(default)]
    pub upcoming: Option<usize>,
    /// Only these rows of `consumers`, of the assignment table and of the timeline's consumer
    /// lanes (a page draws a long table a page at a time: all 1,000 rows of a large group were
    /// 4 MB a frame); absent, all of them.
    #[serde(default)]
    pub rows: Option<RowWindow>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimelineRequest {
    /// How much time before now the window shows.
    pub window_ms: i64,
    /// Bars closer than this (about a pixel) are drawn as one; 0 keeps every bar.
    #[serde(default)]
    pub resolution_ms: i64,
    /// The selected entry: its bar is never merged.
    #[serde(default)]
    pub selected: Option<usize>,
    /// Where the window ends (panned back in time); absent or later than now: now.
    #[serde(default)]
    pub end_ms: Option<i64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StepsRequest {
    /// The first step listed (0-based); absent, the window ends at the current step.
    #[serde(default)]
    pub from: Option<usize>,
    pub span: usize,
    /// Without `from`: a trace entry the reader selected elsewhere (a timeline bar, a table
    /// cell); a window that does not hold its step is moved to the one that does, so that the
    /// selection always shows in the table.
    #[serde(default)]
    pub around: Option<usize>,
}

/// The state machine: the group's state and the last transition that fired (none before the
/// first, or after a load: the group entered its state without a transition).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Machine {
    pub state: GroupState,
    pub last: Option<Fired>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Fired {
    pub from: GroupState,
    pub to: GroupState,
    pub index: usize,
    /// Why it fired this time (the transition's cause, in the asked language).
    pub cause: String,
}

/// The scenario's last note so far, and what the current step did, line by line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "FrameNarration")
)]
#[serde(rename_all = "camelCase")]
pub struct Narration {
    pub note: Option<String>,
    /// The note was written for the scenario as scripted, and the user's actions came before it
    /// (or before the step shown): it may no longer say what happens.
    pub note_stale: bool,
    /// What the step did, in the order it happened.
    pub lines: Vec<NarrationLine>,
}

/// One thing the step did; `lead` marks what changed (the group's state, generation or members,
/// an answer from the coordinator, an assignment, a consumer's life, an action), which the page
/// says first, the rest beneath it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NarrationLine {
    pub text: String,
    pub lead: bool,
}

fn leads(kind: &TraceKind) -> bool {
    match kind {
        TraceKind::Coordinator { event } => {
            event.moves_group() || matches!(event, EventKind::Unloaded | EventKind::Deleted)
        }
        TraceKind::ResponseSent { .. }
        | TraceKind::Assigned { .. }
        | TraceKind::Revoked { .. }
        | TraceKind::Lifecycle { .. }
        | TraceKind::ClientExpired { .. }
        | TraceKind::Action { .. }
        | TraceKind::ActionIgnored { .. }
        | TraceKind::MessageLost { .. }
        | TraceKind::RequestTimedOut { .. }
        | TraceKind::ConsumerFailed { .. }
        | TraceKind::AssignorQuirk { .. }
        | TraceKind::InvariantViolated { .. } => true,
        _ => false,
    }
}

/// An action of the user's, as the list of them shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UserAction {
    pub step: usize,
    pub text: String,
}

/// Who did what a step did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "StepActor")
)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Actor {
    Consumer {
        name: Rc<str>,
    },
    Coordinator,
    Network,
    /// The user, or the scenario's script.
    Action,
    /// The scenario's narration.
    Scenario,
}

impl Actor {
    pub fn of(kind: &TraceKind) -> Actor {
        match kind {
            TraceKind::RequestSent { consumer, .. }
            | TraceKind::ResponseDelivered { consumer, .. }
            | TraceKind::RequestTimedOut { consumer, .. }
            | TraceKind::ClientState { consumer, .. }
            | TraceKind::Assigned { consumer, .. }
            | TraceKind::Revoked { consumer, .. }
            | TraceKind::ClientExpired { consumer, .. }
            | TraceKind::RejoinRequested { consumer, .. }
            | TraceKind::ConsumerFailed { consumer, .. }
            | TraceKind::AssignorQuirk { consumer, .. }
            | TraceKind::Lifecycle { consumer, .. } => Actor::Consumer {
                name: consumer.clone(),
            },
            TraceKind::RequestDelivered { .. }
            | TraceKind::ResponseSent { .. }
            | TraceKind::Coordinator { .. } => Actor::Coordinator,
            TraceKind::MessageLost { .. } => Actor::Network,
            TraceKind::Action { .. } | TraceKind::ActionIgnored { .. } => Actor::Action,
            _ => Actor::Scenario,
        }
    }
}

/// One line of a step: an entry's narration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Line {
    pub index: usize,
    pub text: String,
    /// The scenario's own note (set apart from what the model did).
    pub note: bool,
}

/// A row of the step table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StepRow {
    /// 1-based, as the table numbers steps.
    pub step: usize,
    pub at_ms: i64,
    pub actor: Actor,
    pub lines: Vec<Line>,
    /// The group after the step, as the player recorded it.
    #[serde(flatten)]
    pub group: GroupAfter,
    /// Its entries are `[first, end)`.
    pub first: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StepWindow {
    /// Steps `[from, to)` (0-based) of `total` taken.
    pub from: usize,
    pub to: usize,
    pub total: usize,
    pub rows: Vec<StepRow>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub cursor: usize,
    /// Steps known: those taken and, after going back, the known future (what the scrubber
    /// spans).
    pub known_steps: usize,
    pub trace_length: usize,
    pub now_ms: i64,
    pub past_end: bool,
    pub finished: bool,
    /// Whether playing stops here, and why.
    pub play_stop: Option<PlayStop>,
    pub group: Option<FrameGroup>,
    pub machine: Machine,
    /// The consumer group (KIP-848) of a consumer-protocol run, with its own state machine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_group: Option<ConsumerGroupFrame>,
    pub narration: Narration,
    /// The user's actions, with their steps (those in the future too).
    pub actions: Vec<UserAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<TimelineWindow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignments: Option<AssignmentTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<StepWindow>,
    /// The consumers (the request's `rows` of them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumers: Option<Vec<ConsumerRow>>,
    /// How many consumers there are in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_count: Option<usize>,
    /// The topics (what a consumer added by the user subscribes to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<Rc<str>>>,
    /// Their partition counts, in the same order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_counts: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<MetricsSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upcoming: Option<Vec<crate::upcoming::Upcoming>>,
}

/// The group as the state machine's panel shows it (`Simulation::snapshot` has all of it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FrameGroup {
    pub generation_id: i32,
    /// The leader's consumer name.
    pub leader: Option<Rc<str>>,
    /// The members' client ids.
    pub members: Vec<String>,
    /// The group's delayed join and sync operations, and its members' heartbeat deadlines when
    /// there are at most [`HEARTBEATS_LISTED`] (otherwise only counted).
    pub delayed: Vec<Delayed>,
    pub heartbeats: usize,
}

/// A consumer group (KIP-848) as the state machine's panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "FrameConsumerGroup")
)]
#[serde(rename_all = "camelCase")]
pub struct ConsumerGroupFrame {
    pub state: ConsumerGroupState,
    /// The last change of state (none before the first).
    pub last: Option<ConsumerFired>,
    pub group_epoch: i32,
    /// The epoch of the current target assignment.
    pub assignment_epoch: i32,
    /// The server assignor the next target is computed with.
    pub assignor: &'static str,
    pub members: Vec<ConsumerMemberRow>,
    /// Each subscribed regular expression the coordinator has resolved, with the topics it
    /// matched (none when no member subscribes by pattern).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resolved_regular_expressions: Vec<group_coordinator::event::ResolvedRegex>,
    /// Session and rebalance timeouts, by member (client id).
    pub timers: Vec<Delayed>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsumerFired {
    pub from: ConsumerGroupState,
    pub to: ConsumerGroupState,
    pub index: usize,
}

/// A member as the coordinator holds it: its state and epoch, and its partitions written
/// `topic-0,1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConsumerMemberRow {
    pub name: String,
    pub member_id: String,
    pub state: ConsumerMemberState,
    pub member_epoch: i32,
    pub assigned: String,
    pub pending_revocation: String,
    pub target: String,
    /// It speaks the classic protocol inside the consumer group (a mixed group).
    pub classic_protocol: bool,
    /// Its `SubscribedTopicRegex`, when it subscribes by pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscribed_topic_regex: Option<String>,
}

impl ConsumerGroupFrame {
    fn of(sim: &Simulation, index: &ViewIndex, len: usize) -> Option<ConsumerGroupFrame> {
        let group_id = &sim.scenario().group_id;
        let Some(view) = sim.coordinator().describe_consumer_group(group_id) else {
            // Before its first member joins, a run whose consumers speak the consumer protocol
            // shows the consumer group it will make, Empty (not a classic machine).
            let coming = sim.coordinator().group(group_id).is_none()
                && sim
                    .consumers()
                    .first()
                    .is_some_and(|c| c.uses_consumer_protocol());
            return coming.then(|| ConsumerGroupFrame {
                state: ConsumerGroupState::Empty,
                last: None,
                group_epoch: 0,
                assignment_epoch: 0,
                assignor: sim
                    .coordinator()
                    .config()
                    .group_consumer_assignors
                    .first()
                    .map_or("", |a| a.name()),
                members: Vec::new(),
                resolved_regular_expressions: Vec::new(),
                timers: Vec::new(),
            });
        };
        let client = namer(
            view.members
                .iter()
                .map(|m| (m.member_id.as_str(), m.client_id.as_str()))
                .collect(),
        );
        let written = |parts: &[TopicPartitionsView]| {
            let list: Vec<Tp> = parts
                .iter()
                .flat_map(|t| {
                    let topic: Rc<str> = Rc::from(t.topic.as_str());
                    t.partitions.iter().map(move |p| (topic.clone(), *p))
                })
                .collect();
            crate::trace::tps(&list)
        };
        let last = index.consumer_transitions
            [..index.consumer_transitions.partition_point(|&i| i < len)]
            .last()
            .and_then(|&i| match sim.trace().get(i).map(|e| e.kind) {
                Some(TraceKind::Coordinator {
                    event: EventKind::ConsumerGroupStateChanged { from, to },
                }) => Some(ConsumerFired { from, to, index: i }),
                _ => None,
            });
        Some(ConsumerGroupFrame {
            state: view.state,
            last,
            group_epoch: view.group_epoch,
            assignment_epoch: view.assignment_epoch,
            assignor: view.preferred_assignor,
            members: view
                .members
                .iter()
                .map(|m| ConsumerMemberRow {
                    name: m.client_id.clone(),
                    member_id: m.member_id.clone(),
                    state: m.state,
                    member_epoch: m.member_epoch,
                    assigned: written(&m.assigned),
                    pending_revocation: written(&m.pending_revocation),
                    target: written(&m.target),
                    classic_protocol: m.classic_protocol,
                    subscribed_topic_regex: m.subscribed_topic_regex.clone(),
                })
                .collect(),
            resolved_regular_expressions: view.resolved_regular_expressions.clone(),
            timers: view
                .timers
                .iter()
                .map(|t| Delayed {
                    kind: t.kind.clone(),
                    member: client(&t.member_id),
                    deadline_ms: t.deadline_ms,
                })
                .collect(),
        })
    }
}

/// Names a member (by its id, when it has one) by its client id among `members` (member id,
/// client id): the views' naming for the timers of a classic or a consumer group.
fn namer<'a>(members: Vec<(&'a str, &'a str)>) -> impl Fn(&Option<String>) -> Option<String> + 'a {
    move |member| {
        member
            .as_deref()
            .map(|id| client_of(members.iter().copied(), id))
    }
}

/// Heartbeat deadlines listed one by one up to this many members.
pub const HEARTBEATS_LISTED: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Delayed {
    /// The timer's kind: "join", "sync" or "heartbeat" in the classic group's panel; "session",
    /// "rebalance", "join", "sync" or "regex" in a consumer group's.
    #[cfg_attr(
        feature = "schema",
        schemars(extend("tsType" = group_coordinator::TimerView::KINDS))
    )]
    pub kind: String,
    /// A heartbeat's member, by client id.
    pub member: Option<String>,
    pub deadline_ms: i64,
}

/// The metrics panel's figures (`Simulation::metrics` has them all).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricsSummary {
    pub rebalances: u64,
    pub generation_id: i32,
    pub partitions_moved: u64,
    pub unowned_partition_ms: i64,
    pub settled: bool,
    pub settled_since_ms: Option<i64>,
    pub invariant_violations: u64,
}

impl FrameGroup {
    /// The group's state, and the group as the panel shows it.
    fn of(
        sim: &Simulation,
        index: &AssignmentIndex,
        len: usize,
    ) -> Option<(GroupState, FrameGroup)> {
        let view = sim.coordinator().describe(&sim.scenario().group_id)?;
        let client = namer(
            view.members
                .iter()
                .map(|m| (m.member_id.as_str(), m.client_id.as_str()))
                .collect(),
        );
        let heartbeats = view.timers.iter().filter(|t| t.kind == "heartbeat").count();
        let delayed = view
            .timers
            .iter()
            .filter(|t| match t.kind.as_str() {
                "join" | "sync" => true,
                "heartbeat" => heartbeats <= HEARTBEATS_LISTED,
                _ => false,
            })
            .map(|t| Delayed {
                kind: t.kind.clone(),
                member: client(&t.member_id),
                deadline_ms: t.deadline_ms,
            })
            .collect();
        let group = FrameGroup {
            generation_id: view.generation_id,
            leader: view.leader_id.as_deref().map(|id| index.name_of(id, len)),
            members: view.members.iter().map(|m| m.client_id.clone()).collect(),
            delayed,
            heartbeats,
        };
        Some((view.state, group))
    }
}

impl MetricsSummary {
    fn of(sim: &Simulation) -> MetricsSummary {
        let m = sim.metrics();
        MetricsSummary {
            rebalances: m.rebalances,
            generation_id: m.generation_id,
            partitions_moved: m.partitions_moved,
            unowned_partition_ms: m.unowned_partition_ms,
            settled: m.settled,
            settled_since_ms: m.settled_since_ms,
            invariant_violations: m.invariant_violations,
        }
    }
}

impl Player {
    /// What the page draws now.
    pub fn frame(&self, request: &FrameRequest) -> Frame {
        let sim = self.simulation();
        let trace = sim.trace();
        let len = trace.len();
        let lang = request.lang;
        let index = self.index();
        let (state, group) = FrameGroup::of(sim, &index.assignments, len).unzip();
        let steps = self.steps();
        let last = steps.last();
        let note = index.note(len);
        let narration = Narration {
            note: note.and_then(|i| trace.get(i)).map(|e| e.narrate(lang)),
            // Written after the reader's first action, or written before it and shown at a
            // step taken since: either way not the run the reader is looking at.
            note_stale: note.zip(self.diverged_at()).is_some_and(|(note, from)| {
                note >= from || last.is_some_and(|st| st.first >= from)
            }),
            lines: last.map_or_else(Vec::new, |st| {
                // (The scenario's own note is said above the lines, not among them.)
                trace
                    .iter_from(st.first)
                    .take(st.end - st.first)
                    .filter(|e| !matches!(e.kind, TraceKind::Narration { .. }))
                    .map(|e| NarrationLine {
                        text: short_ids(&e.narrate(lang)),
                        lead: leads(&e.kind),
                    })
                    .collect()
            }),
        };
        let transition = self.last_transition();
        let machine = Machine {
            state: state
                .or(transition.map(|t| t.to))
                .unwrap_or(GroupState::Empty),
            last: transition.and_then(|t| {
                let cause = match trace.get(t.index).map(|e| e.kind) {
                    Some(TraceKind::Coordinator {
                        event: EventKind::StateChanged { cause, .. },
                    }) => short_ids(&crate::narration::cause_text(&cause, lang)),
                    _ => String::new(),
                };
                Some(Fired {
                    from: t.from?,
                    to: t.to,
                    index: t.index,
                    cause,
                })
            }),
        };
        Frame {
            cursor: self.cursor(),
            known_steps: self.known_steps().len(),
            trace_length: len,
            now_ms: sim.now(),
            past_end: self.past_end(),
            finished: self.finished(),
            play_stop: self.play_stop(),
            group,
            machine,
            consumer_group: ConsumerGroupFrame::of(sim, index, len),
            narration,
            // (A live run's inputs are its clients', not the user's.)
            actions: self
                .actions()
                .iter()
                .filter(|a| {
                    !matches!(
                        a.action,
                        crate::Action::Inject { .. }
                            | crate::Action::Advance { .. }
                            | crate::Action::Unload { .. }
                            | crate::Action::Load { .. }
                    )
                })
                .map(|a| UserAction {
                    step: a.step,
                    text: crate::narration::action_text(&a.action, lang),
                })
                .collect(),
            timeline: request.timeline.map(|t| {
                index.timeline.window(
                    len,
                    t.end_ms.map_or(sim.now(), |end| end.clamp(0, sim.now())),
                    t.window_ms,
                    t.resolution_ms,
                    t.selected,
                    request.rows,
                )
            }),
            assignments: request.assignments.map(|columns| {
                index.assignments.table(
                    columns,
                    request.assignments_changed_only,
                    sim,
                    request.rows,
                    lang,
                )
            }),
            steps: request.steps.map(|r| step_window(trace, steps, r, lang)),
            metrics: request.world.then(|| MetricsSummary::of(sim)),
            upcoming: request.upcoming.map(|n| sim.upcoming(n.min(50), lang)),
            topics: request
                .world
                .then(|| sim.w.topics.keys().map(|t| Rc::from(t.as_str())).collect()),
            partition_counts: request
                .world
                .then(|| sim.w.topics.values().copied().collect()),
            consumers: request
                .world
                .then(|| ConsumerRow::window(sim, request.rows)),
            consumer_count: request.world.then(|| sim.consumers().len()),
        }
    }
}

/// The step (0-based) whose entries hold trace entry `index`, if a step taken does.
fn around(steps: Steps, index: usize) -> Option<usize> {
    let k = steps.partition_point(|st| st.end <= index);
    (k < steps.len() && steps[k].first <= index).then_some(k)
}

fn step_window(trace: &Trace, steps: Steps, r: StepsRequest, lang: Lang) -> StepWindow {
    let total = steps.len();
    let latest = total.saturating_sub(r.span);
    let from = match (r.from, r.around) {
        (Some(f), _) => f.min(latest),
        (None, Some(index)) => around(steps, index).map_or(latest, |k| {
            // (Where it shows already, the window stays.)
            if k >= latest {
                latest
            } else {
                k.saturating_sub(r.span / 2).min(latest)
            }
        }),
        (None, None) => latest,
    };
    let to = total.min(from + r.span);
    let rows = steps
        .range(from..to)
        .enumerate()
        .map(|(k, st)| StepRow {
            step: from + k + 1,
            at_ms: st.at_ms,
            actor: trace
                .get(st.first)
                .map_or(Actor::Scenario, |e| Actor::of(&e.kind)),
            lines: trace
                .iter_from(st.first)
                .take(st.end - st.first)
                .map(|e| Line {
                    index: e.index,
                    text: short_ids(&e.narrate(lang)),
                    note: matches!(e.kind, TraceKind::Narration { .. }),
                })
                .collect(),
            group: st.group.clone(),
            first: st.first,
            end: st.end,
        })
        .collect();
    StepWindow {
        from,
        to,
        total,
        rows,
    }
}
