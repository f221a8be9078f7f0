//! Every argument that crosses from JavaScript is checked here, at run time, before anything
//! reaches the model: TypeScript types do not protect JavaScript callers, and a value of the wrong
//! type handed to wasm-bindgen's typed glue (a number where a `&str` is expected, say) traps the
//! module or fails inside the glue with a message about its internals. So every exported
//! function takes `JsValue`s and reads them through these functions, which throw a `TypeError`
//! (wrong type) or `RangeError` (a value out of range) naming the parameter and what it must be.
//!
//! Sizes are bounded where Kafka bounds them, so oversized input is refused before it is copied
//! into the module:
//! - a string parameter (a group id, a scenario or assignor name) is at most 32,767 UTF-8 bytes,
//!   the longest string Kafka's protocol can carry (its `STRING` type has an int16 length);
//! - an assignor input, as JSON text, is at most 104,857,600 characters, Kafka's
//!   `socket.request.max.bytes` (the largest request a broker reads); a scenario at most 32 MiB,
//!   a request, action, config or codec value at most 10 MiB; each also has a bound on its items
//!   ([`Items`]);
//! - a base64 argument is at most 104,857,600 characters as well.
//!
//! Error messages quote at most [`QUOTE_MAX`] characters of an offending value.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Kafka's `STRING`: an int16 length, so at most 32,767 bytes.
pub const MAX_STRING_BYTES: usize = i16::MAX as usize;
/// Kafka's `socket.request.max.bytes` default: the largest request a broker accepts.
#[cfg(any(feature = "assign", feature = "live"))]
pub const MAX_REQUEST_CHARS: u32 = 104_857_600;
pub use group_coordinator::quote::{QUOTE_MAX, clip_message, quote};
/// The largest integer a JS number holds exactly.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// What a string holding half a UTF-16 surrogate pair is told: a JS string may hold one, no Rust
/// string can (wasm-bindgen's crossing would replace it with U+FFFD, changing a name unseen).
pub(crate) const LONE_SURROGATE: &str = "a string holds a lone UTF-16 surrogate (half of a pair, such as \"\\ud800\"), which text in UTF-8 cannot hold";

pub(crate) fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(&clip_message(message)).into()
}

pub(crate) fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(&clip_message(message)).into()
}

/// What a JS value is, for a message: `a number (3)`, `null`, `an object`, ...
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if let Some(n) = value.as_f64() {
        return format!("a number ({})", js_number(n));
    }
    if let Some(b) = value.as_bool() {
        return format!("a boolean ({b})");
    }
    if value.is_string() {
        let s: &js_sys::JsString = value.unchecked_ref();
        // Quote a short string only: reading a huge one into the module is what we avoid.
        if s.length() as usize <= QUOTE_MAX {
            return format!("a string ({})", quote(&String::from(s)));
        }
        return format!("a string of {} characters", s.length());
    }
    if value.is_symbol() {
        return "a symbol".into();
    }
    if value.is_bigint() {
        return "a BigInt".into();
    }
    if value.is_function() {
        return "a function".into();
    }
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    if js_sys::ArrayBuffer::is_view(value) {
        // "a Float64Array" where an Int32Array was wanted says more than "an object". The
        // constructor's name is read without trusting it (a getter may throw or lie at length).
        let name = js_sys::Reflect::get(value, &"constructor".into())
            .and_then(|c| js_sys::Reflect::get(&c, &"name".into()))
            .ok()
            .and_then(|n| n.as_string())
            .filter(|n| !n.is_empty() && n.len() <= 40);
        return match name {
            Some(n) if n.starts_with(['A', 'E', 'I', 'O', 'U']) => format!("an {n}"),
            Some(n) => format!("a {n}"),
            None => "a typed array".into(),
        };
    }
    "an object".into()
}

/// A number as JS prints it (`NaN`, `Infinity`, `-0` kept apart).
fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if n == 0.0 && n.is_sign_negative() {
        "-0".into()
    } else {
        format!("{n}")
    }
}

