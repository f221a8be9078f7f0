// Generated from the Rust types by crates/wasm/tests/typescript.rs: do not edit.
// UPDATE_TYPES=1 cargo test -p group-coordinator-wasm --test typescript rewrites it.

/** Something done to the world at a moment: by the script, or by the user from the page. */
export type Action = ({
  type: "addConsumer";
} & ConsumerSpec) | {
  consumer: string;
  type: "close";
} | {
  consumer: string;
  type: "crash";
} | {
  consumer: string;
  downMs?: number;
  type: "restart";
} | {
  consumer: string;
  type: "start";
} | {
  consumer: string;
  kind?: PauseKind;
  type: "pause";
} | {
  consumer: string;
  type: "resume";
} | {
  consumer: string;
  type: "cut";
} | {
  consumer: string;
  type: "heal";
} | {
  consumer?: string | null;
  jitterMs?: number | null;
  latencyMs?: number | null;
  loss?: number | null;
  type: "setNetwork";
} | {
  consumer: string;
  pattern?: string | null;
  topics?: string[];
  type: "subscribe";
} | {
  config: Record<string, Setting>;
  consumer: string;
  type: "setConfig";
} | {
  count: number;
  topic: string;
  type: "createPartitions";
} | {
  partitions: number;
  topic: string;
  type: "createTopic";
} | {
  downMs?: number;
  type: "failover";
} | {
  error: string;
  type: "failNextPersist";
} | {
  consumer: string;
  correlationId: number;
  response?: boolean;
  type: "deliverNow";
} | {
  consumer: string;
  correlationId: number;
  response?: boolean;
  type: "drop";
} | {
  atMs: number;
  client: string;
  /** A coordinator request, tagged by `api` (see the Coordinator's `handle`). */
  request: Request;
  type: "inject";
} | {
  atMs: number;
  type: "advance";
} | {
  groupId: string;
  type: "unload";
} | {
  groupId: string;
  type: "load";
};

export interface AlterConfigsResource {
  configs?: AlterableConfigEntry[];
  resourceName?: string;
  resourceType?: number;
}

export interface AlterConfigsResourceResponse {
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  errorMessage: string | null;
  resourceName: string;
  resourceType: number;
}

export interface AlterableConfigEntry {
  /** 0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT. */
  configOperation?: number;
  name?: string;
  value?: string | null;
}

/** An API the coordinator answers: its name, key and highest accepted version. */
export interface ApiInfo {
  key: number;
  maxVersion: number;
  name: string;
}

/** The group APIs, with Kafka's api keys and the versions this model accepts. */
export type ApiName =
  | "JoinGroup"
  | "SyncGroup"
  | "Heartbeat"
  | "LeaveGroup"
  | "OffsetCommit"
  | "OffsetFetch"
  | "DescribeGroups"
  | "ListGroups"
  | "DeleteGroups"
  | "ConsumerGroupHeartbeat"
  | "ConsumerGroupDescribe"
  | "DescribeConfigs"
  | "IncrementalAlterConfigs";

/**
 * How long the application's own code takes: not Kafka settings, but what decides how much a
 * rebalance costs a real application. `onPartitionsRevoked` commits offsets, flushes state and
 * stops work for every partition it gives up; `onPartitionsAssigned` restores state and seeks;
 * an eager rebalance pays the revoke for every partition, a cooperative one only for those that
 * move. The consumer's poll thread is busy meanwhile: the JoinGroup that follows a revoke, and
 * every later poll, wait for the listener to return, and a partition assigned is processed only
 * once `onPartitionsAssigned` has returned (the ledger counts it unowned until then).
 *
 * All zero by default (the listener returns at once), as the built-in scenarios assume unless
 * they say otherwise. Closing a consumer does not wait for its listener (every strategy pays
 * that alike).
 */
export interface Application {
  /** `onPartitionsAssigned`: ms per partition newly assigned. */
  assignMsPerPartition?: number;
  /**
   * `onPartitionsLost`: ms per partition lost (after the member was fenced or its generation
   * reset).
   */
  lostMsPerPartition?: number;
  /**
   * Polls come up to this much later than the steady `processingMs` rhythm, a different
   * amount each batch (drawn from the seed); below `processingMs`.
   */
  processingJitterMs?: number;
  /** `onPartitionsRevoked`: ms per partition given up. */
  revokeMsPerPartition?: number;
}

/**
 * Member id -> its partitions (topics ascending, partitions ascending); every member is
 * present. What `assign` and `serverAssign` return.
 */
export type Assignment = Record<string, TopicPartitions[]>;

/** What an assignor is given: topic metadata and the members' subscriptions. */
export interface AssignmentInput {
  members: AssignmentMember[];
  /** Topic -> for each partition, the racks of its replicas. Absent = no rack information. */
  racks?: Record<string, string[][]>;
  /**
   * Topic name -> number of partitions. Topics members subscribe to but missing here have no
   * metadata: nobody gets anything from them.
   */
  topics: Record<string, number>;
}

/** One member's subscription as the leader sees it. */
export interface AssignmentMember {
  /** The subscription's generation; `None` = absent (-1 on the wire). */
  generationId?: number | null;
  groupInstanceId?: string | null;
  memberId: string;
  /**
   * What the member owns (the subscription's `ownedPartitions`; for the eager `sticky`
   * assignor, the previous assignment of its user data).
   */
  ownedPartitions?: TopicPartitions[];
  rackId?: string | null;
  topics: string[];
}

export interface AssignmentRow {
  /** One per column; `None` where the consumer took nothing in that generation. */
  cells: (Cell | null)[];
  consumer: string;
  /** What it owns now, or its life when it is not running (`None`: it owns nothing). */
  now: string | null;
  /** How many partitions it owns now. */
  ownedCount: number;
  running: boolean;
}

/**
 * The table: the last generations as columns, the consumers (those of the world first, then
 * any that took something and left) as rows.
 */
export interface AssignmentTable {
  /** The columns are member epochs (a consumer-protocol run, KIP-848), not generations. */
  epochs?: boolean;
  generations: GenerationColumn[];
  /** The rows (the request's `rows` of them). */
  rows: AssignmentRow[];
  /**
   * How many rows there are in all: a consumer's, and a row for each consumer no longer in
   * the run that took an assignment.
   */
  totalRows: number;
  /**
   * Generations left out because nothing moved in them (every consumer took what it had
   * taken before; the last generation is always shown), when they were asked to be left out.
   */
  unchanged: number[];
}

/** Why the group changed state. */
export type Cause = {
  kind: "MemberAdded";
  memberId: string;
} | {
  kind: "LeaderRejoined";
  memberId: string;
} | {
  kind: "MetadataChanged";
  memberId: string;
} | {
  kind: "StaticMemberReplaced";
  memberId: string;
} | {
  kind: "MembersLeft";
  memberIds: string[];
} | {
  kind: "SessionExpired";
  memberId: string;
} | {
  kind: "SyncTimeout";
  memberIds: string[];
} | {
  kind: "JoinPhaseCompleted";
} | {
  kind: "AssignmentPersisted";
} | {
  kind: "AssignmentPersistFailed";
} | {
  kind: "GroupMaxSizeReached";
} | {
  kind: "LoadedOverCapacity";
} | {
  kind: "Unloaded";
} | {
  kind: "Deleted";
} | {
  kind: "OffsetsExpired";
} | {
  kind: "ReplacedByOtherType";
} | {
  kind: "ConvertedToConsumerGroup";
} | {
  kind: "ConvertedFromConsumerGroup";
};

/** What a consumer took in one generation (partitions written `topic-0,1 other-2`). */
export interface Cell {
  added: number;
  assigned: string;
  /**
   * How many partitions it took, and how many of them are new to it (what a large group's
   * table shows instead of the lists).
   */
  count: number;
  /** The `Assigned` entry. */
  index: number;
  revoked: string;
  revokedCount: number;
}

