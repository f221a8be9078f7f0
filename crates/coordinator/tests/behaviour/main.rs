//! Behaviour of `docs/src/reference/classic-protocol.md` outside the conformance scenarios: the seed's leave cases
//! (#leaving), the initial-delay timelines (#initial-delay), protocol selection
//! (#protocol-selection), heartbeats and commits by state, version differences, failover,
//! persist failures, the admin APIs, the Kafka 3.x differences (`docs/src/reference/kafka-3x-and-4.md`), and the JSON form
//! of the messages.
#![allow(clippy::unwrap_used, clippy::cloned_ref_to_slice_refs)]

#[path = "../common/mod.rs"]
mod common;

use common::*;
use group_coordinator::protocol::*;
use group_coordinator::{
    BrokerConfig, Coordinator, CoordinatorError, ErrorCode, EventKind, Flavour, GroupState,
    Request, Response,
};

mod admin;
mod by_state;
mod failover;
mod joins;
mod leaving;
mod offsets;

fn kafka3(mut h: H) -> H {
    h.c.config_mut().flavour = Flavour::Kafka3;
    h
}

/// `joins` parked into an empty group (profile J) and answered when the initial delay has
/// passed (twice 3 s: the new members extend it once): their member ids, in order, at
/// generation 1 (CompletingRebalance).
fn first_generation(h: &mut H, joins: impl IntoIterator<Item = Join>) -> Vec<String> {
    let ids: Vec<i32> = joins.into_iter().map(|j| h.join_parked(j)).collect();
    h.advance(3000);
    let out = h.advance(3000);
    ids.iter()
        .map(|id| join_answer(&out, *id).unwrap().member_id)
        .collect()
}

/// Three dynamic members A (leader), B, C at generation 1, Stable.
fn three_stable(h: &mut H) -> Vec<String> {
    let members = first_generation(
        h,
        (0..3).map(|_| join("").v(3).rebalance(10_000).session(10_000)),
    );
    h.sync_now(&members[0], 1, &[]);
    for m in &members[1..] {
        h.sync_now(m, 1, &[]);
    }
    assert_eq!(h.state(), GroupState::Stable);
    members
}
