//! `assignCompact`: the client-side assignors in the compact form (`group_coordinator::assignor::
//! assign_compact`): names once, integer arrays for the rest, an `Int32Array` back. For large
//! groups, where the JSON form's one object per member and one string per subscribed topic
//! cost more than the assignment itself.

use crate::args::{self, range_error, type_error};
use group_coordinator::assignor::{self, CompactInput, MAX_MEMBERS};
use wasm_bindgen::prelude::*;

/// The fields `assignCompact`'s input may have.
const FIELDS: [&str; 7] = [
    "topics",
    "partitions",
    "members",
    "instanceIds",
    "subscriptions",
    "owned",
    "generations",
];

/// Longest integer array taken (a subscription per member and topic at the largest sizes the
/// model assigns, or every claim).
const MAX_INTS: u32 = 24_000_000;
/// Most topics in the table.
const MAX_TOPICS: u32 = 100_000;

/// What every call needs from JavaScript, made once: the field names as JavaScript strings.
/// Made anew on each call they (with the text encoder, [`args::utf8`]) were a third of a small
/// call's 15 µs.
struct Host {
    fields: [JsValue; 7],
    to_json: JsValue,
}

thread_local! {
    static HOST: Host = Host {
        fields: FIELDS.map(JsValue::from_str),
        to_json: JsValue::from_str("toJSON"),
    };
}

// One crossing for a well-formed input: the fields read, checked for their types and the names
// turned into JSON text on the JavaScript side, where each of these steps is one engine
// operation. Done from Rust, each is a call across the boundary: with seven fields, their keys
// compared one by one, typed-array checks and lengths, about sixty calls, most of a small
// call's time. Anything it does not expect (an unknown key, a getter that throws, a field of
// another type, too many names) is `undefined`, and the Rust path below reads the input field
// by field and names what is wrong.
#[wasm_bindgen(inline_js = r#"
// The keys of FIELDS (compact.rs): a key it does not list takes the field-by-field path.
const FIELDS = new Set(['topics', 'partitions', 'members', 'instanceIds', 'subscriptions', 'owned', 'generations']);
const NONE = new Int32Array(0);
const ints = (v) => (v instanceof Int32Array ? v : v == null ? NONE : undefined);
const names = (v, max) => Array.isArray(v) && v.length <= max && v.toJSON === undefined;
export function compactFields(input, maxTopics, maxMembers) {
  try {
    for (const key of Object.keys(input)) if (!FIELDS.has(key)) return undefined;
    const { topics, partitions, members, instanceIds, subscriptions, owned, generations } = input;
    if (!names(topics, maxTopics) || !names(members, maxMembers)) return undefined;
    if (instanceIds != null && !names(instanceIds, maxMembers)) return undefined;
    const ids = instanceIds == null ? '' : JSON.stringify(instanceIds);
    const out = [JSON.stringify(topics) + JSON.stringify(members) + ids, ints(partitions), ints(subscriptions), ints(owned), ints(generations)];
    return out.includes(undefined) || partitions == null || subscriptions == null ? undefined : out;
  } catch {
    return undefined;
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = compactFields)]
    fn compact_fields(input: &JsValue, max_topics: u32, max_members: u32) -> JsValue;
}

/// The input read in one crossing ([`compact_fields`]), when it is well-formed; `None` when
/// the field-by-field path must read it (it names what is wrong).
fn fast(input: &JsValue) -> Result<Option<CompactInput>, JsValue> {
    let read = compact_fields(input, MAX_TOPICS, MAX_MEMBERS as u32);
    let Some(read) = read.dyn_ref::<js_sys::Array>() else {
        return Ok(None);
    };
    // The arrays' texts one after the other (topics, members, instance ids), encoded in one call.
    let Ok(text) = read.get(0).dyn_into::<js_sys::JsString>() else {
        return Ok(None);
    };
    let text = args::utf8(&text);
    let Some((topics, rest)) = string_array_prefix(&text, false) else {
        return Ok(None);
    };
    let Some((members, rest)) = string_array_prefix(rest, false) else {
        return Ok(None);
    };
    // Instance ids (strings and nulls) when given: the rest of the text.
    let instance_ids = match rest {
        "" => None,
        _ => match string_array_prefix(rest, true) {
            Some((ids, "")) => Some(ids),
            _ => return Ok(None),
        },
    };
    // Names hold no nulls (read without them).
    let (Some(topics), Some(members)) = (
        topics.into_iter().collect::<Option<Vec<_>>>(),
        members.into_iter().collect::<Option<Vec<_>>>(),
    ) else {
        return Ok(None);
    };
    let typed = |k: u32, name: &str| int32s(name, &read.get(k));
    Ok(Some(CompactInput {
        partitions: typed(1, "partitions")?,
        subscriptions: typed(2, "subscriptions")?,
        owned: typed(3, "owned")?,
        generations: typed(4, "generations")?,
        topics,
        members,
        instance_ids,
    }))
}