/** How a run's checkpoints stand, as `checkpoints` returns it. */
export interface Checkpoints {
  checkpoints: number;
  spacing: number;
}

/** A client-side timer that expired. */
export type ClientExpiry = "sessionTimeout" | "pollTimeout";

/** A setting as the page lists it: its Kafka name, default and what it does (both languages). */
export interface ConfigKeyInfo {
  default: string;
  doc: string;
  docZh: string;
  name: string;
}

/** `ConsumerProtocolAssignment`: what the leader sends each member in SyncGroup. */
export interface ConsumerAssignment {
  assignedPartitions: TopicPartitions[];
  /** base64 */
  userData?: string | null;
  /** 0–3 (the fields are the same in every version). */
  version?: number;
}

export interface ConsumerFired {
  from: ConsumerGroupState;
  index: number;
  to: ConsumerGroupState;
}

export interface ConsumerGroupDescribeRequest {
  api: "ConsumerGroupDescribe";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groupIds?: string[];
  includeAuthorizedOperations?: boolean;
}

export interface ConsumerGroupDescribeResponse {
  api: "ConsumerGroupDescribe";
  apiVersion: number;
  correlationId: number;
  groups: DescribedConsumerGroup[];
  throttleTimeMs: number;
}

/** The member's assigned partitions (not those pending revocation). */
export interface ConsumerGroupHeartbeatAssignment {
  topicPartitions: TopicIdPartitions[];
}

export interface ConsumerGroupHeartbeatRequest {
  api: "ConsumerGroupHeartbeat";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groupId?: string;
  /** `group.instance.id`; null: not given or unchanged. */
  instanceId?: string | null;
  /** 0 joins, −1 leaves, −2 leaves for a while (a static member), > 0 the current epoch. */
  memberEpoch?: number;
  /** KIP-1082: the client makes its own (a UUID) and sends it from the first heartbeat on. */
  memberId?: string;
  /** null: unchanged. */
  rackId?: string | null;
  /** −1: unchanged; required when joining. */
  rebalanceTimeoutMs?: number;
  /** null: unchanged or none. */
  serverAssignor?: string | null;
  /** null: unchanged; required and non-empty when joining. */
  subscribedTopicNames?: string[] | null;
  /** v1; not supported (INVALID_REQUEST), as in the Kafka source these rules come from. */
  subscribedTopicRegex?: string | null;
  /** What the member owns; null: unchanged; must be present and empty when joining. */
  topicPartitions?: TopicIdPartitions[] | null;
}

export interface ConsumerGroupHeartbeatResponse {
  api: "ConsumerGroupHeartbeat";
  apiVersion: number;
  /** Only when the request was a full one or the assignment changed. */
  assignment: ConsumerGroupHeartbeatAssignment | null;
  correlationId: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  errorMessage: string | null;
  heartbeatIntervalMs: number;
  memberEpoch: number;
  memberId: string | null;
  throttleTimeMs: number;
}

/** The group's state, derived after every change (`docs/src/reference/consumer-group-protocol.md#states`). */
export type ConsumerGroupState = "Empty" | "Stable" | "Dead" | "Assigning" | "Reconciling";

export interface ConsumerGroupView {
  assignmentEpoch: number;
  groupEpoch: number;
  groupId: string;
  members: ConsumerMemberView[];
  /** The server assignor the next target would be computed with. */
  preferredAssignor: "uniform" | "range";
  /** Each subscribed regular expression resolved so far, with the topics it matched. */
  resolvedRegularExpressions: ResolvedRegex[];
  state: ConsumerGroupState;
  timers: TimerView[];
  /** Always "consumer" (a classic group's view says "classic"). */
  type: "consumer";
  /**
   * The coordinator has unloaded the group (a failover under way): it answers
   * NOT_COORDINATOR and has no timers until loaded.
   */
  unloaded: boolean;
}

/** The consumer process. */
export type ConsumerLife = "notStarted" | "running" | "closed" | "crashed" | "closing" | "failed";

/**
 * A member as the coordinator holds it: its state and epoch, and its partitions written
 * `topic-0,1`.
 */
export interface ConsumerMemberRow {
  assigned: string;
  /** It speaks the classic protocol inside the consumer group (a mixed group). */
  classicProtocol: boolean;
  memberEpoch: number;
  memberId: string;
  name: string;
  pendingRevocation: string;
  state: ConsumerMemberState;
  /** Its `SubscribedTopicRegex`, when it subscribes by pattern. */
  subscribedTopicRegex?: string;
  target: string;
}

/** The coordinator's view of a member's progress (`MemberState`). */
export type ConsumerMemberState = "STABLE" | "UNREVOKED_PARTITIONS" | "UNRELEASED_PARTITIONS" | "UNKNOWN";

export interface ConsumerMemberView {
  assigned: TopicPartitionsView[];
  /**
   * The member speaks the classic protocol (JoinGroup, SyncGroup, Heartbeat) inside the
   * consumer group; its session timeout is its own.
   */
  classicProtocol: boolean;
  clientId: string;
  instanceId: string | null;
  memberEpoch: number;
  memberId: string;
  pendingRevocation: TopicPartitionsView[];
  previousMemberEpoch: number;
  rackId: string | null;
  rebalanceDeadlineMs: number | null;
  rebalanceTimeoutMs: number;
  serverAssignor: string | null;
  sessionDeadlineMs: number | null;
  state: ConsumerMemberState;
  subscribedTopicNames: string[];
  /** Its `SubscribedTopicRegex` (none: `None`). */
  subscribedTopicRegex: string | null;
  target: TopicPartitionsView[];
}

/** Why a consumer group member was removed. */
export type ConsumerRemoval =
  | "Left"
  | "SessionExpired"
  | "RebalanceTimeout"
  | "Replaced"
  | "JoinTimeout"
  | "SyncTimeout";

/** A consumer as the consumers panel shows it. */
export interface ConsumerRow {
  /** Its link to the coordinator is cut. */
  cut: boolean;
  /** Failed: the error that stopped it (`INVALID_SESSION_TIMEOUT`, ...). */
  failedWith?: string;
  generationId: number;
  groupInstanceId: string | null;
  isLeader: boolean;
  life: ConsumerLife;
  name: string;
  /** What it owns, written `topic-0,1 other-2`, and how many partitions that is. */
  owned: string;
  ownedCount: number;
  paused: PauseKind | null;
  /** The protocol it speaks now (a switch of `group.protocol` waits for its next start). */
  protocol: GroupProtocol;
  state: MemberState;
}

export interface ConsumerSpec {
  /** Overrides the scenario's application timing for this consumer. */
  application?: Application | null;
  /** Kafka consumer properties over the scenario's `consumer` defaults. */
  config?: Record<string, Setting>;
  /** The consumer's `client.id`, also its name in the views. */
  name: string;
  /** Overrides the scenario's network for this consumer's link. */
  network?: LinkSpec | null;
  /**
   * Subscribes to the topics whose whole name matches this regular expression (RE2/J syntax)
   * instead: with `group.protocol=consumer` the coordinator resolves it
   * (`subscribe(SubscriptionPattern)`, Kafka 4.0's `SubscribedTopicRegex`); a classic consumer
   * matches it against its own metadata at every refresh (`subscribe(Pattern)`,
   * `metadata.max.age.ms`) and rejoins when the matching topics change.
   */
  pattern?: string | null;
  /**
   * How long the application works on each batch between two `poll()` calls (not a Kafka
   * setting: the application's behaviour).
   */
  processingMs?: number;
  /** When the application creates the consumer and starts polling. */
  startMs?: number;
  /** `subscribe(topics)`: the topics by name (none with a `pattern`). */
  topics?: string[];
}