/// `value` as a JS string (not yet copied into the module), or a TypeError saying it must be
/// `what` ("a string", "a base64 string").
fn js_string<'v>(
    name: &str,
    value: &'v JsValue,
    what: &str,
) -> Result<&'v js_sys::JsString, JsValue> {
    if !value.is_string() {
        return Err(type_error(&format!(
            "{name} must be {what}, got {}",
            describe(value)
        )));
    }
    Ok(value.unchecked_ref())
}

/// A string parameter, at most [`MAX_STRING_BYTES`] UTF-8 bytes.
pub(crate) fn string(name: &str, value: &JsValue) -> Result<String, JsValue> {
    let s = js_string(name, value, "a string")?;
    // UTF-16 units bound UTF-8 bytes from below: refuse what is surely too long before copying.
    if s.length() as usize > MAX_STRING_BYTES {
        return Err(range_error(&format!(
            "{name} is {} characters long; Kafka's protocol carries strings of at most {MAX_STRING_BYTES} bytes",
            s.length()
        )));
    }
    let text = String::from(s);
    if text.len() > MAX_STRING_BYTES {
        return Err(range_error(&format!(
            "{name} is {} bytes long in UTF-8; Kafka's protocol carries strings of at most {MAX_STRING_BYTES} bytes",
            text.len()
        )));
    }
    Ok(text)
}

/// A base64 text parameter, at most [`MAX_REQUEST_CHARS`] characters.
#[cfg(feature = "assign")]
pub(crate) fn base64(name: &str, value: &JsValue) -> Result<String, JsValue> {
    long_text(name, value, "a base64 string")
}

/// Lines of text (a broker's trace), at most [`MAX_REQUEST_CHARS`] characters in one call.
#[cfg(feature = "live")]
pub(crate) fn lines(name: &str, value: &JsValue) -> Result<String, JsValue> {
    long_text(name, value, "a string of lines")
}

#[cfg(any(feature = "assign", feature = "live"))]
fn long_text(name: &str, value: &JsValue, what: &str) -> Result<String, JsValue> {
    let s = js_string(name, value, what)?;
    if s.length() > MAX_REQUEST_CHARS {
        return Err(range_error(&format!(
            "{name} is {} characters long; the limit is {MAX_REQUEST_CHARS} (Kafka's socket.request.max.bytes)",
            s.length()
        )));
    }
    Ok(String::from(s))
}

/// The longest group description `importGroup` reads: a `--members --verbose` of 1,000 members
/// on 100,000 partitions (each named twice, current and target) is under 2 MB.
pub const MAX_DESCRIPTION_CHARS: u32 = 8 << 20;

/// A pasted group description, at most [`MAX_DESCRIPTION_CHARS`] characters.
pub(crate) fn description(name: &str, value: &JsValue) -> Result<String, JsValue> {
    let s = js_string(name, value, "a string")?;
    if s.length() > MAX_DESCRIPTION_CHARS {
        return Err(range_error(&format!(
            "{name} is {} characters long; a group's description is read up to {MAX_DESCRIPTION_CHARS}",
            s.length()
        )));
    }
    Ok(String::from(s))
}

/// A number parameter (`typeof value === "number"`; no coercion from strings or objects).
pub(crate) fn number(name: &str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| type_error(&format!("{name} must be a number, got {}", describe(value))))
}

/// A whole number in `min..=max`.
pub(crate) fn whole(name: &str, value: &JsValue, min: f64, max: f64) -> Result<f64, JsValue> {
    let n = number(name, value)?;
    if !n.is_finite() || n.fract() != 0.0 || !(min..=max).contains(&n) {
        return Err(range_error(&format!(
            "{name} must be a whole number in {}..={}, got {}",
            js_number(min),
            js_number(max),
            js_number(n)
        )));
    }
    // -0 is a whole number in range; read it as 0.
    Ok(n + 0.0)
}

/// A virtual time in ms: a whole number between 0 and 2^53-1.
pub(crate) fn time(name: &str, value: &JsValue) -> Result<i64, JsValue> {
    let n = number(name, value)?;
    if !n.is_finite() || n.fract() != 0.0 || !(0.0..=MAX_SAFE).contains(&n) {
        return Err(range_error(&format!(
            "{name} must be a whole number of milliseconds between 0 and 2^53-1, got {}",
            js_number(n)
        )));
    }
    Ok(n as i64)
}

