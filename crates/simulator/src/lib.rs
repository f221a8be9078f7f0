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

mod action_log;
mod action_reader;
pub mod assignments;
pub mod builtin;
pub mod config;
pub mod consumer;
mod consumer_row;
pub mod frame;
pub mod import;
mod index;
mod ledger;
#[cfg(feature = "live")]
pub mod live;
pub mod moments;
pub mod narration;
pub mod ownership;
pub mod player;
mod refusal;
pub mod scenario;
mod simulation;
pub mod timeline;
pub mod trace;
pub mod upcoming;
pub mod vocabulary;
mod world;
mod world_view;

pub use config::ConsumerConfig;
pub use moments::{Moment, StepMark};
pub use player::{PlayStop, Player, StepRecord, StepTransition, TimedAction};
pub use refusal::Refusal;
pub use scenario::{Action, Scenario, ScenarioError};
pub use simulation::Simulation;
pub use trace::{Trace, TraceEvent, TraceKind};
pub use world_view::{Metrics, WorldView};