/** One change of a consumer group's state, with its cause. */
export interface ConsumerTransition {
  from: ConsumerGroupState;
  to: ConsumerGroupState;
  trigger: Name;
}

export interface ConsumerView {
  /** Every consumer property by its Kafka name, as the consumer uses it now. */
  config: Record<string, string>;
  coordinator: CoordinatorStatus;
  generationId: number;
  groupInstanceId: string | null;
  heartbeatEnabled: boolean;
  isLeader: boolean;
  life: ConsumerLife;
  link: LinkView;
  memberId: string;
  name: string;
  owned: TopicPartitions[];
  ownedGeneration: number;
  paused: PauseKind | null;
  pollDeadlineMs: number | null;
  processingMs: number;
  protocolName: string | null;
  rebalanceProtocol: RebalanceProtocol;
  rejoinNeeded: boolean;
  sessionDeadlineMs: number | null;
  state: MemberState;
  topics: string[];
}

/** One thing that happened, at a virtual time, to a group. */
export type CoordinatorEvent = {
  atMs: number;
  groupId: string;
} & CoordinatorEventKind;

/** What happened. */
export type CoordinatorEventKind = {
  type: "GroupCreated";
} | {
  cause: Cause;
  from: GroupState;
  to: GroupState;
  type: "StateChanged";
} | {
  generationId: number;
  protocolName: string | null;
  type: "GenerationBumped";
} | {
  groupInstanceId: string | null;
  memberId: string;
  type: "MemberAdded";
} | {
  groupInstanceId: string;
  newMemberId: string;
  oldMemberId: string;
  type: "MemberReplaced";
} | {
  newMemberId: string;
  oldMemberId: string;
  type: "MemberReplacementReverted";
} | {
  memberId: string;
  reason: RemovalReason;
  type: "MemberRemoved";
} | {
  memberId: string;
  type: "PendingMemberAdded";
} | {
  memberId: string;
  reason: RemovalReason;
  type: "PendingMemberRemoved";
} | {
  from: string | null;
  to: string | null;
  type: "LeaderChanged";
} | {
  api: ApiName;
  correlationId: number;
  memberId: string;
  type: "ResponseParked";
} | {
  api: ApiName;
  correlationId: number;
  memberId: string;
  type: "ResponseDropped";
} | {
  deadlineMs: number;
  key: string;
  type: "TimerScheduled";
} | {
  key: string;
  type: "TimerCancelled";
} | {
  key: string;
  type: "TimerFired";
} | {
  generationId: number;
  members: number;
  type: "GroupRecordPersisted";
} | {
  /** Kafka's error code; 0 = NONE. */
  error: number;
  type: "PersistFailed";
} | {
  type: "Unloaded";
} | {
  members: number;
  /** The state it is loaded in (Stable with members, Empty without). */
  state: GroupState;
  type: "Loaded";
} | {
  type: "Deleted";
} | {
  partitions: number;
  type: "OffsetsExpired";
} | {
  members: number;
  state: ConsumerGroupState;
  type: "ConsumerGroupLoaded";
} | {
  from: ConsumerGroupState;
  to: ConsumerGroupState;
  type: "ConsumerGroupStateChanged";
} | {
  groupEpoch: number;
  type: "GroupEpochBumped";
} | {
  resolved: ResolvedRegex[];
  type: "RegularExpressionsResolved";
} | {
  assignmentEpoch: number;
  assignor: "uniform" | "range";
  type: "TargetAssignmentComputed";
} | {
  memberId: string;
  type: "ConsumerMemberJoined";
} | {
  memberEpoch: number;
  memberId: string;
  previousMemberEpoch: number;
  state: ConsumerMemberState;
  type: "ConsumerMemberUpdated";
} | {
  memberId: string;
  reason: ConsumerRemoval;
  type: "ConsumerMemberRemoved";
} | {
  /** The members carried over. */
  members: number;
  to: GroupType;
  type: "GroupConverted";
};

/** Whether the client knows its coordinator (FindCoordinator). */
export type CoordinatorStatus = "unknown" | "finding" | "known";

export interface Delayed {
  deadlineMs: number;
  /**
   * The timer's kind: "join", "sync" or "heartbeat" in the classic group's panel; "session",
   * "rebalance", "join", "sync" or "regex" in a consumer group's.
   */
  kind: "join" | "sync" | "heartbeat" | "expiration" | "session" | "rebalance" | "regex";
  /** A heartbeat's member, by client id. */
  member: string | null;
}

export interface DeletableGroupResult {
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  groupId: string;
}

export interface DeleteGroupsRequest {
  api: "DeleteGroups";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groupsNames?: string[];
}

export interface DeleteGroupsResponse {
  api: "DeleteGroups";
  apiVersion: number;
  correlationId: number;
  /** Not a field of Kafka's schema: the first group's error, or NONE. */
  errorCode: number;
  results: DeletableGroupResult[];
  throttleTimeMs: number;
}

export interface DescribeConfigsRequest {
  api: "DescribeConfigs";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  /** v3+. */
  includeDocumentation?: boolean;
  /** v1+. */
  includeSynonyms?: boolean;
  resources?: DescribeConfigsResource[];
}

export interface DescribeConfigsResource {
  /** The settings to describe; None: all of them. */
  configurationKeys?: string[] | null;
  resourceName?: string;
  resourceType?: number;
}

export interface DescribeConfigsResourceResult {
  /** `ConfigSource` id: 8 GROUP_CONFIG, 5 DEFAULT_CONFIG. */
  configSource: number;
  /** `ConfigType` id (v3+): 3 INT. */
  configType: number;
  isSensitive: boolean;
  name: string;
  readOnly: boolean;
  value: string | null;
}

export interface DescribeConfigsResponse {
  api: "DescribeConfigs";
  apiVersion: number;
  correlationId: number;
  results: DescribeConfigsResult[];
  throttleTimeMs: number;
}

export interface DescribeConfigsResult {
  configs: DescribeConfigsResourceResult[];
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  errorMessage: string | null;
  resourceName: string;
  resourceType: number;
}

export interface DescribeGroupsRequest {
  api: "DescribeGroups";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groups?: string[];
  /** v3+. */
  includeAuthorizedOperations?: boolean;
}

export interface DescribeGroupsResponse {
  api: "DescribeGroups";
  apiVersion: number;
  correlationId: number;
  /** Not a field of Kafka's schema: the first group's error, or NONE. */
  errorCode: number;
  groups: DescribedGroup[];
  throttleTimeMs: number;
}

export interface DescribedAssignment {
  topicPartitions: DescribedTopicPartitions[];
}

export interface DescribedConsumerGroup {
  assignmentEpoch: number;
  assignorName: string;
  /** −2147483648: not included (no ACLs are modelled). */
  authorizedOperations: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  errorMessage: string | null;
  groupEpoch: number;
  groupId: string;
  groupState: string;
  members: DescribedConsumerGroupMember[];
}

export interface DescribedConsumerGroupMember {
  assignment: DescribedAssignment;
  clientHost: string;
  clientId: string;
  instanceId: string | null;
  memberEpoch: number;
  memberId: string;
  rackId: string | null;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  targetAssignment: DescribedAssignment;
}

export interface DescribedGroup {
  /** v3+; -2147483648 when not requested. */
  authorizedOperations: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  /** v6+ (KIP-1043): why the group could not be described. */
  errorMessage: string | null;
  groupId: string;
  /** "Empty", "PreparingRebalance", "CompletingRebalance", "Stable" or "Dead". */
  groupState: string;
  members: DescribedGroupMember[];
  /** The selected protocol, only while Stable. */
  protocolData: string;
  protocolType: string;
}

export interface DescribedGroupMember {
  clientHost: string;
  clientId: string;
  /** v4+. */
  groupInstanceId: string | null;
  /** Only while Stable; base64. */
  memberAssignment: string;
  memberId: string;
  /** Only while Stable; base64. */
  memberMetadata: string;
}

