// What each metric measures, in both languages, and how its value reads: one catalogue for the
// metrics panel and the comparison, so a metric has one name and one explanation everywhere.

import { duration } from '../common/duration.ts';
import type { Lang } from '../common/i18n.ts';

export type MetricKey =
  | 'rebalances'
  | 'generations'
  | 'generationId'
  | 'partitionsMoved'
  | 'unownedPartitionMs'
  | 'maxUnownedPartitionMs'
  | 'unsettledMs'
  | 'settledSinceMs'
  | 'overlapPartitionMs'
  | 'messagesSent'
  | 'invariantViolations';

interface MetricText {
  name: Record<Lang, string>;
  doc: Record<Lang, string>;
  /** A duration in ms (read as one), or a count. */
  ms: boolean;
}

export const METRICS: Record<MetricKey, MetricText> = {
  rebalances: {
    name: { en: 'Rebalances', zh: '再平衡次数' },
    doc: {
      en: 'Times the group entered PreparingRebalance (a consumer group: times its epoch moved on, each a new target assignment).',
      zh: '消费组进入“准备再平衡”的次数（消费组：组纪元递增的次数，每次对应新的目标分配）。',
    },
    ms: false,
  },
  generations: {
    name: { en: 'Generations', zh: '已开始的代' },
    doc: {
      en: 'Generations the coordinator began (each completed join; a consumer group: its group epochs).',
      zh: '协调者开始了多少代（每次完成的加入；消费组：组纪元的次数）。',
    },
    ms: false,
  },
  generationId: {
    name: { en: 'Generation', zh: '代' },
    doc: { en: "The group's generation now.", zh: '消费组当前的代。' },
    ms: false,
  },
  partitionsMoved: {
    name: { en: 'Partitions moved', zh: '移动的分区' },
    doc: {
      en: 'Partitions that went from one consumer to another (a partition given up and taken by the same consumer does not count).',
      zh: '从一个消费者转到另一个消费者的分区数（同一消费者放弃后又拿回的不计）。',
    },
    ms: false,
  },
  unownedPartitionMs: {
    name: { en: 'Partition-time unowned', zh: '分区无人消费时间' },
    doc: {
      en: 'Summed over partitions: the time a partition already being consumed had no owner (nobody could consume it), counting a newly assigned one until its onPartitionsAssigned returned.',
      zh: '按分区累加：已在被消费的分区没有所有者（无人能消费）的时间；新分配的分区计到其 onPartitionsAssigned 返回为止。',
    },
    ms: true,
  },
  maxUnownedPartitionMs: {
    name: { en: 'Most unowned time of one partition', zh: '单个分区最多的无人消费时间' },
    doc: {
      en: 'The partition that was unowned longest, counting all its gaps together (not the longest single gap).',
      zh: '无人消费时间最长的那个分区，其所有空档时间之和（不是最长的一次空档）。',
    },
    ms: true,
  },
  unsettledMs: {
    name: { en: 'Time unsettled after first settling', zh: '首次稳定后的不稳定时间' },
    doc: {
      en: 'After the group first settled: the time it was not settled. Settled means the group is Stable, every running consumer is stable in its generation with nothing to redo, and every subscribed partition is owned; so this counts the consumers settling, not only the coordinator’s state.',
      zh: '消费组首次稳定之后不处于稳定的时间。稳定指：消费组为“稳定”状态，每个运行中的消费者都在当前代中稳定且无需重做，且每个被订阅的分区都有所有者；因此它包含消费者达到稳定的时间，而不只是协调者的状态。',
    },
    ms: true,
  },
  settledSinceMs: {
    name: { en: 'Settled since', zh: '稳定自' },
    doc: {
      en: 'When the group last became settled (see above); blank while it is not.',
      zh: '消费组最近一次达到稳定的时刻（见上）；不稳定时为空。',
    },
    ms: true,
  },
  overlapPartitionMs: {
    name: { en: 'Partition-time with two owners', zh: '分区双重归属时间' },
    doc: {
      en: 'Summed over partitions: the time two consumers both held a partition (a zombie that has not noticed it was fenced).',
      zh: '按分区累加：两个消费者同时持有一个分区的时间（尚未察觉自己已被隔离的“僵尸”消费者）。',
    },
    ms: true,
  },
  messagesSent: {
    name: { en: 'Messages', zh: '消息数' },
    doc: { en: 'Requests and responses sent between the consumers and the coordinator.', zh: '消费者与协调者之间发送的请求和响应数。' },
    ms: false,
  },
  invariantViolations: {
    name: { en: 'Invariant violations', zh: '不变式违例' },
    doc: {
      en: 'Checks of the model that failed after an event (zero in a correct run).',
      zh: '每个事件之后对模型的检查中失败的次数（正确的运行应为零）。',
    },
    ms: false,
  },
};

/** A metric's value as shown. */
export function metricValue(key: MetricKey, value: number | null, lang: Lang): string {
  if (value === null) return '—';
  return METRICS[key].ms ? duration(value, lang) : String(value);
}