/// `input[name]`, `name` one of [`FIELDS`].
fn field(input: &JsValue, name: &str) -> Result<JsValue, JsValue> {
    debug_assert!(FIELDS.contains(&name));
    let k = FIELDS.iter().position(|f| *f == name).unwrap_or_default();
    HOST.with(|host| js_sys::Reflect::get(input, &host.fields[k]))
        .map_err(|_| type_error(&format!("input.{name} cannot be read (its getter throws)")))
}

/// A length within `max`, or a RangeError naming the field.
fn at_most(name: &str, length: u32, max: u32) -> Result<(), JsValue> {
    if length > max {
        return Err(range_error(&format!(
            "input.{name} has {length} entries; the limit is {max}"
        )));
    }
    Ok(())
}

/// Element `i` of `input.{name}`; a getter that throws (a Proxy) is a TypeError naming it.
fn element(name: &str, array: &js_sys::Array, i: u32) -> Result<JsValue, JsValue> {
    js_sys::Reflect::get_u32(array, i).map_err(|_| {
        type_error(&format!(
            "input.{name}[{i}] cannot be read (its getter throws)"
        ))
    })
}

/// An array of strings and nulls, at most `max` long.
fn strings(name: &str, value: &JsValue, max: u32) -> Result<Vec<Option<String>>, JsValue> {
    let array: &js_sys::Array = value.dyn_ref().ok_or_else(|| {
        type_error(&format!(
            "input.{name} must be an array of strings, got {}",
            args::describe(value)
        ))
    })?;
    at_most(name, array.length(), max)?;
    let mut out = Vec::with_capacity(array.length() as usize);
    for i in 0..array.length() {
        let v = element(name, array, i)?;
        match v.as_string() {
            // A replacement character may stand for a lone surrogate the crossing replaced.
            Some(s)
                if s.contains('\u{FFFD}')
                    && !v.unchecked_ref::<js_sys::JsString>().is_valid_utf16() =>
            {
                return Err(type_error(&format!(
                    "input.{name}[{i}]: {}",
                    args::LONE_SURROGATE
                )));
            }
            Some(s) => out.push(Some(s)),
            None if v.is_null() => out.push(None),
            None => {
                return Err(type_error(&format!(
                    "input.{name}[{i}] must be a string, got {}",
                    args::describe(&v)
                )));
            }
        }
    }
    Ok(out)
}

/// The array's strings in one crossing, when every element is a string: the array as JSON
/// text, encoded as UTF-8 by the host and read here. Reading 10,000 member ids one by one costs
/// more than assigning their partitions. `None`: take the element-by-element path, which names
/// what is wrong.
///
/// `JSON.stringify` renders what a `toJSON` method returns: an array with one (its own or
/// inherited) takes the element path, so that the elements themselves are read. An element
/// with one (a `Date`, say) is taken as the string it renders to.
fn all_strings(array: &js_sys::Array) -> Option<Vec<String>> {
    let text = HOST.with(|host| {
        let to_json = js_sys::Reflect::get(array, &host.to_json).ok()?;
        if !to_json.is_undefined() {
            return None;
        }
        js_sys::JSON::stringify(array).ok()
    })?;
    // JSON text is well-formed UTF-16 (a lone surrogate is written as an escape), so nothing is
    // replaced in encoding it.
    let text = args::utf8(&text);
    string_array(&text).filter(|all| all.len() == array.length() as usize)
}

