// The console's two read-only panels: the group as the coordinator describes it, and the log of
// exchanges (each request, its responses and the events it caused, in the model's words).

import type { GroupView } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { stateLabel } from '../vocabulary.ts';
import { describeAction, describeRequest, describeResponse, type ErrorNamer, short } from './format.ts';
import type { Exchange } from './session.ts';
import { ct } from './text.ts';

export function renderGroup(el: HTMLElement, view: GroupView | null, lang: Lang): void {
  if (!view) {
    replaceChildren(el, h('h2', {}, `${ct('group', lang)} my-group`), h('p', { class: 'muted' }, ct('noGroup', lang)));
    return;
  }
  const deadline = (ms: number | null) => (ms === null ? '—' : `${ms} ms`);
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
            h('td', { class: 'mono' }, m.assignment || ct('empty', lang)),
          ),
        ),
      ),
    ),
    h('p', {}, ct('pending', lang), h('span', { id: 'pending' }, view.pendingMembers.map(short).join(', ') || '—')),
    h('p', {}, ct('awaitingSync', lang), view.pendingSyncMembers.map(short).join(', ') || '—'),
    h(
      'table',
      { id: 'timers' },
      h('caption', {}, ct('timers', lang)),
      h('thead', {}, h('tr', {}, h('th', {}, ct('key', lang)), h('th', {}, ct('firesAt', lang)))),
      h('tbody', {}, ...view.timers.map((t) => h('tr', {}, h('td', { class: 'mono' }, t.key), h('td', {}, `${t.deadlineMs} ms`)))),
    ),
  );
}

export function renderLog(el: HTMLElement, log: Exchange[], errorName: ErrorNamer, lang: Lang): void {
  replaceChildren(
    el,
    h('h2', {}, ct('exchanges', lang)),
    ...log
      .slice()
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
            x.request ? describeRequest(x.request) : x.action ? describeAction(x.action, errorName, lang) : '',
          ),
          x.error ? h('p', { class: 'error' }, x.error) : null,
          h(
            'ul',
            { class: 'responses' },
            ...x.responses.map((r) =>
              h(
                'li',
                { class: r.errorCode === 0 ? 'ok' : 'err' },
                '→ ',
                describeResponse(r, errorName, lang),
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
  );
}