/** One topic's partitions with the topic's id and name. */
export interface DescribedTopicPartitions {
  partitions: number[];
  /** Kafka's Uuid text: 22 base64url characters. */
  topicId: string;
  topicName: string;
}

export interface Fired {
  /** Why it fired this time (the transition's cause, in the asked language). */
  cause: string;
  from: GroupState;
  index: number;
  to: GroupState;
}

/** Where following stands. */
export type FollowStatus = {
  kind: "waiting";
} | {
  checked: number;
  inputs: number;
  kind: "following";
} | {
  kind: "diverged";
  line: number;
  what: string;
} | {
  kind: "refused";
  line: number;
  what: string;
};

export interface Frame {
  /** The user's actions, with their steps (those in the future too). */
  actions: UserAction[];
  assignments?: AssignmentTable;
  /** How many consumers there are in all. */
  consumerCount?: number;
  /** The consumer group (KIP-848) of a consumer-protocol run, with its own state machine. */
  consumerGroup?: FrameConsumerGroup;
  /** The consumers (the request's `rows` of them). */
  consumers?: ConsumerRow[];
  cursor: number;
  finished: boolean;
  group: FrameGroup | null;
  /**
   * Steps known: those taken and, after going back, the known future (what the scrubber
   * spans).
   */
  knownSteps: number;
  machine: Machine;
  metrics?: MetricsSummary;
  narration: FrameNarration;
  nowMs: number;
  /** Their partition counts, in the same order. */
  partitionCounts?: number[];
  pastEnd: boolean;
  /** Whether playing stops here, and why. */
  playStop: PlayStop | null;
  steps?: StepWindow;
  timeline?: TimelineWindow;
  /** The topics (what a consumer added by the user subscribes to). */
  topics?: string[];
  traceLength: number;
  upcoming?: Upcoming[];
}

/** A consumer group (KIP-848) as the state machine's panel shows it. */
export interface FrameConsumerGroup {
  /** The epoch of the current target assignment. */
  assignmentEpoch: number;
  /** The server assignor the next target is computed with. */
  assignor: string;
  groupEpoch: number;
  /** The last change of state (none before the first). */
  last: ConsumerFired | null;
  members: ConsumerMemberRow[];
  /**
   * Each subscribed regular expression the coordinator has resolved, with the topics it
   * matched (none when no member subscribes by pattern).
   */
  resolvedRegularExpressions?: ResolvedRegex[];
  state: ConsumerGroupState;
  /** Session and rebalance timeouts, by member (client id). */
  timers: Delayed[];
}

/** The group as the state machine's panel shows it (`Simulation::snapshot` has all of it). */
export interface FrameGroup {
  /**
   * The group's delayed join and sync operations, and its members' heartbeat deadlines when
   * there are at most [`HEARTBEATS_LISTED`] (otherwise only counted).
   */
  delayed: Delayed[];
  generationId: number;
  heartbeats: number;
  /** The leader's consumer name. */
  leader: string | null;
  /** The members' client ids. */
  members: string[];
}

/** The scenario's last note so far, and what the current step did, line by line. */
export interface FrameNarration {
  /** What the step did, in the order it happened. */
  lines: NarrationLine[];
  note: string | null;
  /**
   * The note was written for the scenario as scripted, and the user's actions came before it
   * (or before the step shown): it may no longer say what happens.
   */
  noteStale: boolean;
}

/** What a frame should carry besides the group, its state machine and the narration. */
export interface FrameRequest {
  /** The assignment table with this many generations (the last ones) as columns. */
  assignments?: number | null;
  /** Leave out of the assignment table the generations in which nothing moved. */
  assignmentsChangedOnly?: boolean;
  lang?: Lang;
  /**
   * Only these rows of `consumers`, of the assignment table and of the timeline's consumer
   * lanes (a page draws a long table a page at a time: all 1,000 rows of a large group were
   * 4 MB a frame); absent, all of them.
   */
  rows?: RowWindow | null;
  steps?: StepsRequest | null;
  timeline?: TimelineRequest | null;
  /** What is about to happen: this many of the next events. */
  upcoming?: number | null;
  /** The consumers and the metrics. */
  world?: boolean;
}

/** One generation's column. */
export interface GenerationColumn {
  generationId: number;
  leader: string | null;
}

/**
 * The group after a step, as the step table shows it: what the player records per step, and
 * what a row of the table (`frame::StepRow`) shows of it.
 */
export interface GroupAfter {
  /**
   * A consumer group's (KIP-848) state after the step, as the trace told it; then
   * `generation_id` is its group epoch.
   */
  consumerState?: ConsumerGroupState;
  /**
   * The group's delayed join and sync operations after the step, by timer key (idem; the
   * heartbeats' are left out: one per member, they would fill the row).
   */
  delayed: string[];
  generationId: number;
  /** The members' client ids after the step (groups of up to [`DETAILED_UP_TO`] consumers). */
  members: string[];
  /** The group's state after the step, as the trace told it (`None` before the group exists). */
  state: GroupState | null;
}

/** `group.protocol`. */
export type GroupProtocol = "classic" | "consumer";

export interface GroupRecord {
  currentStateTimestampMs: number;
  generation: number;
  leader: string | null;
  members: GroupRecordMember[];
  protocol: string | null;
  protocolType: string | null;
}

export interface GroupRecordMember {
  /** base64 */
  assignment: string;
  clientHost: string;
  clientId: string;
  groupInstanceId: string | null;
  memberId: string;
  rebalanceTimeoutMs: number;
  sessionTimeoutMs: number;
  /** The member's metadata for the selected protocol; base64. */
  subscription: string;
}

/** Kafka's `ClassicGroupState`, named as DescribeGroups names them. */
export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";

/** The two types of consumer groups a group id can name. */
export type GroupType = "Classic" | "Consumer";

export interface GroupView {
  generationId: number;
  groupId: string;
  leaderId: string | null;
  members: MemberView[];
  /** The initial-rebalance delay may be extended (a member joined during the window). */
  newMemberAdded: boolean;
  numAwaitingJoin: number;
  /** Member ids handed out with MEMBER_ID_REQUIRED that have not joined yet. */
  pendingMembers: string[];
  /** Members that got the current generation but have not sent SyncGroup yet. */
  pendingSyncMembers: string[];
  previousState: GroupState;
  protocolName: string | null;
  protocolType: string | null;
  state: GroupState;
  stateTimestampMs: number;
  /** The group's timers in firing order. */
  timers: TimerView[];
  /** Always "classic" (a consumer group's view says "consumer"). */
  type: "classic";
  /** The coordinator lost the group's partition. */
  unloaded: boolean;
}

export interface HeartbeatRequest {
  api: "Heartbeat";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  generationId?: number;
  groupId?: string;
  /** v3+. */
  groupInstanceId?: string | null;
  memberId?: string;
}

export interface HeartbeatResponse {
  api: "Heartbeat";
  apiVersion: number;
  correlationId: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  throttleTimeMs: number;
}

/**
 * Where an imported scenario came from, and what it assumed: kept in the scenario
 * (`Scenario.imported`) so that a page, a link or a file shows it with the run.
 */
export interface Imported {
  /**
   * Each member's assignment as described (consumer name → `topic-partition`s), which the
   * run's own first assignment may not repeat.
   */
  assignment: Record<string, string[]>;
  /** The assignor the group used (the classic protocol's name, or the server assignor's). */
  assignor?: string | null;
  /**
   * The settings the description does not carry, taken at Kafka's defaults: each a key of
   * the scenario's `consumer` or `broker` settings (`consumer.session.timeout.ms`), or
   * `processingMs` for the application's time per batch.
   */
  assumed: string[];
  /** What the reader should know about the import (a guess made, a line skipped). */
  notes?: Text[];
  /** The group's protocol as described: `classic` or `consumer`. */
  protocol: string;
  /**
   * What was read, in the tool's words (`kafka-consumer-groups.sh --describe --members
   * --verbose`, `describeConsumerGroups JSON`, ...).
   */
  sources: string[];
  /** The group's state when it was described (`Stable`, `PreparingRebalance`, ...). */
  state?: string | null;
}

