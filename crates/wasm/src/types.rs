//! The TypeScript types of everything that crosses the boundary (the shapes the serde derives
//! of `group-coordinator` and `group-simulator` produce). The requests and responses are
//! generated from the Rust types (`types.generated.ts`, by `tests/typescript.rs`); the rest are
//! still written here, and `tests/types_drift.rs` checks them against what serde writes.

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

export interface TopicPartitions { topic: string; partitions: number[] }
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
export interface ScenarioInfo { name: string; title: Text; description: Text; keyMoment?: Text;
  /** the protocol its consumers speak (`group.protocol`) */ protocol: "classic" | "consumer";
  /** its script switches consumers to the other protocol (online migration) */ migration?: true;
  /** a consumer subscribes by pattern (`subscribe(Pattern)`) */ pattern?: true;
  consumers: number; durationMs: number }

export type MessageApi = "FindCoordinator" | "JoinGroup" | "SyncGroup" | "Heartbeat" | "LeaveGroup" | "OffsetCommit"
  | "ConsumerGroupHeartbeat";
/** The client's member state: the classic protocol's four, then the consumer protocol's (KIP-848). */
export type MemberState = "Unjoined" | "PreparingRebalance" | "CompletingRebalance" | "Stable"
  | "Unsubscribed" | "Joining" | "Reconciling" | "Acknowledging" | "Fenced" | "PrepareLeaving" | "Leaving" | "Stale";
export type ConsumerLife = "notStarted" | "running" | "closing" | "closed" | "crashed" | "failed";
/** [topic, partition] */
export type Tp = [string, number];
type CoordinatorEventKind = CoordinatorEvent extends infer E ? (E extends unknown ? Omit<E, "atMs" | "groupId"> : never) : never;
/** A trace entry without its narration (`Simulation.entries`). */
export type TraceEntry = { index: number; atMs: number } & (
  | { type: "narration"; note: Text; key?: boolean }
  | { type: "action"; action: Action }
  | { type: "actionIgnored"; action: Action; why: string }
  | { type: "lifecycle"; consumer: string; what: "started" | "closed" | "crashed" | "paused" | "resumed" }
  | { type: "requestSent"; consumer: string; api: MessageApi; correlationId: number; generationId: number;
      memberId: string; request?: Request;
      /** sent by a consumer-protocol member: generationId is its member epoch */ consumerProtocol?: true }
  | { type: "requestDelivered"; consumer: string; api: MessageApi; correlationId: number }
  | { type: "responseSent"; consumer: string; api: MessageApi; correlationId: number; errorCode: number;
      error: string; response?: Response }
  | { type: "responseDelivered"; consumer: string; api: MessageApi; correlationId: number; errorCode: number; error: string }
  | { type: "messageLost"; consumer: string; api: MessageApi; correlationId: number; response: boolean;
      reason: "loss" | "cut" | "consumerDown" | "dropped" }
  | { type: "requestTimedOut"; consumer: string; api: MessageApi; correlationId: number }
  | { type: "coordinator"; event: CoordinatorEventKind }
  | { type: "clientState"; consumer: string; from: MemberState; to: MemberState }
  | { type: "assigned"; consumer: string; generationId: number; assigned: Tp[]; added: Tp[]; revoked: Tp[];
      /** how long the rebalance listener ran (absent: no time) */ listenerMs?: number;
      /** a consumer-protocol member's reconciliation (then generationId is its member epoch) */ consumerProtocol?: true }
  | { type: "revoked"; consumer: string; partitions: Tp[]; lost: boolean; listenerMs?: number }
  | { type: "clientExpired"; consumer: string; expiry: "sessionTimeout" | "pollTimeout" }
  | { type: "metadataRefreshed"; consumer: string }
  | { type: "rejoinRequested"; consumer: string; reason: string }
  | { type: "assignorQuirk"; consumer: string; quirk: KafkaQuirk }
  | { type: "consumerFailed"; consumer: string; errorCode: number; error: string }
  | { type: "invariantViolated"; message: string });
