// The console's two read-only panels: the group as the coordinator describes it, and the log of
// exchanges (each request, its responses and the events it caused, in the model's words).

import type { ConsumerGroupView, GroupView, Request, TimerView, TopicPartitionsView } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../common/dom.ts';
import { duration } from '../common/duration.ts';
import type { Lang } from '../common/i18n.ts';
import { clipped } from '../common/quote.ts';
import { stateLabel } from '../common/vocabulary.ts';
import type { Exchange } from './session.ts';
import { ct, describeAction, type ErrorNamer } from './text.ts';

/** The model's words the console shows: error names, a request in one line, member ids
 * shortened (the narration's `short_ids`). */
export interface ModelWords {
  errorName: ErrorNamer;
  requestText: (request: Request) => string;
  shortIds: (text: string) => string;
}

/** A deadline as a duration from now ("in 7 d"), its exact time in ms on hover: a timer read
 * "605400000 ms". */
function when(ms: number | null, now: number, lang: Lang): HTMLElement | string {
  if (ms === null) return '—';
  const left = ms - now;
  const text = left <= 0 ? ct('due', lang) : ct('inDuration', lang).replace('{d}', duration(left, lang));
  return h('span', { title: `${ms} ms` }, text);
}

/** The group's timers, soonest first. */
function timersTable(timers: TimerView[], now: number, lang: Lang): HTMLElement {
  return h(
    'table',
    { id: 'timers' },
    h('caption', {}, ct('timers', lang)),
    h('thead', {}, h('tr', {}, h('th', {}, ct('key', lang)), h('th', {}, ct('firesAt', lang)))),
    h('tbody', {}, ...timers.map((t) => h('tr', {}, h('td', { class: 'mono' }, t.key), h('td', {}, when(t.deadlineMs, now, lang))))),
  );
}

/** A member's assignment bytes: decoded by the model's codec when they are a consumer
 * assignment, else said as what they are (base64 alone read as noise: "AAE="). */
function assignmentText(base64: string, decoded: string | null, lang: Lang): string {
  if (decoded !== null) return decoded;
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return ct('opaqueAssignment', lang).replace('{n}', String(bytes)).replace('{b}', base64);
}

/** `orders-0..2 audit-1` */
function partitions(list: TopicPartitionsView[], lang: Lang): string {
  if (!list.length) return ct('empty', lang);
  return list.map((t) => `${t.topic}-${t.partitions.join(',')}`).join(' ');
}

