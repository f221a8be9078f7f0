//! A line-oriented JSON interface to the assignors and codecs, for side-by-side comparisons
//! with other implementations (`compare/kafka_python.py`). One JSON object per input line:
//!   {"op":"assign","strategy":"range","input":{...}}        -> {"ok": {memberId: [...]}, "kafkaQuirks": [...]}
//!   {"op":"decodeSubscription","bytes":"<base64>"}          -> {"ok": {...}, "reencoded": "<base64>"}
//!   {"op":"encodeSubscription","value":{...}}                -> {"ok": "<base64>"}
//!   (and decodeAssignment / encodeAssignment)
//! Errors come back as {"error": "..."}.

use group_coordinator::assignor::{AssignmentInput, Strategy, assign_explained};
use group_coordinator::consumer_protocol::{Assignment, StickyUserData, Subscription};
use group_coordinator::protocol::{base64_decode, base64_encode};
use serde_json::{Value, json};
use std::io::{BufRead, Write};

fn run(line: &str) -> Result<Value, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let op = v["op"].as_str().unwrap_or_default();
    let bytes = || base64_decode(v["bytes"].as_str().unwrap_or_default());
    match op {
        "assign" => {
            let strategy = Strategy::from_name(v["strategy"].as_str().unwrap_or_default())
                .ok_or("unknown strategy")?;
            let input: AssignmentInput =
                serde_json::from_value(v["input"].clone()).map_err(|e| e.to_string())?;
            let (out, quirks) = assign_explained(strategy, &input).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": out, "kafkaQuirks": quirks }))
        }
        "decodeSubscription" => {
            let s = Subscription::decode(&bytes()?).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": s, "reencoded": base64_encode(s.encode().as_slice()) }))
        }
        "decodeAssignment" => {
            let a = Assignment::decode(&bytes()?).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": a, "reencoded": base64_encode(a.encode().as_slice()) }))
        }
        "decodeStickyUserData" => {
            let u = StickyUserData::decode(&bytes()?).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": u, "reencoded": base64_encode(u.encode().as_slice()) }))
        }
        "encodeSubscription" => {
            let s: Subscription =
                serde_json::from_value(v["value"].clone()).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": base64_encode(s.encode().as_slice()) }))
        }
        "encodeAssignment" => {
            let a: Assignment =
                serde_json::from_value(v["value"].clone()).map_err(|e| e.to_string())?;
            Ok(json!({ "ok": base64_encode(a.encode().as_slice()) }))
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let result = run(&line).unwrap_or_else(|e| json!({ "error": e }));
        let _ = writeln!(out, "{result}");
    }
}
