//! The seed's cases, the assignors and the simulated world through the JS API, in headless Chromium
//! (`wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)]

mod common;

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

js_api_tests!();
simulation_tests!();
