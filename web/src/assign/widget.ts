// The assign widget (`?mode=assign`): a group written as text, an assignor, and the result with
// what each member keeps, gets and gives up. It runs the model's assignors through the wasm
// module (the client side's `assign`, the server side's `serverAssign`), as the playground's
// consumers and coordinator do.

import type {
  Assignment,
  AssignmentInput,
  CompactAssignmentInput,
  ServerAssignInput,
  TopicPartitions,
} from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { linePrefix, t } from '../playground/text.ts';
import { fromCompact, toCompact } from './compact.ts';
import { moves, parseGroup, type Said } from './group-text.ts';

/** The assignors by the widget's names: the client's four, and the server's two. */
export const STRATEGIES = ['range', 'roundrobin', 'sticky', 'cooperative-sticky', 'server-uniform', 'server-range'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export const EXAMPLE = `topics: orders=6, payments=3
c1 gen=1: orders, payments | owns orders-0, orders-1, orders-2, payments-0, payments-1
c2 gen=1: orders, payments | owns orders-3, orders-4, orders-5, payments-2
c3: orders, payments`;

type ClientStrategy = 'range' | 'roundrobin' | 'sticky' | 'cooperative-sticky';

export interface AssignFunctions {
  assign: (strategy: ClientStrategy, input: AssignmentInput) => Assignment;
  /** The compact form, which the widget takes unless the group has racks. */
  assignCompact: (strategy: ClientStrategy, input: CompactAssignmentInput) => Int32Array;
  serverAssign: (name: 'uniform' | 'range', input: ServerAssignInput) => Record<string, TopicPartitions[]>;
}

/**
 * Runs `strategy` on the group `text`: each member's (owned, assigned) and the notes on the
 * group's likely slips; or an error to show (the parser's in both languages, the model's as it
 * gives it).
 */
export function run(
  fns: AssignFunctions,
  strategy: StrategyName,
  text: string,
):
  | { ok: true; rows: [string, TopicPartitions[] | undefined, TopicPartitions[]][]; notes: Said[] }
  | { ok: false; line?: number; message: Said | string } {
  const parsed = parseGroup(text);
  if (!parsed.ok) return { ok: false, line: parsed.line, message: parsed.message };
  const input = parsed.input;
  try {
    let out: Record<string, TopicPartitions[]>;
    if (strategy.startsWith('server-')) {
      out = fns.serverAssign(strategy === 'server-uniform' ? 'uniform' : 'range', {
        topics: input.topics,
        members: input.members.map((m) => ({
          memberId: m.memberId,
          instanceId: m.groupInstanceId ?? undefined,
          rackId: m.rackId ?? undefined,
          subscribedTopics: m.topics,
          assignment: m.ownedPartitions ?? [],
        })),
      });
    } else {
      const compact = toCompact(input);
      out = compact
        ? fromCompact(compact, fns.assignCompact(strategy as ClientStrategy, compact))
        : fns.assign(strategy as ClientStrategy, input);
    }
    const rows = [...input.members]
      .sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0))
      .map((m): [string, TopicPartitions[] | undefined, TopicPartitions[]] => [m.memberId, m.ownedPartitions, out[m.memberId] ?? []]);
    return { ok: true, rows, notes: parsed.notes };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** The most partitions a cell lists, and the most members the table draws. A group of a million
 * partitions or thousands of members is assigned whole and counted whole; its table lists the
 * first ones and says how many more there are (drawing every one took the page 45 s and 3 GB,
 * and a million names spread into one call overflowed the stack). */
export const CELL_NAMES = 100;
export const TABLE_ROWS = 200;

/** "… and N more" after a cut list. */
const more = (n: number, lang: Lang): string => (lang === 'zh' ? ` …另有 ${n} 个` : ` … and ${n} more`);

/** Partition names ("orders-1") a space apart, each kept on one line: a narrow column breaks
 * between them, not after a name's hyphen; past the list, how many more. */
const names = (list: string[], total: number, lang: Lang): (Node | string)[] => {
  if (!total) return ['—'];
  const out: (Node | string)[] = [];
  for (const [i, name] of list.entries()) {
    if (i) out.push(' ');
    out.push(h('span', { class: 'tp' }, name));
  }
  if (total > list.length) out.push(more(total - list.length, lang));
  return out;
};

/** A member's assignment as "orders 0,1; payments 2", at most CELL_NAMES partitions of it. */
const shown = (tps: TopicPartitions[], lang: Lang): string => {
  let left = CELL_NAMES;
  let total = 0;
  const parts: string[] = [];
  for (const tp of tps) {
    total += tp.partitions.length;
    if (!tp.partitions.length || left <= 0) continue;
    parts.push(`${tp.topic} ${tp.partitions.slice(0, left).join(',')}`);
    left -= Math.min(left, tp.partitions.length);
  }
  const listed = CELL_NAMES - left;
  return parts.join('; ') + (total > listed ? more(total - listed, lang) : '');
};

export function assignWidget(fns: AssignFunctions, lang: Lang, strategy: string | null, group: string | null): HTMLElement {
  const select = h('select', { id: 'assign-strategy', 'aria-label': t('assignStrategy', lang) });
  const client = h('optgroup', { label: t('assignClient', lang) });
  const server = h('optgroup', { label: t('assignServer', lang) });
  for (const s of STRATEGIES) {
    (s.startsWith('server-') ? server : client).append(h('option', { value: s }, s.replace('server-', '')));
  }
  select.append(client, server);
  select.value = (STRATEGIES as readonly string[]).includes(strategy ?? '') ? (strategy as string) : 'cooperative-sticky';
  const area = h('textarea', { id: 'assign-group', rows: '7', spellcheck: 'false', 'aria-label': t('assignGroup', lang) });
  area.value = group ?? EXAMPLE;
  const result = h('div', { id: 'assign-result', 'aria-live': 'polite' });
  const update = () => {
    const r = run(fns, select.value as StrategyName, area.value);
    if (!r.ok) {
      const message = typeof r.message === 'string' ? r.message : r.message[lang];
      replaceChildren(result, h('p', { class: 'error', id: 'assign-error' }, r.line ? `${linePrefix(r.line, lang)}${message}` : message));
      return;
    }
    let added = 0;
    let revoked = 0;
    const body: HTMLElement[] = [];
    for (const [i, [id, owned, assigned]] of r.rows.entries()) {
      const m = moves(owned, assigned, i < TABLE_ROWS ? CELL_NAMES : 0);
      added += m.counts.added;
      revoked += m.counts.revoked;
      if (i >= TABLE_ROWS) continue;
      body.push(
        h(
          'tr',
          { 'data-member': id },
          h('th', { scope: 'row' }, id),
          h('td', { class: 'assigned' }, shown(assigned, lang) || '—'),
          h('td', { class: 'kept' }, ...names(m.kept, m.counts.kept, lang)),
          h('td', { class: 'added' }, ...names(m.added, m.counts.added, lang)),
          h('td', { class: 'revoked' }, ...names(m.revoked, m.counts.revoked, lang)),
        ),
      );
    }
    if (r.rows.length > TABLE_ROWS) {
      const rest = r.rows.length - TABLE_ROWS;
      body.push(
        h(
          'tr',
          { id: 'assign-more' },
          h(
            'td',
            { colspan: '5', class: 'muted' },
            lang === 'zh' ? `…另有 ${rest} 个成员（上面的合计包括他们）` : `… and ${rest} more members (counted in the totals below)`,
          ),
        ),
      );
    }
    replaceChildren(
      result,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'assign-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['assignMember', 'assignAssigned', 'assignKept', 'assignAdded', 'assignRevoked'].map((k) =>
                h('th', { scope: 'col' }, t(k as 'assignMember', lang)),
              ),
            ),
          ),
          h('tbody', {}, ...body),
        ),
      ),
      h(
        'p',
        { class: 'muted', id: 'assign-moved' },
        `${revoked} ${t('assignGivenUp', lang)}${lang === 'zh' ? '，' : ', '}${added} ${t('assignNew', lang)}`,
      ),
      ...(r.notes.length ? [h('ul', { class: 'assign-notes', id: 'assign-notes' }, ...r.notes.map((n) => h('li', {}, n[lang])))] : []),
    );
  };
  // Typing in a large group waits for a pause: each keystroke assigned it again.
  let lastMs = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const timed = () => {
    clearTimeout(pending);
    const start = performance.now();
    update();
    lastMs = performance.now() - start;
  };
  select.addEventListener('change', timed);
  area.addEventListener('input', () => {
    clearTimeout(pending);
    if (lastMs < 200) timed();
    else pending = setTimeout(timed, 300);
  });
  timed();
  return h(
    'section',
    { class: 'panel assign-widget' },
    h('h2', {}, t('assignTitle', lang)),
    h('p', { class: 'muted' }, t('assignHelp', lang)),
    h('label', {}, `${t('assignStrategy', lang)} `, select),
    area,
    result,
  );
}
