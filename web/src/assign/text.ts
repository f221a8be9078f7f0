// The assign widget's words, in both languages.

import type { Lang } from '../common/i18n.ts';

const A = {
  assignTitle: { en: 'Try the assignors', zh: '试一试分区分配器' },
  assignHelp: {
    en: 'A group as text: a "topics:" line, then one line per member, "id [gen=N] [instance=ID]: topics | owns topic-p, …". The result follows every edit.',
    zh: '用文本写一个消费组：一行 “topics:”，然后每个成员一行：“id [gen=N] [instance=ID]: 主题 | owns 主题-分区, …”。每次修改都会重新分配。',
  },
  assignStrategy: { en: 'Assignor', zh: '分配器' },
  assignGroup: { en: 'The group', zh: '消费组' },
  assignMember: { en: 'Member', zh: '成员' },
  assignAssigned: { en: 'Assigned', zh: '分配到' },
  assignKept: { en: 'Kept', zh: '保留' },
  assignAdded: { en: 'New', zh: '新分到' },
  assignRevoked: { en: 'Given up', zh: '交出' },
  assignClient: { en: 'client side (classic protocol, the leader assigns)', zh: '客户端（经典协议，由主消费者分配）' },
  assignServer: { en: 'server side (KIP-848, the coordinator assigns)', zh: '服务端（KIP-848，由协调者分配）' },
  assignGivenUp: { en: 'given up', zh: '个分区被交出' },
  assignBusy: { en: 'Assigning this large group (off the page’s main thread)…', zh: '正在分配这个大消费组（不占用页面主线程）……' },
  assignNew: { en: 'new to their member', zh: '个分区对其成员来说是新的' },
} as const;

export type AssignTextKey = keyof typeof A;

export function t(key: AssignTextKey, lang: Lang): string {
  return A[key][lang];
}

/** Where the assign widget's group text cannot be read: before the reason. */
export function linePrefix(n: number, lang: Lang): string {
  return lang === 'zh' ? `第 ${n} 行：` : `Line ${n}: `;
}
