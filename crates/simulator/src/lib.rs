//! A deterministic discrete-event world around one Kafka group coordinator: consumers that
//! follow the Java client (`docs/src/reference/classic-protocol.md#client`), a network with latency, jitter, loss and cuts, faults, a
//! scripted scenario, a narrated trace, metrics and invariants checked after every event.
//!
//! ```
//! use group_simulator::{Simulation, builtin};
//!
//! let mut sim = Simulation::new(builtin::scenario("leave-while-preparing-rebalance").unwrap()).unwrap();
//! sim.run_until(20_000);
//! assert_eq!(sim.metrics().invariant_violations, 0);
//! assert!(sim.trace().len() > 10);
//! ```
//!
//! Rules: no clock (virtual time only), one seeded PRNG, ordered maps only, and no panic on
//! input: a bad scenario or action is an error naming the field.

#![no_std]
#![warn(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::alloc_instead_of_core
)]

extern crate alloc;

// The public surface: the data formats and catalogues that are namespaces of their own (the
// scenario format, the trace, the frame the page draws, the player, the built-in scenarios, the
// narration and the vocabulary), and the types of the rest re-exported here. Everything else
// is private, so that it can move without breaking the crates that use this one.
pub mod builtin;
pub mod frame;
pub mod narration;
pub mod player;
pub mod scenario;
pub mod trace;
pub mod vocabulary;

mod action_log;
mod action_reader;
mod assignments;
mod by_correlation;
mod chunked;
mod config;
mod consumer;
mod consumer_row;
mod event_queue;
mod import;
mod index;
mod ledger;
#[cfg(feature = "live")]
mod live;
mod moments;
mod ownership;
mod refusal;
mod simulation;
mod step_list;
mod timeline;
mod trace_store;
mod upcoming;
mod world;
mod world_view;

pub use assignments::AssignmentTable;
pub use config::{ConsumerConfig, GroupProtocol, RebalanceProtocol};
pub use consumer::{CoordinatorStatus, Life};
pub use import::{ImportError, Imported, import_group, import_live};
#[cfg(feature = "live")]
pub use live::{FollowStatus, Follower};
pub use moments::{Moment, StepMark};
pub use ownership::{Ownership, PartitionOwnership, Segment, ownership};
pub use player::{GroupAfter, PlayStop, Player, StepRecord, StepTransition, TimedAction};
pub use refusal::Refusal;
pub use scenario::{Action, Scenario, ScenarioError};
pub use simulation::Simulation;
pub use timeline::{Bar, Mark, MarkKind, TimelineWindow};
pub use trace::{Trace, TraceEvent, TraceKind};
pub use upcoming::{InFlight, Upcoming};
pub use world_view::{Metrics, WorldView};
