// Generated from the Rust types by crates/wasm/tests/typescript.rs: do not edit.
// UPDATE_TYPES=1 cargo test -p group-coordinator-wasm --test typescript rewrites it.

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

/** One thing that happened, at a virtual time, to a group. */
export type CoordinatorEvent = {
  atMs: number;
  groupId: string;
} & ({
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
});

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
  partitions: number[];
  /** Kafka's Uuid text: 22 base64url characters. */
  topicId: string;
}

/** One topic's partitions, by topic name. */
export interface TopicPartitionsView {
  partitions: number[];
  topic: string;
}
