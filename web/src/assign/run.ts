// The assign widget's computation, apart from its drawing: the group text read, the chosen
// assignor run through the model's functions, and what the table shows of the result. The widget
// calls it on the page's main thread for a group of ordinary size, and its worker (worker.ts) for
// a large one; both give the same table.

import type {
  Assignment,
  AssignmentInput,
  CompactAssignmentInput,
  ServerAssignInput,
  TopicPartitions,
} from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { fromCompact, toCompact } from './compact.ts';
import { moves, parseGroup, type Said } from './group-text.ts';

/** The assignors by the widget's names: the client's four, and the server's two. */
export const STRATEGIES = ['range', 'roundrobin', 'sticky', 'cooperative-sticky', 'server-uniform', 'server-range'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

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
export type RunResult =
  | { ok: true; rows: [string, TopicPartitions[] | undefined, TopicPartitions[]][]; notes: Said[] }
  | { ok: false; line?: number; message: Said | string };

export function run(fns: AssignFunctions, strategy: StrategyName, text: string): RunResult {
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
    const notes = strategy === 'cooperative-sticky' ? [...parsed.notes, ...followUp(input, rows)] : parsed.notes;
    return { ok: true, rows, notes };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** Cooperative rebalancing (KIP-429) gives a partition that changes owner to nobody in this
 * round: its old owner revokes it and rejoins at once, and the follow-up rebalance assigns it.
 * Said when it happens, naming the members left empty until then. (Skipped for groups owning
 * more than 100,000 partitions: the note is for reading, not for checking such a group.) */
function followUp(input: AssignmentInput, rows: [string, TopicPartitions[] | undefined, TopicPartitions[]][]): Said[] {
  let owned = 0;
  for (const m of input.members) for (const tp of m.ownedPartitions ?? []) owned += tp.partitions.length;
  if (owned === 0 || owned > 100_000) return [];
  const assigned = new Set<string>();
  for (const [, , tps] of rows) for (const tp of tps) for (const p of tp.partitions) assigned.add(`${tp.topic}-${p}`);
  const withheld = new Set<string>();
  for (const m of input.members)
    for (const tp of m.ownedPartitions ?? [])
      for (const p of tp.partitions)
        if (Object.hasOwn(input.topics, tp.topic) && p < input.topics[tp.topic] && !assigned.has(`${tp.topic}-${p}`))
          withheld.add(`${tp.topic}-${p}`);
  if (withheld.size === 0) return [];
  const empty = rows.filter(([, , tps]) => tps.every((tp) => tp.partitions.length === 0)).map(([id]) => id);
  const n = withheld.size;
  const who = empty.slice(0, 10).join(', ');
  return [
    {
      en: `Cooperative rebalancing: the ${n} partition${n === 1 ? '' : 's'} given up here go${n === 1 ? 'es' : ''} to nobody in this round; their old owners rejoin at once, and the follow-up rebalance assigns them${empty.length ? ` (${who} ${empty.length === 1 ? 'gets' : 'get'} partitions then)` : ''}`,
      zh: `协作式再平衡：这里交出的 ${n} 个分区在这一轮不分给任何人；原来的拥有者立即重新加入，随后的再平衡再分配它们${empty.length ? `（${empty.slice(0, 10).join('、')} 届时才分到分区）` : ''}`,
    },
  ];
}

/** The most partitions a cell lists, and the most members the table draws. A group of a million
 * partitions or thousands of members is assigned whole and counted whole; its table lists the
 * first ones and says how many more there are (drawing every one took the page 45 s and 3 GB,
 * and a million names spread into one call overflowed the stack). */
export const CELL_NAMES = 100;
export const TABLE_ROWS = 200;

/** "… and N more" after a cut list. */
export const more = (n: number, lang: Lang): string => (lang === 'zh' ? ` …另有 ${n} 个` : ` … and ${n} more`);

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

/** Names listed in a cell: at most CELL_NAMES of them, and how many in all. */
export interface Listed {
  names: string[];
  total: number;
}

/** What the widget's table shows of a result: its first TABLE_ROWS members, each with its
 * assignment and at most CELL_NAMES partitions kept, new and given up; how many members more;
 * and the partitions that move, counted over all of them. Made where the group was assigned (in
 * the worker for a large one), so the page is handed a table, not a million partitions. */
export type Table =
  | {
      ok: true;
      rows: { id: string; assigned: string; kept: Listed; added: Listed; revoked: Listed }[];
      more: number;
      added: number;
      revoked: number;
      notes: Said[];
    }
  | { ok: false; line?: number; message: Said | string };

export function table(r: RunResult, lang: Lang): Table {
  if (!r.ok) return r;
  let added = 0;
  let revoked = 0;
  const rows: Extract<Table, { ok: true }>['rows'] = [];
  for (const [i, [id, owned, assigned]] of r.rows.entries()) {
    const m = moves(owned, assigned, i < TABLE_ROWS ? CELL_NAMES : 0);
    added += m.counts.added;
    revoked += m.counts.revoked;
    if (i >= TABLE_ROWS) continue;
    rows.push({
      id,
      assigned: shown(assigned, lang),
      kept: { names: m.kept, total: m.counts.kept },
      added: { names: m.added, total: m.counts.added },
      revoked: { names: m.revoked, total: m.counts.revoked },
    });
  }
  return { ok: true, rows, more: Math.max(0, r.rows.length - TABLE_ROWS), added, revoked, notes: r.notes };
}