/** Where Kafka's own sticky assignor misbehaves (the leader's assignment shows it): it gives a
 * partition back to a previous owner that dropped its topic (reproduced), or Kafka's Java throws
 * a NullPointerException where this model deliberately returns a valid assignment. */
export type KafkaQuirk =
  | { kind: "PreviousOwnerNotSubscribed"; member: string; topic: string; partition: number }
  | { kind: "JavaThrowsNullPointer"; previousOwner: string; topic: string; partition: number };
/** What one step of a `Player` did and left: the trace entries [first, end) it recorded, and the
 * group's state and generation after it (members and delayed join/sync operations for groups of
 * up to 12 consumers). */
export interface StepRecord { first: number; end: number; atMs: number; state: GroupState | null;
  /** a consumer group's (KIP-848) state; then generationId is its group epoch */ consumerState?: ConsumerGroupState;
  generationId: number; members: string[]; delayed: string[]; marks: StepMark[];
  /** The moment the step is (its most telling mark, labelled), absent when it is none. */
  moment?: { mark: StepMark; label: Text };
  /** The step's last change of state (`from: null`: the group was loaded in `to`), or null. */
  transition: { from: GroupState | null; to: GroupState; index: number } | null }
/** What makes a step a moment, most telling first: the scenario's key step, a fault, a
 * LeaveGroup or JoinGroup reaching the coordinator, a rebalance starting or completing, a
 * generation beginning, a coordinator timer firing. */
export type StepMark = "key" | "fault" | "migration" | "leave" | "rebalance" | "stable" | "generation" | "assigned" | "join" | "expiry";
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
/** What one frame of the page draws (`Player.frame`). */
/** Why playing stops: the scenario's end (no action of yours), at rest again after your action,
 * 6 minutes past your last action, nothing left to happen. */
export type PlayStop = "scenarioEnd" | "atRest" | "playOnLimit" | "nothingLeft";
export interface Frame { cursor: number; /** taken, and the known future after going back */ knownSteps: number;
  traceLength: number; nowMs: number; pastEnd: boolean; finished: boolean;
  /** whether playing stops here, and why */ playStop: PlayStop | null;
  group: FrameGroup | null;
  machine: { state: GroupState; last: { from: GroupState; to: GroupState; index: number; /** why it fired this time */ cause: string } | null };
  /** a consumer-protocol (KIP-848) run's consumer group, with its own state machine */ consumerGroup?: FrameConsumerGroup;
  narration: FrameNarration; /** the user's actions */ actions: { step: number; text: string }[];
  timeline?: TimelineWindow; assignments?: AssignmentTable;
  steps?: StepWindow; /** the request's `rows` of the consumers */ consumers?: ConsumerRow[];
  /** how many consumers there are in all */ consumerCount?: number; topics?: string[];
  /** the topics' partition counts, in `topics`' order */ partitionCounts?: number[]; metrics?: MetricsSummary;
  upcoming?: Upcoming[] }
/** One thing about to happen; a message in flight says who, which, which way, and whether it can be
 * chosen (`firstOnLink`: a connection delivers in order). */
export interface Upcoming { atMs: number; text: string; /** its timeline lane (absent: the coordinator's) */ consumer?: string;
  message?: { consumer: string; api: MessageApi; correlationId: number; response: boolean; firstOnLink: boolean } }
/** The group as the state machine's panel shows it: members by client id, the leader by consumer
 * name, the delayed join/sync operations (and heartbeats when at most 3; else only counted). */
export interface FrameGroup { generationId: number; leader: string | null; members: string[];
  delayed: { kind: "join" | "sync" | "heartbeat"; member: string | null; deadlineMs: number }[]; heartbeats: number }
