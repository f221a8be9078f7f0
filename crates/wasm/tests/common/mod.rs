//! The seed's four cases (a LeaveGroup in every state), driven through the JS API: requests
//! are JS objects parsed from JSON text, responses and views are read back as JSON.
#![allow(dead_code)]

pub mod consumer_group;
pub mod refusals;
pub mod simulation;
pub mod typed_arrays;

use group_coordinator_wasm::Coordinator;
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};

pub struct Js {
    pub c: Coordinator,
    correlation: i64,
}

pub fn js(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).expect("valid JSON")
}

pub fn rust(value: &JsValue) -> Value {
    let text = js_sys::JSON::stringify(value)
        .expect("serialisable")
        .as_string()
        .unwrap();
    serde_json::from_str(&text).expect("JSON")
}

impl Js {
    pub fn new(config: Value) -> Js {
        Js {
            c: Coordinator::new(Some(js(&config))).expect("valid config"),
            correlation: 0,
        }
    }

    pub fn send(&mut self, now: f64, mut request: Value) -> Vec<Value> {
        self.correlation += 1;
        request["correlationId"] = json!(self.correlation);
        let out = self
            .c
            .handle(now.into(), js(&request))
            .expect("request accepted");
        rust(&out).as_array().unwrap().clone()
    }

    pub fn advance(&mut self, now: f64) -> Vec<Value> {
        rust(&self.c.advance(now.into()).unwrap())
            .as_array()
            .unwrap()
            .clone()
    }

    pub fn view(&self) -> Value {
        rust(&self.c.describe("g".into()).unwrap())
    }

    pub fn join(&mut self, now: f64, member_id: &str) -> Vec<Value> {
        self.send(
            now,
            json!({ "api": "JoinGroup", "apiVersion": 3, "groupId": "g", "clientId": "consumer",
                    "sessionTimeoutMs": 10000, "rebalanceTimeoutMs": 60000, "memberId": member_id,
                    "protocolType": "consumer", "protocols": [{ "name": "range", "metadata": "" }] }),
        )
    }

    pub fn sync(
        &mut self,
        now: f64,
        member_id: &str,
        generation: i64,
        assignments: Value,
    ) -> Vec<Value> {
        self.send(
            now,
            json!({ "api": "SyncGroup", "apiVersion": 5, "groupId": "g", "generationId": generation,
                    "memberId": member_id, "assignments": assignments }),
        )
    }

    pub fn leave(&mut self, now: f64, member_id: &str) -> Vec<Value> {
        self.send(
            now,
            json!({ "api": "LeaveGroup", "apiVersion": 3, "groupId": "g",
                    "members": [{ "memberId": member_id }] }),
        )
    }

    pub fn heartbeat(&mut self, now: f64, member_id: &str, generation: i64) -> i64 {
        let out = self.send(
            now,
            json!({ "api": "Heartbeat", "apiVersion": 4, "groupId": "g",
                    "generationId": generation, "memberId": member_id }),
        );
        out[0]["errorCode"].as_i64().unwrap()
    }

    /// `n` dynamic members (v3) form generation 1 (CompletingRebalance); returns their ids,
    /// leader first.
    pub fn form(&mut self, n: usize) -> Vec<String> {
        for _ in 0..n {
            assert!(
                self.join(0.0, "").is_empty(),
                "parked during the initial delay"
            );
        }
        let mut out = self.advance(3000.0);
        if n > 1 {
            assert!(out.is_empty(), "a late joiner extends the delay");
            out = self.advance(6000.0);
        }
        assert_eq!(out.len(), n);
        let leader = out[0]["leader"].as_str().unwrap().to_string();
        let mut ids: Vec<String> = out
            .iter()
            .map(|r| r["memberId"].as_str().unwrap().to_string())
            .collect();
        ids.sort_by_key(|id| *id != leader);
        assert_eq!(self.view()["state"], "CompletingRebalance");
        ids
    }