/** A consumer group (KIP-848): epochs and each member's state, assigned, pending and target. */
function renderConsumerGroup(el: HTMLElement, view: ConsumerGroupView, now: number, lang: Lang, short: (id: string) => string): void {
  const deadline = (ms: number | null) => when(ms, now, lang);
  replaceChildren(
    el,
    h('h2', {}, `${ct('group', lang)} ${view.groupId} `, h('span', { class: 'muted', id: 'group-type' }, ct('consumerGroup', lang))),
    h(
      'p',
      { class: 'summary' },
      h('span', { id: 'group-state', class: `state state-${view.state}`, 'data-state': view.state }, stateLabel(view.state, lang)),
      ` ${ct('groupEpoch', lang)} `,
      h('strong', { id: 'group-epoch' }, String(view.groupEpoch)),
      ` · ${ct('assignmentEpoch', lang)} `,
      h('strong', { id: 'assignment-epoch' }, String(view.assignmentEpoch)),
      ` · ${ct('assignor', lang)} `,
      h('strong', {}, view.preferredAssignor),
      view.unloaded ? h('strong', { class: 'error' }, ` · ${ct('unloaded', lang)}`) : null,
    ),
    h(
      'table',
      { id: 'members' },
      h('caption', {}, `${view.members.length} ${ct('members', lang)}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...(
            ['member', 'instance', 'memberEpoch', 'memberState', 'assignment', 'pendingRevocation', 'target', 'sessionDeadline'] as const
          ).map((k) => h('th', {}, ct(k, lang))),
        ),
      ),
      h(
        'tbody',
        {},
        ...view.members.map((m) =>
          h(
            'tr',
            { 'data-member': m.memberId },
            h('td', { title: m.memberId }, short(m.memberId)),
            h('td', {}, m.instanceId ?? '—'),
            h('td', { class: 'epoch' }, `${m.memberEpoch} (${ct('previous', lang)} ${m.previousMemberEpoch})`),
            h('td', { class: 'member-state' }, m.state),
            h('td', { class: 'mono' }, partitions(m.assigned, lang)),
            h('td', { class: 'mono' }, partitions(m.pendingRevocation, lang)),
            h('td', { class: 'mono' }, partitions(m.target, lang)),
            h('td', {}, deadline(m.sessionDeadlineMs)),
          ),
        ),
      ),
    ),
    timersTable(view.timers, now, lang),
  );
}

export function renderGroup(
  el: HTMLElement,
  groupId: string,
  view: GroupView | ConsumerGroupView | null,
  now: number,
  lang: Lang,
  short: (id: string) => string,
  describeAssignment: (base64: string) => string | null = () => null,
): void {
  if (!view) {
    replaceChildren(el, h('h2', {}, `${ct('group', lang)} ${groupId}`), h('p', { class: 'muted' }, ct('noGroup', lang)));
    return;
  }
  if (view.type === 'consumer') {
    renderConsumerGroup(el, view, now, lang, short);
    return;
  }
  const deadline = (ms: number | null) => when(ms, now, lang);
  replaceChildren(
    el,
    h('h2', {}, `${ct('group', lang)} ${view.groupId}`),
    h(
      'p',
      { class: 'summary' },
      h('span', { id: 'group-state', class: `state state-${view.state}`, 'data-state': view.state }, stateLabel(view.state, lang)),
      ` ${ct('generation', lang)} `,
      h('strong', { id: 'generation' }, String(view.generationId)),
      ` · ${ct('leader', lang)} `,
      h('strong', { id: 'leader' }, view.leaderId ? short(view.leaderId) : '—'),
      ` · ${ct('protocol', lang)} `,
      h('strong', {}, `${view.protocolType ?? '—'}/${view.protocolName ?? '—'}`),
      view.unloaded ? h('strong', { class: 'error' }, ` · ${ct('unloaded', lang)}`) : null,
    ),
    h(
      'table',
      { id: 'members' },
      h('caption', {}, `${view.members.length} ${ct('members', lang)}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...(['member', 'instance', 'role', 'waitingIn', 'isNew', 'sessionDeadline', 'assignment'] as const).map((k) =>
            h('th', {}, ct(k, lang)),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...view.members.map((m) =>
          h(
            'tr',
            {},
            h('td', { title: m.memberId }, short(m.memberId)),
            h('td', {}, m.groupInstanceId ?? '—'),
            h('td', {}, ct(m.isLeader ? 'leader' : 'follower', lang)),
            h('td', {}, m.awaitingJoin ? 'JoinGroup' : m.awaitingSync ? 'SyncGroup' : '—'),
            h('td', {}, m.isNew ? ct('yes', lang) : ''),
            h('td', {}, deadline(m.sessionDeadlineMs)),
            h(
              'td',
              { class: 'mono', title: m.assignment },
              m.assignment
                ? assignmentText(m.assignment, view.protocolType === 'consumer' ? describeAssignment(m.assignment) : null, lang)
                : ct('empty', lang),
            ),
          ),
        ),
      ),
    ),
    h('p', {}, ct('pending', lang), h('span', { id: 'pending' }, view.pendingMembers.map(short).join(', ') || '—')),
    h('p', {}, ct('awaitingSync', lang), view.pendingSyncMembers.map(short).join(', ') || '—'),
    timersTable(view.timers, now, lang),
  );
}

/** The most exchanges the log draws, newest first: a live run of ten thousand exchanges was drawn
 * whole at every frame (seconds each); the earlier ones are counted. */
export const LOG_SHOWN = 200;

/** A request in one line, in the model's words; one the model refused to read (its error is
 * logged beside it) by the API it names, as typed. */
function requestLine(request: Request, words: ModelWords): string {
  try {
    return words.requestText(request);
  } catch {
    const named = request as { api?: unknown; correlationId?: unknown };
    const api = typeof named.api === 'string' ? clipped(named.api, 'en') : '?';
    return typeof named.correlationId === 'number' ? `${api} #${named.correlationId}` : api;
  }
}

export function renderLog(el: HTMLElement, log: Exchange[], words: ModelWords, lang: Lang): void {
  const earlier = Math.max(0, log.length - LOG_SHOWN);
  replaceChildren(
    el,
    h('h2', {}, ct('exchanges', lang)),
    ...log
      .slice(earlier)
      .reverse()
      .map((x) =>
        h(
          'article',
          { class: 'exchange', 'data-seq': String(x.seq) },
          h(
            'header',
            {},
            h('span', { class: 'at' }, `${x.atMs} ms`),
            ' ',
            x.request ? requestLine(x.request, words) : x.action ? describeAction(x.action, words.errorName, lang) : '',
          ),
          x.error ? h('p', { class: 'error' }, x.error) : null,
          h(
            'ul',
            { class: 'responses' },
            ...x.responses.map((r, i) =>
              h(
                'li',
                { class: x.told[i]?.errorCode === 0 ? 'ok' : 'err' },
                '→ ',
                x.told[i]?.text[lang] ?? '',
                h('details', {}, h('summary', {}, 'JSON'), h('pre', {}, JSON.stringify(r, null, 2))),
              ),
            ),
          ),
          x.events.length
            ? h(
                'details',
                { class: 'events' },
                h('summary', {}, lang === 'zh' ? `${x.events.length} 个事件` : `${x.events.length} event(s)`),
                h('ol', {}, ...x.events.map((e) => h('li', {}, e.text[lang]))),
              )
            : null,
        ),
      ),
    earlier
      ? h(
          'p',
          { class: 'muted', id: 'log-earlier' },
          lang === 'zh' ? `……以及更早的 ${earlier} 次交换（未显示）` : `… and ${earlier} earlier exchanges (not shown)`,
        )
      : null,
  );
}
