//! The hand-written TypeScript declarations (`src/types.rs`) against the shapes serde writes:
//! every field of every trace entry, step record, world view, frame and metrics that the
//! built-in scenarios produce must be declared under its name (a renamed or
//! added field fails here, not in a user's editor). Native only: it reads the declarations as
//! text and the values through serde_json. The coordinator's messages, views and events are
//! generated instead (`tests/typescript.rs`).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use group_simulator::builtin::{SCENARIOS, scenario};
use group_simulator::frame::{FrameRequest, StepsRequest, TimelineRequest};
use group_simulator::{Player, Simulation};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const TYPES: &str = include_str!("../src/types.rs");

/// The text of `export (type|interface) <name>` up to the next export.
fn declaration(name: &str) -> &'static str {
    let start = [
        format!("export type {name} ="),
        format!("export interface {name} "),
    ]
    .iter()
    .find_map(|p| TYPES.find(p.as_str()))
    .unwrap_or_else(|| panic!("no declaration of {name}"));
    let rest = &TYPES[start + 1..];
    let end = rest
        .find("\nexport ")
        .map_or(TYPES.len(), |i| start + 1 + i);
    &TYPES[start..end]
}

/// Field names declared at the top level of braces in `text` (`name:` or `name?:`), with
/// comments removed.
fn fields(text: &str) -> BTreeSet<String> {
    let mut clean = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        clean.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    clean.push_str(rest);
    let mut out = BTreeSet::new();
    let bytes = clean.as_bytes();
    for (i, _) in clean.match_indices(':') {
        let mut j = i;
        if j > 0 && bytes[j - 1] == b'?' {
            j -= 1;
        }
        let start = clean[..j]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |k| k + 1);
        let word = &clean[start..j];
        if !word.is_empty() && word.chars().next().unwrap().is_ascii_lowercase() {
            out.insert(word.to_string());
        }
    }
    out
}