    /// `form(n)`, then everyone syncs: Stable at generation 1.
    pub fn stable(&mut self, n: usize) -> Vec<String> {
        let ids = self.form(n);
        let assignments: Vec<Value> = ids
            .iter()
            .map(|id| json!({ "memberId": id, "assignment": "AAE=" }))
            .collect();
        self.sync(6000.0, &ids[0], 1, json!(assignments));
        for id in &ids[1..] {
            self.sync(6000.0, id, 1, json!([]));
        }
        assert_eq!(self.view()["state"], "Stable");
        ids
    }
}

/// Seed case 1: a member leaving while PreparingRebalance lets the delayed join complete.
pub fn leave_while_preparing_rebalance_completes_the_join() {
    let mut g = Js::new(json!({}));
    let ids = g.stable(2);
    let (a, b) = (&ids[0], &ids[1]);
    assert!(g.join(7000.0, "").is_empty(), "a new member C parks");
    assert_eq!(g.view()["state"], "PreparingRebalance");
    assert!(g.join(7100.0, a).is_empty(), "A rejoins and parks");
    // B has not rejoined: the join waits for it (or for the rebalance timeout) ...
    assert_eq!(g.view()["state"], "PreparingRebalance");
    let out = g.leave(7200.0, b);
    // ... and B leaving is what completes it: A and C get generation 2 at once.
    let joins: Vec<&Value> = out.iter().filter(|r| r["api"] == "JoinGroup").collect();
    assert_eq!(joins.len(), 2);
    assert!(
        joins
            .iter()
            .all(|r| r["errorCode"] == 0 && r["generationId"] == 2)
    );
    let leave = out.iter().find(|r| r["api"] == "LeaveGroup").unwrap();
    assert_eq!(leave["members"][0]["errorCode"], 0);
    let v = g.view();
    assert_eq!(v["state"], "CompletingRebalance");
    assert_eq!(v["generationId"], 2);
    assert_eq!(v["leaderId"], json!(a));
    assert_eq!(v["members"].as_array().unwrap().len(), 2);
}

/// Seed case 2: leaving while CompletingRebalance answers the waiting SyncGroups with
/// REBALANCE_IN_PROGRESS and starts a new rebalance.
pub fn leave_while_completing_rebalance_restarts_the_rebalance() {
    let mut g = Js::new(json!({}));
    let ids = g.form(3);
    let b_sync = g.sync(6000.0, &ids[1], 1, json!([]));
    assert!(b_sync.is_empty(), "B's SyncGroup waits for the leader");
    let out = g.leave(6100.0, &ids[2]);
    let sync = out
        .iter()
        .find(|r| r["api"] == "SyncGroup")
        .expect("B answered");
    assert_eq!(sync["errorCode"], 27, "REBALANCE_IN_PROGRESS");
    assert_eq!(sync["assignment"], "");
    let v = g.view();
    assert_eq!(v["state"], "PreparingRebalance");
    assert_eq!(v["generationId"], 1);
    assert_eq!(v["members"].as_array().unwrap().len(), 2);
    // The leader's late SyncGroup is refused too.
    assert_eq!(g.sync(6200.0, &ids[0], 1, json!([]))[0]["errorCode"], 27);
}

/// Seed case 3: leaving while Stable starts a new rebalance.
pub fn leave_while_stable_starts_a_rebalance() {
    let mut g = Js::new(json!({}));
    let ids = g.stable(2);
    g.leave(7000.0, &ids[1]);
    assert_eq!(g.view()["state"], "PreparingRebalance");
    assert_eq!(
        g.heartbeat(7100.0, &ids[0], 1),
        27,
        "A learns of the rebalance"
    );
    let out = g.join(7200.0, &ids[0]);
    assert_eq!(out[0]["generationId"], 2);
    assert_eq!(g.view()["state"], "CompletingRebalance");
}

/// Seed case 4: the last member leaving makes the group Empty with generation + 1.
pub fn last_member_leaving_empties_the_group() {
    let mut g = Js::new(json!({}));
    let ids = g.stable(1);
    g.leave(7000.0, &ids[0]);
    let v = g.view();
    assert_eq!(v["state"], "Empty");
    assert_eq!(v["generationId"], 2);
    assert_eq!(v["members"].as_array().unwrap().len(), 0);
}

