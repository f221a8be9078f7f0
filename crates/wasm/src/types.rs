//! The TypeScript types of everything that crosses the boundary. Generated from the Rust types
//! (`types.generated.ts`, by `tests/typescript.rs`, which also checks serde's output against
//! them): the model's requests, responses, views, events and trace, the simulator's scenario,
//! actions and frame, and the binding's own shapes (`schema.rs`). Written here: the compact
//! assignor inputs, which are not read by serde but field by field, as integer arrays
//! (`compact.rs`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const GENERATED: &'static str = include_str!("types.generated.ts");

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** `assignCompact`'s input: names once, integers for the rest. Topics are named by their index
 * in `topics`. `subscriptions`: per member in turn, a count then topic indices; `owned`: per
 * member in turn, a count then (topic index, partition) pairs (absent: no claims);
 * `generations`: per member, -1 when absent. No racks (rack-aware assignment takes `assign`). */
export interface CompactAssignmentInput { topics: string[]; partitions: Int32Array | number[];
  members: string[]; instanceIds?: (string | null)[] | null; subscriptions: Int32Array | number[];
  owned?: Int32Array | number[] | null; generations?: Int32Array | number[] | null }
/** `serverAssignCompact`'s input: `CompactAssignmentInput`'s fields, where a topic's count may be
 * -1 (a name subscribed to that has no metadata), `owned` holds each member's previous target,
 * and `generations` is not taken. */
export type CompactServerAssignInput = Omit<CompactAssignmentInput, "generations">;
"#;
