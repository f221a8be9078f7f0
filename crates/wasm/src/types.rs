//! Hand-written TypeScript types for everything that crosses the boundary (the shapes the
//! serde derives of `group-coordinator` produce).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";
export type ApiName = "JoinGroup" | "SyncGroup" | "Heartbeat" | "LeaveGroup" | "OffsetCommit"
  | "OffsetFetch" | "DescribeGroups" | "ListGroups" | "DeleteGroups";

/** Fields every request carries. Every other field may be left out (Kafka's schema default). */
export interface RequestHeader { apiVersion: number; correlationId?: number; clientId?: string }
export interface Protocol { name: string; metadata?: string /* base64 */ }
export interface JoinGroupRequest extends RequestHeader { api: "JoinGroup"; groupId: string;
  sessionTimeoutMs: number; rebalanceTimeoutMs?: number; memberId?: string;
  groupInstanceId?: string | null; protocolType: string; protocols: Protocol[]; reason?: string | null }
export interface SyncGroupRequest extends RequestHeader { api: "SyncGroup"; groupId: string;
  generationId: number; memberId: string; groupInstanceId?: string | null; protocolType?: string | null;
  protocolName?: string | null; assignments?: { memberId: string; assignment: string }[] }
export interface HeartbeatRequest extends RequestHeader { api: "Heartbeat"; groupId: string;
  generationId: number; memberId: string; groupInstanceId?: string | null }
export interface MemberIdentity { memberId?: string; groupInstanceId?: string | null; reason?: string | null }
export interface LeaveGroupRequest extends RequestHeader { api: "LeaveGroup"; groupId: string;
  memberId?: string /* v0-v2 */; members?: MemberIdentity[] /* v3+ */ }
export interface OffsetCommitRequest extends RequestHeader { api: "OffsetCommit"; groupId: string;
  generationIdOrMemberEpoch?: number; memberId?: string; groupInstanceId?: string | null;
  retentionTimeMs?: number; topics: { name: string; partitions: { partitionIndex: number;
  committedOffset: number; committedLeaderEpoch?: number; commitTimestamp?: number;
  committedMetadata?: string | null }[] }[] }
export interface OffsetFetchTopic { name: string; partitionIndexes: number[] }
export interface OffsetFetchRequest extends RequestHeader { api: "OffsetFetch"; groupId?: string;
  topics?: OffsetFetchTopic[] | null; groups?: { groupId: string; memberId?: string | null;
  memberEpoch?: number; topics?: OffsetFetchTopic[] | null }[]; requireStable?: boolean }
export interface DescribeGroupsRequest extends RequestHeader { api: "DescribeGroups"; groups: string[];
  includeAuthorizedOperations?: boolean }
export interface ListGroupsRequest extends RequestHeader { api: "ListGroups"; statesFilter?: string[];
  typesFilter?: string[] }
export interface DeleteGroupsRequest extends RequestHeader { api: "DeleteGroups"; groupsNames: string[] }
export type Request = JoinGroupRequest | SyncGroupRequest | HeartbeatRequest | LeaveGroupRequest
  | OffsetCommitRequest | OffsetFetchRequest | DescribeGroupsRequest | ListGroupsRequest
  | DeleteGroupsRequest;

export interface ResponseHeader { apiVersion: number; correlationId: number; throttleTimeMs: number;
  /** Kafka's error code; 0 = NONE. */ errorCode: number }
export interface JoinGroupResponse extends ResponseHeader { api: "JoinGroup"; generationId: number;
  protocolType: string | null; protocolName: string | null; leader: string; skipAssignment: boolean;
  memberId: string; members: { memberId: string; groupInstanceId: string | null; metadata: string }[] }
export interface SyncGroupResponse extends ResponseHeader { api: "SyncGroup"; protocolType: string | null;
  protocolName: string | null; assignment: string }
export interface HeartbeatResponse extends ResponseHeader { api: "Heartbeat" }
export interface LeaveGroupResponse extends ResponseHeader { api: "LeaveGroup";
  members: { memberId: string; groupInstanceId: string | null; errorCode: number }[] }
