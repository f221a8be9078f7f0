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
import type { Lang } from '../i18n.ts';
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
