//! The declarations as TypeScript: a schema as a type, a description as a JSDoc comment.

use super::declared::{
    definitions, name_flattened_structs, name_flattened_unions, name_tagged_options, reference,
};
use serde_json::{Map, Value};
use std::fmt::Write as _;

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
pub fn generate() -> String {
    let mut defs = definitions();
    name_flattened_structs(&mut defs);
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
