//! The moments a reader navigates by: the scrubber's chapters and "next / previous moment".
//!
//! A step is a moment when it records something a reader of the book's cases looks for: the
//! scenario's key step, a fault, the group changing type (online migration), a LeaveGroup or
//! JoinGroup reaching the coordinator, the group
//! going to PreparingRebalance, a rebalance completing (Stable), a generation beginning, the
//! new assignment reaching the last member waiting for it ("who got what"), a coordinator
//! timer firing. A step with several of these is labelled by the first in that
//! order ([`StepMark`]'s declaration order), with the narration line of the entry that made it.
//!
//! The label is written when the step is first taken and kept in its record: after going back,
//! the known future's trace entries are no longer in the trace (it is cut back to a checkpoint),
//! but its moments stay on the scrubber.

use crate::narration::short_ids;
use crate::scenario::Text;
use crate::simulation::Simulation;
use crate::trace::{Lang, Lifecycle, MemberState, MessageApi, TraceEvent, TraceKind, tps};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::GroupState;
use group_coordinator::event::{EventKind, RemovalReason};

/// What makes a step a moment, most telling first (a step is labelled by its first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum StepMark {
    /// The scenario's key moment (its script step marked `key`).
    Key,
    /// Something failed: a crash, a client-side expiry, a request timed out, a member removed by
    /// its session timeout, Kafka's own assignor flaw.
    Fault,
    /// The group changed type with its members (online migration between the protocols).
    Migration,
    /// A LeaveGroup reached the coordinator.
    Leave,
    /// The group went to PreparingRebalance.
    Rebalance,
    /// A rebalance completed: the group went to Stable.
    Stable,
    /// A generation began.
    Generation,
    /// The new assignment reached the last member waiting for it: every running member holds
    /// its partitions of this generation (classic) or has reconciled to its target (consumer
    /// protocol). Where a reader sees who got what.
    Assigned,
    /// A JoinGroup reached the coordinator.
    Join,
    /// A coordinator timer fired (a delayed join or sync completing on its timeout, a session
    /// expiring, the initial rebalance delay ending).
    Expiry,
}

impl StepMark {
    /// The mark trace entry `kind` calls for, if any.
    pub fn of(kind: &TraceKind) -> Option<StepMark> {
        match kind {
            TraceKind::Coordinator { event } => match event {
                EventKind::GenerationBumped { .. } => Some(StepMark::Generation),
                EventKind::StateChanged { to, .. } => match to {
                    GroupState::PreparingRebalance => Some(StepMark::Rebalance),
                    GroupState::Stable => Some(StepMark::Stable),
                    _ => None,
                },
                EventKind::MemberRemoved {
                    reason: RemovalReason::SessionTimeout,
                    ..
                } => Some(StepMark::Fault),
                EventKind::TimerFired { .. } => Some(StepMark::Expiry),
                EventKind::GroupConverted { .. } => Some(StepMark::Migration),
                _ => None,
            },
            TraceKind::RequestDelivered { api, .. } => match api {
                MessageApi::LeaveGroup => Some(StepMark::Leave),
                MessageApi::JoinGroup => Some(StepMark::Join),
                _ => None,
            },
            TraceKind::Narration { key: true, .. } => Some(StepMark::Key),
            TraceKind::Lifecycle {
                what: Lifecycle::Crashed,
                ..
            }
            | TraceKind::ClientExpired { .. }
            | TraceKind::RequestTimedOut { .. }
            | TraceKind::AssignorQuirk { .. } => Some(StepMark::Fault),
            _ => None,
        }
    }
}

/// What a step's moment is and says.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Moment {
    pub mark: StepMark,
    /// The narration of the entry that made it (member ids shortened), in both languages.
    pub label: Text,
}

