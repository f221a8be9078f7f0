//! The TypeScript types of everything that crosses the boundary (the shapes the serde derives
//! of `group-coordinator` and `group-simulator` produce). What the model writes (responses,
//! views, events, the trace, the frame) and the requests are generated from the Rust types
//! (`types.generated.ts`, by `tests/typescript.rs`, which also checks serde's output against
//! them), and so are the scenario, its actions and the frame request. Still written here: the
//! wasm layer's own shapes (the assignors' and codecs' arguments, `MomentAt`, `ResponseText`,
//! `TraceEvent`, `ConfigKeyInfo`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const GENERATED: &'static str = include_str!("types.generated.ts");

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A response in one line in each language (the model's narration), and the error it carries. */
export interface ResponseText { errorCode: number; text: Text }
/** `updateMetadata`'s argument: topics consumer groups are assigned from. */
export interface MetadataUpdate { topics: { name: string; topicId?: string; partitions: number; racks?: string[][] }[] }
/** `serverAssign`'s input: partition counts by topic name, and the members with their previous
 * target assignment. */
export interface ServerAssignInput { topics: Record<string, number>; members: { memberId: string;
  instanceId?: string | null; rackId?: string | null; subscribedTopics: string[];
  assignment?: { topic: string; partitions: number[] }[] }[] }

export interface AssignmentMember { memberId: string; groupInstanceId?: string | null; topics: string[];
  ownedPartitions?: TopicPartitions[]; generationId?: number | null; rackId?: string | null }
/** topics: name -> partition count; racks: topic -> for each partition, its replicas' racks. */
export interface AssignmentInput { topics: Record<string, number>; racks?: Record<string, string[][]>;
  members: AssignmentMember[] }
/** member id -> its partitions (topics ascending, partitions ascending); every member present. */
export type Assignment = Record<string, TopicPartitions[]>;
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
export interface CompactServerAssignInput { topics: string[]; partitions: Int32Array | number[];
  members: string[]; instanceIds?: (string | null)[] | null; subscriptions: Int32Array | number[];
  owned?: Int32Array | number[] | null }
/** ConsumerProtocolSubscription (v0-v3); userData base64 or null. */
export interface Subscription { version?: number; topics: string[]; userData?: string | null;
  ownedPartitions?: TopicPartitions[]; generationId?: number; rackId?: string | null }
/** ConsumerProtocolAssignment (v0-v3); userData base64 or null. */
export interface ConsumerAssignment { version?: number; assignedPartitions: TopicPartitions[]; userData?: string | null }
/** Kafka property name -> value (number, string or boolean). */
export type Settings = Record<string, number | string | boolean>;
/** A setting as the page lists it: its Kafka name, its default and what it does. */
export interface ConfigKeyInfo { name: string; default: string; doc: string; docZh: string }

/** [topic, partition] */
export type Tp = [string, number];
/** A moment of the run: the scrubber's chapters. */
export interface MomentAt { step: number; mark: StepMark; label: Text }
/** A trace entry with its narration in both languages (`Simulation.trace`, `step`). */
export type TraceEvent = TraceEntry & { text: Text };

"#;
