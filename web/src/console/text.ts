// The protocol console's interface texts in English and Chinese (the book's terms).

import type { Lang } from '../common/i18n.ts';
import type { ConsoleAction } from './session.ts';

const C = {
  example: { en: 'Example', zh: '示例' },
  nextStep: { en: 'Next step', zh: '下一步' },
  reset: { en: 'Reset', zh: '重置' },
  request: { en: 'Request', zh: '请求' },
  requestType: { en: 'Request type', zh: '请求类型' },
  apiVersion: { en: 'API version', zh: 'API 版本' },
  at: { en: 'at', zh: '时间' },
  due: { en: 'due now', zh: '已到期' },
  inDuration: { en: 'in {d}', zh: '{d} 后' },
  opaqueAssignment: {
    en: '{n} bytes, not a consumer assignment the model can read: {b}',
    zh: '{n} 字节，不是模型能读的消费者分配：{b}',
  },
  atAria: { en: 'Virtual time (ms)', zh: '虚拟时间（毫秒）' },
  requestJson: { en: 'Request (JSON)', zh: '请求（JSON）' },
  fillDefaults: { en: 'Fill defaults', zh: '填入默认值' },
  send: { en: 'Send', zh: '发送' },
  advance: { en: 'Advance clock to “at”', zh: '把时钟推进到“时间”' },
  nextDeadline: { en: 'Advance to next timer', zh: '推进到下一个定时器' },
  faults: { en: 'Faults and settings', zh: '故障与设置' },
  unload: { en: 'Unload group (failover)', zh: '卸载消费组（故障转移）' },
  load: { en: 'Load group from its record', zh: '从记录加载消费组' },
  failPersist: { en: 'Fail next persist with', zh: '让下一次持久化失败，错误为' },
  persistError: { en: 'Persist error', zh: '持久化错误' },
  brokerSettings: { en: 'Broker settings (Kafka names, defaults shown)', zh: 'Broker 设置（Kafka 属性名，显示默认值）' },
  kafka3: {
    en: ' Kafka 3.x coordinator (group.coordinator.new.enable=false)',
    zh: ' Kafka 3.x 协调者（group.coordinator.new.enable=false）',
  },
  applyConfig: { en: 'Restart with these settings', zh: '用这些设置重新开始' },
  virtualTime: { en: 'Virtual time ', zh: '虚拟时间 ' },
  otherLang: { en: '中文', zh: 'English' },
  switchLang: { en: 'Switch to Chinese', zh: '切换到英文' },
  noTimer: { en: 'No timer is armed.', zh: '没有已设置的定时器。' },
  notJson: { en: 'The request is not valid JSON: ', zh: '请求不是有效的 JSON：' },
  settingsRefused: { en: 'Settings refused: ', zh: '设置被拒绝：' },
  leftScript: {
    en: 'You sent a request of your own: the example stops here. Reset to run it again.',
    zh: '你发送了自己的请求：示例到此为止。重置可重新运行示例。',
  },
  group: { en: 'Group', zh: '消费组' },
  consumerGroup: { en: '(consumer group, KIP-848)', zh: '（consumer 协议消费组，KIP-848）' },
  groupEpoch: { en: 'group epoch', zh: '组纪元' },
  assignmentEpoch: { en: 'assignment epoch', zh: '分配纪元' },
  assignor: { en: 'assignor', zh: '分配器' },
  memberEpoch: { en: 'member epoch', zh: '成员纪元' },
  previous: { en: 'previous', zh: '之前' },
  memberState: { en: 'state', zh: '状态' },
  pendingRevocation: { en: 'to revoke', zh: '待撤销' },
  target: { en: 'target', zh: '目标分配' },
  noGroup: {
    en: 'No such group yet: a JoinGroup (or a ConsumerGroupHeartbeat at epoch 0) creates it.',
    zh: '消费组尚不存在：加入组请求（或纪元为 0 的 ConsumerGroupHeartbeat）会创建它。',
  },
  generation: { en: 'generation', zh: '代' },
  leader: { en: 'leader', zh: '主消费者' },
  protocol: { en: 'protocol', zh: '协议' },
  unloaded: { en: 'unloaded (NOT_COORDINATOR)', zh: '已卸载（NOT_COORDINATOR）' },
  members: { en: 'member(s)', zh: '个成员' },
  member: { en: 'member', zh: '成员' },
  instance: { en: 'instance', zh: '静态实例' },
  role: { en: 'role', zh: '角色' },
  waitingIn: { en: 'waiting in', zh: '等待于' },
  isNew: { en: 'new', zh: '新成员' },
  sessionDeadline: { en: 'session deadline', zh: '会话截止' },
  assignment: { en: 'assignment', zh: '分区分配' },
  follower: { en: 'follower', zh: '跟随者' },
  yes: { en: 'yes', zh: '是' },
  empty: { en: '(empty)', zh: '（空）' },
  pending: { en: 'Pending members (MEMBER_ID_REQUIRED, not joined yet): ', zh: '待定成员（MEMBER_ID_REQUIRED，尚未加入）：' },
  awaitingSync: { en: 'Awaiting SyncGroup: ', zh: '等待同步组请求：' },
  timers: { en: 'Delayed operations (timers)', zh: '延迟操作（定时器）' },
  key: { en: 'key', zh: '键' },
  firesAt: { en: 'fires at', zh: '到期时间' },
  exchanges: { en: 'Exchanges and events', zh: '请求、响应与事件' },
  liveTitle: { en: 'Live: group-broker', zh: '实时：group-broker' },
  openTrace: { en: 'Open a group-broker trace (--trace)', zh: '打开 group-broker 的运行记录（--trace）' },
  stopLive: { en: 'Stop following (back to the console)', zh: '停止跟随（回到控制台）' },
} as const satisfies Record<string, Record<Lang, string>>;