export interface OffsetCommitResponse extends ResponseHeader { api: "OffsetCommit";
  topics: { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[] }
export interface OffsetFetchPartition { partitionIndex: number; committedOffset: number;
  committedLeaderEpoch: number; metadata: string | null; errorCode: number }
export interface OffsetFetchResponse extends ResponseHeader { api: "OffsetFetch";
  topics: { name: string; partitions: OffsetFetchPartition[] }[];
  groups: { groupId: string; errorCode: number; topics: { name: string; partitions: OffsetFetchPartition[] }[] }[] }
export interface DescribeGroupsResponse extends ResponseHeader { api: "DescribeGroups";
  groups: { errorCode: number; groupId: string; groupState: string; protocolType: string;
  protocolData: string; authorizedOperations: number; members: { memberId: string;
  groupInstanceId: string | null; clientId: string; clientHost: string; memberMetadata: string;
  memberAssignment: string }[] }[] }
export interface ListGroupsResponse extends ResponseHeader { api: "ListGroups";
  groups: { groupId: string; protocolType: string; groupState: string; groupType: string }[] }
export interface DeleteGroupsResponse extends ResponseHeader { api: "DeleteGroups";
  results: { groupId: string; errorCode: number }[] }
export type Response = JoinGroupResponse | SyncGroupResponse | HeartbeatResponse | LeaveGroupResponse
  | OffsetCommitResponse | OffsetFetchResponse | DescribeGroupsResponse | ListGroupsResponse
  | DeleteGroupsResponse;

export interface MemberView { memberId: string; groupInstanceId: string | null; clientId: string;
  sessionTimeoutMs: number; rebalanceTimeoutMs: number; protocols: string[]; isLeader: boolean;
  isNew: boolean; awaitingJoin: boolean; awaitingSync: boolean; sessionDeadlineMs: number | null;
  /** base64 */ assignment: string }
export interface TimerView { key: string; kind: "join" | "sync" | "heartbeat" | "expiration"; memberId: string | null;
  deadlineMs: number }
export interface GroupView { groupId: string; state: GroupState; previousState: GroupState;
  stateTimestampMs: number; generationId: number; protocolType: string | null;
  protocolName: string | null; leaderId: string | null; members: MemberView[];
  pendingMembers: string[]; pendingSyncMembers: string[]; numAwaitingJoin: number;
  newMemberAdded: boolean; unloaded: boolean; timers: TimerView[] }

export type RemovalReason = "LeaveGroup" | "SessionTimeout" | "NotRejoined" | "SyncTimeout"
  | "GroupMaxSize" | "Joined";
export type Cause =
  | { kind: "MemberAdded" | "LeaderRejoined" | "MetadataChanged" | "StaticMemberReplaced" | "SessionExpired"; memberId: string }
  | { kind: "MembersLeft" | "SyncTimeout"; memberIds: string[] }
  | { kind: "JoinPhaseCompleted" | "AssignmentPersisted" | "AssignmentPersistFailed"
      | "GroupMaxSizeReached" | "LoadedOverCapacity" | "Unloaded" | "Deleted" | "OffsetsExpired" };
export type CoordinatorEvent = { atMs: number; groupId: string } & (
  | { type: "GroupCreated" | "Unloaded" | "Deleted" }
  | { type: "StateChanged"; from: GroupState; to: GroupState; cause: Cause }
  | { type: "GenerationBumped"; generationId: number; protocolName: string | null }
  | { type: "MemberAdded"; memberId: string; groupInstanceId: string | null }
  | { type: "MemberReplaced"; oldMemberId: string; newMemberId: string; groupInstanceId: string }
  | { type: "MemberReplacementReverted"; oldMemberId: string; newMemberId: string }
  | { type: "MemberRemoved" | "PendingMemberRemoved"; memberId: string; reason: RemovalReason }
  | { type: "PendingMemberAdded"; memberId: string }
  | { type: "LeaderChanged"; from: string | null; to: string | null }
  | { type: "ResponseParked" | "ResponseDropped"; memberId: string; api: ApiName; correlationId: number }
  | { type: "TimerScheduled"; key: string; deadlineMs: number }
  | { type: "TimerCancelled" | "TimerFired"; key: string }
  | { type: "GroupRecordPersisted"; generationId: number; members: number }
  | { type: "PersistFailed"; error: number }
  | { type: "Loaded"; members: number }
  | { type: "OffsetsExpired"; partitions: number });

export interface GroupRecord { protocolType: string | null; generation: number; protocol: string | null;
  leader: string | null; currentStateTimestampMs: number; members: { memberId: string;
  groupInstanceId: string | null; clientId: string; clientHost: string; rebalanceTimeoutMs: number;
  sessionTimeoutMs: number; subscription: string; assignment: string }[] }

export interface TopicPartitions { topic: string; partitions: number[] }
export interface AssignmentMember { memberId: string; groupInstanceId?: string | null; topics: string[];
  ownedPartitions?: TopicPartitions[]; generationId?: number | null; rackId?: string | null }
/** topics: name -> partition count; racks: topic -> for each partition, its replicas' racks. */
export interface AssignmentInput { topics: Record<string, number>; racks?: Record<string, string[][]>;
  members: AssignmentMember[] }
/** member id -> its partitions (topics ascending, partitions ascending); every member present. */
export type Assignment = Record<string, TopicPartitions[]>;
/** ConsumerProtocolSubscription (v0-v3); userData base64 or null. */
export interface Subscription { version?: number; topics: string[]; userData?: string | null;
  ownedPartitions?: TopicPartitions[]; generationId?: number; rackId?: string | null }
/** ConsumerProtocolAssignment (v0-v3); userData base64 or null. */
export interface ConsumerAssignment { version?: number; assignedPartitions: TopicPartitions[]; userData?: string | null }
"#;
