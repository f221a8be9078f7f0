//! The seed's cases, the assignors and the simulated world through the JS API, in Node.js (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)]

mod common;

use wasm_bindgen_test::wasm_bindgen_test;

js_api_tests!();
simulation_tests!();
