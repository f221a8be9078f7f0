//! The seed's cases through the JS API, in Node.js (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)]

mod common;

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn seed_leave_while_preparing_rebalance_completes_the_join() {
    common::leave_while_preparing_rebalance_completes_the_join();
}

#[wasm_bindgen_test]
fn seed_leave_while_completing_rebalance_restarts_the_rebalance() {
    common::leave_while_completing_rebalance_restarts_the_rebalance();
}

#[wasm_bindgen_test]
fn seed_leave_while_stable_starts_a_rebalance() {
    common::leave_while_stable_starts_a_rebalance();
}

#[wasm_bindgen_test]
fn seed_last_member_leaving_empties_the_group() {
    common::last_member_leaving_empties_the_group();
}

#[wasm_bindgen_test]
fn misuse_throws_and_changes_nothing() {
    common::misuse_throws_and_changes_nothing();
}

#[wasm_bindgen_test]
fn same_inputs_same_trace() {
    assert_eq!(common::deterministic_trace(), common::deterministic_trace());
}

#[wasm_bindgen_test]
fn assignors_and_codecs_through_js() {
    common::assignors_and_codecs();
}
