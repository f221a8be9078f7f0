//! What is declared: the JSON Schemas of the roots (the model's, the simulator's and the
//! binding's types, as read or as written), under their TypeScript names, with flattened types
//! and tagged options named instead of repeated.

use group_coordinator::consumer_group::ConsumerGroupView;
use group_coordinator::{Event, GroupRecord, GroupView, Request, Response};
use group_simulator::frame::FrameRequest;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The declarations of one direction: the root type and the definitions it uses, under their
/// Rust names.
pub fn declarations(mut generator: SchemaGenerator, out: &mut BTreeMap<String, Value>) {
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
pub fn shape(v: &Value) -> Value {
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
pub fn never_null_when_left_out(def: &mut Value) {
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
pub fn name_variants(name: &str, defs: &mut BTreeMap<String, Value>) {
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

/// Every declaration by name: what the file declares, and what the conformance test checks
/// values against.
pub fn definitions() -> BTreeMap<String, Value> {
    let mut defs = BTreeMap::new();
    let settings = SchemaSettings::draft2020_12();
    let mut read = settings.clone().for_deserialize().into_generator();
    read.subschema_for::<Request>();
    read.subschema_for::<group_simulator::Scenario>();
    read.subschema_for::<FrameRequest>();
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
    written.subschema_for::<group_simulator::GroupAfter>();
    written.subschema_for::<group_simulator::vocabulary::Vocabulary>();
    written.subschema_for::<group_simulator::Ownership>();
    written.subschema_for::<group_simulator::builtin::ScenarioInfo>();
    written.subschema_for::<group_simulator::TraceEvent>();
    written.subschema_for::<group_simulator::Moment>();
    written.subschema_for::<group_simulator::FollowStatus>();
    group_coordinator_wasm::schema::declare(&mut read, &mut written);
    declarations(read, &mut defs);
    declarations(written, &mut defs);
    defs
}

/// A type that flattens a struct declared on its own (`StepRecord` and `StepRow` hold a
/// `GroupAfter`; a `TraceEvent` is a `TraceEntry` and its text), which schemars inlines, names
/// that struct instead of repeating its fields: `{ step: number; ... } & GroupAfter`. The
/// structs flattened are named here: found by fields alone, protocol types that happen to share
/// theirs (`DescribedGroup` has `DeletableGroupResult`'s two) would be declared as each other.
/// A type holds one when it has all its fields, each with the same schema and doc (and the
/// same options, when it is a union).
pub const FLATTENED: [&str; 3] = ["GroupAfter", "TraceEntry", "CoordinatorEvent"];

pub fn name_flattened_structs(defs: &mut BTreeMap<String, Value>) {
    let structs: Vec<(String, Value)> = FLATTENED
        .iter()
        .map(|name| (name.to_string(), defs[*name].clone()))
        .collect();
    for (name, def) in defs.iter_mut() {
        let Some(properties) = def.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let inner = structs
            .iter()
            .filter(|(other, _)| other != name)
            .filter(|(_, d)| {
                let theirs = d["properties"].as_object().unwrap();
                theirs.len() < properties.len()
                    && theirs.iter().all(|(k, v)| properties.get(k) == Some(v))
                    && d.get("oneOf").is_none_or(|o| def.get("oneOf") == Some(o))
            })
            .max_by_key(|(_, d)| d["properties"].as_object().unwrap().len());
        let Some((inner_name, inner)) = inner else {
            continue;
        };
        let def = def.as_object_mut().unwrap();
        let properties = def["properties"].as_object_mut().unwrap();
        for k in inner["properties"].as_object().unwrap().keys() {
            properties.remove(k);
        }
        if let Some(required) = def.get_mut("required").and_then(Value::as_array_mut) {
            let theirs = inner.get("required").and_then(Value::as_array);
            required.retain(|r| theirs.is_none_or(|t| !t.contains(r)));
        }
        if inner.get("oneOf").is_some() {
            def.remove("oneOf");
        }
        def.insert("allOf".into(), and(inner_name));
    }
}

/// `allOf` naming one declaration: TypeScript's `& Name`.
fn and(name: &str) -> Value {
    serde_json::json!([{ "$ref": format!("#/$defs/{name}") }])
}

/// A type that flattens a union declared on its own (`CoordinatorEvent` holds a
/// `CoordinatorEventKind`) names that union instead of repeating its options.
pub fn name_flattened_unions(defs: &mut BTreeMap<String, Value>) {
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
            def.insert("allOf".into(), and(name));
        }
    }
}

/// A union's option that is a declared type plus its tag (`Action`'s `addConsumer` holds a
/// `ConsumerSpec`) names that type: `{ type: "addConsumer" } & ConsumerSpec`.
pub fn name_tagged_options(defs: &mut BTreeMap<String, Value>) {
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
                    "allOf": and(name),
                });
            }
        }
    }
}

/// `{ "$ref": "#/$defs/Name" }` → `Name`.
pub fn reference(schema: &Map<String, Value>) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}
