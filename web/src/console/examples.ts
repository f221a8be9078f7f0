// Step-by-step scripts of the seed's cases (the book's tables 5-3 to 5-7), runnable in the
// console. Member ids are not known in advance: `$A` stands for the id the coordinator gives the
// request that binds `A`, filled in when its response arrives.

import type { Request } from '../../pkg/group_coordinator_wasm.js';

export interface Text {
  en: string;
  zh: string;
}

export interface Step {
  atMs: number;
  note: Text;
  /** A request template; strings "$X" are replaced by bound member ids. */
  request?: Record<string, unknown> & { api: Request['api'] };
  /** Bind the memberId of this request's (possibly parked) response to this name. */
  bind?: string;
  /** Instead of a request, advance the clock to atMs. */
  advance?: boolean;
}

export interface Example {
  id: string;
  title: Text;
  steps: Step[];
}

const join = (client: string, memberId = ''): Step['request'] => ({
  api: 'JoinGroup',
  apiVersion: 3,
  clientId: client,
  groupId: 'my-group',
  sessionTimeoutMs: 10000,
  rebalanceTimeoutMs: 60000,
  memberId,
  protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: '' }],
});
const sync = (member: string, generationId: number, assignments: [string, string][] = []): Step['request'] => ({
  api: 'SyncGroup',
  apiVersion: 5,
  groupId: 'my-group',
  generationId,
  memberId: member,
  assignments: assignments.map(([memberId, assignment]) => ({ memberId, assignment })),
});
const leave = (member: string): Step['request'] => ({
  api: 'LeaveGroup',
  apiVersion: 3,
  groupId: 'my-group',
  members: [{ memberId: member }],
});
const heartbeat = (member: string, generationId: number): Step['request'] => ({
  api: 'Heartbeat',
  apiVersion: 4,
  groupId: 'my-group',
  generationId,
  memberId: member,
});

/** A ConsumerGroupHeartbeat (KIP-848) of `member` at `epoch`; member ids are the clients' own. */
const cgh = (member: string, epoch: number, fields: Record<string, unknown> = {}): Step['request'] => ({
  api: 'ConsumerGroupHeartbeat',
  apiVersion: 0,
  groupId: 'my-group',
  memberId: member,
  memberEpoch: epoch,
  ...fields,
});
/** A join: epoch 0 with every field, subscribed to `orders`, the range server assignor. */
const cgJoin = (member: string): Step['request'] =>
  cgh(member, 0, { rebalanceTimeoutMs: 30000, subscribedTopicNames: ['orders'], serverAssignor: 'range', topicPartitions: [] });
/** What the member reports it owns of `orders` ($Orders is the topic's id). */
const owning = (partitions: number[]) => ({ topicPartitions: [{ topicId: '$Orders', partitions }] });

/** A and B form generation 1 and sync: Stable (table 5-3, a normal join). */
const formTwo: Step[] = [
  {
    atMs: 0,
    request: join('consumer-a'),
    bind: 'A',
    note: {
      en: 'A joins the empty group: PreparingRebalance; its JoinGroup waits (the initial rebalance delay, 3 s)',
      zh: 'A 加入空消费组：准备再平衡；加入组请求被延迟（初始再平衡延迟 3 秒）',
    },
  },
  { atMs: 0, request: join('consumer-b'), bind: 'B', note: { en: 'B joins too and waits', zh: 'B 也加入并等待' } },
  {
    atMs: 3000,
    advance: true,
    note: {
      en: 'The delay ends, but B arrived during it: the delay is extended by another window',
      zh: '延迟到期，但 B 在此期间加入：延迟再延长一个窗口',
    },
  },
  {
    atMs: 6000,
    advance: true,
    note: {
      en: 'The delayed join completes: generation 1, A is the leader and gets the member list; CompletingRebalance',
      zh: '延迟的加入操作完成：第 1 代，A 是主消费者并收到成员列表；等待同步',
    },
  },
  {
    atMs: 6000,
    request: sync('$A', 1, [
      ['$A', 'AAE='],
      ['$B', 'AAI='],
    ]),
    note: {
      en: 'The leader sends the assignment in SyncGroup; it is persisted: Stable',
      zh: '主消费者在同步组请求中发送分配方案并持久化：稳定',
    },
  },
  { atMs: 6000, request: sync('$B', 1), note: { en: 'B syncs and gets its assignment', zh: 'B 同步并得到自己的分区分配' } },
];

