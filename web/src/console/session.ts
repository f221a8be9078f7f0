// The console's state: one coordinator, the virtual clock, and the log of what was sent and what
// came back. The coordinator owns all protocol state; this only remembers the exchanges.

import type {
  ConsumerGroupView,
  Coordinator,
  CoordinatorEvent,
  GroupView,
  Request,
  Response,
  ResponseText,
  Text,
} from '../../pkg/group_coordinator_wasm.js';

/** What the user did besides sending a request (the log says it in the console's language). */
export type ConsoleAction =
  | { kind: 'advance'; atMs: number }
  | { kind: 'unload' | 'load'; groupId: string }
  | { kind: 'failNextPersist'; errorCode: number }
  | { kind: 'createTopic'; topic: string; partitions: number };

export interface Exchange {
  seq: number;
  atMs: number;
  /** The request sent, or null for a clock advance. */
  request: Request | null;
  responses: Response[];
  /** What each response says in one line, in each language, and the error it carries (the
   * model's narration: `Coordinator.responseTexts`). */
  told: ResponseText[];
  /** The coordinator's events, each with the model's narration. */
  events: (CoordinatorEvent & { text: Text })[];
  /** The coordinator refused the input (misuse); nothing changed. */
  error: string | null;
  /** What the user did, when it was not a request (advance, unload, ...). */
  action: ConsoleAction | null;
}

/** Builds the console's coordinator: with the broker settings, and the seed of its member-id
 * stream when it is not 0 (a live run's broker may have been started with `--seed`). */
export type CoordinatorFactory = (config: Record<string, number | string | boolean>, seed?: number) => Coordinator;

export class Session {
  readonly coordinator: Coordinator;
  readonly config: Record<string, number | string | boolean>;
  readonly log: Exchange[] = [];
  nextCorrelationId = 1;
  /** The member id the coordinator handed out last (a JoinGroup response's memberId). */
  lastMemberId = '';
  /** The group the console looks at. */
  groupId = 'my-group';
  private seq = 0;
  private correlationListeners = new Map<number, (r: Response) => void>();

  /** The topics consumer groups (KIP-848) are assigned from: the broker's metadata. */
  static readonly TOPICS = [
    { name: 'orders', partitions: 6 },
    { name: 'audit', partitions: 3 },
  ];

  constructor(
    factory: CoordinatorFactory,
    config: Record<string, number | string | boolean> = {},
    topics: { name: string; partitions: number }[] = Session.TOPICS,
    seed = 0,
  ) {
    this.config = { ...config };
    this.coordinator = factory(this.config, seed);
    this.coordinator.updateMetadata(0, { topics });
  }

  /** `$Orders`-style names for the topic ids, for the examples' templates. */
  topicVars(): Record<string, string> {
    return Object.fromEntries(this.coordinator.topics().map((t) => [t.name[0].toUpperCase() + t.name.slice(1), t.topicId]));
  }

  get now(): number {
    return this.coordinator.now();
  }

  view(groupId = this.groupId): GroupView | ConsumerGroupView | null {
    return this.coordinator.describe(groupId) ?? null;
  }

  /** The group when it is a classic one (null otherwise). */
  classicView(groupId = this.groupId): GroupView | null {
    const view = this.view(groupId);
    return view?.type === 'classic' ? view : null;
  }

  /** Call `listener` with the response to `correlationId` whenever it arrives (parked ones later). */
  onResponse(correlationId: number, listener: (r: Response) => void): void {
    this.correlationListeners.set(correlationId, listener);
  }

  /** Sends a request at `atMs` (due timers fire first). A refused request is logged, not thrown.
   * An accepted request that names a group turns the console to that group. */
  send(atMs: number, request: Request): Exchange {
    const exchange = this.record(
      atMs,
      request,
      null,
      () => this.coordinator.handle(atMs, request),
      () => {
        if (request.correlationId !== undefined && request.correlationId >= this.nextCorrelationId) {
          this.nextCorrelationId = request.correlationId + 1;
        }
      },
    );
    const named = request as { groupId?: unknown; groupIds?: unknown };
    const group = typeof named.groupId === 'string' ? named.groupId : Array.isArray(named.groupIds) ? named.groupIds[0] : undefined;
    if (!exchange.error && typeof group === 'string' && group !== '') this.groupId = group;
    return exchange;
  }

  /** Moves the clock to `atMs`, firing due timers. */
  advance(atMs: number): Exchange {
    return this.record(atMs, null, { kind: 'advance', atMs }, () => this.coordinator.advance(atMs));
  }

  /** A topic created at `atMs` (a broker's CreateTopics): due timers fire first, then the
   * topic enters the metadata image, as the broker's model took it. */
  createTopic(atMs: number, topic: string, partitions: number): Exchange {
    return this.record(atMs, null, { kind: 'createTopic', topic, partitions }, () => {
      const responses = this.coordinator.advance(atMs);
      this.coordinator.updateMetadata(atMs, { topics: [{ name: topic, partitions }] });
      return responses;
    });
  }

  /** Advances to the next timer deadline, if there is one. */
  advanceToNextDeadline(): Exchange | null {
    const next = this.coordinator.nextDeadline();
    return next === null || next === undefined ? null : this.advance(Math.max(next, this.now));
  }

  unload(groupId = this.groupId): Exchange {
    return this.record(this.now, null, { kind: 'unload', groupId }, () => this.coordinator.unload(groupId));
  }

  load(groupId = this.groupId): Exchange {
    return this.record(this.now, null, { kind: 'load', groupId }, () => {
      this.coordinator.load(groupId);
      return [];
    });
  }

  failNextPersist(errorCode: number): Exchange {
    return this.record(this.now, null, { kind: 'failNextPersist', errorCode }, () => {
      this.coordinator.failNextPersist(errorCode);
      return [];
    });
  }