export interface InFlight {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  firstOnLink: boolean;
  /** The coordinator's answer (else the consumer's request). */
  response: boolean;
}

export interface InFlightView {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  sentAtMs: number;
}

export interface IncrementalAlterConfigsRequest {
  api: "IncrementalAlterConfigs";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  resources?: AlterConfigsResource[];
  validateOnly?: boolean;
}

export interface IncrementalAlterConfigsResponse {
  api: "IncrementalAlterConfigs";
  apiVersion: number;
  correlationId: number;
  responses: AlterConfigsResourceResponse[];
  throttleTimeMs: number;
}

export interface JoinGroupRequest {
  api: "JoinGroup";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groupId?: string;
  /** v5+ (static membership, KIP-345). */
  groupInstanceId?: string | null;
  /** "" for a member that has no id yet. */
  memberId?: string;
  protocolType?: string;
  /** In the member's order of preference. */
  protocols?: JoinGroupRequestProtocol[];
  /** v8+ (KIP-800), logged only. */
  reason?: string | null;
  /** v1+; v0 uses the session timeout as the rebalance timeout. */
  rebalanceTimeoutMs?: number;
  sessionTimeoutMs?: number;
}

export interface JoinGroupRequestProtocol {
  /** base64 */
  metadata?: string;
  name?: string;
}

export interface JoinGroupResponse {
  api: "JoinGroup";
  apiVersion: number;
  correlationId: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  generationId: number;
  leader: string;
  memberId: string;
  /** Only the leader gets the member list. */
  members: JoinGroupResponseMember[];
  protocolName: string | null;
  /** v7+. */
  protocolType: string | null;
  /** v9+: the returning static leader need not compute an assignment (KIP-814). */
  skipAssignment: boolean;
  throttleTimeMs: number;
}

export interface JoinGroupResponseMember {
  /** v5+. */
  groupInstanceId: string | null;
  memberId: string;
  /** base64 */
  metadata: string;
}

/**
 * Two places where Kafka's sticky family (`AbstractStickyAssignor`'s general path, Kafka 4.0)
 * misbehaves when subscriptions have changed since the owned partitions were claimed. Each is
 * Kafka's, not this model's; the model reproduces the first and deliberately diverges on the
 * second.
 */
export type KafkaQuirk = {
  kind: "PreviousOwnerNotSubscribed";
  member: string;
  partition: number;
  topic: string;
} | {
  kind: "JavaThrowsNullPointer";
  partition: number;
  previousOwner: string;
  topic: string;
};

/** The languages of the interface. */
export type Lang = "en" | "zh";

export interface LeaveGroupRequest {
  api: "LeaveGroup";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  groupId?: string;
  /** v0–v2. */
  memberId?: string;
  /** v3+ (KAFKA-8221). */
  members?: MemberIdentity[];
}

export interface LeaveGroupResponse {
  api: "LeaveGroup";
  apiVersion: number;
  correlationId: number;
  /** v0–v2: the first per-member error, or NONE. v3+: the top-level error. */
  errorCode: number;
  /** v3+. */
  members: MemberResponse[];
  throttleTimeMs: number;
}

/** A consumer's life. */
export type Lifecycle = "started" | "closed" | "crashed" | "paused" | "resumed";

/** One line of a step: an entry's narration. */
export interface Line {
  index: number;
  /** The scenario's own note (set apart from what the model did). */
  note: boolean;
  text: string;
}

/** Latency, jitter and loss of the link between a consumer and the coordinator (each way). */
export interface LinkSpec {
  /** Each message is delayed by a further 0..=jitter ms, drawn from the seed. */
  jitterMs?: number;
  latencyMs?: number;
  /** Probability in 0..=1 that a message is lost. */
  loss?: number;
}

/** Latency, jitter and loss of the link between a consumer and the coordinator (each way). */
export interface LinkView {
  cut: boolean;
  /** Each message is delayed by a further 0..=jitter ms, drawn from the seed. */
  jitterMs: number;
  latencyMs: number;
  /** Probability in 0..=1 that a message is lost. */
  loss: number;
}

export interface ListGroupsRequest {
  api: "ListGroups";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  /** v4+: only groups in these states (case-insensitive); empty = all. */
  statesFilter?: string[];
  /** v5+: only groups of these types ("classic", "consumer"); empty = all. */
  typesFilter?: string[];
}

export interface ListGroupsResponse {
  api: "ListGroups";
  apiVersion: number;
  correlationId: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  groups: ListedGroup[];
  throttleTimeMs: number;
}

export interface ListedGroup {
  groupId: string;
  /** v4+. */
  groupState: string;
  /** v5+. */
  groupType: string;
  protocolType: string;
}

/** Why a message never arrived. */
export type LossReason = "loss" | "cut" | "consumerDown" | "dropped";

/**
 * The state machine: the group's state and the last transition that fired (none before the
 * first, or after a load: the group entered its state without a transition).
 */
export interface Machine {
  last: Fired | null;
  state: GroupState;
}

export interface MemberIdentity {
  groupInstanceId?: string | null;
  memberId?: string;
  /** v5+ (KIP-800), logged only. */
  reason?: string | null;
}

export interface MemberResponse {
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  groupInstanceId: string | null;
  memberId: string;
}

/**
 * The Java client's member state: the classic protocol's (`AbstractCoordinator.MemberState`,
 * `docs/src/reference/classic-protocol.md#client-state`) and the consumer protocol's
 * (`internals.MemberState` of the KIP-848 consumer,
 * `docs/src/reference/consumer-group-protocol.md#client`). `Stable` is both protocols'.
 */
export type MemberState =
  | "Unjoined"
  | "PreparingRebalance"
  | "CompletingRebalance"
  | "Stable"
  | "Unsubscribed"
  | "Joining"
  | "Reconciling"
  | "Acknowledging"
  | "Fenced"
  | "PrepareLeaving"
  | "Leaving"
  | "Stale";

export interface MemberView {
  /** base64 */
  assignment: string;
  awaitingJoin: boolean;
  awaitingSync: boolean;
  clientId: string;
  groupInstanceId: string | null;
  isLeader: boolean;
  isNew: boolean;
  memberId: string;
  protocols: string[];
  rebalanceTimeoutMs: number;
  /** When the member's heartbeat timer fires, if armed. */
  sessionDeadlineMs: number | null;
  sessionTimeoutMs: number;
}

/**
 * What travels between a consumer and the coordinator's broker: the group APIs of the core,
 * plus FindCoordinator, which any broker answers.
 */
export type MessageApi =
  | "FindCoordinator"
  | "JoinGroup"
  | "SyncGroup"
  | "Heartbeat"
  | "LeaveGroup"
  | "OffsetCommit"
  | "ConsumerGroupHeartbeat";

/** `updateMetadata`'s argument: topics consumer groups are assigned from. */
export interface MetadataUpdate {
  topics: TopicUpdate[];
}

