// Plain-text descriptions of requests, responses and events (also the accessible text of the
// console's log).

import type { CoordinatorEvent, Request, Response } from '../../pkg/group_coordinator_wasm.js';

export type ErrorNamer = (code: number) => string;

export function describeRequest(r: Request): string {
  const who = 'memberId' in r && r.memberId ? ` ${short(r.memberId)}` : '';
  return `${r.api} v${r.apiVersion} #${r.correlationId ?? 0}${who}`;
}

export function describeResponse(r: Response, errorName: ErrorNamer): string {
  const error = errorName(r.errorCode);
  const parts = [`${r.api} #${r.correlationId}`, error];
  switch (r.api) {
    case 'JoinGroup':
      if (r.memberId) parts.push(`member ${short(r.memberId)}`);
      if (r.generationId >= 0) parts.push(`generation ${r.generationId}`);
      if (r.leader) parts.push(`leader ${short(r.leader)}`);
      if (r.members.length) parts.push(`${r.members.length} members listed`);
      if (r.skipAssignment) parts.push('skip assignment');
      break;
    case 'SyncGroup':
      if (r.errorCode === 0) parts.push(`assignment ${r.assignment || '(empty)'}`);
      break;
    case 'LeaveGroup':
      for (const m of r.members) parts.push(`${short(m.memberId || m.groupInstanceId || '?')}: ${errorName(m.errorCode)}`);
      break;
  }
  return parts.join(' · ');
}

export function describeEvent(e: CoordinatorEvent): string {
  switch (e.type) {
    case 'StateChanged': {
      const c = e.cause;
      const why =
        'memberId' in c ? `${c.kind} ${short(c.memberId)}` : 'memberIds' in c ? `${c.kind} ${c.memberIds.map(short).join(', ')}` : c.kind;
      return `${e.from} → ${e.to} (${why})`;
    }
    case 'GenerationBumped':
      return `generation ${e.generationId}${e.protocolName ? `, protocol ${e.protocolName}` : ''}`;
    case 'MemberAdded':
      return `member added ${short(e.memberId)}${e.groupInstanceId ? ` (static ${e.groupInstanceId})` : ''}`;
    case 'MemberReplaced':
      return `static ${e.groupInstanceId}: ${short(e.oldMemberId)} replaced by ${short(e.newMemberId)}`;
    case 'MemberReplacementReverted':
      return `replacement reverted: ${short(e.newMemberId)} back to ${short(e.oldMemberId)}`;
    case 'MemberRemoved':
      return `member removed ${short(e.memberId)} (${e.reason})`;
    case 'PendingMemberAdded':
      return `pending member ${short(e.memberId)} (MEMBER_ID_REQUIRED)`;
    case 'PendingMemberRemoved':
      return `pending member gone ${short(e.memberId)} (${e.reason})`;
    case 'LeaderChanged':
      return `leader ${e.from ? short(e.from) : '—'} → ${e.to ? short(e.to) : '—'}`;
    case 'ResponseParked':
      return `${e.api} #${e.correlationId} of ${short(e.memberId)} parked`;
    case 'ResponseDropped':
      return `${e.api} #${e.correlationId} of ${short(e.memberId)} dropped (never answered)`;
    case 'TimerScheduled':
      return `timer ${e.key} at ${e.deadlineMs} ms`;
    case 'TimerCancelled':
      return `timer ${e.key} cancelled`;
    case 'TimerFired':
      return `timer ${e.key} fired`;
    case 'GroupRecordPersisted':
      return `group record written (generation ${e.generationId}, ${e.members} members)`;
    case 'PersistFailed':
      return `group record write failed (error ${e.error})`;
    case 'OffsetsExpired':
      return `${e.partitions} committed offset(s) expired`;
    case 'Deleted':
      return 'group removed';
    case 'Loaded':
      return `loaded from its record (${e.members} members): ${e.state}`;
    default:
      return e.type;
  }
}

/** Member ids are long (client id + uuid): keep the client id and the uuid's first block. */
export function short(memberId: string): string {
  const m = /^(.*)-([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(memberId);
  return m ? `${m[1]}-${m[2]}…` : memberId;
}