/** A consumer group (KIP-848) as the state machine's panel shows it: its members as the coordinator
 * holds them (partitions written `topic-0,1`), and their session and rebalance timeouts. */
export interface FrameConsumerGroup { state: ConsumerGroupState;
  last: { from: ConsumerGroupState; to: ConsumerGroupState; index: number } | null;
  groupEpoch: number; assignmentEpoch: number; assignor: string;
  members: { name: string; memberId: string; state: ConsumerMemberState; memberEpoch: number; assigned: string;
    pendingRevocation: string; target: string;
    /** it speaks the classic protocol inside the consumer group (a mixed group) */ classicProtocol: boolean;
    /** its `SubscribedTopicRegex`, when it subscribes by pattern */ subscribedTopicRegex?: string }[];
  /** each subscribed regular expression resolved so far, with the topics it matched */
  resolvedRegularExpressions?: { regex: string; topics: string[] }[];
  timers: { kind: string; member: string | null; deadlineMs: number }[] }
/** A consumer as the consumers panel shows it (`owned`: `topic-0,1 other-2`). */
export interface ConsumerRow { name: string; life: ConsumerLife; paused: PauseKind | null; state: MemberState;
  generationId: number; groupInstanceId: string | null; isLeader: boolean; cut: boolean; owned: string;
  ownedCount: number;
  /** the protocol it speaks now (a switch of `group.protocol` waits for its next start) */ protocol: "classic" | "consumer";
  /** failed: the error that stopped it */ failedWith?: string }
export interface MetricsSummary { rebalances: number; generationId: number; partitionsMoved: number;
  unownedPartitionMs: number; settled: boolean; settledSinceMs: number | null; invariantViolations: number }
/** The scenario's last note so far, and what the current step did. */
export interface FrameNarration { note: string | null;
  /** the note was written for the scenario as scripted, and the user's actions came before it */ noteStale: boolean;
  /** what the step did, in order; `lead`: what changed, said first */ lines: { text: string; lead: boolean }[] }
/** Lane 0 is the coordinator's, lane k the k-th consumer's (`lanes[k - 1]`). */
export interface TimelineWindow { fromMs: number; toMs: number;
  /** the consumers' lanes shown (the request's `rows` of them: bars and marks are then numbered within them, 0 the coordinator's) */
  lanes: string[]; /** how many consumers' lanes there are in all */ laneCount: number; bars: TimelineBar[]; marks: TimelineMark[] }
/** A request from send to end (`open`: not ended, `endMs` is now); `merged` bars drawn as one.
 * The flags are absent when false, `merged` when 1. */
export interface TimelineBar { lane: number; api: MessageApi; correlationId: number; sentMs: number; endMs: number;
  index: number; open?: boolean; error?: string; lost?: boolean; timedOut?: boolean; merged?: number;
  /** a ConsumerGroupHeartbeat's member epoch */ epoch?: number }
export type TimelineMark = { lane: number; atMs: number; index: number } & (
  | { type: "state"; state: GroupState }
  | { type: "timer"; key: string }
  | { type: "life"; what: "started" | "closed" | "crashed" | "paused" | "resumed" }
  | { type: "expiry"; expiry: "sessionTimeout" | "pollTimeout" }
  | { type: "cut" | "heal" | "failover" });
/** Generations as columns (each with its leader), consumers as rows. */
export interface AssignmentTable { generations: { generationId: number; leader: string | null }[];
  /** the columns are member epochs (a consumer-protocol run, KIP-848) */ epochs?: true;
  /** the request's `rows` of them */ rows: AssignmentRow[];
  /** how many rows there are in all (a consumer no longer in the run that took an assignment has one too) */ totalRows: number;
  /** generations left out because nothing moved in them (`assignmentsChangedOnly`) */ unchanged: number[] }