/** The run's cost, in the terms PLAYGROUND.md compares configurations by. */
export interface Metrics {
  consumerFailures: number;
  generationId: number;
  /** Generations completed (join phases). */
  generations: number;
  heartbeats: number;
  invariantViolations: number;
  /** The longest time one partition was unowned in all. */
  maxUnownedPartitionMs: number;
  messagesLost: number;
  messagesSent: number;
  nowMs: number;
  /**
   * Partition-milliseconds during which a partition had two owners (a zombie that had not
   * learnt it was out of the group; the classic protocol allows it, commits fence it).
   */
  overlapPartitionMs: number;
  /** Partitions handed to a different consumer than the one that had them last. */
  partitionsMoved: number;
  /** Times the group entered PreparingRebalance. */
  rebalances: number;
  requestsTimedOut: number;
  /**
   * Whether the group is settled now, since when, and the time spent unsettled after it
   * first settled.
   */
  settled: boolean;
  settledSinceMs: number | null;
  unownedByPartition: PartitionTime[];
  /** Partition-milliseconds during which an already-consumed partition had no owner. */
  unownedPartitionMs: number;
  unsettledMs: number;
}

/** The metrics panel's figures (`Simulation::metrics` has them all). */
export interface MetricsSummary {
  generationId: number;
  invariantViolations: number;
  partitionsMoved: number;
  rebalances: number;
  settled: boolean;
  settledSinceMs: number | null;
  unownedPartitionMs: number;
}

/** What a step's moment is and says. */
export interface Moment {
  /** The narration of the entry that made it (member ids shortened), in both languages. */
  label: Text;
  mark: StepMark;
}

/** A moment of the run and its step, as `moments` returns them: the scrubber's chapters. */
export interface MomentAt {
  label: Text;
  mark: StepMark;
  step: number;
}

/** A name in both languages. */
export interface Name {
  en: string;
  zh: string;
}

/** A coordinator event with its narration in English and Chinese, as `events` returns it. */
export type NarratedCoordinatorEvent = {
  text: Text;
} & CoordinatorEvent;

/**
 * One thing the step did; `lead` marks what changed (the group's state, generation or members,
 * an answer from the coordinator, an assignment, a consumer's life, an action), which the page
 * says first, the rest beneath it.
 */
export interface NarrationLine {
  lead: boolean;
  text: string;
}

export interface OffsetCommitRequest {
  api: "OffsetCommit";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  /** v1+; -1 = a commit from outside group management. */
  generationIdOrMemberEpoch?: number;
  groupId?: string;
  /** v7+. */
  groupInstanceId?: string | null;
  /** v1+. */
  memberId?: string;
  /** v2–v4; -1 = the broker's retention. */
  retentionTimeMs?: number;
  topics?: OffsetCommitRequestTopic[];
}

export interface OffsetCommitRequestPartition {
  /** v1 only. */
  commitTimestamp?: number;
  /** v6+. */
  committedLeaderEpoch?: number;
  committedMetadata?: string | null;
  committedOffset?: number;
  partitionIndex?: number;
}

export interface OffsetCommitRequestTopic {
  name?: string;
  partitions?: OffsetCommitRequestPartition[];
}

export interface OffsetCommitResponse {
  api: "OffsetCommit";
  apiVersion: number;
  correlationId: number;
  /**
   * Not a field of Kafka's schema: the first partition error, or NONE, so every response
   * carries an `errorCode`.
   */
  errorCode: number;
  throttleTimeMs: number;
  topics: OffsetCommitResponseTopic[];
}

export interface OffsetCommitResponsePartition {
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  partitionIndex: number;
}

export interface OffsetCommitResponseTopic {
  name: string;
  partitions: OffsetCommitResponsePartition[];
}

export interface OffsetFetchRequest {
  api: "OffsetFetch";
  apiVersion: number;
  clientId?: string;
  correlationId?: number;
  /** v0–v7. */
  groupId?: string;
  /** v8+. */
  groups?: OffsetFetchRequestGroup[];
  /** v7+. */
  requireStable?: boolean;
  /** v0–v7; `None` (v2+) fetches every committed offset of the group. */
  topics?: OffsetFetchRequestTopic[] | null;
}

export interface OffsetFetchRequestGroup {
  groupId?: string;
  /** v9+. */
  memberEpoch?: number;
  /** v9+. */
  memberId?: string | null;
  topics?: OffsetFetchRequestTopic[] | null;
}

export interface OffsetFetchRequestTopic {
  name?: string;
  partitionIndexes?: number[];
}

export interface OffsetFetchResponse {
  api: "OffsetFetch";
  apiVersion: number;
  correlationId: number;
  /** v2+ top-level error (for v8+, the first group's error). */
  errorCode: number;
  /** v8+. */
  groups: OffsetFetchResponseGroup[];
  throttleTimeMs: number;
  /** v0–v7. */
  topics: OffsetFetchResponseTopic[];
}

export interface OffsetFetchResponseGroup {
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  groupId: string;
  topics: OffsetFetchResponseTopic[];
}

export interface OffsetFetchResponsePartition {
  /** v5+. */
  committedLeaderEpoch: number;
  committedOffset: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  metadata: string | null;
  partitionIndex: number;
}

export interface OffsetFetchResponseTopic {
  name: string;
  partitions: OffsetFetchResponsePartition[];
}

export interface Ownership {
  /** Consumers in the order they first owned something (the view's colours). */
  owners: string[];
  /** Partitions ever owned, by topic then partition. */
  partitions: PartitionOwnership[];
}

export interface PartitionOwnership {
  partition: number;
  /** In the order they began. */
  segments: Segment[];
  topic: string;
}

export interface PartitionTime {
  ms: number;
  partition: number;
  topic: string;
}

/** What a pause stops. */
export type PauseKind = "processing" | "gc";

/** Why playing stops here. */
export type PlayStop = "scenarioEnd" | "atRest" | "playOnLimit" | "nothingLeft" | "recordFull";

/**
 * The rebalance protocol a consumer follows (KIP-429): the highest one every configured
 * assignor supports.
 */
export type RebalanceProtocol = "eager" | "cooperative";

/** Why a member or a pending member left the group. */
export type RemovalReason =
  | "LeaveGroup"
  | "SessionTimeout"
  | "NotRejoined"
  | "SyncTimeout"
  | "GroupMaxSize"
  | "Joined";

/** A request to the coordinator. */
export type Request =
  | JoinGroupRequest
  | SyncGroupRequest
  | HeartbeatRequest
  | LeaveGroupRequest
  | OffsetCommitRequest
  | OffsetFetchRequest
  | DescribeGroupsRequest
  | ListGroupsRequest
  | DeleteGroupsRequest
  | ConsumerGroupHeartbeatRequest
  | ConsumerGroupDescribeRequest
  | DescribeConfigsRequest
  | IncrementalAlterConfigsRequest;

/** A regular expression and the topics it resolved to. */
export interface ResolvedRegex {
  regex: string;
  topics: string[];
}

/** A response from the coordinator. */
export type Response =
  | JoinGroupResponse
  | SyncGroupResponse
  | HeartbeatResponse
  | LeaveGroupResponse
  | OffsetCommitResponse
  | OffsetFetchResponse
  | DescribeGroupsResponse
  | ListGroupsResponse
  | DeleteGroupsResponse
  | ConsumerGroupHeartbeatResponse
  | ConsumerGroupDescribeResponse
  | DescribeConfigsResponse
  | IncrementalAlterConfigsResponse;

/** A response in one line in each language (the model's narration), and the error it carries. */
export interface ResponseText {
  errorCode: number;
  text: Text;
}

/** Rows `from` (0-based) to `from + count` of a table. */
export interface RowWindow {
  count: number;
  from: number;
}