/// An index (into a trace): a whole number >= 0; `undefined` (or `null`) reads as `default`.
pub(crate) fn index(name: &str, value: &JsValue, default: usize) -> Result<usize, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(default);
    }
    let n = number(name, value)?;
    if !n.is_finite() || n.fract() != 0.0 || !(0.0..=MAX_SAFE).contains(&n) {
        return Err(range_error(&format!(
            "{name} must be a whole number >= 0, got {}",
            js_number(n)
        )));
    }
    Ok(n as usize)
}

/// A boolean: `true` or `false`, nothing else (no truthy strings or numbers).
pub(crate) fn boolean(name: &str, value: &JsValue) -> Result<bool, JsValue> {
    value.as_bool().ok_or_else(|| {
        type_error(&format!(
            "{name} must be a boolean, got {}",
            describe(value)
        ))
    })
}

/// An optional object parameter: `undefined` and `null` read as absent.
pub(crate) fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// How many items (array elements and object members) a JSON argument may hold in all. Kafka
/// bounds a request only by its size (104,857,600 bytes, room for ten million small array
/// elements), which one call here could not handle within a second; these bounds are the
/// model's (measured in wasm under Node: a JoinGroup of 100,000 protocols takes ~0.12 s, an
/// assignor input of 2,000,000 items ~0.8 s).
#[derive(Clone, Copy)]
pub(crate) enum Items {
    /// A request, an action, a config, a codec value: 100,000.
    Request,
    /// A scenario: 1,000,000 (its script has at most 100,000 steps of a few items each).
    Scenario,
    /// An assignor input: 2,000,000 (Kafka's JMH grid's largest groups fit).
    #[cfg(feature = "assign")]
    Assignment,
}

impl Items {
    /// The longest JSON text, checked before the text is copied into the module: Kafka's
    /// `socket.request.max.bytes` for an assignor input, less for the smaller kinds (a request
    /// of 100,000 items is a few MiB), so an oversized one is refused for the price of
    /// `JSON.stringify` alone.
    fn max_chars(self) -> u32 {
        match self {
            Items::Request => 10 * 1024 * 1024,
            Items::Scenario => 32 * 1024 * 1024,
            #[cfg(feature = "assign")]
            Items::Assignment => MAX_REQUEST_CHARS,
        }
    }

    fn max(self) -> usize {
        match self {
            Items::Request => 100_000,
            Items::Scenario => 1_000_000,
            #[cfg(feature = "assign")]
            Items::Assignment => 2_000_000,
        }
    }
}

/// Array elements and object members in a JSON text, counted without parsing it (a comma or an
/// opening bracket outside a string starts one): refusing an oversized value costs one pass
/// over its bytes instead of building it.
fn count_items(text: &str) -> usize {
    let (mut n, mut in_string, mut escaped) = (0, false, false);
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b'[' | b'{' => n += 1,
                _ => {}
            }
        }
    }
    n
}

#[wasm_bindgen]
extern "C" {
    /// The host's `TextEncoder`, called directly: wasm-bindgen's own string crossing copies
    /// ASCII text one character at a time in JavaScript, which for an assignor input of a
    /// million topic names was a quarter of a whole `assign`.
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, input: &js_sys::JsString, into: &mut [u8]) -> Encoded;
    /// What `encodeInto` did: UTF-16 units read, bytes written.
    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

