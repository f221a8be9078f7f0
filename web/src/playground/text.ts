// The playground's interface texts in English and Chinese (the book's terms for the states and
// the protocol, shared/seed/README.md).

import type { Lang } from '../i18n.ts';

const T = {
  playground: { en: 'Playground', zh: '演练场' },
  console: { en: 'Protocol console', zh: '协议控制台' },
  scenario: { en: 'Scenario', zh: '场景' },
  restart: { en: 'Restart', zh: '重新开始' },
  back: { en: 'Step back', zh: '后退一步' },
  step: { en: 'Step', zh: '前进一步' },
  play: { en: 'Play', zh: '播放' },
  pause: { en: 'Pause', zh: '暂停' },
  speed: { en: 'Speed', zh: '速度' },
  time: { en: 'Time', zh: '时间' },
  stepN: { en: 'step', zh: '步' },
  stateMachine: { en: 'Group state machine', zh: '消费组状态机' },
  timeline: { en: 'Timeline', zh: '时间线' },
  assignments: { en: 'Partition assignment', zh: '分区分配' },
  stepTable: { en: 'Steps', zh: '步骤表' },
  generation: { en: 'Generation', zh: '代' },
  leader: { en: 'Leader', zh: '主消费者' },
  members: { en: 'Members', zh: '成员' },
  delayed: { en: 'Delayed operations', zh: '延迟操作' },
  none: { en: 'none', zh: '无' },
  actor: { en: 'Actor', zh: '执行者' },
  what: { en: 'Request or timer', zh: '请求或定时器' },
  stateAfter: { en: 'Group state after', zh: '之后的消费组状态' },
  coordinator: { en: 'coordinator', zh: '协调者' },
  consumers: { en: 'Consumers', zh: '消费者' },
  consumer: { en: 'Consumer', zh: '消费者' },
  close: { en: 'Close', zh: '关闭' },
  crash: { en: 'Crash', zh: '崩溃' },
  start: { en: 'Start', zh: '启动' },
  pauseC: { en: 'Pause', zh: '暂停' },
  resume: { en: 'Resume', zh: '恢复' },
  cut: { en: 'Cut link', zh: '断开网络' },
  heal: { en: 'Heal link', zh: '恢复网络' },
  addConsumer: { en: 'Add consumer', zh: '添加消费者' },
  failover: { en: 'Coordinator failover', zh: '协调者故障转移' },
  static: { en: 'static', zh: '静态' },
  consumerSettings: { en: 'This consumer\'s settings (Kafka property names)', zh: '该消费者的设置（Kafka 属性名）' },
  metrics: { en: 'Metrics', zh: '指标' },
  rebalances: { en: 'Rebalances', zh: '再平衡次数' },
  moved: { en: 'Partitions moved', zh: '移动的分区' },
  unowned: { en: 'Partition-time unowned', zh: '分区无人消费时间' },
  settled: { en: 'Stable since', zh: '稳定自' },
  notSettled: { en: 'not settled', zh: '未稳定' },
  violations: { en: 'Invariant violations', zh: '不变式违例' },
  help: { en: 'Keyboard', zh: '键盘' },
  end: { en: 'end of the scenario', zh: '场景结束' },
} as const;

export type TextKey = keyof typeof T;

/** The client's member states and a consumer's life, for the consumers table. */
export const CLIENT_STATES: Record<string, Record<Lang, string>> = {
  Unjoined: { en: 'UNJOINED', zh: '未加入' },
  PreparingRebalance: { en: 'PREPARING_REBALANCE', zh: '准备再平衡' },
  CompletingRebalance: { en: 'COMPLETING_REBALANCE', zh: '等待同步' },
  Stable: { en: 'STABLE', zh: '稳定' },
  notStarted: { en: 'not started', zh: '未启动' },
  running: { en: 'running', zh: '运行中' },
  closing: { en: 'closing', zh: '关闭中' },
  closed: { en: 'closed', zh: '已关闭' },
  crashed: { en: 'crashed', zh: '已崩溃' },
  failed: { en: 'failed', zh: '已失败' },
  gc: { en: 'GC pause', zh: 'GC 停顿' },
  processing: { en: 'processing', zh: '处理中' },
};

export function generationLabel(n: number, lang: Lang): string {
  return lang === 'zh' ? `第 ${n} 代` : `gen ${n}`;
}

export function t(key: TextKey, lang: Lang): string {
  return T[key][lang];
}

export const SHORTCUTS: [string, TextKey | string, string][] = [
  ['Space', 'play', '播放 / 暂停'],
  ['→', 'step', '前进一步'],
  ['←', 'back', '后退一步'],
  ['Home', 'restart', '重新开始'],
  ['+ / −', 'speed', '速度'],
  ['L', 'English / 中文', '切换语言'],
];
