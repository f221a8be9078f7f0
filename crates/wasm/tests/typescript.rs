//! The TypeScript declarations of the coordinator's requests and responses, its groups' views,
//! its events and its group record, `src/types.generated.ts`, are generated from the Rust
//! types' JSON Schemas (schemars, which follows their serde attributes: names, tags, defaults,
//! skipped fields), so the package's declarations and what serde reads and writes cannot
//! disagree. This test fails when the
//! committed file is not what the types give; `UPDATE_TYPES=1` rewrites it (review the diff: it
//! changes the package's API). A second test checks what serde writes in the built-in
//! scenarios against the same schemas. The simulator's views (the frame, the trace, the step
//! records, the world, the metrics, the vocabulary) and its inputs (a scenario, an action, a
//! frame request) are generated the same way; the wasm layer's own shapes are still declared
//! by hand in `src/types.rs`.
//!
//! Requests are read, so they are declared as serde reads them (a field with a default may be
//! left out); responses are written, so as serde writes them. Two keywords of our own in a
//! field's schema: `tsType` gives its TypeScript type (where the Rust type is wider than what
//! it holds), `tsRequired` declares it required although serde has a default for it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use group_coordinator::consumer_group::ConsumerGroupView;
use group_coordinator::{Event, GroupRecord, GroupView, Request, Response};
use group_simulator::frame::{FrameRequest, StepsRequest, TimelineRequest};
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The declarations of one direction: the root type and the definitions it uses, under their
/// Rust names.
fn declarations(mut generator: SchemaGenerator, out: &mut BTreeMap<String, Value>) {
    let written = generator.contract().is_serialize();
    let mut defs: BTreeMap<String, Value> = generator.take_definitions(true).into_iter().collect();
    if written {
        defs.values_mut().for_each(never_null_when_left_out);
    }
    for name in ["Request", "Response"] {
        name_variants(name, &mut defs);
    }
    for (name, def) in defs {
        let Some(other) = out.get(&name) else {
            out.insert(name, def);
            continue;
        };
        // A type both read and written (a request, which a trace entry carries too) is
        // declared as serde reads it: what a user writes must be accepted, and what serde
        // writes (every field present) is too.
        assert_eq!(
            shape(other),
            shape(&def),
            "{name} is declared differently as read and as written; give one of them its own name"
        );
        if !written {
            out.insert(name, def);
        }
    }
}

/// A declaration without what differs between reading and writing the same type (which
/// fields are required, and whether one left out may be null): the fields and their types.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "required")
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(
            a.iter()
                .filter(|v| *v != "null" && v.get("type") != Some(&Value::from("null")))
                .map(shape)
                .collect(),
        ),
        v => v.clone(),
    }
}

/// A written field that may be left out (`skip_serializing_if`) is left out when it is none,
/// never written as null: declared `field?: T`, not `field?: T | null`.
fn never_null_when_left_out(def: &mut Value) {
    let required: Vec<Value> = def
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(properties) = def.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, p) in properties.iter_mut() {
            if required.contains(&Value::from(name.as_str())) {
                continue;
            }
            if let Some(types) = p.get_mut("type").and_then(Value::as_array_mut) {
                types.retain(|t| t != "null");
            }
            if let Some(options) = p.get_mut("anyOf").and_then(Value::as_array_mut) {
                options.retain(|o| o.get("type") != Some(&Value::from("null")));
            }
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(options) = def.get_mut(key).and_then(Value::as_array_mut) {
            options.iter_mut().for_each(never_null_when_left_out);
        }
    }
}

/// A message enum's variants as declarations of their own under their Rust names
/// (`JoinGroupRequest` for `Request`'s `JoinGroup`), each with its `api` tag, so that a user can
/// name one. schemars writes a variant inline with the tag merged in (a type that refuses
/// unknown fields) or as a reference with the tag beside it.
fn name_variants(name: &str, defs: &mut BTreeMap<String, Value>) {
    let Some(mut def) = defs.remove(name) else {
        return;
    };
    for variant in def["oneOf"].as_array_mut().unwrap() {
        let api = variant["properties"]["api"].clone();
        let variant_name = format!("{}{name}", api["const"].as_str().unwrap());
        let reference = serde_json::json!({ "$ref": format!("#/$defs/{variant_name}") });
        let mut body = std::mem::replace(variant, reference);
        if let Some(referenced) = body.get("$ref").and_then(Value::as_str) {
            assert_eq!(referenced, format!("#/$defs/{variant_name}"));
            body = defs.remove(&variant_name).unwrap();
            let mut properties = Map::new();
            properties.insert("api".into(), api);
            properties.extend(body["properties"].as_object().unwrap().clone());
            body["properties"] = properties.into();
            let required = body["required"].as_array_mut().unwrap();
            required.insert(0, "api".into());
        }
        defs.insert(variant_name, body);
    }
    defs.insert(name.to_string(), def);
}