/// The strings of `JSON.stringify`'s text of an array (no whitespace), or `None` when an
/// element is not a string. A string without escapes is copied as it stands; one with escapes
/// is read by serde_json (a lone surrogate's escape, which Rust strings cannot hold, is `None`).
/// serde's visitor per element cost as much as the member ids' copying itself.
fn string_array(text: &str) -> Option<Vec<String>> {
    let (all, rest) = string_array_prefix(text, false)?;
    // Without nulls allowed every element is `Some`: collected in place.
    rest.is_empty()
        .then(|| all.into_iter().collect::<Option<_>>())?
}

/// The array at the start of `text` as [`string_array`] reads it, `null` elements included
/// when `nulls` (`None`), and the text after the array.
fn string_array_prefix(text: &str, nulls: bool) -> Option<(Vec<Option<String>>, &str)> {
    let inner = text.strip_prefix('[')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    if bytes.first() == Some(&b']') {
        return Some((out, &inner[1..]));
    }
    loop {
        // One element; `end` is its last byte.
        let end = match bytes.get(at)? {
            b'"' => {
                // The closing quote: the first one not escaped.
                let start = at + 1;
                let mut end = start;
                let mut escaped = false;
                loop {
                    match bytes.get(end)? {
                        b'"' => break,
                        b'\\' => {
                            escaped = true;
                            end += 2;
                        }
                        _ => end += 1,
                    }
                }
                out.push(Some(if escaped {
                    serde_json::from_str(inner.get(at..=end)?).ok()?
                } else {
                    String::from(&inner[start..end])
                }));
                end
            }
            b'n' if nulls && bytes[at..].starts_with(b"null") => {
                out.push(None);
                at + 3
            }
            _ => return None,
        };
        // A comma, then another element; or the end.
        match bytes.get(end + 1)? {
            b',' => at = end + 2,
            b']' => return Some((out, &inner[end + 2..])),
            _ => return None,
        }
    }
}

/// An array of strings, at most `max` long.
fn names(name: &str, value: &JsValue, max: u32) -> Result<Vec<String>, JsValue> {
    if let Some(array) = value.dyn_ref::<js_sys::Array>()
        && array.length() <= max
        && let Some(all) = all_strings(array)
    {
        return Ok(all);
    }
    strings(name, value, max)?
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or_else(|| type_error(&format!("input.{name}[{i}] must be a string, got null")))
        })
        .collect()
}

// An `Int32Array`'s length and values, read from the array's internal slots through the
// intrinsic `%TypedArray%.prototype` getters and `set`, taken when the module loads. The
// `length` property itself is the caller's to fake (a getter on the array, a subclass, a Proxy
// whose prototype is `Int32Array.prototype`), and js-sys's `to_vec` sized its copy by it, then
// copied the real elements into a view of the whole memory: a faked length wrote past the
// buffer. Here the copy goes into a view exactly as long as the buffer, so a source of any
// other length is refused by `set` itself, and neither function throws: a JavaScript exception
// crossing Rust frames would leave them half-done.
#[wasm_bindgen(inline_js = r#"
const TypedArrayPrototype = Reflect.getPrototypeOf(Int32Array.prototype);
const getter = (key) => Reflect.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const lengthOf = getter('length');
const kindOf = getter(Symbol.toStringTag);
const copy = TypedArrayPrototype.set;
const apply = Reflect.apply;
const int32Kind = (v) => apply(kindOf, v, []) === 'Int32Array';
export function int32Length(v) {
  try {
    return int32Kind(v) ? apply(lengthOf, v, []) : -1;
  } catch {
    return -1;
  }
}
export function int32Copy(v, into) {
  try {
    if (!int32Kind(v) || apply(lengthOf, v, []) !== apply(lengthOf, into, [])) return false;
    apply(copy, into, [v]);
    return true;
  } catch {
    return false;
  }
}
"#)]
extern "C" {
    /// The length of a genuine `Int32Array` (a subclass's instance too), from its internal
    /// slot; -1 for anything else, a Proxy of one included.
    #[wasm_bindgen(js_name = int32Length)]
    fn int32_length(v: &JsValue) -> f64;
    /// Copies a genuine `Int32Array` of `into`'s length into it; `false`, copying nothing,
    /// when it is not one or its length differs.
    #[wasm_bindgen(js_name = int32Copy)]
    fn int32_copy(v: &JsValue, into: &mut [i32]) -> bool;
}

