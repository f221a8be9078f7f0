//! The TypeScript declarations of the coordinator's requests and responses, its groups' views,
//! its events and its group record, `src/types.generated.ts`, are generated from the Rust
//! types' JSON Schemas (schemars, which follows their serde attributes: names, tags, defaults,
//! skipped fields), so the package's declarations and what serde reads and writes cannot
//! disagree. This test fails when the committed file is not what the types give;
//! `UPDATE_TYPES=1` rewrites it (review the diff: it changes the package's API). A second test
//! checks what serde writes in the built-in scenarios against the same schemas. The
//! simulator's views (the frame, the trace, the step records, the world, the metrics, the
//! vocabulary), its inputs (a scenario, an action, a frame request) and the binding's own
//! shapes (`src/schema.rs`) are generated the same way; only the compact assignor inputs,
//! which serde does not read, are declared by hand in `src/types.rs`.
//!
//! Requests are read, so they are declared as serde reads them (a field with a default may be
//! left out); responses are written, so as serde writes them. Two keywords of our own in a
//! field's schema: `tsType` gives its TypeScript type (where the Rust type is wider than what
//! it holds), `tsRequired` declares it required although serde has a default for it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use group_coordinator::Event;
use group_simulator::frame::{FrameRequest, StepsRequest, TimelineRequest};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

#[path = "typescript/conforms.rs"]
mod conforms;
#[path = "typescript/declared.rs"]
mod declared;
#[path = "typescript/render.rs"]
mod render;

use conforms::conforms;
use declared::definitions;
use render::generate;

/// `serde_json::to_value` for any value, as a closure can take it.
mod erased {
    pub trait Json {
        fn json(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}

/// What serde writes in the built-in scenarios is what the declarations say: every trace entry,
/// coordinator event, request and response the traces carry, each group's view at every step,
/// every step record, the world, the metrics, a frame asking for everything, the vocabulary
/// and the scenarios' list, each checked against its schema (a field serde writes that is not declared, a missing required one, or a value of
/// another type fails).
#[test]
fn serde_writes_what_the_declarations_say() {
    use group_simulator::builtin::{SCENARIOS, scenario};
    use group_simulator::trace::TraceKind;
    let defs = definitions();
    let check = |name: &str, value: Value| {
        let schema = serde_json::json!({ "$ref": format!("#/$defs/{name}") });
        if let Err(e) = conforms(&defs, &schema, &value, &[]) {
            panic!("{name} {value}: {e}");
        }
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut check_counted = |name: &'static str, value: Value| {
        check(name, value);
        *counts.entry(name).or_default() += 1;
    };
    let json = |v: &dyn erased::Json| v.json();
    for (name, _) in SCENARIOS {
        let mut p = group_simulator::Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        while p.forward().unwrap() && p.simulation().now() < 60_000 {
            let sim = p.simulation();
            if let Some(group) = sim.snapshot().group {
                check_counted("GroupView", json(&group));
            }
            let group_id = &sim.scenario().group_id;
            if let Some(view) = sim.coordinator().describe_consumer_group(group_id) {
                check_counted("ConsumerGroupView", json(&view));
            }
        }
        for (i, e) in p.simulation().trace().iter().enumerate() {
            check_counted("TraceEntry", json(&e));
            if i < 200 {
                check_counted("TraceEvent", json(&e.narrated()));
            }
            match &e.kind {
                TraceKind::Coordinator { event } => {
                    let event = Event {
                        at_ms: e.at_ms,
                        group_id: "g".into(),
                        kind: event.clone(),
                    };
                    check_counted("CoordinatorEvent", json(&event));
                }
                TraceKind::RequestSent {
                    request: Some(r), ..
                } => check_counted("Request", json(&**r)),
                TraceKind::ResponseSent {
                    response: Some(r), ..
                } => check_counted("Response", json(&**r)),
                _ => {}
            }
        }
        for record in p.steps() {
            check_counted("StepRecord", json(record));
        }
        check_counted("WorldView", json(&p.simulation().snapshot()));
        check_counted("Metrics", json(&p.simulation().metrics()));
        // A frame asking for everything it can carry.
        let frame = p.frame(&FrameRequest {
            timeline: Some(TimelineRequest {
                window_ms: 3_600_000,
                resolution_ms: 0,
                selected: None,
                end_ms: None,
            }),
            assignments: Some(8),
            steps: Some(StepsRequest {
                from: None,
                span: 5,
                around: None,
            }),
            world: true,
            upcoming: Some(10),
            ..FrameRequest::default()
        });
        check_counted("Frame", json(&frame));
    }
    check(
        "Vocabulary",
        json(&group_simulator::vocabulary::vocabulary()),
    );
    for info in group_simulator::builtin::infos() {
        check("ScenarioInfo", json(&info));
    }
    // The assignors' result, and a subscription and an assignment as the codecs decode them.
    let input: group_coordinator::assignor::AssignmentInput = serde_json::from_value(
        serde_json::json!({ "topics": { "t": 3, "u": 1 }, "members": [
            { "memberId": "a", "topics": ["t", "u"] }, { "memberId": "b", "topics": ["t"] } ] }),
    )
    .unwrap();
    for strategy in ["range", "roundrobin", "sticky", "cooperative-sticky"] {
        let strategy = group_coordinator::assignor::Strategy::from_name(strategy).unwrap();
        let out = group_coordinator::assignor::assign(strategy, &input).unwrap();
        check("Assignment", json(&out));
    }
    check("AssignmentInput", json(&input));
    let subscription = group_coordinator::consumer_protocol::Subscription {
        topics: vec!["t".into()],
        user_data: Some(vec![1, 2].into()),
        ..Default::default()
    };
    check("Subscription", json(&subscription));
    check(
        "ConsumerAssignment",
        json(&group_coordinator::consumer_protocol::Assignment::default()),
    );
    // The sample is wide enough to mean something.
    for (what, least) in [
        ("GroupView", 100),
        ("ConsumerGroupView", 10),
        ("CoordinatorEvent", 100),
        ("Request", 100),
        ("Response", 100),
        ("TraceEntry", 1_000),
        ("TraceEvent", 1_000),
        ("StepRecord", 1_000),
        ("Frame", 10),
    ] {
        assert!(
            counts.get(what).copied().unwrap_or(0) >= least,
            "{what}: {counts:?}"
        );
    }
}

#[test]
fn the_committed_declarations_are_the_types() {
    let text = generate();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/types.generated.ts");
    if std::env::var_os("UPDATE_TYPES").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "src/types.generated.ts is not what the Rust types give; run UPDATE_TYPES=1 cargo test \
         -p group-coordinator-wasm --test typescript and review the diff"
    );
}