/// `{ "$ref": "#/$defs/Name" }` → `Name`.
fn reference(schema: &Map<String, Value>) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

fn literal(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// A union or intersection of parts, each parenthesised when it is itself a union.
fn join(parts: Vec<String>, sep: &str) -> String {
    let count = parts.len();
    let mut parts: Vec<String> = parts
        .into_iter()
        .map(|p| {
            let union_in_intersection =
                sep == " & " && p.contains(" | ") && !p.starts_with(['{', '(']);
            let intersection_in_union = sep == " | " && p.contains(" & ");
            if count > 1 && (union_in_intersection || intersection_in_union) {
                format!("({p})")
            } else {
                p
            }
        })
        .collect();
    parts.dedup();
    parts.join(sep)
}

/// The TypeScript type of a schema, written at `indent`.
fn ts(schema: &Value, indent: usize) -> String {
    let Some(s) = schema.as_object() else {
        // `true`: anything.
        return "unknown".into();
    };
    if let Some(t) = s.get("tsType").and_then(Value::as_str) {
        return t.into();
    }
    let mut parts = Vec::new();
    if let Some(name) = reference(s) {
        parts.push(name.to_string());
    }
    if let Some(c) = s.get("const") {
        return literal(c);
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return join(values.iter().map(literal).collect(), " | ");
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = s.get(key).and_then(Value::as_array) {
            let union = join(options.iter().map(|o| ts(o, indent)).collect(), " | ");
            parts.push(format!("({union})"));
        }
    }
    if let Some(all) = s.get("allOf").and_then(Value::as_array) {
        parts.extend(all.iter().map(|o| ts(o, indent)));
    }
    if s.contains_key("properties") || s.get("type") == Some(&Value::from("object")) {
        let object = object(s, indent);
        if object != "{}" || parts.is_empty() {
            parts.insert(0, object);
        }
    } else if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            t => t.as_str().into_iter().collect(),
        };
        let union = join(
            types.into_iter().map(|t| primitive(t, s, indent)).collect(),
            " | ",
        );
        parts.push(union);
    }
    match parts.len() {
        0 => "unknown".into(),
        // A lone union needs no parentheses.
        1 => parts[0]
            .strip_prefix('(')
            .and_then(|p| p.strip_suffix(')'))
            .map_or(parts[0].clone(), String::from),
        _ => join(parts, " & "),
    }
}

