//! The scenario format's JSON Schema, `docs/src/scenario.schema.json`, is derived from the types
//! the loader reads (`Scenario` and what it holds, with their serde names, defaults and
//! refusals of unknown fields), so the documentation and the loader cannot disagree: this test
//! fails when the committed schema is not what the types give. `UPDATE_SCHEMA=1` rewrites it
//! (review the diff: it changes what scenario files may say).

use group_simulator::scenario::Scenario;
use std::path::Path;

#[test]
fn the_committed_schema_is_the_loaders() {
    let schema = schemars::schema_for!(Scenario);
    let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/scenario.schema.json");
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "docs/src/scenario.schema.json is not the schema of the loader's types; run \
         UPDATE_SCHEMA=1 cargo test -p group-simulator --test schema and review the diff"
    );
}

#[test]
fn the_schema_names_the_fields_a_scenario_has() {
    let schema = serde_json::to_value(schemars::schema_for!(Scenario)).unwrap();
    let properties = schema["properties"].as_object().unwrap();
    for field in [
        "name",
        "title",
        "topics",
        "consumers",
        "script",
        "network",
        "broker",
        "keyMoment",
        "durationMs",
    ] {
        assert!(
            properties.contains_key(field),
            "{field} missing from the schema"
        );
    }
    assert_eq!(
        schema["additionalProperties"], false,
        "unknown fields are refused, as the loader does"
    );
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required, ["name", "title", "topics", "consumers"]);
}