export interface Scenario {
  /** The application's timing every consumer starts from (see [`Application`]). */
  application?: Application;
  /** Kafka broker properties (`group.initial.rebalance.delay.ms`, ...). */
  broker?: Record<string, Setting>;
  /** Kafka consumer properties every consumer starts from. */
  consumer?: Record<string, Setting>;
  consumers: ConsumerSpec[];
  description?: Text;
  /** How long the scenario runs (the page's end of the scrubber); `runUntil` may go further. */
  durationMs?: number;
  /**
   * The scenario group's own settings (KIP-848 group configs: `consumer.session.timeout.ms`,
   * `consumer.heartbeat.interval.ms`), over the broker's `group.consumer.*`: as an admin's
   * IncrementalAlterConfigs of the group before the run starts. Consumer-protocol members
   * use them; classic members do not.
   */
  group?: Record<string, Setting>;
  groupId?: string;
  /**
   * A real group's description this scenario was read from (`importGroup`): its sources,
   * what was assumed, and the members' assignments as described.
   */
  imported?: Imported | null;
  /**
   * What the scenario's key moment (its script step marked `key`) shows, in a few words: the
   * picker's one-click list of moments names it.
   */
  keyMoment?: Text | null;
  /**
   * A live run: the group's members are real clients outside the run, whose requests come in
   * as `inject` actions (a `group-broker` trace, which the page follows). Nothing is
   * simulated around the coordinator: no consumers of the scenario's own, no script actions,
   * and the coordinator's timers fire only at `advance` actions, when the broker fired them.
   */
  live?: boolean;
  name: string;
  network?: LinkSpec;
  script?: ScriptStep[];
  seed?: number;
  title: Text;
  /** Topic -> partition count. */
  topics: Record<string, number>;
}

/** What the scenario picker lists. */
export interface ScenarioInfo {
  consumers: number;
  description: Text;
  durationMs: number;
  /**
   * What its key moment shows, when it names one in a few words (the picker's one-click
   * list).
   */
  keyMoment?: Text;
  /** Its script switches consumers to the other protocol (a rolling upgrade or downgrade). */
  migration?: boolean;
  name: string;
  /** A consumer subscribes by pattern (`subscribe(Pattern)`), from the start or by an action. */
  pattern?: boolean;
  /** The protocol its consumers speak (`group.protocol` of the first). */
  protocol: GroupProtocol;
  title: Text;
}

/** One line of the script: an action, a narration checkpoint, or both, at a time. */
export interface ScriptStep {
  action?: Action | null;
  atMs: number;
  /**
   * The scenario's key moment (at most one step, with a narration): where a link or an embed
   * with `moment=key`, and the page's "key moment" button, open the run.
   */
  key?: boolean;
  narrate?: Text | null;
}

/** A consumer held the partition from `from` until `to` (`None`: it still does). */
export interface Segment {
  from: number;
  owner: string;
  to: number | null;
}

/**
 * `serverAssign`'s input: partition counts by topic name, and the members with their previous
 * target assignment.
 */
export interface ServerAssignInput {
  members: ServerAssignMember[];
  topics: Record<string, number>;
}

/** A member of a consumer group as the server assignors see it. */
export interface ServerAssignMember {
  /** Its previous target assignment. */
  assignment?: TopicPartitions[];
  instanceId?: string | null;
  memberId: string;
  /** Taken, as Kafka's ConsumerGroupHeartbeat carries it; neither server assignor reads it. */
  rackId?: string | null;
  subscribedTopics: string[];
}

/** A setting's value as JSON gives it. */
export type Setting = boolean | number | string;

/**
 * Kafka property name -> value (number, string or boolean): a scenario's settings, or a
 * coordinator's (`new Coordinator(config)`).
 */
export type Settings = Record<string, Setting>;

/** An action the user took, applied after `step` steps. */
export interface StepAction {
  action: Action;
  step: number;
}

/** Who did what a step did. */
export type StepActor = {
  name: string;
  type: "consumer";
} | {
  type: "coordinator";
} | {
  type: "network";
} | {
  type: "action";
} | {
  type: "scenario";
};

/** What makes a step a moment, most telling first (a step is labelled by its first). */
export type StepMark =
  | "key"
  | "fault"
  | "migration"
  | "leave"
  | "rebalance"
  | "stable"
  | "generation"
  | "assigned"
  | "join"
  | "expiry";

/** What one step did and left: the step table's row. */
export type StepRecord = {
  atMs: number;
  end: number;
  /** Trace entries `[first, end)` were recorded by this step (and by actions taken after it). */
  first: number;
  /** What the step's entries mark, one per entry that calls for a mark. */
  marks: StepMark[];
  /** The moment the step is, if it is one (boxed: most steps are none). */
  moment?: Moment;
  /**
   * The last change of the group's state in this step (with the actions after it), if any:
   * what the state machine shows as the transition that just fired.
   */
  transition: StepTransition | null;
} & GroupAfter;

/** A row of the step table. */
export type StepRow = {
  actor: StepActor;
  atMs: number;
  end: number;
  /** Its entries are `[first, end)`. */
  first: number;
  lines: Line[];
  /** 1-based, as the table numbers steps. */
  step: number;
} & GroupAfter;

/**
 * A change of the group's state: a transition of the table (`from` is the state left), or a
 * load from the group's record (`from` is `None`: no transition happened).
 */
export interface StepTransition {
  from: GroupState | null;
  /** The trace entry that tells it. */
  index: number;
  to: GroupState;
}

export interface StepWindow {
  /** Steps `[from, to)` (0-based) of `total` taken. */
  from: number;
  rows: StepRow[];
  to: number;
  total: number;
}

export interface StepsRequest {
  /**
   * Without `from`: a trace entry the reader selected elsewhere (a timeline bar, a table
   * cell); a window that does not hold its step is moved to the one that does, so that the
   * selection always shows in the table.
   */
  around?: number | null;
  /** The first step listed (0-based); absent, the window ends at the current step. */
  from?: number | null;
  span: number;
}

/** `ConsumerProtocolSubscription`: what a consumer puts in its JoinGroup protocol metadata. */
export interface Subscription {
  /** -1 when absent. */
  generationId?: number;
  ownedPartitions?: TopicPartitions[];
  rackId?: string | null;
  topics: string[];
  /** base64 */
  userData?: string | null;
  /** 0–3. v1 adds `ownedPartitions`, v2 `generationId`, v3 `rackId`. */
  version?: number;
}

export interface SyncGroupRequest {
  api: "SyncGroup";
  apiVersion: number;
  /** Only the leader sends a non-empty list. */
  assignments?: SyncGroupRequestAssignment[];
  clientId?: string;
  correlationId?: number;
  generationId?: number;
  groupId?: string;
  /** v3+. */
  groupInstanceId?: string | null;
  memberId?: string;
  /** v5+ (KIP-559). */
  protocolName?: string | null;
  /** v5+ (KIP-559). */
  protocolType?: string | null;
}

export interface SyncGroupRequestAssignment {
  /** base64 */
  assignment?: string;
  memberId?: string;
}

export interface SyncGroupResponse {
  api: "SyncGroup";
  apiVersion: number;
  /** base64 */
  assignment: string;
  correlationId: number;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  /** v5+. */
  protocolName: string | null;
  /** v5+. */
  protocolType: string | null;
  throttleTimeMs: number;
}

/** A text in the two languages of the interface. */
export interface Text {
  en: string;
  zh: string;
}

/** An action and the time it was applied at, as `actions` returns them. */
export interface TimedAction {
  action: Action;
  atMs: number;
}

/**
 * A bar as a view draws it: `end` is where it ends now (the current time for an open one).
 * Neighbouring bars of one lane and API closer than the asked resolution are drawn as one, and
 * `merged` counts them.
 */
export interface TimelineBar {
  api: MessageApi;
  correlationId: number;
  endMs: number;
  /** A ConsumerGroupHeartbeat's member epoch (bars of different epochs are never merged). */
  epoch?: number;
  error?: string;
  /** The `RequestSent` entry (what selecting the bar selects). */
  index: number;
  lane: number;
  lost?: boolean;
  merged?: number;
  /**
   * (The flags and `merged` are left out of the JSON when false and 1: a frame carries
   * hundreds of bars, most of them plain.)
   */
  open?: boolean;
  sentMs: number;
  timedOut?: boolean;
}

