//! Refusals that used to come late or not at all: a value far past the size bounds stopped
//! only after `JSON.stringify` had written all of it; a Map given as a config read as `{}`;
//! `{}` taken as an empty subscription or assignor input; topics bounded one by one but not in
//! all.

use super::js;
use group_coordinator_wasm::{
    Coordinator, assign, encode_assignment, encode_subscription, server_assign,
};
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};

fn message(e: &JsValue) -> String {
    String::from(e.unchecked_ref::<js_sys::Error>().message())
}

fn eval(body: &str) -> JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&JsValue::NULL)
        .expect("the value is made")
}

pub fn late_and_missing_refusals() {
    let is_type = |e: &JsValue| e.dyn_ref::<js_sys::TypeError>().is_some();
    let is_range = |e: &JsValue| e.dyn_ref::<js_sys::RangeError>().is_some();

    // Past the bounds: stopped while the text is written (the message says "more than", the
    // exact count being unknown), whether the size is in one string or behind a `toJSON`.
    let mut c = Coordinator::new(None).unwrap();
    for (what, value) in [
        (
            "one long string",
            "return { api: 'Heartbeat', groupId: 'x'.repeat(20 * 1024 * 1024) };",
        ),
        (
            "a toJSON rendering five million strings",
            "return { toJSON: () => new Array(5e6).fill('0123456789') };",
        ),
    ] {
        let e = c.handle(0.0.into(), eval(value)).unwrap_err();
        assert!(is_range(&e), "{what}");
        assert!(
            message(&e).starts_with("request is more than 10485760 characters or 200000"),
            "{what}: {}",
            message(&e)
        );
    }
    // Just past the bound, counted exactly: the strings and keys (10,485,759 characters) are
    // within it, the text with its quotes and braces (10,485,772) is not.
    let e = c
        .handle(
            0.0.into(),
            eval("return { api: 'Heartbeat', groupId: 'x'.repeat(10485740) };"),
        )
        .unwrap_err();
    assert_eq!(
        message(&e),
        "request is 10485772 characters as JSON; the limit is 10485760"
    );
    // A toJSON giving undefined renders no text at all.
    let e = c
        .handle(0.0.into(), eval("return { toJSON: () => undefined };"))
        .unwrap_err();
    assert!(
        is_type(&e) && message(&e).contains("no JSON text"),
        "{}",
        message(&e)
    );

    // A Map or a Set is not read as an empty object.
    for (value, kind) in [
        (
            "return new Map([['group.min.session.timeout.ms', 1]]);",
            "a Map",
        ),
        ("return new Set([1]);", "a Set"),
    ] {
        let e = Coordinator::new(Some(eval(value))).map(|_| ()).unwrap_err();
        assert!(is_type(&e), "{kind}");
        assert!(
            message(&e).starts_with(&format!("config must be a plain object, got {kind}")),
            "{}",
            message(&e)
        );
    }

    // `{}` is no subscription, assignment or assignor input; the field is named.
    let e = encode_subscription(js(&json!({}))).unwrap_err();
    assert_eq!(message(&e), "subscription.topics is missing");
    let e = encode_assignment(js(&json!({ "version": 1 }))).unwrap_err();
    assert_eq!(message(&e), "assignment.assignedPartitions is missing");
    let e = assign("range".into(), js(&json!({ "topics": {} }))).unwrap_err();
    assert!(is_type(&e) && message(&e) == "input.members is missing");
    let e = server_assign("uniform".into(), js(&json!({ "members": [] }))).unwrap_err();
    assert_eq!(message(&e), "input.topics is missing");
    // What is given is still read: an empty list is an empty subscription.
    assert!(encode_subscription(js(&json!({ "topics": [] }))).is_ok());
    assert!(assign("range".into(), js(&json!({ "topics": {}, "members": [] }))).is_ok());

    // Partitions bounded in all: 200 topics of a million each are refused at once (they ran a
    // minute, then trapped); a million in all is taken.
    let topics: serde_json::Map<String, serde_json::Value> = (0..200)
        .map(|k| (format!("t{k}"), json!(1_000_000)))
        .collect();
    let member = json!({ "memberId": "m", "subscribedTopics": ["t0"] });
    let e = server_assign(
        "uniform".into(),
        js(&json!({ "topics": topics, "members": [member] })),
    )
    .unwrap_err();
    assert!(is_range(&e), "{}", message(&e));
    assert!(
        message(&e).contains("200000000 partitions in all"),
        "{}",
        message(&e)
    );
    let update = json!({ "topics": (0..200)
        .map(|k| json!({ "name": format!("t{k}"), "partitions": 1_000_000 }))
        .collect::<Vec<_>>() });
    let e = c.update_metadata(0.0.into(), js(&update)).unwrap_err();
    assert!(
        message(&e).contains("200000000 partitions in all topics"),
        "{}",
        message(&e)
    );
    let one = json!({ "topics": [{ "name": "t", "partitions": 1_000_000 }] });
    c.update_metadata(0.0.into(), js(&one)).unwrap();
    let more = json!({ "topics": [{ "name": "u", "partitions": 1 }] });
    assert!(c.update_metadata(0.0.into(), js(&more)).is_err());
}