thread_local! {
    /// Made once: one per call was a measurable part of a small call.
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// A JS string's text as UTF-8, encoded by the host (see [`TextEncoder`]). A lone surrogate,
/// which UTF-8 cannot hold, becomes U+FFFD, as wasm-bindgen's own crossing does.
///
/// Encoded straight into the module's memory (`encodeInto`): ASCII text fills a buffer of its
/// length in one call; the rest of a text that is not goes into room for three bytes per unit.
/// (`encode` made a JavaScript array first, then copied it in: for 10,000 member ids, a tenth
/// of an assignment.)
pub(crate) fn utf8(text: &js_sys::JsString) -> String {
    let units = text.length() as usize;
    // Zeroed: `encodeInto` writes into a `&mut [u8]`, which must be initialised memory.
    let mut bytes = vec![0; units];
    let done = ENCODER.with(|encoder| encoder.encode_into(text, &mut bytes));
    let (read, mut written) = (done.read() as usize, done.written() as usize);
    if read < units {
        let rest = text.slice(read as u32, units as u32);
        bytes.resize(written + 3 * (units - read), 0);
        let more = ENCODER.with(|encoder| encoder.encode_into(&rest, &mut bytes[written..]));
        written += more.written() as usize;
    }
    bytes.truncate(written);
    // The host's encoder gives well-formed UTF-8; checked all the same, as cheaply as copied.
    String::from_utf8(bytes).unwrap_or_else(|_| String::from(text))
}

// `JSON.stringify` with a replacer that counts as the text is made: the characters of the
// strings and keys, and the values, a bound below the text's length and above its items. Past
// twice the items or the characters allowed, it stops (the text can only be longer) and gives
// `null`: a request of 500 MB, or a `toJSON` that renders a huge value, is refused before the
// whole text is written, not after. Anything else it throws is the caller's value's (a cycle, a
// BigInt, a getter), thrown on. An assignor input is written without it: a replacer call per
// value would sit on the assignors' benchmarked path, and its own bound is Kafka's whole request
// size (`Items::Assignment`).
#[wasm_bindgen(inline_js = r#"
const OVER = Symbol('over');
export function boundedStringify(value, maxChars, maxValues) {
  let chars = 0;
  let values = 0;
  try {
    return JSON.stringify(value, function (key, v) {
      chars += key.length + (typeof v === 'string' ? v.length : 0);
      if (++values > maxValues || chars > maxChars) throw OVER;
      return v;
    });
  } catch (e) {
    if (e === OVER) return null;
    throw e;
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = boundedStringify, catch)]
    fn bounded_stringify_js(
        value: &JsValue,
        max_chars: u32,
        max_values: u32,
    ) -> Result<JsValue, JsValue>;
}

/// `value`'s JSON text (a string), `null` when it is surely past `items`' bounds, or what
/// `JSON.stringify` threw.
fn bounded_stringify(value: &JsValue, items: Items) -> Result<JsValue, JsValue> {
    match items {
        #[cfg(feature = "assign")]
        Items::Assignment => js_sys::JSON::stringify(value).map(Into::into),
        _ => bounded_stringify_js(value, items.max_chars(), 2 * items.max() as u32),
    }
}

