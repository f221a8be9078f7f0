//! Typed arrays that lie about themselves, in every `Int32Array` parameter of `assignCompact`
//! (its only typed-array parameters): a `length` getter on the array, a subclass's getter, a
//! Proxy, an object that only inherits from `Int32Array.prototype`. The module once sized its
//! copy by the `length` property and copied the real elements past the buffer: later calls,
//! even on an unrelated `Coordinator`, trapped with "memory access out of bounds", and stale heap
//! bytes appeared in messages.

use super::Js;
use group_coordinator_wasm::assign_compact;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};

/// The fields that take an `Int32Array`.
const FIELDS: [&str; 4] = ["partitions", "subscriptions", "owned", "generations"];

/// Range on one topic of three partitions, members m and n (m claims t-2): m 0 and 1, n 2.
const EXPECTED: [i32; 8] = [2, 0, 0, 0, 1, 1, 0, 2];

/// The valid input, with `field` replaced by what `kind` makes of its value, and, with `slow`,
/// members whose array has a `toJSON` (which sends the whole input down the field-by-field
/// path, so both paths meet every kind).
fn input(field: &str, kind: &str, slow: bool) -> JsValue {
    let make = js_sys::Function::new_with_args(
        "field, kind, slow",
        r#"
        const input = {
          topics: ['t'],
          partitions: Int32Array.of(3),
          members: ['m', 'n'],
          subscriptions: Int32Array.of(1, 0, 1, 0),
          owned: Int32Array.of(1, 0, 2, 0),
          generations: Int32Array.of(-1, -1),
        };
        if (slow) input.members.toJSON = () => ['m', 'n'];
        const real = input[field];
        const lying = (array, get) => Object.defineProperty(array, 'length', { get });
        let reads = 0;
        switch (kind) {
          case 'as given':
            break;
          // The issue's reproducer: short first, long after.
          case 'length grows': {
            const copy = Int32Array.from(real);
            input[field] = lying(copy, () => (++reads <= 2 ? 1 : 4096));
            break;
          }
          case 'length huge':
            input[field] = lying(Int32Array.from(real), () => 1e9);
            break;
          case 'length short':
            input[field] = lying(Int32Array.from(real), () => 0);
            break;
          case 'subclass': {
            class Lying extends Int32Array {
              get length() {
                return 4096;
              }
            }
            input[field] = Lying.from(real);
            break;
          }
          // A long array of stale-looking bytes ("AAAA") that says it holds one.
          case 'long, says one': {
            const long = new Int32Array(4096).fill(0x41414141);
            input[field] = lying(long, () => (++reads <= 2 ? 1 : 4096));
            break;
          }
          case 'proxy':
            input[field] = new Proxy(Int32Array.from(real), {
              get: (t, k) => (k === 'length' ? 4096 : Reflect.get(t, k)),
            });
            break;
          case 'inherits':
            input[field] = lying(Object.create(Int32Array.prototype), () => real.length);
            break;
          default:
            throw new Error('no such kind: ' + kind);
        }
        return input;
        "#,
    );
    make.call3(
        &JsValue::NULL,
        &field.into(),
        &kind.into(),
        &JsValue::from_bool(slow),
    )
    .expect("the input is made")
}

fn message(e: &JsValue) -> String {
    String::from(e.unchecked_ref::<js_sys::Error>().message())
}

/// Every lie, in every field, on both paths: the real elements are read, or the value is
/// refused by name; the module's memory stays whole (the valid input then gives the same
/// assignment, and a coordinator runs the seed's join).
pub fn lying_typed_arrays() {
    let valid = |slow| {
        assign_compact("range".into(), input("partitions", "as given", slow))
            .expect("the valid input is assigned")
            .to_vec()
    };
    for slow in [false, true] {
        assert_eq!(valid(slow), EXPECTED, "slow: {slow}");
        for field in FIELDS {
            for kind in ["length grows", "length huge", "length short", "subclass"] {
                // The array's own elements, whatever its property says.
                let out = assign_compact("range".into(), input(field, kind, slow));
                let out = out.unwrap_or_else(|e| panic!("{field}, {kind}: {}", message(&e)));
                assert_eq!(out.to_vec(), EXPECTED, "{field}, {kind}, slow: {slow}");
            }
            // 4,096 elements read as 4,096: refused by the model for what they are.
            let e = assign_compact("range".into(), input(field, "long, says one", slow))
                .expect_err("4,096 entries do not fit");
            assert!(e.dyn_ref::<js_sys::RangeError>().is_some(), "{field}");
            let text = message(&e);
            // Nothing read from outside the array: a count or index quoted is the array's own.
            for n in text
                .split(|c: char| !c.is_ascii_digit())
                .filter(|n| n.len() > 4)
            {
                assert!(
                    ["4096", "1094795585"].contains(&n),
                    "{field}: {text} quotes {n}"
                );
            }
            for kind in ["proxy", "inherits"] {
                let e = assign_compact("range".into(), input(field, kind, slow))
                    .expect_err("not an Int32Array");
                assert!(
                    e.dyn_ref::<js_sys::TypeError>().is_some(),
                    "{field}, {kind}"
                );
                assert!(
                    message(&e).starts_with(&format!("input.{field} is not an Int32Array itself")),
                    "{field}, {kind}: {}",
                    message(&e)
                );
            }
            assert_eq!(valid(slow), EXPECTED, "after {field}, slow: {slow}");
        }
    }
    // The rest of the module too: a coordinator, made after all of it, forms a group of three
    // (its own assertions: parked joins, the delay, generation 1, Stable).
    let ids = Js::new(json!({})).stable(3);
    assert_eq!(ids.len(), 3);
}
