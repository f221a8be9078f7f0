//! A strict JSON Schema check of a value, enough for the declarations' schemas.

use super::declared::reference;
use serde_json::Value;
use std::collections::BTreeMap;

/// Whether `value` is what `schema` declares, strictly: every key it has is declared (by its own
/// level, or by the level that flattened it in: `outer`), every required one is there, a map's
/// values and an array's items are what they declare, and scalars have their declared types.
/// Err says where it differs.
pub fn conforms(
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
        // A map (`Record<string, T>`): each value is a T.
        if let (Some(values), Some(object)) = (s.get("additionalProperties"), value.as_object()) {
            for (key, v) in object.iter().filter(|_| values.is_object()) {
                conforms(defs, values, v, &[]).map_err(|e| format!("{key}: {e}"))?;
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