/** What a mark marks. */
export type TimelineMark = {
  atMs: number;
  index: number;
  lane: number;
} & ({
  state: GroupState;
  type: "state";
} | {
  key: string;
  type: "timer";
} | {
  type: "life";
  what: Lifecycle;
} | {
  expiry: ClientExpiry;
  type: "expiry";
} | {
  type: "cut";
} | {
  type: "heal";
} | {
  type: "failover";
});

export interface TimelineRequest {
  /** Where the window ends (panned back in time); absent or later than now: now. */
  endMs?: number | null;
  /** Bars closer than this (about a pixel) are drawn as one; 0 keeps every bar. */
  resolutionMs?: number;
  /** The selected entry: its bar is never merged. */
  selected?: number | null;
  /** How much time before now the window shows. */
  windowMs: number;
}

/**
 * What the timeline shows of `[fromMs, toMs]`: lane 0 is the coordinator's, lane k the k-th
 * consumer's (in the order they first appeared).
 */
export interface TimelineWindow {
  /** In send order. */
  bars: TimelineBar[];
  fromMs: number;
  /** How many consumers' lanes there are in all. */
  laneCount: number;
  /**
   * The consumers' lanes shown (a window of them when the frame asked for `rows`: its bars
   * and marks are then numbered within it, lane 0 still the coordinator's).
   */
  lanes: string[];
  /** In the order they happened. */
  marks: TimelineMark[];
  toMs: number;
}

/** A timer as the views show it. */
export interface TimerView {
  deadlineMs: number;
  /** Kafka's key: `join-<group>`, `sync-<group>`, `heartbeat-<group>-<member>`. */
  key: string;
  /**
   * "join", "sync", "heartbeat" or "expiration" (the offsets cleanup) in a classic group;
   * "join", "sync", "session", "rebalance" or "regex" (its refresh) in a consumer group.
   */
  kind: "join" | "sync" | "heartbeat" | "expiration" | "session" | "rebalance" | "regex";
  /** The member of a heartbeat timer. */
  memberId: string | null;
}

/** One topic's partitions, by topic id. */
export interface TopicIdPartitions {
  partitions?: number[];
  /** Kafka's Uuid text: 22 base64url characters. */
  topicId?: string;
}

/** A topic consumer groups are assigned from, as `topics` lists it. */
export interface TopicInfo {
  name: string;
  partitions: number;
  topicId: string;
}

/** Partitions of one topic (`TopicPartition` lists grouped by topic, in Kafka's field order). */
export interface TopicPartitions {
  partitions: number[];
  /**
   * Shared: an assignment names each topic once per member, so the name is reference-counted
   * instead of copied.
   */
  topic: string;
}

/** One topic's partitions, by topic name. */
export interface TopicPartitionsView {
  partitions: number[];
  topic: string;
}

/** A topic of `updateMetadata`: without `topicId`, one derived from its name. */
export interface TopicUpdate {
  name: string;
  partitions: number;
  /** For each partition, its replicas' racks (taken; the server assignors do not read them). */
  racks?: string[][] | null;
  /** Kafka's Uuid text: 22 base64url characters. */
  topicId?: string | null;
}

/** A trace entry: when, and what. */
export type TraceEntry = {
  atMs: number;
  index: number;
} & ({
  /** The scenario's key moment. */
  key?: boolean;
  note: Text;
  type: "narration";
} | {
  action: Action;
  type: "action";
} | {
  action: Action;
  type: "actionIgnored";
  why: string;
} | {
  consumer: string;
  type: "lifecycle";
  what: Lifecycle;
} | {
  api: MessageApi;
  consumer: string;
  /** Sent by a consumer-protocol member: `generation_id` is its member epoch. */
  consumerProtocol?: boolean;
  correlationId: number;
  generationId: number;
  memberId: string;
  request?: Request;
  type: "requestSent";
} | {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  type: "requestDelivered";
} | {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  error: string;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  response?: Response;
  type: "responseSent";
} | {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  error: string;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  type: "responseDelivered";
} | {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  reason: LossReason;
  response: boolean;
  type: "messageLost";
} | {
  api: MessageApi;
  consumer: string;
  correlationId: number;
  type: "requestTimedOut";
} | {
  event: CoordinatorEventKind;
  type: "coordinator";
} | {
  consumer: string;
  from: MemberState;
  to: MemberState;
  type: "clientState";
} | {
  added: [string, number][];
  assigned: [string, number][];
  consumer: string;
  /** A consumer-protocol member's reconciliation: `generation_id` is its member epoch. */
  consumerProtocol?: boolean;
  generationId: number;
  /**
   * How long the rebalance listener (`onPartitionsRevoked` for `revoked`, then
   * `onPartitionsAssigned` for `added`) keeps the poll thread busy.
   */
  listenerMs?: number;
  revoked: [string, number][];
  type: "assigned";
} | {
  consumer: string;
  /** How long the listener keeps the poll thread busy. */
  listenerMs?: number;
  lost: boolean;
  partitions: [string, number][];
  type: "revoked";
} | {
  consumer: string;
  expiry: ClientExpiry;
  type: "clientExpired";
} | {
  consumer: string;
  type: "metadataRefreshed";
} | {
  consumer: string;
  reason: string;
  type: "rejoinRequested";
} | {
  consumer: string;
  quirk: KafkaQuirk;
  type: "assignorQuirk";
} | {
  consumer: string;
  error: string;
  /** Kafka's error code; 0 = NONE. */
  errorCode: number;
  type: "consumerFailed";
} | {
  message: string;
  type: "invariantViolated";
});

/** A narrated trace entry, as the views and the JS API get it. */
export type TraceEvent = {
  text: Text;
} & TraceEntry;

/** One transition of the table, with its trigger. */
export interface Transition {
  from: GroupState;
  to: GroupState;
  trigger: Name;
}

/** One thing about to happen. */
export interface Upcoming {
  atMs: number;
  /** The consumer it happens to or for (its timeline lane); `None`: the coordinator's. */
  consumer?: string;
  /**
   * A message in flight: who, which, which way, and whether it can be chosen (the first in
   * flight on its link that way).
   */
  message?: InFlight;
  /** What it is, in the asked language. */
  text: string;
}

/** An action of the user's, as the list of them shows it. */
export interface UserAction {
  step: number;
  text: string;
}

/** Everything the page names, in one value. */
export interface Vocabulary {
  /**
   * The client's own states in the order a member goes through them, and its transitions:
   * classic protocol, then consumer protocol.
   */
  clientStates: MemberState[];
  clientStatesConsumer: MemberState[];
  clientTransitions: [MemberState, MemberState][];
  clientTransitionsConsumer: [MemberState, MemberState][];
  /** The consumer group's (KIP-848) states and the changes between them. */
  consumerGroupStates: [ConsumerGroupState, Name][];
  /** The coordinator's view of a consumer group member. */
  consumerMemberStates: [ConsumerMemberState, Name][];
  consumerTransitions: ConsumerTransition[];
  /** By Kafka's state name. */
  groupStates: [GroupState, Name][];
  lives: [ConsumerLife, Name][];
  /** By the names the snapshot uses for them (`ConsumerView.state`, `.life`, `.paused`). */
  memberStates: [MemberState, Name][];
  pauses: [PauseKind, Name][];
  transitions: Transition[];
}

export interface WorldView {
  consumers: ConsumerView[];
  /** False while a failover is under way. */
  coordinatorAvailable: boolean;
  group: GroupView | null;
  /** Requests sent and not yet answered (or lost), oldest first. */
  inFlight: InFlightView[];
  nextEventMs: number | null;
  nowMs: number;
  settled: boolean;
  topics: Record<string, number>;
}
