//! The conformance scenarios (`docs/src/reference/classic-protocol.md#conformance`), each named after the
//! scenario and the Kafka test it comes from.
#![allow(clippy::unwrap_used, clippy::cloned_ref_to_slice_refs)]

#[path = "../common/mod.rs"]
mod common;

use common::*;
use group_coordinator::protocol::*;
use group_coordinator::{ErrorCode, GroupState, Request, Response};

mod join;
mod static_and_admin;
mod sync_and_sessions;

/// Two members at generation 2, CompletingRebalance, leader A and follower B.
fn two_members_gen2(h: &mut H) -> (String, String) {
    let a = h.one_stable();
    let b_join = h.join_parked(join("").v(3));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let (a_join, out) = h.join(join(&a));
    let ra = join_answer(&out, a_join).unwrap();
    let rb = join_answer(&out, b_join).unwrap();
    assert_eq!((ra.generation_id, rb.generation_id), (2, 2));
    assert_eq!(ra.leader, a);
    assert_eq!(ra.members.len(), 2);
    assert!(rb.members.is_empty());
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    (a, rb.member_id)
}

/// J.PENDING: returns (A, B, pending id, A's and B's parked correlation ids).
fn pending_setup(h: &mut H) -> (String, String, String, i32, i32) {
    let (a, a_join) = h.join_dynamic_v4(join("").rebalance(10_000).session(5000));
    let out = h.advance(3000);
    assert_eq!(join_answer(&out, a_join).unwrap().generation_id, 1);
    h.sync_now(&a, 1, &[]);
    let b_join = h.join_parked(join("").v(3).rebalance(10_000).session(5000));
    let (a_join, out) = h.join(join(&a).rebalance(10_000).session(5000));
    let b = join_answer(&out, b_join).unwrap().member_id;
    assert_eq!(join_answer(&out, a_join).unwrap().generation_id, 2);
    h.sync_now(&a, 2, &[]);
    assert_eq!(h.state(), GroupState::Stable);
    let a_join = h.join_parked(join(&a).rebalance(10_000).session(5000));
    let c = h.join_now(join("").v(4).session(2500));
    assert_eq!(c.error_code, ErrorCode::MemberIdRequired);
    let b_join = h.join_parked(join(&b).rebalance(10_000).session(5000));
    let v = h.view();
    assert_eq!(v.state, GroupState::PreparingRebalance);
    assert_eq!(v.pending_members, [c.member_id.clone()]);
    assert_eq!(v.num_awaiting_join, 2);
    (a, b, c.member_id, a_join, b_join)
}
