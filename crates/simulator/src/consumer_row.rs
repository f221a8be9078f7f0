//! A consumer as the consumers panel shows it: one row, read off the simulation; the frame's
//! consumers table and the assignment table's rows both use it.

use crate::consumer::Life;
use crate::index::RowWindow;
use crate::scenario::PauseKind;
use crate::simulation::Simulation;
use crate::trace::{MemberState, tps};
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// A consumer as the consumers panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConsumerRow {
    pub name: Rc<str>,
    pub life: Life,
    pub paused: Option<PauseKind>,
    pub state: MemberState,
    pub generation_id: i32,
    pub group_instance_id: Option<String>,
    pub is_leader: bool,
    /// Its link to the coordinator is cut.
    pub cut: bool,
    /// What it owns, written `topic-0,1 other-2`, and how many partitions that is.
    pub owned: String,
    pub owned_count: usize,
    /// The protocol it speaks now (a switch of `group.protocol` waits for its next start).
    pub protocol: crate::config::GroupProtocol,
    /// Failed: the error that stopped it (`INVALID_SESSION_TIMEOUT`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_with: Option<&'static str>,
}

impl ConsumerRow {
    /// The rows of the consumers in `window` (all without one).
    pub fn window(sim: &Simulation, window: Option<RowWindow>) -> Vec<ConsumerRow> {
        RowWindow::of(window, sim.consumers())
            .iter()
            .map(|c| ConsumerRow::of(sim, c))
            .collect()
    }

    pub fn of(sim: &Simulation, c: &crate::consumer::Consumer) -> ConsumerRow {
        ConsumerRow {
            name: c.name.clone(),
            life: c.life,
            paused: c.paused,
            state: c.state,
            generation_id: c.generation.generation_id,
            group_instance_id: c.config.group_instance_id.clone(),
            is_leader: c.is_leader,
            cut: sim.w.links.get(c.index).is_some_and(|l| l.cut),
            owned: tps(&c.owned.iter().cloned().collect::<Vec<_>>()),
            owned_count: c.owned.len(),
            protocol: if c.uses_consumer_protocol() {
                crate::config::GroupProtocol::Consumer
            } else {
                crate::config::GroupProtocol::Classic
            },
            failed_with: c.failure.map(|e| e.name()),
        }
    }
}