/// An `Int32Array`'s values, at most [`MAX_INTS`] of them (both paths). Its length is read once,
/// from the array itself, never from its `length` property (see [`int32_length`]).
fn int32s(name: &str, typed: &JsValue) -> Result<Vec<i32>, JsValue> {
    let length = int32_length(typed);
    if length < 0.0 {
        return Err(type_error(&format!(
            "input.{name} is not an Int32Array itself (a Proxy of one, or an object that only \
             inherits from Int32Array.prototype); pass the typed array"
        )));
    }
    if length > f64::from(MAX_INTS) {
        return Err(range_error(&format!(
            "input.{name} has {length} entries; the limit is {MAX_INTS}"
        )));
    }
    // Zeroed: `int32_copy` writes into a `&mut [i32]`, which must be initialised memory.
    let mut out = vec![0; length as usize];
    if !int32_copy(typed, &mut out) {
        // Not reachable from a caller: nothing of theirs runs between the two reads.
        return Err(type_error(&format!(
            "input.{name} changed length while it was read"
        )));
    }
    Ok(out)
}

/// An `Int32Array`, or an array of whole numbers in its range; absent: empty.
fn ints(name: &str, value: &JsValue) -> Result<Vec<i32>, JsValue> {
    if args::is_absent(value) {
        return Ok(Vec::new());
    }
    // A genuine one (of any realm), or what claims to be one and is named as not.
    if int32_length(value) >= 0.0 || value.dyn_ref::<js_sys::Int32Array>().is_some() {
        return int32s(name, value);
    }
    let array: &js_sys::Array = value.dyn_ref().ok_or_else(|| {
        type_error(&format!(
            "input.{name} must be an Int32Array or an array of integers, got {}",
            args::describe(value)
        ))
    })?;
    at_most(name, array.length(), MAX_INTS)?;
    (0..array.length())
        .map(|i| {
            let v = element(name, array, i)?;
            args::whole(
                &format!("input.{name}[{i}]"),
                &v,
                f64::from(i32::MIN),
                f64::from(i32::MAX),
            )
            .map(|n| n as i32)
        })
        .collect()
}

/// Runs one of Kafka's client-side assignors ("range", "roundrobin", "sticky",
/// "cooperative-sticky") on the compact form of an input (`CompactAssignmentInput`: names once,
/// integer arrays for the rest), for large groups. The result: per member, how many
/// partitions, then (topic index, partition) pairs, by topic name then partition; the same
/// assignment `assign` gives. With its integer fields as `Int32Array`s the input crosses in one
/// call; plain arrays of numbers are read element by element.
#[wasm_bindgen(js_name = assignCompact)]
pub fn assign_compact(
    #[wasm_bindgen(
        unchecked_param_type = "\"range\" | \"roundrobin\" | \"sticky\" | \"cooperative-sticky\""
    )]
    strategy: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactAssignmentInput")] input: JsValue,
) -> Result<js_sys::Int32Array, JsValue> {
    let strategy = args::strategy(&strategy)?;
    let c = self::input(&input)?;
    let out = assignor::assign_compact_owned(strategy, c).map_err(|e| range_error(&e.0))?;
    Ok(js_sys::Int32Array::from(out.as_slice()))
}

/// A compact input (`assignCompact`'s and `serverAssignCompact`'s): in one crossing when it is
/// well-formed, else field by field, naming what is wrong.
pub(crate) fn input(input: &JsValue) -> Result<CompactInput, JsValue> {
    if !input.is_object() || input.is_function() || input.is_array() {
        return Err(type_error(&format!(
            "input must be an object, got {}",
            args::describe(input)
        )));
    }
    match fast(input)? {
        Some(c) => Ok(c),
        None => read(input),
    }
}

