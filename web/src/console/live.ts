// A live run of group-broker, followed in the console: the broker's trace, line by line (from
// its WebSocket feed, `?mode=console&live=ws://…`, or from a file it wrote with `--trace`).
// The page does not take the broker's word for what happened: the header says how the broker
// built its model (seed, settings, topics), each input line (a request, a timer advance) goes to
// the page's own model, built the same way, and each response the broker recorded is checked
// against the one the page's model gave. The model is deterministic, so they agree; if they ever
// did not, the run says where.

import type { Request, Response } from '../../pkg/group_coordinator_wasm.js';
import { type CoordinatorFactory, type Exchange, Session } from './session.ts';

/** The trace's first line (`group-broker`'s `Header::line`). */
export interface TraceHeader {
  seed: number;
  settings: string[];
  topics: [string, number][];
  config: Record<string, number | string | boolean>;
}

/** Where a live run stands. */
export type LiveStatus =
  | { kind: 'waiting' }
  | { kind: 'following'; inputs: number; checked: number }
  | { kind: 'diverged'; line: number; what: string }
  | { kind: 'refused'; line: number; what: string };

/** JSON with its object keys sorted, so that two serialisers' outputs compare. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export class LiveRun {
  session: Session | null = null;
  status: LiveStatus = { kind: 'waiting' };
  private line = 0;
  private inputs = 0;
  private checked = 0;
  /** The page's model's responses not yet matched with the broker's, by correlation id. */
  private produced = new Map<number, Response>();
  /** This page's model refused the last input (the broker's note should say it did too). */
  private refusal: string | null = null;

  constructor(private readonly factory: CoordinatorFactory) {}

  /** Applies one line of the trace. Returns the exchange it made (an input), or null. Never
   * throws: a line it cannot use stops the run with the reason, and what was done stays. */
  apply(text: string): Exchange | null {
    this.line++;
    if (this.status.kind === 'diverged' || this.status.kind === 'refused') return null;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.refuse('not JSON');
    }
    if (line === null || typeof line !== 'object') return this.refuse('not a JSON object');
    if (typeof line.truncated === 'string') return this.refuse(`the broker says: ${line.truncated}`);
    if (this.session === null) {
      const header = line.broker as TraceHeader | undefined;
      if (!header || typeof header !== 'object') return this.refuse('the first line is not the broker header');
      try {
        this.session = new Session(
          this.factory,
          header.config ?? {},
          header.topics.map(([name, partitions]) => ({ name, partitions })),
          header.seed,
        );
      } catch (e) {
        return this.refuse(`the broker's model cannot be built here: ${(e as Error).message}`);
      }
      this.status = { kind: 'following', inputs: 0, checked: 0 };
      return null;
    }
    const at = typeof line.at === 'number' ? line.at : null;
    // A request this page's model refused must be one the broker's refused too: its note is the
    // next line.
    if (this.refusal !== null) {
      const note = typeof line.note === 'string' ? line.note : '';
      if (!note.startsWith('the model refused a request')) {
        return this.diverge(`this page's model refused the input, the broker's did not: ${this.refusal}`);
      }
      this.refusal = null;
      return null;
    }
    if (typeof line.note === 'string' && line.note.startsWith('the model refused a request')) {
      return this.diverge(`the broker's model refused an input this page's model took: ${line.note}`);
    }
    let exchange: Exchange | null = null;
    if (line.request && at !== null) {
      const request = line.request as Request;
      const groupId = (request as { groupId?: unknown }).groupId;
      // The console shows the group the last request named.
      if (typeof groupId === 'string' && groupId !== '') this.session.groupId = groupId;
      exchange = this.session.send(at, request);
    } else if (line.advance && at !== null) {
      exchange = this.session.advance(at);
    } else if (line.response) {
      const recorded = line.response as Response;
      const ours = this.produced.get(recorded.correlationId);
      if (!ours) return this.diverge(`the broker answered #${recorded.correlationId}; this page's model did not`);
      this.produced.delete(recorded.correlationId);
      if (canonical(ours) !== canonical(recorded)) {
        return this.diverge(`#${recorded.correlationId}: the broker said ${canonical(recorded)}, this page's model ${canonical(ours)}`);
      }
      this.checked++;
    } else if (!line.event && !line.note) {
      return this.refuse('neither an input nor an output');
    }
    if (exchange) {
      this.inputs++;
      if (exchange.error) this.refusal = exchange.error;
      for (const r of exchange.responses) this.produced.set(r.correlationId, r);
    }
    this.status = { kind: 'following', inputs: this.inputs, checked: this.checked };
    return exchange;
  }

  private refuse(what: string): null {
    this.status = { kind: 'refused', line: this.line, what };
    return null;
  }

  private diverge(what: string): null {
    this.status = { kind: 'diverged', line: this.line, what };
    return null;
  }
}
