//! The simulated world through the JS API: built-in scenarios, stepping, actions, refusals,
//! and the same trace hash as the native run (`crates/simulator/tests/golden/hashes.txt`).

use super::{js, rust};
use group_coordinator_wasm::{Simulation, scenario, scenarios};
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};

/// The native runs' trace hashes, written by the simulator's golden test.
const NATIVE_HASHES: &str = include_str!("../../../simulator/tests/golden/hashes.txt");

fn built_in(name: &str) -> Simulation {
    Simulation::new(scenario(name.into()).expect("built-in")).expect("valid")
}

pub fn every_built_in_scenario_hashes_as_natively() {
    let infos = rust(&scenarios().unwrap());
    let infos = infos.as_array().unwrap();
    assert_eq!(infos.len(), NATIVE_HASHES.lines().count());
    assert_eq!(infos[0]["name"], "normal-join");
    for line in NATIVE_HASHES.lines() {
        let (name, hash) = line.split_once(' ').unwrap();
        let mut sim = built_in(name);
        let duration = rust(&sim.scenario().unwrap())["durationMs"]
            .as_f64()
            .unwrap();
        assert_eq!(sim.run_until(duration.into(), None).unwrap(), duration);
        assert_eq!(
            sim.trace_hash(),
            hash,
            "{name}: the wasm run differs from the native one"
        );
        assert_eq!(
            rust(&sim.metrics().unwrap())["invariantViolations"],
            0,
            "{name}"
        );
    }
}