/// Reads a JS value through its JSON text: every key of every object is seen, so unknown fields
/// are refused by name (serde-wasm-bindgen reads only the fields a struct expects). `what` names
/// the parameter (`request`, `scenario`, ...); `items` bounds its size.
pub(crate) fn json<T: serde::de::DeserializeOwned>(
    what: &str,
    value: &JsValue,
    items: Items,
) -> Result<T, JsValue> {
    if value.is_undefined() {
        return Err(type_error(&format!("{what} is missing (undefined)")));
    }
    if !value.is_object() || value.is_function() {
        return Err(type_error(&format!(
            "{what} must be an object, got {}",
            describe(value)
        )));
    }
    // JSON has no Map or Set: `JSON.stringify` renders one as `{}`, and the value would be read
    // as an empty object, its entries ignored unseen.
    let collection = if value.dyn_ref::<js_sys::Map>().is_some() {
        Some(
            "a Map (JSON has none: its entries would be lost; use an object made with Object.fromEntries)",
        )
    } else if value.dyn_ref::<js_sys::Set>().is_some() {
        Some("a Set (JSON has none: its entries would be lost; use an object)")
    } else {
        None
    };
    if let Some(kind) = collection {
        return Err(type_error(&format!(
            "{what} must be a plain object, got {kind}"
        )));
    }
    // JSON.stringify throws on a cycle, a BigInt, a getter that throws, or nesting deeper than
    // the JS stack: all of them are the caller's value, so all are a TypeError naming it. A value
    // far past the bounds stops it early (see `boundedStringify`), rather than after it has
    // written the whole text.
    let text = bounded_stringify(value, items).map_err(|e| {
        let mut reason = e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_else(|| describe(&e));
        if reason.starts_with("recursive use of an object") {
            // wasm-bindgen's words for a getter that called back into the object being called.
            reason = String::from("a getter called back into this object during the call");
        }
        type_error(&format!(
            "{what} cannot be read as JSON (a cycle, a BigInt, nesting too deep, or a getter that throws): {reason}"
        ))
    })?;
    if text.is_undefined() {
        return Err(type_error(&format!(
            "{what} has no JSON text (its toJSON gives undefined)"
        )));
    }
    let Some(text) = text.dyn_ref::<js_sys::JsString>() else {
        return Err(range_error(&format!(
            "{what} is more than {} characters or {} array elements and object members as JSON; the limit is {} and {}",
            items.max_chars(),
            2 * items.max(),
            items.max_chars(),
            items.max()
        )));
    };
    if text.length() > items.max_chars() {
        return Err(range_error(&format!(
            "{what} is {} characters as JSON; the limit is {}",
            text.length(),
            items.max_chars()
        )));
    }
    let text = utf8(text);
    let n = count_items(&text);
    if n > items.max() {
        return Err(range_error(&format!(
            "{what} holds about {n} array elements and object members; the limit is {}",
            items.max()
        )));
    }
    serde_json::from_str(&text).map_err(|e| {
        // serde_json ends its message with a position in the JSON text we made from the
        // caller's value ("at line 1 column 13"): meaningless to the caller, so left out.
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => &message[..i],
            None => &message,
        };
        // The text is `JSON.stringify`'s, whose only bad hex escapes are a lone surrogate's
        // (a JS string may hold one; UTF-8 cannot): serde_json's words for it name the escape.
        let message = if message.starts_with("unexpected end of hex escape")
            || message.starts_with("lone leading surrogate")
        {
            LONE_SURROGATE
        } else {
            message
        };
        // The embed module reads no live input (see lib.rs).
        let live_only = ["unknown variant `inject`", "unknown variant `advance`"];
        let hint = if !cfg!(feature = "live") && live_only.iter().any(|m| message.starts_with(m)) {
            " (a live run's input: the embed module has no live mode, the full module does)"
        } else {
            ""
        };
        type_error(&format!("{what} is malformed: {message}{hint}"))
    })
}

/// [`json`], with the fields the value cannot do without: Kafka's JSON form takes an absent
/// field at its default, so `{}` reads as an empty subscription or assignor input, which a
/// caller never means. Each of `required` must be the value's own property (a value with a
/// `toJSON` is left to it).
#[cfg(feature = "assign")]
pub(crate) fn json_requiring<T: serde::de::DeserializeOwned>(
    what: &str,
    value: &JsValue,
    items: Items,
    required: &[&str],
) -> Result<T, JsValue> {
    if value.is_object()
        && !value.is_function()
        && !js_sys::Array::is_array(value)
        && js_sys::Reflect::get(value, &"toJSON".into()).is_ok_and(|f| f.is_undefined())
    {
        for key in required {
            let own = js_sys::Reflect::get_own_property_descriptor(
                value.unchecked_ref::<js_sys::Object>(),
                &JsValue::from_str(key),
            );
            if own.is_ok_and(|d| d.is_undefined()) {
                return Err(type_error(&format!("{what}.{key} is missing")));
            }
        }
    }
    json(what, value, items)
}

/// A client-side assignor by its `partition.assignment.strategy` name.
#[cfg(feature = "assign")]
pub(crate) fn strategy(value: &JsValue) -> Result<group_coordinator::assignor::Strategy, JsValue> {
    let name = string("strategy", value)?;
    group_coordinator::assignor::Strategy::from_name(&name).ok_or_else(|| {
        range_error(&format!(
            "strategy must be range, roundrobin, sticky or cooperative-sticky, got {}",
            quote(&name)
        ))
    })
}