/// Misuse throws a JS error naming the problem and changes nothing.
pub fn misuse_throws_and_changes_nothing() {
    let mut g = Js::new(json!({}));
    g.stable(1);
    let before = g.view();
    let err =
        g.c.handle(
            7000.0.into(),
            js(&json!({ "api": "JoinGroup", "apiVersion": 3, "groupID": "g" })),
        )
        .unwrap_err();
    let err: &js_sys::TypeError = err.dyn_ref().expect("TypeError");
    let message = String::from(err.message());
    assert!(message.contains("groupID"), "{message}");
    let err =
        g.c.handle(
            7000.0.into(),
            js(&json!({ "api": "JoinGroup", "apiVersion": 12, "groupId": "g" })),
        )
        .unwrap_err();
    assert!(err.dyn_ref::<js_sys::RangeError>().is_some());
    assert!(String::from(err.unchecked_ref::<js_sys::Error>().message()).contains("version 12"));
    assert!(
        g.c.advance(10.0.into())
            .unwrap_err()
            .dyn_ref::<js_sys::RangeError>()
            .is_some()
    );
    assert!(g.c.advance(f64::NAN.into()).is_err());
    assert_eq!(g.view(), before);
    let err = Coordinator::new(Some(js(&json!({ "session.timeout.ms": 10 })))).unwrap_err();
    assert!(
        String::from(err.unchecked_ref::<js_sys::Error>().message()).contains("session.timeout.ms")
    );
    assert!(Coordinator::new(Some(js(&json!({ "group.max.size": 0 })))).is_err());
}

/// `Coordinator.withSeed`: seed 0 is `new`'s stream; another seed gives other member ids (as
/// `group-broker --seed` does, so that a live trace replays with its ids); a seed that is not a
/// whole number is refused by name.
pub fn seeded_member_ids() {
    let first_id = |c: &mut Coordinator| {
        let join = json!({"api": "JoinGroup", "apiVersion": 9, "correlationId": 1,
            "clientId": "c", "groupId": "g", "sessionTimeoutMs": 45000,
            "rebalanceTimeoutMs": 300000, "memberId": "", "protocolType": "consumer",
            "protocols": [{"name": "range", "metadata": ""}]});
        let out = rust(&c.handle(0.0.into(), js(&join)).unwrap());
        out[0]["memberId"].as_str().unwrap().to_owned()
    };
    let zero = first_id(&mut Coordinator::with_seed(0.0.into(), None).unwrap());
    assert_eq!(zero, first_id(&mut Coordinator::new(None).unwrap()));
    let seven = first_id(&mut Coordinator::with_seed(7.0.into(), Some(js(&json!({})))).unwrap());
    assert_ne!(zero, seven);
    let e = Coordinator::with_seed(JsValue::from("7"), None).unwrap_err();
    assert!(e.dyn_ref::<js_sys::TypeError>().is_some());
    let e = Coordinator::with_seed((-1.0).into(), None).unwrap_err();
    let message = String::from(e.unchecked_ref::<js_sys::Error>().message());
    assert!(
        message.starts_with("seed must be a whole number"),
        "{message}"
    );
}

/// The hash of the run that follows `web/test/fixtures/broker-trace.jsonl` to its end, the same
/// natively (`crates/simulator/tests/live.rs`) and in wasm: a live run is as deterministic as a
/// simulated one.
pub const LIVE_FIXTURE_HASH: &str = include_str!("../../../simulator/tests/live-fixture.hash");