export interface AssignmentRow { consumer: string;
  /** per column: what it took (`topic-0,1 other-2`) and how many, how many of them are new, what it
   * revoked and how many */
  cells: ({ assigned: string; count: number; added: number; revoked: string; revokedCount: number; index: number } | null)[];
  /** what it owns now, or its life when not running */ now: string | null; running: boolean; ownedCount: number }
/** Steps [from, to) of `total`; a step numbered from 1. */
export interface StepWindow { from: number; to: number; total: number; rows: StepRow[] }
export interface StepRow { step: number; atMs: number; actor: StepActor;
  lines: { index: number; text: string; /** the scenario's own note */ note: boolean }[];
  state: GroupState | null; /** a consumer group's (KIP-848) state; then generationId is its group epoch */
  consumerState?: ConsumerGroupState; generationId: number; members: string[]; delayed: string[]; first: number; end: number }
export type StepActor =
  | { type: "consumer"; name: string }
  | { type: "coordinator" | "network" | "action" | "scenario" };
/** Who owned which partition when (`Player.ownership()`): segments in the order they began;
 * `to: null` while the owner still holds it; overlapping segments are two owners at once. */
export interface Ownership {
  partitions: { topic: string; partition: number; segments: { owner: string; from: number; to: number | null }[] }[];
  owners: string[];
}
/** A name in both languages. */
export interface Name { en: string; zh: string }
/** The protocol's names and the classic group's transition table (`vocabulary()`). */
export interface Vocabulary {
  groupStates: [GroupState, Name][];
  transitions: { from: GroupState; to: GroupState; trigger: Name }[];
  /** a consumer group's states (KIP-848) and the changes between them */
  consumerGroupStates: [ConsumerGroupState, Name][];
  consumerTransitions: { from: ConsumerGroupState; to: ConsumerGroupState; trigger: Name }[];
  consumerMemberStates: [ConsumerMemberState, Name][];
  /** the client's own states in the order a member goes through them, and its transitions
   * (classic protocol, then consumer protocol) */
  clientStates: MemberState[]; clientTransitions: [MemberState, MemberState][];
  clientStatesConsumer: MemberState[]; clientTransitionsConsumer: [MemberState, MemberState][];
  memberStates: [MemberState, Name][];
  lives: [ConsumerLife, Name][];
  pauses: [PauseKind, Name][];
}
/** A trace entry with its narration in both languages (`Simulation.trace`, `step`). */
export type TraceEvent = TraceEntry & { text: Text };

export interface ConsumerView { name: string;
  life: ConsumerLife; paused: PauseKind | null;
  state: MemberState; generationId: number; memberId: string; groupInstanceId: string | null;
  protocolName: string | null; isLeader: boolean; rebalanceProtocol: "eager" | "cooperative";
  topics: string[]; owned: TopicPartitions[]; ownedGeneration: number; rejoinNeeded: boolean;
  coordinator: "unknown" | "finding" | "known"; heartbeatEnabled: boolean;
  sessionDeadlineMs: number | null; pollDeadlineMs: number | null;
  link: { latencyMs: number; jitterMs: number; loss: number; cut: boolean };
  /** every consumer property by its Kafka name */ config: Record<string, string>; processingMs: number }
export interface WorldView { nowMs: number; group: GroupView | null; coordinatorAvailable: boolean;
  consumers: ConsumerView[]; inFlight: { consumer: string; api: MessageApi; correlationId: number; sentAtMs: number }[];
  topics: Record<string, number>; nextEventMs: number | null; settled: boolean }
export interface Metrics { nowMs: number; rebalances: number; generations: number; generationId: number;
  partitionsMoved: number; unownedPartitionMs: number; maxUnownedPartitionMs: number;
  unownedByPartition: { topic: string; partition: number; ms: number }[]; overlapPartitionMs: number;
  settled: boolean; settledSinceMs: number | null; unsettledMs: number; messagesSent: number;
  messagesLost: number; requestsTimedOut: number; heartbeats: number; consumerFailures: number;
  invariantViolations: number }
"#;