/// Per `type` tag of a union declaration: the fields its member declares.
fn union(name: &str) -> BTreeMap<String, BTreeSet<String>> {
    let text = declaration(name);
    let mut out = BTreeMap::new();
    for part in text.split("\n  | ") {
        let mut tags = Vec::new();
        let mut rest = part;
        // `{ type: "A" | "B"; ...}` declares both tags with the same fields.
        if let Some(i) = rest.find("type: ") {
            rest = &rest[i + 6..];
            let end = rest.find([';', '}']).unwrap_or(rest.len());
            for t in rest[..end].split('|') {
                let t = t.trim().trim_matches('"');
                if !t.is_empty() {
                    tags.push(t.to_string());
                }
            }
        }
        let declared = fields(part);
        for t in tags {
            out.insert(t, declared.clone());
        }
    }
    out
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

fn assert_declared(what: &str, have: &BTreeSet<String>, declared: &BTreeSet<String>) {
    let missing: Vec<_> = have.difference(declared).collect();
    assert!(
        missing.is_empty(),
        "{what}: serde writes {missing:?}, which the TypeScript declaration does not name (declared: {declared:?})"
    );
}

#[test]
fn the_typescript_declarations_name_every_field_serde_writes() {
    let entries = union("TraceEntry");
    let mut seen = BTreeSet::new();
    for (name, _) in SCENARIOS {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        while p.forward().unwrap() && p.simulation().now() < 60_000 {}
        for e in p.simulation().trace().iter() {
            let v = serde_json::to_value(e).unwrap();
            let tag = v["type"].as_str().unwrap().to_string();
            let declared = entries
                .get(&tag)
                .unwrap_or_else(|| panic!("trace entry type {tag:?} is not declared"));
            let mut have = keys(&v);
            have.retain(|k| !["type", "index", "atMs"].contains(&k.as_str()));
            assert_declared(&format!("trace entry {tag}"), &have, declared);
            seen.insert(tag);
        }
        for record in p.steps() {
            let v = serde_json::to_value(record).unwrap();
            assert_declared("StepRecord", &keys(&v), &fields(declaration("StepRecord")));
        }
        let world = serde_json::to_value(p.simulation().snapshot()).unwrap();
        assert_declared(
            "WorldView",
            &keys(&world),
            &fields(declaration("WorldView")),
        );
        for c in world["consumers"].as_array().unwrap() {
            assert_declared(
                "ConsumerView",
                &keys(c),
                &fields(declaration("ConsumerView")),
            );
        }
        frame_declared(&p);
        let metrics = serde_json::to_value(p.simulation().metrics()).unwrap();
        assert_declared("Metrics", &keys(&metrics), &fields(declaration("Metrics")));
    }
    // The sample is wide enough to mean something.
    for kind in [
        "requestSent",
        "responseDelivered",
        "assigned",
        "coordinator",
        "assignorQuirk",
    ] {
        assert!(
            seen.contains(kind),
            "no {kind} in the built-in scenarios' traces: {seen:?}"
        );
    }
    // And a plain simulation writes the same shapes (one entry suffices: they share the types).
    let mut sim = Simulation::new(scenario("normal-join").unwrap()).unwrap();
    sim.run_until(1_000);
    assert!(sim.trace().len() > 5);
}

/// A frame asking for everything: each part's fields are declared.
fn frame_declared(p: &Player) {
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
    let v = serde_json::to_value(&frame).unwrap();
    assert_declared("Frame", &keys(&v), &fields(declaration("Frame")));
    assert_declared(
        "FrameNarration",
        &keys(&v["narration"]),
        &fields(declaration("FrameNarration")),
    );
    let timeline = &v["timeline"];
    assert_declared(
        "TimelineWindow",
        &keys(timeline),
        &fields(declaration("TimelineWindow")),
    );
    for bar in timeline["bars"].as_array().unwrap() {
        assert_declared(
            "TimelineBar",
            &keys(bar),
            &fields(declaration("TimelineBar")),
        );
    }
    let marks = union("TimelineMark");
    let common = fields(declaration("TimelineMark").split(") & (").next().unwrap());
    for mark in timeline["marks"].as_array().unwrap() {
        let tag = mark["type"].as_str().unwrap();
        let mut declared = marks
            .get(tag)
            .unwrap_or_else(|| panic!("timeline mark {tag:?} is not declared"))
            .clone();
        declared.extend(common.iter().cloned());
        let mut have = keys(mark);
        have.remove("type");
        assert_declared(&format!("timeline mark {tag}"), &have, &declared);
    }
    if !v["group"].is_null() {
        assert_declared(
            "FrameGroup",
            &keys(&v["group"]),
            &fields(declaration("FrameGroup")),
        );
    }
    for c in v["consumers"].as_array().unwrap() {
        assert_declared("ConsumerRow", &keys(c), &fields(declaration("ConsumerRow")));
    }
    assert_declared(
        "MetricsSummary",
        &keys(&v["metrics"]),
        &fields(declaration("MetricsSummary")),
    );
    for u in v["upcoming"].as_array().unwrap() {
        assert_declared("Upcoming", &keys(u), &fields(declaration("Upcoming")));
    }
    let table = &v["assignments"];
    assert_declared(
        "AssignmentTable",
        &keys(table),
        &fields(declaration("AssignmentTable")),
    );
    for row in table["rows"].as_array().unwrap() {
        assert_declared(
            "AssignmentRow",
            &keys(row),
            &fields(declaration("AssignmentRow")),
        );
        for cell in row["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !c.is_null())
        {
            assert_declared(
                "assignment cell",
                &keys(cell),
                &fields(declaration("AssignmentRow")),
            );
        }
    }
    assert_declared(
        "StepWindow",
        &keys(&v["steps"]),
        &fields(declaration("StepWindow")),
    );
    for row in v["steps"]["rows"].as_array().unwrap() {
        assert_declared("StepRow", &keys(row), &fields(declaration("StepRow")));
        let actor = row["actor"]["type"].as_str().unwrap();
        assert!(
            declaration("StepActor").contains(&format!("\"{actor}\"")),
            "step actor {actor:?} is not declared"
        );
    }
}