/// `Player.live()` follows a group-broker trace: every answer checked, the same run as natively;
/// a line it cannot use is named in the status, not thrown; a simulated run does not follow.
pub fn live_follow() {
    use group_coordinator_wasm::Player;
    let text = include_str!("../../../../web/test/fixtures/broker-trace.jsonl");
    let mut player = Player::live();
    // In two batches, split inside the run: the follower keeps its place between calls.
    let (head, tail) = text.split_at(text.find("\"SyncGroup\"").unwrap());
    let (head, tail) = head
        .rsplit_once('\n')
        .map_or((head, String::new()), |(h, rest)| {
            (h, format!("{rest}{tail}"))
        });
    rust(&player.follow(JsValue::from(head)).unwrap());
    let status = rust(&player.follow(JsValue::from(tail.as_str())).unwrap());
    assert_eq!(status["kind"], "following", "{status}");
    assert_eq!(status["checked"], text.matches("\"response\":").count());
    assert_eq!(player.trace_hash(), LIVE_FIXTURE_HASH.trim());
    let scenario = rust(&player.scenario().unwrap());
    assert_eq!(scenario["live"], true);
    assert_eq!(scenario["groupId"], "orders-app");
    let status = rust(&player.follow(JsValue::from("{\"at\":1}")).unwrap());
    assert_eq!(status["kind"], "refused", "{status}");
    let e = player.follow(JsValue::from(7)).unwrap_err();
    assert!(e.dyn_ref::<js_sys::TypeError>().is_some());
    let scenario = group_coordinator_wasm::scenario(JsValue::from("leave-while-stable")).unwrap();
    let mut simulated = Player::new(scenario, None).unwrap();
    let e = simulated.follow(JsValue::from("")).unwrap_err();
    let message = String::from(e.dyn_ref::<js_sys::Error>().expect("an Error").message());
    assert!(message.contains("does not follow a broker"), "{message}");
}

/// Wrong-typed arguments, in every kind of position, throw a TypeError naming the parameter
/// (never a trap) and leave the object answering as before (the browser and Node alike; the
/// vitest fuzz test covers every export from JavaScript).
pub fn wrong_types_throw_naming_the_parameter() {
    use group_coordinator_wasm::{assign, decode_assignment, error_name, scenario};
    let message = |e: JsValue| {
        let e: &js_sys::Error = e.dyn_ref().expect("an Error");
        let kind = if e.dyn_ref::<js_sys::TypeError>().is_some() {
            "TypeError"
        } else if e.dyn_ref::<js_sys::RangeError>().is_some() {
            "RangeError"
        } else {
            "Error"
        };
        format!("{kind}: {}", String::from(e.message()))
    };
    let mut g = Js::new(json!({}));
    let ids = g.stable(2);
    let before = g.view();
    let symbol = JsValue::from(js_sys::Symbol::for_("s"));
    assert_eq!(
        message(g.c.describe(JsValue::from(0)).unwrap_err()),
        "TypeError: groupId must be a string, got a number (0)"
    );
    assert_eq!(
        message(g.c.unload(JsValue::from(-1)).unwrap_err()),
        "TypeError: groupId must be a string, got a number (-1)"
    );
    assert_eq!(
        message(g.c.advance(symbol.clone()).unwrap_err()),
        "TypeError: nowMs must be a number, got a symbol"
    );
    assert_eq!(
        message(
            g.c.handle(JsValue::from("7000"), js(&json!({})))
                .unwrap_err()
        ),
        "TypeError: nowMs must be a number, got a string (\"7000\")"
    );
    assert_eq!(
        message(g.c.handle(7000.0.into(), JsValue::NULL).unwrap_err()),
        "TypeError: request must be an object, got null"
    );
    assert_eq!(
        message(g.c.fail_next_persist(JsValue::from(1.5)).unwrap_err()),
        "RangeError: errorCode must be a whole number in -32768..=32767, got 1.5"
    );
    assert_eq!(
        message(scenario(JsValue::from(js_sys::Object::new())).unwrap_err()),
        "TypeError: name must be a string, got an object"
    );
    assert_eq!(
        message(assign(JsValue::from(-1), js(&json!({}))).unwrap_err()),
        "TypeError: strategy must be a string, got a number (-1)"
    );
    assert_eq!(
        message(decode_assignment(JsValue::NULL).unwrap_err()),
        "TypeError: base64 must be a base64 string, got null"
    );
    assert!(error_name(JsValue::UNDEFINED).is_err());
    assert_eq!(g.view(), before);
    // Still answering: both members heartbeat in generation 1.
    for id in &ids {
        assert_eq!(g.heartbeat(7000.0, id, 1), 0);
    }
}

/// The same inputs give the same events and ids, bit for bit.
pub fn deterministic_trace() -> String {
    let mut g = Js::new(json!({ "group.initial.rebalance.delay.ms": 100 }));
    g.stable(3);
    rust(&g.c.events().unwrap()).to_string()
}