impl Moment {
    /// The marks of trace entries `[first, end)`, one per entry that calls for one, and the
    /// moment they make (labelled by the first entry of the most telling mark).
    pub fn of_entries(
        sim: &Simulation,
        first: usize,
        end: usize,
    ) -> (Vec<StepMark>, Option<Moment>) {
        let mut marks = Vec::new();
        let mut top: Option<(StepMark, TraceEvent)> = None;
        let mut state_change: Option<TraceEvent> = None;
        for e in sim.trace().iter_from(first).take(end - first) {
            let Some(mark) = StepMark::of(&e.kind).or_else(|| assignment_complete(sim, &e.kind))
            else {
                continue;
            };
            marks.push(mark);
            if matches!(mark, StepMark::Rebalance | StepMark::Stable) {
                state_change = Some(e.clone());
            }
            if top.as_ref().is_none_or(|(m, _)| mark < *m) {
                top = Some((mark, e));
            }
        }
        // What made the moment, and the state it left the group in when that is another entry
        // (a LeaveGroup arriving and the rebalance it starts read as one moment).
        let say = |lang: Lang| {
            let (mark, e) = top.as_ref()?;
            if *mark == StepMark::Assigned {
                return Some(who_got_what(sim, &e.kind, lang));
            }
            let mut text = e.narrate(lang);
            if let Some(s) = state_change.as_ref().filter(|s| s.index != e.index) {
                text.push_str(" · ");
                text.push_str(&s.narrate(lang));
            }
            Some(short_ids(&text))
        };
        let moment = top.as_ref().map(|&(mark, _)| Moment {
            mark,
            label: Text {
                en: say(Lang::En).unwrap_or_default(),
                zh: say(Lang::Zh).unwrap_or_default(),
            },
        });
        (marks, moment)
    }
}

/// `Some(Assigned)` when `kind` is a member taking its assignment and, after the step, no running
/// member is still waiting for one (joining, syncing or reconciling): the last of a rebalance's
/// assignments has arrived. (Read from the world after the step: an `Assigned` entry earlier in
/// the same step counts only if the step ends with nobody waiting.)
fn assignment_complete(sim: &Simulation, kind: &TraceKind) -> Option<StepMark> {
    if !matches!(kind, TraceKind::Assigned { .. }) {
        return None;
    }
    let waiting = sim.consumers().iter().any(|c| {
        c.is_running()
            && matches!(
                c.state,
                MemberState::PreparingRebalance
                    | MemberState::CompletingRebalance
                    | MemberState::Joining
                    | MemberState::Reconciling
            )
    });
    (!waiting).then_some(StepMark::Assigned)
}

/// Members named in a "who got what" label before the rest are counted.
const WHO_SHOWN: usize = 6;

/// "Every member has generation 2's assignment: A orders-0..2 · B orders-3..5": what each
/// running member owns once the last assignment arrived.
fn who_got_what(sim: &Simulation, kind: &TraceKind, lang: Lang) -> String {
    let (generation, epoch) = match kind {
        TraceKind::Assigned {
            generation_id,
            consumer_protocol,
            ..
        } => (*generation_id, *consumer_protocol),
        _ => (0, false),
    };
    let running: Vec<_> = sim.consumers().iter().filter(|c| c.is_running()).collect();
    let mut owners: Vec<String> = running
        .iter()
        .take(WHO_SHOWN)
        .map(|c| {
            let owned: Vec<_> = c.owned.iter().cloned().collect();
            let list = if owned.is_empty() {
                String::from("∅")
            } else {
                tps(&owned)
            };
            format!("{} {list}", c.name)
        })
        .collect();
    if running.len() > WHO_SHOWN {
        owners.push(format!("… (+{})", running.len() - WHO_SHOWN));
    }
    let owners = owners.join(" · ");
    match (lang, epoch) {
        (Lang::En, false) => {
            format!("every member has generation {generation}'s assignment: {owners}")
        }
        (Lang::En, true) => format!("every member has reconciled (epoch {generation}): {owners}"),
        (Lang::Zh, false) => format!("每个成员都拿到了第 {generation} 代的分配：{owners}"),
        (Lang::Zh, true) => format!("每个成员都已协调完成（纪元 {generation}）：{owners}"),
    }
}
