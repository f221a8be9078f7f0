// The console's two read-only panels: the group as the coordinator describes it, and the log of
// exchanges (each request, its responses and the events it caused, in the model's words).

import type { GroupView } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { stateLabel } from '../vocabulary.ts';
import { describeRequest, describeResponse, type ErrorNamer, short } from './format.ts';
import type { Exchange } from './session.ts';

export function renderGroup(el: HTMLElement, view: GroupView | null, lang: Lang): void {
  if (!view) {
    replaceChildren(el, h('h2', {}, 'Group my-group'), h('p', { class: 'muted' }, 'No such group yet: a JoinGroup creates it.'));
    return;
  }
  const deadline = (ms: number | null) => (ms === null ? '—' : `${ms} ms`);
  replaceChildren(
    el,
    h('h2', {}, `Group ${view.groupId}`),
    h(
      'p',
      { class: 'summary' },
      h('span', { id: 'group-state', class: `state state-${view.state}`, 'data-state': view.state }, stateLabel(view.state, lang)),
      ' generation ',
      h('strong', { id: 'generation' }, String(view.generationId)),
      ' · leader ',
      h('strong', { id: 'leader' }, view.leaderId ? short(view.leaderId) : '—'),
      ' · protocol ',
      h('strong', {}, `${view.protocolType ?? '—'}/${view.protocolName ?? '—'}`),
      view.unloaded ? h('strong', { class: 'error' }, ' · unloaded (NOT_COORDINATOR)') : null,
    ),
    h(
      'table',
      { id: 'members' },
      h('caption', {}, `${view.members.length} member(s)`),
      h(
        'thead',
        {},
        h('tr', {}, ...['member', 'instance', 'role', 'waiting in', 'new', 'session deadline', 'assignment'].map((t) => h('th', {}, t))),
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
            h('td', {}, m.isLeader ? 'leader' : 'follower'),
            h('td', {}, m.awaitingJoin ? 'JoinGroup' : m.awaitingSync ? 'SyncGroup' : '—'),
            h('td', {}, m.isNew ? 'yes' : ''),
            h('td', {}, deadline(m.sessionDeadlineMs)),
            h('td', { class: 'mono' }, m.assignment || '(empty)'),
          ),
        ),
      ),
    ),
    h(
      'p',
      {},
      'Pending members (MEMBER_ID_REQUIRED, not joined yet): ',
      h('span', { id: 'pending' }, view.pendingMembers.map(short).join(', ') || '—'),
    ),
    h('p', {}, 'Awaiting SyncGroup: ', view.pendingSyncMembers.map(short).join(', ') || '—'),
    h(
      'table',
      { id: 'timers' },
      h('caption', {}, 'Delayed operations (timers)'),
      h('thead', {}, h('tr', {}, h('th', {}, 'key'), h('th', {}, 'fires at'))),
      h('tbody', {}, ...view.timers.map((t) => h('tr', {}, h('td', { class: 'mono' }, t.key), h('td', {}, `${t.deadlineMs} ms`)))),
    ),
  );
}

export function renderLog(el: HTMLElement, log: Exchange[], errorName: ErrorNamer, lang: Lang): void {
  replaceChildren(
    el,
    h('h2', {}, 'Exchanges and events'),
    ...log
      .slice()
      .reverse()
      .map((x) =>
        h(
          'article',
          { class: 'exchange', 'data-seq': String(x.seq) },
          h('header', {}, h('span', { class: 'at' }, `${x.atMs} ms`), ' ', x.request ? describeRequest(x.request) : (x.action ?? '')),
          x.error ? h('p', { class: 'error' }, x.error) : null,
          h(
            'ul',
            { class: 'responses' },
            ...x.responses.map((r) =>
              h(
                'li',
                { class: r.errorCode === 0 ? 'ok' : 'err' },
                '→ ',
                describeResponse(r, errorName),
                h('details', {}, h('summary', {}, 'JSON'), h('pre', {}, JSON.stringify(r, null, 2))),
              ),
            ),
          ),
          x.events.length
            ? h(
                'details',
                { class: 'events' },
                h('summary', {}, `${x.events.length} event(s)`),
                h('ol', {}, ...x.events.map((e) => h('li', {}, e.text[lang]))),
              )
            : null,
        ),
      ),
  );
}