export const EXAMPLES: Example[] = [
  {
    id: 'leave-preparing',
    title: { en: 'A member leaves while PreparingRebalance (tables 5-3, 5-4)', zh: '准备再平衡时成员离开（表 5-3、5-4）' },
    steps: [
      ...formTwo,
      {
        atMs: 7000,
        request: join('consumer-c'),
        bind: 'C',
        note: {
          en: 'C joins the Stable group: PreparingRebalance; the join waits for A and B to rejoin',
          zh: 'C 加入稳定的消费组：准备再平衡；延迟加入等待 A 和 B 重新加入',
        },
      },
      {
        atMs: 7100,
        request: join('consumer-a', '$A'),
        note: {
          en: 'A rejoins (it learned of the rebalance from a heartbeat); B has not rejoined yet',
          zh: 'A 重新加入（从心跳得知再平衡）；B 还没有重新加入',
        },
      },
      {
        atMs: 7200,
        request: leave('$B'),
        note: {
          en: 'B leaves: its heartbeat is removed, then the member; now everyone left has joined, so the delayed join completes at once: generation 2',
          zh: 'B 离开：先移除它的延迟心跳，再移除成员；剩下的成员都已加入，延迟的加入操作立即完成：第 2 代',
        },
      },
    ],
  },
  {
    id: 'leave-completing',
    title: { en: 'A member leaves while CompletingRebalance (table 5-6)', zh: '等待同步时成员离开（表 5-6）' },
    steps: [
      { atMs: 0, request: join('consumer-a'), bind: 'A', note: { en: 'A joins', zh: 'A 加入' } },
      { atMs: 0, request: join('consumer-b'), bind: 'B', note: { en: 'B joins', zh: 'B 加入' } },
      { atMs: 0, request: join('consumer-c'), bind: 'C', note: { en: 'C joins', zh: 'C 加入' } },
      { atMs: 3000, advance: true, note: { en: 'The initial delay is extended', zh: '初始延迟被延长' } },
      { atMs: 6000, advance: true, note: { en: 'Generation 1: CompletingRebalance', zh: '第 1 代：等待同步' } },
      {
        atMs: 6100,
        request: sync('$B', 1),
        note: { en: "B sends SyncGroup and waits for the leader's assignment", zh: 'B 发送同步组请求，等待主消费者的分配方案' },
      },
      {
        atMs: 6200,
        request: leave('$C'),
        note: {
          en: "C leaves: the assignment being computed includes C, so the round is abandoned: B's SyncGroup gets REBALANCE_IN_PROGRESS and a new rebalance starts",
          zh: 'C 离开：正在计算的分配方案包含 C，本轮作废：B 的同步组请求收到 REBALANCE_IN_PROGRESS，开始新的再平衡',
        },
      },
      { atMs: 6300, request: join('consumer-a', '$A'), note: { en: 'A rejoins', zh: 'A 重新加入' } },
      {
        atMs: 6400,
        request: join('consumer-b', '$B'),
        note: { en: 'B rejoins: everyone has joined, generation 2', zh: 'B 重新加入：全部加入，第 2 代' },
      },
    ],
  },
  {
    id: 'leave-stable',
    title: { en: 'A member leaves while Stable (table 5-7)', zh: '稳定时成员离开（表 5-7）' },
    steps: [
      ...formTwo,
      {
        atMs: 7000,
        request: leave('$B'),
        note: { en: 'B leaves: its partitions must go to A, so a rebalance starts', zh: 'B 离开：它的分区要分给 A，开始再平衡' },
      },
      {
        atMs: 7100,
        request: heartbeat('$A', 1),
        note: { en: "A's heartbeat gets REBALANCE_IN_PROGRESS", zh: 'A 的心跳收到 REBALANCE_IN_PROGRESS' },
      },
      {
        atMs: 7200,
        request: join('consumer-a', '$A'),
        note: { en: 'A rejoins: it is the only member, generation 2 at once', zh: 'A 重新加入：唯一的成员，立即进入第 2 代' },
      },
      { atMs: 7300, request: sync('$A', 2, [['$A', 'AAEAAg==']]), note: { en: 'A syncs: Stable', zh: 'A 同步：稳定' } },
    ],
  },
  {
    id: 'last-leaves',
    title: { en: 'The last member leaves', zh: '最后一个成员离开' },
    steps: [
      { atMs: 0, request: join('consumer-a'), bind: 'A', note: { en: 'A joins', zh: 'A 加入' } },
      { atMs: 3000, advance: true, note: { en: 'Generation 1', zh: '第 1 代' } },
      { atMs: 3000, request: sync('$A', 1, [['$A', 'AAE=']]), note: { en: 'A syncs: Stable', zh: 'A 同步：稳定' } },
      {
        atMs: 4000,
        request: leave('$A'),
        note: {
          en: 'A leaves: the rebalance completes at once with nobody: Empty, generation 2',
          zh: 'A 离开：再平衡立即以零成员完成：空，第 2 代',
        },
      },
    ],
  },
  {
    id: 'kip848',
    title: {
      en: 'KIP-848 consumer group: join, revoke, leave while Stable, the last member',
      zh: 'KIP-848 消费组：加入、撤销、稳定时离开、最后一个成员',
    },
    steps: [
      {
        atMs: 0,
        request: cgJoin('member-a'),
        note: {
          en: 'A joins at epoch 0: the group is created, group epoch 1, and A gets all six partitions at once (no barrier, no leader)',
          zh: 'A 以纪元 0 加入：创建消费组，组纪元 1，A 立即得到全部 6 个分区（没有屏障，也没有主消费者）',
        },
      },
      {
        atMs: 1000,
        request: cgJoin('member-b'),
        note: {
          en: 'B joins: group epoch 2, a new target (range: A 0-2, B 3-5). B waits: A still holds 3-5 (UNRELEASED_PARTITIONS)',
          zh: 'B 加入：组纪元 2，新的目标分配（range：A 0-2，B 3-5）。B 等待：A 仍持有 3-5（UNRELEASED_PARTITIONS）',
        },
      },
      {
        atMs: 2000,
        request: cgh('member-a', 1),
        note: {
          en: 'A heartbeats at epoch 1: it is told to keep 0-2 and must revoke 3-5 first (UNREVOKED_PARTITIONS, still epoch 1; its rebalance timeout starts)',
          zh: 'A 以纪元 1 发送心跳：被告知保留 0-2，必须先撤销 3-5（UNREVOKED_PARTITIONS，仍为纪元 1；再平衡超时开始计时）',
        },
      },
      {
        atMs: 3000,
        request: cgh('member-a', 1, owning([0, 1, 2])),
        note: {
          en: 'A reports it owns only 0-2: the revocation is done, A moves to epoch 2 (STABLE)',
          zh: 'A 报告只拥有 0-2：撤销完成，A 进入纪元 2（STABLE）',
        },
      },
      {
        atMs: 4000,
        request: cgh('member-b', 2, owning([])),
        note: {
          en: 'B heartbeats: 3-5 are free now and B gets them: the group is Stable',
          zh: 'B 发送心跳：3-5 已释放，B 得到它们：消费组稳定',
        },
      },
      {
        atMs: 5000,
        request: cgh('member-b', -1),
        note: {
          en: 'B leaves (epoch −1) while Stable: group epoch 3; no rebalance barrier, A picks up B’s partitions at its next heartbeat',
          zh: 'B 在稳定时离开（纪元 −1）：组纪元 3；没有再平衡屏障，A 在下次心跳时接手 B 的分区',
        },
      },
      {
        atMs: 6000,
        request: cgh('member-a', 2, owning([0, 1, 2])),
        note: { en: 'A heartbeats: epoch 3 with all six partitions', zh: 'A 发送心跳：纪元 3，拥有全部 6 个分区' },
      },
      {
        atMs: 7000,
        request: cgh('member-a', -1),
        note: {
          en: 'A, the last member, leaves: the group is Empty, and the group epoch still advances (4)',
          zh: '最后一个成员 A 离开：消费组为空，组纪元仍然增加（4）',
        },
      },
    ],
  },
];

/** Replaces "$X" strings (anywhere in the template) by bound ids; unknown names stay as they are. */
export function substitute<T>(template: T, vars: Record<string, string>): T {
  if (typeof template === 'string') {
    const m = /^\$([A-Z][A-Za-z0-9]*)$/.exec(template);
    return (m && m[1] in vars ? vars[m[1]] : template) as T;
  }
  if (Array.isArray(template)) return template.map((t) => substitute(t, vars)) as T;
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, substitute(v, vars)])) as T;
  }
  return template;
}
