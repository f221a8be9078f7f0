// Plain-text descriptions of requests and responses (also the accessible text of the console's
// log). Events come narrated by the model, in both languages.

import type { Request, Response } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import type { ConsoleAction } from './session.ts';

export type ErrorNamer = (code: number) => string;

export function describeRequest(r: Request): string {
  const who = 'memberId' in r && r.memberId ? ` ${short(r.memberId)}` : '';
  const epoch = r.api === 'ConsumerGroupHeartbeat' ? ` epoch ${r.memberEpoch}` : '';
  return `${r.api} v${r.apiVersion} #${r.correlationId ?? 0}${who}${epoch}`;
}

/** A response's error code: its own, or (ConsumerGroupDescribe and the config APIs, which have
 * none) the first of its groups' or resources' that is not NONE. */
export function responseError(r: Response): number {
  if (r.api === 'ConsumerGroupDescribe') return r.groups.find((g) => g.errorCode !== 0)?.errorCode ?? 0;
  if (r.api === 'DescribeConfigs') return r.results.find((x) => x.errorCode !== 0)?.errorCode ?? 0;
  if (r.api === 'IncrementalAlterConfigs') return r.responses.find((x) => x.errorCode !== 0)?.errorCode ?? 0;
  return r.errorCode;
}

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

export function describeResponse(r: Response, errorName: ErrorNamer, lang: Lang = 'en'): string {
  const zh = lang === 'zh';
  if (r.api === 'ConsumerGroupDescribe') {
    const groups = r.groups.map((g) =>
      g.errorCode === 0
        ? `${g.groupId}: ${g.groupState}, ${zh ? '组纪元' : 'group epoch'} ${g.groupEpoch}, ${g.members.length} ${zh ? '个成员' : 'members'}`
        : `${g.groupId}: ${errorName(g.errorCode)}`,
    );
    return [`${r.api} #${r.correlationId}`, ...groups].join(' · ');
  }
  if (r.api === 'DescribeConfigs') {
    const results = r.results.map((x) =>
      x.errorCode === 0
        ? `${x.resourceName}: ${x.configs.map((c) => `${c.name}=${c.value ?? ''}${c.configSource === 8 ? '' : zh ? '（默认）' : ' (default)'}`).join(', ')}`
        : `${x.resourceName}: ${errorName(x.errorCode)}${x.errorMessage ? ` (${x.errorMessage})` : ''}`,
    );
    return [`${r.api} #${r.correlationId}`, ...results].join(' · ');
  }
  if (r.api === 'IncrementalAlterConfigs') {
    const results = r.responses.map(
      (x) =>
        `${x.resourceName}: ${x.errorCode === 0 ? (zh ? '成功' : 'ok') : `${errorName(x.errorCode)}${x.errorMessage ? ` (${x.errorMessage})` : ''}`}`,
    );
    return [`${r.api} #${r.correlationId}`, ...results].join(' · ');
  }
  const error = r.errorCode === 0 ? (zh ? '成功' : 'ok') : errorName(r.errorCode);
  const parts = [`${r.api} #${r.correlationId}`, error];
  switch (r.api) {
    case 'JoinGroup':
      if (r.memberId) parts.push(`${zh ? '成员' : 'member'} ${short(r.memberId)}`);
      if (r.generationId >= 0) parts.push(zh ? `第 ${r.generationId} 代` : `generation ${r.generationId}`);
      if (r.leader) parts.push(`${zh ? '主消费者' : 'leader'} ${short(r.leader)}`);
      if (r.members.length) parts.push(zh ? `列出 ${r.members.length} 个成员` : `${r.members.length} members listed`);
      if (r.skipAssignment) parts.push(zh ? '跳过分配' : 'skip assignment');
      break;
    case 'SyncGroup':
      if (r.errorCode === 0) parts.push(`${zh ? '分配' : 'assignment'} ${r.assignment || (zh ? '（空）' : '(empty)')}`);
      break;
    case 'ConsumerGroupHeartbeat':
      if (r.errorMessage) parts.push(r.errorMessage);
      parts.push(zh ? `纪元 ${r.memberEpoch}` : `epoch ${r.memberEpoch}`);
      if (r.assignment) {
        const n = r.assignment.topicPartitions.reduce((k, t) => k + t.partitions.length, 0);
        parts.push(zh ? `分配 ${n} 个分区` : `assignment of ${n} partitions`);
      }
      break;
    case 'LeaveGroup':
      for (const m of r.members) {
        const outcome = m.errorCode === 0 ? (zh ? '成功' : 'ok') : errorName(m.errorCode);
        parts.push(`${short(m.memberId || m.groupInstanceId || '?')}: ${outcome}`);
      }
      break;
  }
  return parts.join(' · ');
}

/** Member ids are long (client id + uuid): keep the client id and the uuid's first block. */
export function short(memberId: string): string {
  const m = /^(.*)-([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(memberId);
  return m ? `${m[1]}-${m[2]}…` : memberId;
}