  private record(
    atMs: number,
    request: Request | null,
    action: ConsoleAction | null,
    run: () => Response[],
    onSuccess?: () => void,
  ): Exchange {
    const exchange: Exchange = {
      seq: ++this.seq,
      atMs,
      request,
      responses: [],
      told: [],
      events: [],
      error: null,
      action,
    };
    try {
      exchange.responses = run();
      exchange.told = this.coordinator.responseTexts();
      onSuccess?.();
    } catch (e) {
      exchange.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    exchange.events = this.coordinator.events();
    for (const r of exchange.responses) {
      if (r.api === 'JoinGroup' && r.memberId) this.lastMemberId = r.memberId;
      if (r.api === 'ConsumerGroupHeartbeat' && r.memberId && r.memberEpoch >= 0) this.lastMemberId = r.memberId;
      const listener = this.correlationListeners.get(r.correlationId);
      if (listener) {
        this.correlationListeners.delete(r.correlationId);
        listener(r);
      }
    }
    this.log.push(exchange);
    return exchange;
  }

  /** A request of `api` at `apiVersion` with sensible defaults: the next correlation id, the
   * console's group, the member id last handed out and the group's current generation. */
  template(api: Request['api'], apiVersion: number): Request {
    const described = this.view();
    if (api === 'ConsumerGroupHeartbeat') return this.heartbeatTemplate(described, apiVersion);
    if (api === 'ConsumerGroupDescribe') {
      return { api, apiVersion, correlationId: this.nextCorrelationId, clientId: 'console', groupIds: [this.groupId] };
    }
    const view = described?.type === 'classic' ? described : null;
    const generationId = view?.generationId ?? -1;
    const memberId = this.lastMemberId;
    // A JoinGroup reuses the last id only while the group still knows it (pending or member).
    const known = !!view && (view.pendingMembers.includes(memberId) || view.members.some((m) => m.memberId === memberId));
    const head = { apiVersion, correlationId: this.nextCorrelationId, clientId: 'console' };
    const groupId = this.groupId;
    switch (api) {
      case 'JoinGroup':
        return {
          api,
          ...head,
          groupId,
          sessionTimeoutMs: 45000,
          rebalanceTimeoutMs: 300000,
          memberId: known ? memberId : '',
          ...(apiVersion >= 5 ? { groupInstanceId: null } : {}),
          protocolType: 'consumer',
          protocols: [{ name: 'range', metadata: '' }],
        };
      case 'SyncGroup':
        return {
          api,
          ...head,
          groupId,
          generationId,
          memberId,
          assignments: view?.leaderId === memberId && memberId ? view.members.map((m) => ({ memberId: m.memberId, assignment: '' })) : [],
        };
      case 'Heartbeat':
        return { api, ...head, groupId, generationId, memberId };
      case 'LeaveGroup':
        return apiVersion >= 3 ? { api, ...head, groupId, members: [{ memberId }] } : { api, ...head, groupId, memberId };
      case 'OffsetCommit':
        return {
          api,
          ...head,
          groupId,
          ...(apiVersion >= 1 ? { generationIdOrMemberEpoch: generationId, memberId } : {}),
          topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 42 }] }],
        };
      case 'OffsetFetch':
        return apiVersion >= 8
          ? { api, ...head, groups: [{ groupId, topics: null }] }
          : { api, ...head, groupId, topics: apiVersion >= 2 ? null : [{ name: 'orders', partitionIndexes: [0] }] };
      case 'DescribeGroups':
        return { api, ...head, groups: [groupId] };
      case 'ListGroups':
        return { api, ...head };
      case 'DeleteGroups':
        return { api, ...head, groupsNames: [groupId] };
      // Group configs (KIP-848): a GROUP resource (type 32) of the console's group.
      case 'DescribeConfigs':
        return { api, ...head, resources: [{ resourceType: 32, resourceName: groupId, configurationKeys: null }] };
      case 'IncrementalAlterConfigs':
        return {
          api,
          ...head,
          resources: [
            {
              resourceType: 32,
              resourceName: groupId,
              configs: [{ name: 'consumer.session.timeout.ms', configOperation: 0, value: '50000' }],
            },
          ],
        };
    }
  }

  /** A ConsumerGroupHeartbeat: the next member joins (epoch 0, the client's own id as KIP-1082
   * has it); or, when the console's last member is in the group, it heartbeats at its epoch
   * owning what it is assigned (acknowledging a revocation). */
  private heartbeatTemplate(view: GroupView | ConsumerGroupView | null, apiVersion: number): Request {
    const head = { apiVersion, correlationId: this.nextCorrelationId, clientId: 'console' };
    const groupId = this.groupId;
    const member = view?.type === 'consumer' ? view.members.find((m) => m.memberId === this.lastMemberId) : undefined;
    if (member) {
      const ids = new Map(this.coordinator.topics().map((t) => [t.name, t.topicId]));
      return {
        api: 'ConsumerGroupHeartbeat',
        ...head,
        groupId,
        memberId: member.memberId,
        memberEpoch: member.memberEpoch,
        topicPartitions: member.assigned.map((t) => ({ topicId: ids.get(t.topic) ?? t.topic, partitions: t.partitions })),
      };
    }
    const n = view?.type === 'consumer' ? view.members.length + 1 : 1;
    return {
      api: 'ConsumerGroupHeartbeat',
      ...head,
      groupId,
      memberId: `console-member-${n}`,
      memberEpoch: 0,
      rebalanceTimeoutMs: 300000,
      subscribedTopicNames: ['orders'],
      serverAssignor: null,
      topicPartitions: [],
    };
  }
}
