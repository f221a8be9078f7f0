// The assign widget's computation, apart from its drawing: the group text read and the chosen
// assignor run through the model's functions. The widget calls it on the page's main thread for a
// group of ordinary size, and its worker (worker.ts) for a large one; both give the same rows.

import type {
  Assignment,
  AssignmentInput,
  CompactAssignmentInput,
  ServerAssignInput,
  TopicPartitions,
} from '../../pkg/group_coordinator_wasm.js';
import { fromCompact, toCompact } from './compact.ts';
import { parseGroup, type Said } from './group-text.ts';

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
