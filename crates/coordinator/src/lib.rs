//! A deterministic, sans-IO model of Apache Kafka's group coordinator: classic groups and
//! consumer groups (KIP-848), and the migration between them.
//!
//! It answers JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch,
//! DescribeGroups, ListGroups and DeleteGroups, and the consumer group protocol's
//! ConsumerGroupHeartbeat and ConsumerGroupDescribe, with group configs (IncrementalAlterConfigs
//! and DescribeConfigs of GROUP resources) and regex subscriptions in RE2/J's syntax
//! ([`topic_regex`]), request by request, error code by error code and timer by timer as Kafka
//! 4.0's coordinator does (with Kafka 3.x's differences behind [`Flavour`]), following
//! `docs/src/reference/classic-protocol.md` and `docs/src/reference/consumer-group-protocol.md`.
//! The client-side assignors are in [`assignor`], the server-side ones in
//! [`consumer_group::assignor`].
//!
//! # Use, in call order
//!
//! ```
//! use group_coordinator::{BrokerConfig, Coordinator, Request, ErrorCode};
//! use group_coordinator::protocol::{JoinGroupRequest, JoinGroupRequestProtocol};
//!
//! let mut c = Coordinator::new(BrokerConfig::default());
//! let join = |member_id: &str| Request::JoinGroup(JoinGroupRequest {
//!     api_version: 9, correlation_id: 1, client_id: "consumer-1".into(),
//!     group_id: "g".into(), session_timeout_ms: 45_000, rebalance_timeout_ms: 300_000,
//!     member_id: member_id.into(), protocol_type: "consumer".into(),
//!     protocols: vec![JoinGroupRequestProtocol { name: "range".into(), metadata: Default::default() }],
//!     ..Default::default()
//! });
//! // v4+: a new dynamic member first gets its id back with MEMBER_ID_REQUIRED ...
//! let out = c.handle(0, join("")).unwrap();
//! let group_coordinator::Response::JoinGroup(r) = &out[0] else { unreachable!() };
//! assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
//! // ... then joins with it; the response is parked for the initial rebalance delay.
//! assert!(c.handle(0, join(&r.member_id.clone())).unwrap().is_empty());
//! assert_eq!(c.next_deadline(), Some(3_000));
//! let out = c.advance(3_000).unwrap();          // the join phase completes: generation 1
//! assert_eq!(out.len(), 1);
//! let events = c.drain_events();                 // StateChanged, MemberAdded, TimerFired, ...
//! assert!(!events.is_empty());
//! ```
//!
//! Rules the core keeps: no clock (time is an argument and never goes back), no randomness (member
//! ids come from a seeded stream), no hash-ordered iteration, and no panic on any input:
//! misuse of the API is an `Err`, protocol failures are error codes in responses.

#![no_std]
// Keep no_std honest: core and alloc paths, never std's re-exports.
#![warn(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::alloc_instead_of_core
)]

extern crate alloc;
// The `Arbitrary` derive (fuzzing, on a host) names std paths.
#[cfg(feature = "arbitrary")]
extern crate std;

/// The JSON Schema (the `schema` feature) of a type serde writes as one JSON value of its own
/// making (an error code as its number, a Uuid or a timer key as text, bytes as base64).
#[cfg(feature = "schema")]
macro_rules! scalar_schema {
    ($ty:ident, $schema:tt) => {
        impl schemars::JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> alloc::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!($schema)
            }
        }
    };
}

// The public surface: the modules that are namespaces of their own (the wire messages, the
// assignors, the consumer protocol's codecs, consumer groups, the events, Kafka's topic-name
// and regex rules), and the types of the rest re-exported here. Everything else is private, so
// that it can move without breaking the crates that use this one.
pub mod assignor;
pub mod consumer_group;
pub mod consumer_protocol;
pub mod event;
pub mod protocol;
pub mod topic_name;
pub mod topic_regex;

mod admin;
mod classic;
mod classic_rpc;
mod compare;
mod config;
mod coordinator;
mod ctx;
mod error;
mod group_config;
mod group_type;
pub mod hashed;
pub mod id_map;
mod invariants;
mod migration;
mod offsets;
mod timer;

// Helpers shared with `group-simulator` (one instantiation of the sorts and maps in a wasm
// module, one way to quote input in a message, one seeded stream): not part of the API.
#[doc(hidden)]
pub mod ordered;
#[doc(hidden)]
pub mod quote;
#[doc(hidden)]
pub mod rng;

pub use classic::{
    ClassicGroup, ClassicGroupMember, GroupRecord, GroupRecordMember, GroupState, GroupView,
    MemberView,
};
pub use config::{BrokerConfig, ConfigError, ConfigKey, ConfigValue, Flavour, MigrationPolicy};
pub(crate) use coordinator::Groups;
pub use coordinator::{Coordinator, CoordinatorError};
pub use error::ErrorCode;
pub use event::{Cause, Event, EventKind, RemovalReason};
pub use group_config::{AlterConfigOp, AlterableConfig, ConfigSource, altered};
pub use protocol::{Api, Request, Response};
pub use timer::{TimerKey, TimerKeyRef, TimerView};

/// The book's Rust examples (`docs/src/using.md`), compiled and run as doc-tests so that they stay
/// true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/using.md")]
pub struct BookExamples;
