//! The JavaScript binding of the group coordinator model and its simulated world: plain JS
//! objects in and out (Kafka's JSON field names, bytes as base64), errors as JS
//! `TypeError`/`RangeError` with a message that names the parameter and the problem. No logic
//! lives here: every call checks its arguments (`args`), converts, forwards to
//! `group-coordinator` or `group-simulator` and converts back. A refused call changes nothing.
//!
//! Values cross as JSON text (serde_json on this side, `JSON.parse`/`JSON.stringify` on the
//! other) rather than through serde-wasm-bindgen: its struct path reads only the fields a struct
//! expects, so a misspelt field would be silently ignored instead of refused; and JSON is
//! faster for these shapes (measured: 42k -> 53k requests/s in `bench/wasm-requests.mjs`).
//!
//! Two modules are built from this crate. The full one (default features) is the page's. The
//! embed module (`--no-default-features`) is what an embedded scenario loads: the simulator and
//! the player, without the features that only the console, the `assign` widget and live mode
//! use (`console`: the `Coordinator` class; `assign`: the assignor and codec functions; `live`:
//! `Player.live()` following a broker). Every name it has behaves as in the full module.

use group_coordinator::{BrokerConfig, ErrorCode};

// The module allocates at every simulated message (requests, responses, trace entries): with
// the standard library's dlmalloc, allocation was about 12% of a comparison's run in Node.
// The module is single-threaded (no `atomics`).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod args;
#[cfg(feature = "assign")]
mod assign;
#[cfg(feature = "assign")]
mod compact;
#[cfg(feature = "console")]
mod coordinator;
mod heap;
mod player;
#[cfg(feature = "schema")]
pub mod schema;
mod simulation;
mod types;

#[cfg(feature = "assign")]
pub use assign::{
    assign, decode_assignment, decode_subscription, encode_assignment, encode_subscription,
    server_assign,
};
#[cfg(feature = "assign")]
pub use compact::assign_compact;
#[cfg(feature = "console")]
pub use coordinator::{Coordinator, apis, parse_config};
pub use player::Player;
pub use simulation::{
    Simulation, consumer_config_keys, import_group, large_group_scenario, scenario, scenarios,
    vocabulary,
};

/// The package version and the Kafka behaviour it models.
#[wasm_bindgen]
pub fn version() -> String {
    format!(
        "{} (Kafka group coordinator: classic and consumer groups, 4.0 behaviour; 3.x flavour available)",
        env!("CARGO_PKG_VERSION")
    )
}

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!(
            "group-coordinator-wasm panicked (a bug in the model): {info}"
        )));
    }));
}

/// Writes a value as a plain JS object through JSON text (V8 parses JSON faster than objects
/// can be built field by field across the boundary).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| js_sys::Error::new(&format!("cannot convert the result to JS: {e}")))?;
    js_sys::JSON::parse(&text)
}

/// Kafka's error name for a code (an int16), e.g. 27 -> "REBALANCE_IN_PROGRESS"; "UNKNOWN"
/// for a code Kafka does not define.
#[wasm_bindgen(js_name = errorName)]
pub fn error_name(
    #[wasm_bindgen(unchecked_param_type = "number")] code: JsValue,
) -> Result<String, JsValue> {
    let code = args::whole("code", &code, -32768.0, 32767.0)?;
    Ok(ErrorCode::from_code(code as i16).name().to_string())
}

/// A setting as the page lists it: its Kafka name, default and what it does (both languages).
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConfigKeyInfo {
    pub name: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
    pub doc_zh: &'static str,
}

/// `keys` as the page lists them.
pub(crate) fn config_keys(keys: &[group_coordinator::ConfigKey]) -> Result<JsValue, JsValue> {
    let keys: Vec<ConfigKeyInfo> = keys
        .iter()
        .map(|k| ConfigKeyInfo {
            name: k.name,
            default: k.default,
            doc: k.doc,
            doc_zh: k.doc_zh,
        })
        .collect();
    to_js(&keys)
}

/// The broker settings the coordinator accepts, with Kafka's defaults.
#[wasm_bindgen(js_name = brokerConfigKeys, unchecked_return_type = "ConfigKeyInfo[]")]
pub fn broker_config_keys() -> Result<JsValue, JsValue> {
    config_keys(&BrokerConfig::KEYS)
}