/// The input read field by field, each checked and named in what it throws.
fn read(input: &JsValue) -> Result<CompactInput, JsValue> {
    let keys = js_sys::Object::keys(input.unchecked_ref::<js_sys::Object>());
    for key in keys.iter() {
        // Compared as JavaScript strings: reading each key into Rust cost more.
        if !HOST.with(|host| host.fields.contains(&key)) {
            let key = key.as_string().unwrap_or_default();
            return Err(type_error(&format!(
                "input has an unknown field {} (expected {})",
                args::quote(&key),
                FIELDS.join(", ")
            )));
        }
    }
    let topics = names("topics", &field(input, "topics")?, MAX_TOPICS)?;
    let members = names("members", &field(input, "members")?, MAX_MEMBERS as u32)?;
    let instance_ids = field(input, "instanceIds")?;
    let instance_ids = if args::is_absent(&instance_ids) {
        None
    } else {
        Some(strings("instanceIds", &instance_ids, MAX_MEMBERS as u32)?)
    };
    Ok(CompactInput {
        partitions: ints("partitions", &field(input, "partitions")?)?,
        subscriptions: ints("subscriptions", &field(input, "subscriptions")?)?,
        owned: ints("owned", &field(input, "owned")?)?,
        generations: ints("generations", &field(input, "generations")?)?,
        topics,
        members,
        instance_ids,
    })
}

#[cfg(test)]
mod tests {
    use super::{string_array, string_array_prefix};

    #[test]
    fn reads_what_json_gives_for_an_array_of_strings() {
        // Pieces that need escapes (quotes, backslashes, control characters), non-ASCII text
        // and empty strings, in random arrays (serde_json writes them as JSON.stringify does:
        // no whitespace, non-ASCII as it stands).
        let pieces = [
            "m", "\"", "\\", "\n", "\u{1}", "é", "成员", "🦀", "", ",", "]", "\\\"",
        ];
        let mut seed = 11u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n
        };
        for _ in 0..2_000 {
            let array: Vec<String> = (0..next(6))
                .map(|_| (0..next(4)).map(|_| pieces[next(pieces.len())]).collect())
                .collect();
            let text = serde_json::to_string(&array).unwrap();
            assert_eq!(string_array(&text), Some(array.clone()), "{text}");
            // Two arrays' texts one after the other (the topics', then the members'): the
            // first read up to its own end, whatever its strings hold, the rest left as it is.
            let other: Vec<String> = (0..next(3))
                .map(|_| pieces[next(pieces.len())].into())
                .collect();
            let both = text.clone() + &serde_json::to_string(&other).unwrap();
            let (first, rest) = string_array_prefix(&both, false).unwrap();
            let first: Vec<String> = first.into_iter().map(Option::unwrap).collect();
            assert_eq!(first, array, "{both}");
            assert_eq!(string_array(rest), Some(other.clone()), "{both}");
        }
    }

    #[test]
    fn refuses_anything_but_strings() {
        for text in [
            "",
            "[",
            "]",
            "[1]",
            "[\"a\",1]",
            "[null]",
            "[\"a\",]",
            "[,\"a\"]",
            "[\"a\"\"b\"]",
            "[\"a\",,\"b\"]",
            "[\"a\"",
            "[\"a]",
            "{\"a\":1}",
            "[\"\\ud800\"]",
            "[[\"a\"]]",
        ] {
            assert_eq!(string_array(text), None, "{text}");
        }
        assert_eq!(string_array("[]"), Some(Vec::new()));
        // Text after the array is the caller's: a whole array is only the array.
        assert_eq!(string_array("[][]"), None);
        assert_eq!(string_array("[\"a\"]x"), None);
        assert_eq!(
            string_array_prefix("[\"a\"][]", false),
            Some((vec![Some(String::from("a"))], "[]"))
        );
        assert_eq!(string_array_prefix("[\"a\",][]", false), None);
        // Nulls where they are allowed (instance ids), and only whole.
        assert_eq!(string_array_prefix("[null]", false), None);
        assert_eq!(
            string_array_prefix("[null,\"i\",null]", true),
            Some((vec![None, Some(String::from("i")), None], ""))
        );
        for text in [
            "[nul]",
            "[nulll]",
            "[null",
            "[\"a\"null]",
            "[null,]",
            "[,null]",
            "[nullx]",
        ] {
            assert_eq!(string_array_prefix(text, true), None, "{text}");
        }
    }
}
