//! What the built-in scenarios must show, read from their traces and metrics, and the
//! simulator's handling of actions and faults.

use group_coordinator::event::{EventKind, RemovalReason};
use group_coordinator::{ErrorCode, GroupState};
use group_simulator::Life;
use group_simulator::builtin::{self, scenario};
use group_simulator::trace::{MemberState, MessageApi};
use group_simulator::{Action, Scenario, Simulation, TraceKind};

mod application;
mod consumer_protocol;
mod faults_and_input;
mod migration;
mod seed_cases;
mod topics_and_configs;

fn run(name: &str) -> Simulation {
    let s = scenario(name).unwrap_or_else(|| panic!("{name} loads"));
    let end = s.duration_ms;
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(end);
    assert_eq!(sim.metrics().invariant_violations, 0, "{name}");
    sim
}

/// The group's state just before the first LeaveGroup reached the coordinator, and the state
/// change the leave caused (if any) at the same moment.
fn state_at_leave(sim: &Simulation) -> (GroupState, Option<GroupState>, i64) {
    let mut state = GroupState::Empty;
    let trace = sim.trace();
    let at = trace
        .iter()
        .position(|e| {
            if let TraceKind::Coordinator {
                event: EventKind::StateChanged { to, .. },
            } = &e.kind
            {
                state = *to;
            }
            matches!(
                e.kind,
                TraceKind::RequestDelivered {
                    api: MessageApi::LeaveGroup,
                    ..
                }
            )
        })
        .expect("a LeaveGroup reached the coordinator");
    let t = trace.at_ms(at).expect("the LeaveGroup entry");
    let after = trace
        .iter_from(at)
        .take_while(|e| e.at_ms == t)
        .find_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::StateChanged { to, .. },
            } => Some(*to),
            _ => None,
        });
    (state, after, t)
}

fn generation_bumps(sim: &Simulation) -> Vec<(i64, i32)> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: EventKind::GenerationBumped { generation_id, .. },
            } => Some((e.at_ms, *generation_id)),
            _ => None,
        })
        .collect()
}

fn members(sim: &Simulation) -> Vec<String> {
    let view = sim.snapshot();
    let group = view.group.expect("the group exists");
    let mut names: Vec<String> = group.members.iter().map(|m| m.client_id.clone()).collect();
    names.sort();
    names
}