pub fn stepping_narrates_in_both_languages_and_the_views_follow() {
    let mut sim = built_in("leave-while-preparing-rebalance");
    let first = rust(&sim.step().unwrap());
    assert_eq!(first["index"], 0);
    assert!(!first["text"]["en"].as_str().unwrap().is_empty());
    assert!(!first["text"]["zh"].as_str().unwrap().is_empty());
    while sim.now() < 12_600.0 {
        let e = rust(&sim.step().unwrap());
        assert!(e["atMs"].as_f64().unwrap() <= sim.now());
    }
    let view = rust(&sim.snapshot().unwrap());
    assert_eq!(view["group"]["generationId"], 2);
    let names: Vec<&str> = view["group"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["clientId"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3);
    assert!(!names.contains(&"C"));
    let trace = rust(
        &sim.trace(Some((sim.trace_length() as f64 - 1.0).into()))
            .unwrap(),
    );
    assert_eq!(trace.as_array().unwrap().len(), 1);
}

/// The cheap path: `stepTime` takes the steps `step` takes, `entries` is `trace` without
/// the narration, and `narration(i)` is entry i's text.
pub fn step_time_entries_and_narration_match_step_and_trace() {
    let mut stepped = built_in("leave-while-completing-rebalance");
    let mut advanced = built_in("leave-while-completing-rebalance");
    for _ in 0..300 {
        let event = rust(&stepped.step().unwrap());
        assert_eq!(
            Some(event["atMs"].as_f64().unwrap()),
            advanced.step_time().unwrap()
        );
    }
    assert_eq!(advanced.trace_hash(), stepped.trace_hash());
    let narrated = rust(&stepped.trace(Some(5.0.into())).unwrap());
    let entries = rust(&advanced.entries(Some(5.0.into())).unwrap());
    let narrated = narrated.as_array().unwrap();
    assert!(narrated.len() > 250);
    assert_eq!(entries.as_array().unwrap().len(), narrated.len());
    for (entry, full) in entries.as_array().unwrap().iter().zip(narrated) {
        let mut without_text = full.clone();
        let text = without_text
            .as_object_mut()
            .unwrap()
            .remove("text")
            .unwrap();
        assert_eq!(entry, &without_text);
        let index = entry["index"].as_f64().unwrap();
        assert_eq!(rust(&advanced.narration(index.into()).unwrap()), text);
    }
    assert!(
        advanced
            .narration((advanced.trace_length() as f64).into())
            .unwrap()
            .is_null()
    );
    assert!(advanced.entries(Some((-1.0).into())).is_err());
    assert!(advanced.narration(0.5.into()).is_err());
}

pub fn actions_apply_and_bad_input_throws_changing_nothing() {
    let mut sim = built_in("leave-while-stable");
    sim.run_until(7_000.0.into(), None).unwrap();
    let before = sim.trace_length();
    let err = sim
        .apply(js(&json!({ "type": "crash", "consumer": "Z" })))
        .unwrap_err();
    assert!(err.dyn_ref::<js_sys::RangeError>().is_some());
    let err = sim.apply(js(&json!({ "type": "explode" }))).unwrap_err();
    assert!(err.dyn_ref::<js_sys::TypeError>().is_some());
    assert!(
        sim.run_until(10.0.into(), None).is_err(),
        "time only moves forward"
    );
    assert_eq!(sim.trace_length(), before);
    sim.apply(js(&json!({ "type": "crash", "consumer": "A" })))
        .unwrap();
    let actions = rust(&sim.actions().unwrap());
    assert_eq!(
        actions,
        json!([{ "atMs": 7000, "action": { "type": "crash", "consumer": "A" } }])
    );
    sim.run_until(60_000.0.into(), None).unwrap();
    let view = rust(&sim.snapshot().unwrap());
    let a = view["consumers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "A")
        .unwrap();
    assert_eq!(a["life"], "crashed");
}

pub fn bad_scenarios_throw_naming_the_field() {
    let mut s: Value = rust(&scenario("normal-join".into()).unwrap());
    s["consumer"] = json!({ "heartbeat.interval.ms": 60000 });
    let err = Simulation::new(js(&s)).unwrap_err();
    let message = err.dyn_ref::<js_sys::Error>().unwrap().message();
    assert!(String::from(message).contains("heartbeat.interval.ms"));
    s["consumer"] = json!({});
    s["colour"] = json!("red");
    let err = Simulation::new(js(&s)).unwrap_err();
    assert!(String::from(err.dyn_ref::<js_sys::Error>().unwrap().message()).contains("colour"));
    let err = scenario("no-such-scenario".into()).unwrap_err();
    assert!(err.dyn_ref::<js_sys::RangeError>().is_some());
    let err = scenario(JsValue::from(0)).unwrap_err();
    let message = String::from(err.dyn_ref::<js_sys::TypeError>().unwrap().message());
    assert_eq!(message, "name must be a string, got a number (0)");
}

/// The player through JS: steps forward one or many at a time, goes back and forks where a
/// straight run does (the same trace hash), and its frame agrees with its trace, in Node and in
/// the browser alike.
pub fn the_player_travels_in_time() {
    use group_coordinator_wasm::Player;
    let new = || Player::new(scenario("leave-while-stable".into()).unwrap(), None).unwrap();
    let mut p = new();
    for _ in 0..100 {
        assert_eq!(p.forward(None, None).unwrap(), 1);
    }
    assert_eq!(p.forward(Some(300.0.into()), None).unwrap(), 300);
    assert_eq!(p.cursor(), 400);
    let frame = rust(
        &p.frame(Some(js(&json!({ "steps": { "span": 5 } }))))
            .unwrap(),
    );
    let entries = rust(&p.entries(None).unwrap()).as_array().unwrap().len();
    assert_eq!(frame["traceLength"].as_u64().unwrap() as usize, entries);
    assert_eq!(frame["steps"]["rows"].as_array().unwrap().len(), 5);
    assert_eq!(p.seek(100.0.into()).unwrap(), 100);
    let frame = rust(&p.frame(None).unwrap());
    assert_eq!(
        (frame["cursor"].as_u64(), frame["knownSteps"].as_u64()),
        (Some(100), Some(400))
    );
    let mut straight = new();
    straight.seek(100.0.into()).unwrap();
    assert_eq!(p.trace_hash(), straight.trace_hash());
    // A fork at 100, then on to 300: the same as a run given that action from the start.
    let crash = js(&json!({ "type": "crash", "consumer": "B" }));
    p.act(crash).unwrap();
    p.seek(300.0.into()).unwrap();
    let mut forked = Player::new(
        scenario("leave-while-stable".into()).unwrap(),
        Some(js(
            &json!([{ "step": 100, "action": { "type": "crash", "consumer": "B" } }]),
        )),
    )
    .unwrap();
    forked.seek(300.0.into()).unwrap();
    assert_eq!(p.trace_hash(), forked.trace_hash());
    assert_ne!(p.trace_hash(), straight.trace_hash());
    assert!(p.seek((-1.0).into()).is_err());
    // Moments: each with its step, mark and label in both languages; "next moment" lands on
    // the first after the cursor, "previous" on the last before it.
    let mut m = new();
    let all = rust(&m.moments(JsValue::UNDEFINED).unwrap());
    assert_eq!(all, json!([]), "none before a step is taken");
    m.seek(200.0.into()).unwrap();
    let all = rust(&m.moments(JsValue::UNDEFINED).unwrap());
    let all = all.as_array().unwrap();
    assert!(all.len() > 3);
    let leave = all.iter().find(|x| x["mark"] == "leave").unwrap();
    assert!(
        leave["label"]["en"]
            .as_str()
            .unwrap()
            .contains("LeaveGroup")
    );
    assert!(leave["label"]["zh"].as_str().unwrap().contains("离开组"));
    let second = all[1]["step"].as_u64().unwrap() as f64;
    let later = rust(&m.moments(second.into()).unwrap());
    assert_eq!(later.as_array().unwrap()[..], all[1..], "from a step on");
    m.seek(0.0.into()).unwrap();
    assert_eq!(
        m.seek_moment(true.into()).unwrap(),
        all[0]["step"].as_u64().map(|s| s as usize)
    );
    assert_eq!(
        m.seek_moment(false.into()).unwrap(),
        None,
        "none before the first"
    );
    for bad in [json!(-1), json!("x"), json!(1.5)] {
        assert!(m.moments(js(&bad)).is_err(), "{bad}");
    }
    // Only a boolean says which way: the string "false" once moved forward. A refusal names
    // the parameter and leaves the run where it was.
    let at = m.cursor();
    for bad in [json!("false"), json!(0), json!(null), json!({})] {
        let e = m.seek_moment(js(&bad)).unwrap_err();
        assert!(e.dyn_ref::<js_sys::TypeError>().is_some(), "{bad}");
        let text = String::from(e.unchecked_ref::<js_sys::Error>().message());
        assert!(text.starts_with("forward must be a boolean"), "{text}");
    }
    let symbol = js_sys::Symbol::for_("s");
    assert!(m.seek_moment(symbol.into()).is_err());
    assert_eq!(m.cursor(), at);
}

/// A run that has recorded its budget stops playing, says why, and keeps what it recorded; a
/// budget past what a module can hold, or not a number, is refused.
pub fn a_full_record_stops_the_player() {
    use group_coordinator_wasm::Player;
    let mut p = Player::new(scenario("leave-while-stable".into()).unwrap(), None).unwrap();
    assert_eq!(rust(&p.play_stop().unwrap()), json!(null));
    // Past 50 steps, the next list to grow fills this budget.
    assert_eq!(p.forward(Some(50.0.into()), None).unwrap(), 50);
    let budget = p.recorded_bytes() + 1.0;
    p.set_record_budget(budget.into()).unwrap();
    let mut taken = 50;
    loop {
        let n = p.forward(Some(500.0.into()), Some(true.into())).unwrap();
        taken += n;
        if n < 500 {
            break;
        }
    }
    assert_eq!(rust(&p.play_stop().unwrap()), json!("recordFull"));
    assert!(p.recorded_bytes() >= budget);
    assert_eq!(p.cursor(), taken);
    assert!(taken > 50 && !p.finished(), "{taken}");
    assert_eq!(p.forward(None, None).unwrap(), 0, "not one step more");
    // What was recorded stays: back, then forward again to where it stopped.
    assert_eq!(p.seek(10.0.into()).unwrap(), 10);
    assert_eq!(rust(&p.play_stop().unwrap()), json!(null));
    assert_eq!(p.seek((taken as f64).into()).unwrap(), taken);
    assert_eq!(rust(&p.play_stop().unwrap()), json!("recordFull"));
    for bad in [
        json!(-1),
        json!(1.5),
        json!("1000"),
        json!(5_000_000_000u64),
    ] {
        assert!(p.set_record_budget(js(&bad)).is_err(), "{bad}");
    }
}

#[macro_export]
macro_rules! simulation_tests {
    () => {
        #[wasm_bindgen_test]
        fn player_record_full() {
            common::simulation::a_full_record_stops_the_player();
        }

        #[wasm_bindgen_test]
        fn player_travels_in_time() {
            common::simulation::the_player_travels_in_time();
        }

        #[wasm_bindgen_test]
        fn simulation_hashes_as_natively() {
            common::simulation::every_built_in_scenario_hashes_as_natively();
        }

        #[wasm_bindgen_test]
        fn simulation_steps_and_views() {
            common::simulation::stepping_narrates_in_both_languages_and_the_views_follow();
        }

        #[wasm_bindgen_test]
        fn simulation_step_time_entries_narration() {
            common::simulation::step_time_entries_and_narration_match_step_and_trace();
        }

        #[wasm_bindgen_test]
        fn simulation_actions_and_refusals() {
            common::simulation::actions_apply_and_bad_input_throws_changing_nothing();
        }

        #[wasm_bindgen_test]
        fn simulation_bad_scenarios() {
            common::simulation::bad_scenarios_throw_naming_the_field();
        }
    };
}