export type ConsoleTextKey = keyof typeof C;

export function ct(key: ConsoleTextKey, lang: Lang): string {
  return C[key][lang];
}

/** "Loaded “title”. Press “Next step”, or compose your own request." */
export function loaded(title: string, lang: Lang): string {
  return lang === 'zh'
    ? `已载入“${title}”。按“下一步”，或自己编写请求。`
    : `Loaded “${title}”. Press “Next step”, or compose your own request.`;
}

/** "n response(s), m event(s) at t ms." */
export function exchanged(responses: number, events: number, at: number, lang: Lang): string {
  return lang === 'zh' ? `${at} ms：${responses} 个响应，${events} 个事件。` : `${responses} response(s), ${events} event(s) at ${at} ms.`;
}

/** "“at” must be a whole number of milliseconds, got X" */
export function badAt(value: string, lang: Lang): string {
  return lang === 'zh' ? `“时间”必须是整数毫秒，收到的是 ${value}` : `“at” must be a whole number of milliseconds, got ${value}`;
}

/** Kafka's name for an error code (the model's `errorName`). */
export type ErrorNamer = (code: number) => string;

/** What the user did, in `lang`. */
export function describeAction(a: ConsoleAction, errorName: ErrorNamer, lang: Lang): string {
  const zh = lang === 'zh';
  switch (a.kind) {
    case 'advance':
      return zh ? `时钟推进到 ${a.atMs} 毫秒` : `advance to ${a.atMs} ms`;
    case 'unload':
      return zh ? `卸载消费组 ${a.groupId}` : `unload ${a.groupId}`;
    case 'load':
      return zh ? `加载消费组 ${a.groupId}` : `load ${a.groupId}`;
    case 'createTopic':
      return zh ? `创建主题 ${a.topic}（${a.partitions} 个分区）` : `create topic ${a.topic} (${a.partitions} partitions)`;
    case 'failNextPersist':
      return zh ? `下一次持久化以 ${errorName(a.errorCode)} 失败` : `fail next persist with ${errorName(a.errorCode)} (${a.errorCode})`;
  }
}
