//! The TypeScript types of everything that crosses the boundary (the shapes the serde derives
//! of `group-coordinator` and `group-simulator` produce). What the model writes (responses,
//! views, events, the trace, the frame) and the requests are generated from the Rust types
//! (`types.generated.ts`, by `tests/typescript.rs`, which also checks serde's output against
//! them). Still written here: what a user writes into the simulator (a scenario, an action, a
//! frame request) and the wasm layer's own shapes (the assignors' and codecs' arguments).

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
/* ---- the simulated world (group-simulator) ---- */
export interface Text { en: string; zh: string }
/** Kafka property name -> value (number, string or boolean). */
export type Settings = Record<string, number | string | boolean>;
export interface LinkSpec { latencyMs?: number; jitterMs?: number; /** 0..1 */ loss?: number }
export interface ConsumerSpec { name: string; /** by name (default none) */ topics?: string[];
  /** subscribe(Pattern): the topics whose whole name matches (RE2/J syntax) instead */ pattern?: string;
  config?: Settings; startMs?: number;
  /** ms the application works between two poll() calls (default 100) */ processingMs?: number;
  network?: LinkSpec | null; /** this consumer's own application timing */ application?: Application | null }
/** How long the application's own code takes (not Kafka settings; all 0 by default): its
 * rebalance listener per partition, and how much later than `processingMs` a poll may come. */
export interface Application { revokeMsPerPartition?: number; assignMsPerPartition?: number;
  lostMsPerPartition?: number; /** below processingMs */ processingJitterMs?: number }
export type PauseKind = "processing" | "gc";
export type Action =
  | ({ type: "addConsumer" } & ConsumerSpec)
  | { type: "close" | "crash" | "start" | "resume" | "cut" | "heal"; consumer: string }
  | { type: "restart"; consumer: string; downMs?: number }
  | { type: "pause"; consumer: string; kind?: PauseKind }
  | { type: "setNetwork"; consumer?: string | null; latencyMs?: number | null; jitterMs?: number | null; loss?: number | null }
  | { type: "subscribe"; consumer: string; topics?: string[]; /** subscribe(Pattern) */ pattern?: string }
  | { type: "setConfig"; consumer: string; config: Settings }
  | { type: "failover"; downMs?: number }
  /** an admin raises a topic's partition count to `count` (CreatePartitions) */
  | { type: "createPartitions"; topic: string; count: number }
  /** an admin creates a topic (CreateTopics) */
  | { type: "createTopic"; topic: string; partitions: number }
  | { type: "failNextPersist"; error: string }
  /** a message in flight arrives now (only the first on its link that way) / is dropped */
  | { type: "deliverNow" | "drop"; consumer: string; correlationId: number; response?: boolean }
  /** a live run's input: a real client's request as group-broker recorded it, on lane `client` */
  | { type: "inject"; client: string; atMs: number; request: Request }
  /** a live run's input: the broker fired the coordinator's due timers */
  | { type: "advance"; atMs: number }
  /** a live run's input: the broker's coordinator lost / loaded again the group (its operator's failover) */
  | { type: "unload" | "load"; groupId: string };
/** Where following a broker's trace stands (`Player.follow`). */
export type FollowStatus =
  | { kind: "waiting" }
  | { kind: "following"; inputs: number; checked: number }
  /** an answer (or a refusal) differed at line `line` (1-based) */
  | { kind: "diverged"; line: number; what: string }
  /** line `line` could not be used */
  | { kind: "refused"; line: number; what: string };
export interface ScriptStep { atMs: number; action?: Action | null; narrate?: Text | null;
  /** the scenario's key moment (at most one step, with a narration) */ key?: boolean }
export interface Scenario { name: string; title: Text; description?: Text;
  /** what its key moment shows, in a few words */ keyMoment?: Text; seed?: number; groupId?: string;
  broker?: Settings; consumer?: Settings;
  /** the group's own settings (KIP-848 group configs: consumer.session.timeout.ms, consumer.heartbeat.interval.ms) */ group?: Settings;
  topics: Record<string, number>; network?: LinkSpec;
  consumers: ConsumerSpec[]; script?: ScriptStep[]; /** every consumer's application timing */ application?: Application;
  durationMs?: number;
  /** a live run: real clients' requests come in as inject actions (group-broker) */ live?: boolean;
  /** read from a real group's description (importGroup) */ imported?: Imported }
/** Where an imported scenario came from (importGroup), and what it assumed. */
export interface Imported {
  /** what was read, in the tool's words ("kafka-consumer-groups.sh --describe --members --verbose") */ sources: string[];
  protocol: "classic" | "consumer"; /** the group's state when described */ state?: string;
  /** the assignor the group used */ assignor?: string;
  /** settings the description does not carry, taken at Kafka's defaults: "consumer.<key>", "broker.<key>" or "processingMs" */ assumed: string[];
  /** each member's assignment as described: consumer name -> "topic-partition"s */ assignment: Record<string, string[]>;
  notes?: Text[] }
/** A setting as the page lists it: its Kafka name, its default and what it does. */
export interface ConfigKeyInfo { name: string; default: string; doc: string; docZh: string }

/** [topic, partition] */
export type Tp = [string, number];
/** A moment of the run: the scrubber's chapters. */
export interface MomentAt { step: number; mark: StepMark; label: Text }
/** What `Player.frame` should carry besides the group, the state machine and the narration. */
export interface FrameRequest { lang?: "en" | "zh";
  /** the timeline's window before now; bars closer than `resolutionMs` merge (never `selected`'s) */
  timeline?: { windowMs: number; resolutionMs?: number; selected?: number | null;
    /** where the window ends, panned back (absent or past now: now) */ endMs?: number | null } | null;
  /** the assignment table with this many generations as columns */ assignments?: number | null;
  /** leave out of it the generations in which nothing moved */ assignmentsChangedOnly?: boolean;
  /** a window of the step table: `span` steps from `from` (absent: ending at the current step,
   * or, when that does not hold the step of trace entry `around`, the window that does) */
  steps?: { from?: number | null; span: number; around?: number | null } | null;
  /** the consumers, the topics and the metrics */ world?: boolean;
  /** what is about to happen: this many of the next events (at most 50) */ upcoming?: number | null;
  /** only these rows of `consumers` and of the assignment table (a page of a long table; absent: all) */
  rows?: { from: number; count: number } | null }
/** A trace entry with its narration in both languages (`Simulation.trace`, `step`). */
export type TraceEvent = TraceEntry & { text: Text };

"#;
