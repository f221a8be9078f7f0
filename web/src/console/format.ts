// Plain-text descriptions of requests and responses (also the accessible text of the console's
// log). Events come narrated by the model, in both languages.

import type { Request, Response } from '../../pkg/group_coordinator_wasm.js';

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

/** Member ids are long (client id + uuid): keep the client id and the uuid's first block. */
export function short(memberId: string): string {
  const m = /^(.*)-([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(memberId);
  return m ? `${m[1]}-${m[2]}…` : memberId;
}