/// Names in any script and with JSON escapes cross both ways unchanged, in the JSON form and the
/// compact form: the module reads JSON text and arrays of names as UTF-8 from the host's
/// `TextEncoder`, not through wasm-bindgen's own string crossing.
pub fn names_in_any_script() {
    use group_coordinator_wasm::{assign, assign_compact};
    for id in ["é-1", "成员-2", "🦀-3", "a\"b\\c\n", "z", ""] {
        let input = json!({ "topics": { "t成": 3 }, "members": [
            { "memberId": id, "topics": ["t成"] }, { "memberId": "y", "topics": ["t成"] } ] });
        // Range goes by member id, in byte order: the first takes two partitions.
        let id_first = id.as_bytes() < b"y".as_slice();
        let (first, second) = if id_first { (id, "y") } else { ("y", id) };
        let mut expected = serde_json::Map::new();
        expected.insert(
            first.into(),
            json!([{ "topic": "t成", "partitions": [0, 1] }]),
        );
        expected.insert(
            second.into(),
            json!([{ "topic": "t成", "partitions": [2] }]),
        );
        let out = rust(&assign("range".into(), js(&input)).unwrap());
        assert_eq!(out, Value::Object(expected), "{id:?}");
        // Plain arrays (read field by field) and typed ones (the names read in one crossing,
        // as one text with the instance ids).
        let plain = js(
            &json!({ "topics": ["t成"], "partitions": [3], "members": [id, "y"],
            "instanceIds": [null, null], "subscriptions": [1, 0, 1, 0] }),
        );
        let typed =
            js(&json!({ "topics": ["t成"], "members": [id, "y"], "instanceIds": [null, null] }));
        let set = |k: &str, v: &[i32]| {
            js_sys::Reflect::set(&typed, &k.into(), &js_sys::Int32Array::from(v)).unwrap()
        };
        set("partitions", &[3]);
        set("subscriptions", &[1, 0, 1, 0]);
        let (two, one) = ([2, 0, 0, 0, 1], [1, 0, 2]);
        let expected: Vec<i32> = if id_first {
            two.iter().chain(&one).copied().collect()
        } else {
            one.iter().chain(&two).copied().collect()
        };
        for input in [plain, typed.clone()] {
            let out = assign_compact("range".into(), input).unwrap().to_vec();
            assert_eq!(out, expected, "{id:?}");
        }
        // An instance id in any script: static members go first, by instance id.
        js_sys::Reflect::set(&typed, &"instanceIds".into(), &js(&json!([null, id]))).unwrap();
        let out = assign_compact("range".into(), typed).unwrap().to_vec();
        assert_eq!(out, [1, 0, 2, 2, 0, 0, 0, 1], "{id:?} as y's instance id");
    }
    // A JS string may hold a lone surrogate, which no Rust string can: refused, saying so.
    for escape in ["\\ud800", "\\udc00", "\\ud800\\u0041"] {
        let input = js_sys::JSON::parse(&format!(
            r#"{{"topics": {{"t": 1}}, "members": [{{"memberId": "x{escape}", "topics": ["t"]}}]}}"#
        ))
        .unwrap();
        let err = assign("range".into(), input).unwrap_err();
        let message = String::from(err.unchecked_ref::<js_sys::Error>().message());
        assert!(
            message.contains("lone UTF-16 surrogate"),
            "{escape}: {message}"
        );
        // The compact form too, naming where: not a name changed to U+FFFD unseen.
        for (field, names) in [
            ("topics", format!(r#"["t{escape}"]"#)),
            ("members", format!(r#"["a", "x{escape}"]"#)),
            ("instanceIds", format!(r#"[null, "i{escape}"]"#)),
        ] {
            let input = js_sys::JSON::parse(r#"{"topics": ["t"], "members": ["a", "b"]}"#).unwrap();
            let names = js_sys::JSON::parse(&names).unwrap();
            js_sys::Reflect::set(&input, &field.into(), &names).unwrap();
            let set = |k: &str, v: &[i32]| {
                js_sys::Reflect::set(&input, &k.into(), &js_sys::Int32Array::from(v)).unwrap()
            };
            set("partitions", &[1]);
            set("subscriptions", &[1, 0, 1, 0]);
            let err = assign_compact("range".into(), input).unwrap_err();
            assert!(
                err.dyn_ref::<js_sys::TypeError>().is_some(),
                "{field} {escape}"
            );
            let message = String::from(err.unchecked_ref::<js_sys::Error>().message());
            let index = if field == "topics" { 0 } else { 1 };
            assert!(
                message.starts_with(&format!("input.{field}[{index}]: "))
                    && message.contains("lone UTF-16 surrogate"),
                "{field} {escape}: {message}"
            );
        }
    }
}

/// `assignCompact` gives `assign`'s assignment from the compact form (typed arrays or plain
/// arrays), and refuses a malformed input by name, as a TypeError or a RangeError.
pub fn compact_assignors() {
    use group_coordinator_wasm::assign;
    let input = json!({ "topics": { "topic1": 3, "topic2": 2 }, "members": [
        { "memberId": "consumer1", "topics": ["topic1"], "ownedPartitions": [{ "topic": "topic1", "partitions": [2] }], "generationId": 1 },
        { "memberId": "consumer2", "topics": ["topic1", "topic2"] },
        { "memberId": "consumer3", "topics": ["topic1"], "groupInstanceId": "i3" } ] });
    // Topic 0 is topic2, topic 1 is topic1: indices are the caller's, not name order. Typed
    // arrays throughout are read in one crossing; a plain array anywhere, field by field: both
    // give the same assignment (consumer3, static, comes first in range's order).
    let compact = |subscriptions: JsValue, generations: JsValue| {
        let o = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&o, &k.into(), v).unwrap();
        set("topics", &js(&json!(["topic2", "topic1"])));
        set("partitions", &js_sys::Int32Array::from(&[2, 3][..]).into());
        set(
            "members",
            &js(&json!(["consumer1", "consumer2", "consumer3"])),
        );
        set("instanceIds", &js(&json!([null, null, "i3"])));
        set("subscriptions", &subscriptions);
        set(
            "owned",
            &js_sys::Int32Array::from(&[1, 1, 2, 0, 0][..]).into(),
        );
        set("generations", &generations);
        JsValue::from(o)
    };
    let typed: JsValue = js_sys::Int32Array::from(&[1, 1, 2, 0, 1, 1, 1][..]).into();
    let plain = js(&json!([1, 1, 2, 0, 1, 1, 1]));
    let generations: JsValue = js_sys::Int32Array::from(&[1, -1, -1][..]).into();
    let plain_generations = js(&json!([1, -1, -1]));
    for strategy in ["range", "roundrobin", "sticky", "cooperative-sticky"] {
        let expected = rust(&assign(strategy.into(), js(&input)).unwrap());
        for (subscriptions, generations) in [
            (&typed, &generations),
            (&plain, &generations),
            (&typed, &plain_generations),
        ] {
            let input = compact(subscriptions.clone(), generations.clone());
            let out = group_coordinator_wasm::assign_compact(strategy.into(), input)
                .unwrap()
                .to_vec();
            // Back to the JSON form's shape.
            let names = ["topic2", "topic1"];
            let mut at = 0;
            let mut got = serde_json::Map::new();
            for m in ["consumer1", "consumer2", "consumer3"] {
                let n = out[at] as usize;
                let mut by_topic: std::collections::BTreeMap<&str, Vec<i32>> = Default::default();
                for k in 0..n {
                    by_topic
                        .entry(names[out[at + 1 + 2 * k] as usize])
                        .or_default()
                        .push(out[at + 2 + 2 * k]);
                }
                at += 1 + 2 * n;
                let list: Vec<Value> = by_topic
                    .into_iter()
                    .map(|(t, ps)| json!({ "topic": t, "partitions": ps }))
                    .collect();
                got.insert(m.into(), Value::Array(list));
            }
            assert_eq!(at, out.len());
            assert_eq!(Value::Object(got), expected, "{strategy}");
        }
    }
    let err = |v: JsValue| group_coordinator_wasm::assign_compact("range".into(), v).unwrap_err();
    let is_type = |e: &JsValue| e.dyn_ref::<js_sys::TypeError>().is_some();
    let message = |e: JsValue| String::from(e.unchecked_ref::<js_sys::Error>().message());
    let is_range = |e: &JsValue| e.dyn_ref::<js_sys::RangeError>().is_some();
    assert!(is_type(&err(JsValue::from(3))));
    let e = err(js(
        &json!({ "topics": [], "members": [], "subscriptions": [], "extra": 1 }),
    ));
    assert!(is_type(&e) && message(e).contains("unknown field \"extra\""));
    let e = err(js(
        &json!({ "topics": ["t"], "partitions": [1], "members": [7], "subscriptions": [] }),
    ));
    assert!(is_type(&e) && message(e).contains("input.members[0] must be a string"));
    let e = err(js(
        &json!({ "topics": ["t"], "partitions": [1], "members": ["a"], "subscriptions": [3, 0] }),
    ));
    assert!(is_range(&e) && message(e).contains("past the array's end"));
    let e = err(js(
        &json!({ "topics": ["t"], "partitions": [1.5], "members": ["a"], "subscriptions": [1, 0] }),
    ));
    assert!(is_range(&e) || is_type(&e), "a fraction is refused");
    // Another kind of typed array is named as such.
    let input = js(&json!({ "topics": ["t"], "members": ["a"], "subscriptions": [1, 0] }));
    let floats = js_sys::Float64Array::from(&[2.0][..]);
    js_sys::Reflect::set(&input, &"partitions".into(), &floats).unwrap();
    let e = err(input);
    assert!(
        is_type(&e) && message(e.clone()).ends_with("got a Float64Array"),
        "{}",
        message(e)
    );
    // Member ids are read in one crossing (as JSON text) when all are strings: any string,
    // NULs and all, arrives whole; a null is refused by its index.
    for members in [
        json!(["a\u{0}b", "c"]),
        json!(["", "c"]),
        json!(["a", "c\u{0}"]),
        json!(["a\"\\\n", "b\u{1}"]),
    ] {
        let out = group_coordinator_wasm::assign_compact(
            "range".into(),
            js(
                &json!({ "topics": ["t"], "partitions": [2], "members": members.clone(),
                "subscriptions": [1, 0, 1, 0] }),
            ),
        )
        .unwrap()
        .to_vec();
        assert_eq!(out, [1, 0, 0, 1, 0, 1], "{members}");
    }
    let e = err(js(
        &json!({ "topics": ["t"], "partitions": [1], "members": ["a", null], "subscriptions": [] }),
    ));
    assert!(is_type(&e) && message(e).contains("input.members[1] must be a string, got null"));
    // An array whose `toJSON` renders something else is read element by element: "a" (the
    // second) comes first by id and takes partition 0.
    let members = js(&json!(["b", "a"]));
    let to_json = js_sys::Function::new_no_args("return ['x', 'y'];");
    js_sys::Reflect::set(&members, &"toJSON".into(), &to_json).unwrap();
    let input = js(&json!({ "topics": ["t"], "partitions": [2], "subscriptions": [1, 0, 1, 0] }));
    js_sys::Reflect::set(&input, &"members".into(), &members).unwrap();
    let out = group_coordinator_wasm::assign_compact("range".into(), input).unwrap();
    assert_eq!(out.to_vec(), [1, 0, 1, 1, 0, 0]);
}

/// `assign` and the codecs through the JS API.
pub fn assignors_and_codecs() {
    use group_coordinator_wasm::{
        assign, decode_assignment, decode_subscription, encode_assignment, encode_subscription,
    };
    let input = json!({ "topics": { "topic1": 3, "topic2": 2 }, "members": [
        { "memberId": "consumer1", "topics": ["topic1"] },
        { "memberId": "consumer2", "topics": ["topic1", "topic2"] },
        { "memberId": "consumer3", "topics": ["topic1"] } ] });
    let out = rust(&assign("range".into(), js(&input)).unwrap());
    assert_eq!(
        out["consumer2"],
        json!([{ "topic": "topic1", "partitions": [1] }, { "topic": "topic2", "partitions": [0, 1] }])
    );
    let out = rust(&assign("sticky".into(), js(&input)).unwrap());
    assert_eq!(
        out["consumer1"],
        json!([{ "topic": "topic1", "partitions": [0, 2] }])
    );
    let err = assign("fastest".into(), js(&input)).unwrap_err();
    assert!(err.dyn_ref::<js_sys::RangeError>().is_some());
    assert!(
        assign(
            "range".into(),
            js(&json!({ "topics": {}, "members": [{ "memberID": "x" }] }))
        )
        .is_err()
    );
    let sub = json!({ "version": 0, "topics": ["a", "b"], "userData": "AQI=" });
    let bytes = encode_subscription(js(&sub)).unwrap();
    // The bytes Kafka writes for this subscription (and kafka-python too).
    assert_eq!(
        group_coordinator::protocol::base64_decode(&bytes).unwrap(),
        [0, 0, 0, 0, 0, 2, 0, 1, b'a', 0, 1, b'b', 0, 0, 0, 2, 1, 2]
    );
    let back = rust(&decode_subscription(bytes.as_str().into()).unwrap());
    assert_eq!(back["topics"], json!(["a", "b"]));
    assert_eq!(back["userData"], "AQI=");
    let asg = json!({ "version": 1, "assignedPartitions": [{ "topic": "t", "partitions": [1] }], "userData": null });
    let back = rust(&decode_assignment(encode_assignment(js(&asg)).unwrap().into()).unwrap());
    assert_eq!(back, asg);
    assert!(
        decode_subscription("AAA".into())
            .unwrap_err()
            .dyn_ref::<js_sys::RangeError>()
            .is_some()
    );
    assert!(
        decode_subscription("!!".into())
            .unwrap_err()
            .dyn_ref::<js_sys::TypeError>()
            .is_some()
    );
}

/// The test list, once: `node.rs` and `browser.rs` are separate test binaries only because
/// wasm-bindgen-test configures where a whole binary runs.
#[macro_export]
macro_rules! js_api_tests {
    () => {
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
        fn wrong_types_throw_naming_the_parameter() {
            common::wrong_types_throw_naming_the_parameter();
        }

        #[wasm_bindgen_test]
        fn live_follow() {
            common::live_follow();
        }

        #[wasm_bindgen_test]
        fn seeded_member_ids() {
            common::seeded_member_ids();
        }

        #[wasm_bindgen_test]
        fn same_inputs_same_trace() {
            let first = common::deterministic_trace();
            // Equal and not trivially so: three members joined, a generation began, Stable.
            assert_eq!(
                first.matches("\"type\":\"MemberAdded\"").count(),
                3,
                "{first}"
            );
            assert!(first.contains("\"type\":\"GenerationBumped\""), "{first}");
            assert_eq!(first, common::deterministic_trace());
        }

        #[wasm_bindgen_test]
        fn assignors_and_codecs_through_js() {
            common::assignors_and_codecs();
        }

        #[wasm_bindgen_test]
        fn compact_assignors_through_js() {
            common::compact_assignors();
        }

        #[wasm_bindgen_test]
        fn late_and_missing_refusals() {
            common::refusals::late_and_missing_refusals();
        }

        #[wasm_bindgen_test]
        fn compact_typed_arrays_that_lie() {
            common::typed_arrays::lying_typed_arrays();
        }

        #[wasm_bindgen_test]
        fn names_in_any_script_through_js() {
            common::names_in_any_script();
        }

        #[wasm_bindgen_test]
        fn kip848_leave_while_others_revoke() {
            common::consumer_group::leave_while_others_revoke();
        }

        #[wasm_bindgen_test]
        fn kip848_leave_while_stable() {
            common::consumer_group::leave_while_stable();
        }

        #[wasm_bindgen_test]
        fn kip848_last_member_leaves() {
            common::consumer_group::last_member_leaves();
        }

        #[wasm_bindgen_test]
        fn kip848_classic_requests_meet_a_consumer_group() {
            common::consumer_group::classic_requests_meet_a_consumer_group();
        }

        #[wasm_bindgen_test]
        fn kip848_group_configs_through_handle() {
            common::consumer_group::group_configs_through_handle();
        }
    };
}