fn primitive(t: &str, s: &Map<String, Value>, indent: usize) -> String {
    match t {
        "string" => "string".into(),
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "null" => "null".into(),
        "array" if s.contains_key("prefixItems") => {
            let items: Vec<String> = s["prefixItems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| ts(i, indent))
                .collect();
            format!("[{}]", items.join(", "))
        }
        "array" => match s.get("items") {
            Some(items) => {
                let item = ts(items, indent);
                if item.contains(' ') && !item.starts_with(['{', '[']) {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            None => "unknown[]".into(),
        },
        "object" => object(s, indent),
        other => panic!("no TypeScript for JSON type {other}"),
    }
}

/// An object's properties, one per line, each with its description as a comment; a map
/// (`additionalProperties` alone) as a `Record`.
fn object(s: &Map<String, Value>, indent: usize) -> String {
    let properties = s.get("properties").and_then(Value::as_object);
    let Some(properties) = properties.filter(|p| !p.is_empty()) else {
        return match s.get("additionalProperties") {
            Some(v @ Value::Object(_)) => format!("Record<string, {}>", ts(v, indent)),
            _ => "{}".into(),
        };
    };
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let pad = "  ".repeat(indent + 1);
    let mut out = String::from("{\n");
    for (name, schema) in properties {
        let description = schema.get("description").and_then(Value::as_str);
        let base64 = schema.get("contentEncoding") == Some(&Value::from("base64"));
        match (description, base64) {
            (Some(d), false) => out += &comment(d, &pad),
            (Some(d), true) => {
                out += &comment(&format!("{}; base64.", d.trim_end_matches('.')), &pad)
            }
            (None, true) => out += &comment("base64", &pad),
            (None, false) => {}
        }
        let optional = if required.contains(&name.as_str())
            || schema.get("tsRequired") == Some(&Value::Bool(true))
        {
            ""
        } else {
            "?"
        };
        writeln!(out, "{pad}{name}{optional}: {};", ts(schema, indent + 1)).unwrap();
    }
    out + &"  ".repeat(indent) + "}"
}

/// A description as a JSDoc comment (what editors show on hover).
fn comment(text: &str, pad: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 {
        return format!("{pad}/** {} */\n", lines[0]);
    }
    let mut out = format!("{pad}/**\n");
    for l in lines {
        writeln!(out, "{pad} * {l}").unwrap();
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out + pad + " */\n"
}

/// The file: every declaration in name order, an object as an interface, the rest as types.
/// Every declaration by name: what the file declares, and what the conformance test checks
/// values against.
fn definitions() -> BTreeMap<String, Value> {
    let mut defs = BTreeMap::new();
    let settings = SchemaSettings::draft2020_12();
    let mut read = settings.clone().for_deserialize().into_generator();
    read.subschema_for::<Request>();
    read.subschema_for::<group_simulator::Scenario>();
    read.subschema_for::<FrameRequest>();
    declarations(read, &mut defs);
    let mut written = settings.for_serialize().into_generator();
    written.subschema_for::<Response>();
    written.subschema_for::<GroupView>();
    written.subschema_for::<ConsumerGroupView>();
    written.subschema_for::<Event>();
    written.subschema_for::<GroupRecord>();
    written.subschema_for::<group_simulator::frame::Frame>();
    written.subschema_for::<group_simulator::WorldView>();
    written.subschema_for::<group_simulator::Metrics>();
    written.subschema_for::<group_simulator::StepRecord>();
    written.subschema_for::<group_simulator::vocabulary::Vocabulary>();
    written.subschema_for::<group_simulator::Ownership>();
    written.subschema_for::<group_simulator::builtin::ScenarioInfo>();
    written.subschema_for::<group_simulator::TraceEvent>();
    written.subschema_for::<group_simulator::Moment>();
    written.subschema_for::<group_simulator::FollowStatus>();
    declarations(written, &mut defs);
    defs
}

/// A type that flattens a union declared on its own (`CoordinatorEvent` holds a
/// `CoordinatorEventKind`) names that union instead of repeating its options.
fn name_flattened_unions(defs: &mut BTreeMap<String, Value>) {
    let unions: Vec<(String, Value)> = defs
        .iter()
        .filter(|(_, d)| d.get("properties").is_none())
        .filter_map(|(name, d)| Some((name.clone(), d.get("oneOf")?.clone())))
        .collect();
    for def in defs.values_mut() {
        let Some(def) = def.as_object_mut() else {
            continue;
        };
        if !def.contains_key("properties") {
            continue;
        }
        let Some(options) = def.get("oneOf") else {
            continue;
        };
        if let Some((name, _)) = unions.iter().find(|(_, u)| u == options) {
            def.remove("oneOf");
            def.insert(
                "allOf".into(),
                serde_json::json!([{ "$ref": format!("#/$defs/{name}") }]),
            );
        }
    }
}

/// A union's option that is a declared type plus its tag (`Action`'s `addConsumer` holds a
/// `ConsumerSpec`) names that type: `{ type: "addConsumer" } & ConsumerSpec`.
fn name_tagged_options(defs: &mut BTreeMap<String, Value>) {
    let objects: Vec<(String, Value)> = defs
        .iter()
        .filter(|(_, d)| d.get("properties").is_some() && d.get("oneOf").is_none())
        .map(|(name, d)| (name.clone(), d["properties"].clone()))
        .collect();
    for def in defs.values_mut() {
        let Some(options) = def.get_mut("oneOf").and_then(Value::as_array_mut) else {
            continue;
        };
        for option in options {
            let Some(properties) = option.get("properties").and_then(Value::as_object) else {
                continue;
            };
            let mut rest = properties.clone();
            let Some(tag) = ["type", "kind", "api"].iter().find_map(|t| {
                let v = rest.remove(*t)?;
                v.get("const").is_some().then(|| (t.to_string(), v))
            }) else {
                continue;
            };
            if let Some((name, _)) = objects
                .iter()
                .find(|(_, p)| *p == Value::Object(rest.clone()))
            {
                *option = serde_json::json!({
                    "properties": { tag.0.clone(): tag.1 },
                    "required": [tag.0],
                    "allOf": [{ "$ref": format!("#/$defs/{name}") }],
                });
            }
        }
    }
}

fn generate() -> String {
    let mut defs = definitions();
    name_flattened_unions(&mut defs);
    name_tagged_options(&mut defs);
    let mut out = String::from(
        "// Generated from the Rust types by crates/wasm/tests/typescript.rs: do not edit.\n\
         // UPDATE_TYPES=1 cargo test -p group-coordinator-wasm --test typescript rewrites it.\n",
    );
    for (name, schema) in &defs {
        out.push('\n');
        if let Some(d) = schema.get("description").and_then(Value::as_str) {
            out += &comment(d, "");
        }
        let body = ts(schema, 0);
        let object = ["oneOf", "anyOf", "allOf"]
            .iter()
            .all(|k| schema.get(k).is_none());
        if object && body.starts_with('{') {
            writeln!(out, "export interface {name} {body}").unwrap();
        } else if body.len() > 80 && !body.contains('\n') && body.contains(" | ") {
            // A long union, one option a line.
            writeln!(out, "export type {name} =").unwrap();
            for option in body.split(" | ") {
                writeln!(out, "  | {option}").unwrap();
            }
            out.truncate(out.len() - 1);
            out += ";\n";
        } else {
            writeln!(out, "export type {name} = {body};").unwrap();
        }
    }
    out
}

/// Whether `value` is what `schema` declares, strictly: every key it has is declared (by its own
/// level, or by the level that flattened it in: `outer`), every required one is there, and
/// scalars have their declared types. Err says where it differs.
fn conforms(
    defs: &BTreeMap<String, Value>,
    schema: &Value,
    value: &Value,
    outer: &[String],
) -> Result<(), String> {
    let Some(s) = schema.as_object() else {
        return Ok(());
    };
    if s.contains_key("tsType") {
        // A literal type declared by hand: the value is a string of it.
        let t = s["tsType"].as_str().unwrap();
        let literal = serde_json::to_string(value).unwrap();
        return (t.split(" | ").any(|l| l == literal))
            .then_some(())
            .ok_or(format!("{literal} is not one of {t}"));
    }
    if let Some(name) = reference(s) {
        conforms(defs, &defs[name], value, outer)?;
    }
    if let Some(c) = s.get("const") {
        return (c == value)
            .then_some(())
            .ok_or(format!("{value} is not {c}"));
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return values
            .contains(value)
            .then_some(())
            .ok_or(format!("{value} is not one of {values:?}"));
    }
    let own: Vec<String> = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let union = s.get("oneOf").or(s.get("anyOf")).and_then(Value::as_array);
    if let Some(options) = union {
        let inner: Vec<String> = outer.iter().chain(&own).cloned().collect();
        let errors: Vec<String> = options
            .iter()
            .filter_map(|o| conforms(defs, o, value, &inner).err())
            .collect();
        if errors.len() == options.len() {
            return Err(format!("no option fits {value}: {}", errors.join("; ")));
        }
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            t => t.as_str().into_iter().collect(),
        };
        let fits = types.iter().any(|t| match *t {
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => false,
        });
        if !fits {
            return Err(format!("{value} is not {types:?}"));
        }
        if let (Some(items), Some(array)) = (s.get("items"), value.as_array()) {
            for item in array {
                conforms(defs, items, item, &[])?;
            }
        }
    }
    if let (Some(object), false) = (value.as_object(), own.is_empty()) {
        let properties = s["properties"].as_object().unwrap();
        for (key, v) in object {
            match properties.get(key) {
                Some(p) => conforms(defs, p, v, &[]).map_err(|e| format!("{key}: {e}"))?,
                None if outer.contains(key) || union.is_some() => {}
                None => return Err(format!("{key} is not declared (declared: {own:?})")),
            }
        }
        for key in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = key.as_str().unwrap();
            if !object.contains_key(key) {
                return Err(format!("required {key} is missing"));
            }
        }
    }
    Ok(())
}

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
        for e in p.simulation().trace().iter() {
            check_counted("TraceEntry", json(e));
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
    // The sample is wide enough to mean something.
    for (what, least) in [
        ("GroupView", 100),
        ("ConsumerGroupView", 10),
        ("CoordinatorEvent", 100),
        ("Request", 100),
        ("Response", 100),
        ("TraceEntry", 1_000),
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
