// A live run of group-broker, followed in the console: the broker's trace, line by line (from
// its WebSocket feed, `?mode=console&live=ws://…`, or from a file it wrote with `--trace`).
// The page does not take the broker's word for what happened: the model's own follower
// (`Player.live()`, Rust: `group_simulator::live`) rebuilds the run from the broker's inputs and
// checks every response the broker recorded, and refusals both ways; its status is this run's.
// The console shows the exchanges in its own session, built as the broker built its model (the
// header's seed, settings and topics) and given the same inputs: it checks nothing itself.

import type { Player, Request } from '../../pkg/group_coordinator_wasm.js';
import type { LiveStatus } from '../common/live-feed.ts';
import { type CoordinatorFactory, type Exchange, Session } from './session.ts';

/** The trace's first line (`group-broker`'s `Header::line`). */
export interface TraceHeader {
  seed: number;
  settings: string[];
  topics: [string, number][];
  config: Record<string, number | string | boolean>;
}

export class LiveRun {
  session: Session | null = null;
  /** The follower's status after the last line: following, or where and why it stopped. */
  status: LiveStatus = { kind: 'waiting' };

  constructor(
    private readonly factory: CoordinatorFactory,
    /** The model's follower, which checks the run (`Player.live()`). */
    private readonly follower: Player,
  ) {}

  /** Lets the follower's run go (the console stopped following). */
  free(): void {
    this.follower.free();
  }

  /** Applies one line of the trace. Returns the exchange it made in the console's session (an
   * input), or null. Never throws: a line the follower cannot use, or an answer that differs,
   * stops the run with the reason, and what was done stays. */
  apply(text: string): Exchange | null {
    if (text.includes('\n')) {
      // Several lines (a message may hold more than one): each in turn, the last exchange back.
      let last: Exchange | null = null;
      for (const line of text.split('\n')) last = this.apply(line) ?? last;
      return last;
    }
    if (text.trim() === '') return null;
    let status: LiveStatus;
    try {
      status = this.status = this.follower.follow(text);
    } catch (e) {
      // The follower refuses only what is not text or is past its size bound, which the feed
      // does not send; said all the same, never thrown at the socket's handler.
      this.status = { kind: 'refused', line: 0, what: (e as Error).message };
      return null;
    }
    if (status.kind === 'diverged' || status.kind === 'refused' || status.kind === 'waiting') return null;
    const line = JSON.parse(text) as Record<string, unknown>;
    if (this.session === null) {
      const header = line.broker as TraceHeader;
      this.session = new Session(
        this.factory,
        header.config ?? {},
        header.topics.map(([name, partitions]) => ({ name, partitions })),
        header.seed,
      );
      return null;
    }
    const at = typeof line.at === 'number' ? line.at : null;
    if (line.request && at !== null) {
      const request = line.request as Request;
      const groupId = (request as { groupId?: unknown }).groupId;
      // The console shows the group the last request named.
      if (typeof groupId === 'string' && groupId !== '') this.session.groupId = groupId;
      return this.session.send(at, request);
    }
    if (line.advance && at !== null) return this.session.advance(at);
    const created = line.createTopic as { topic?: unknown; partitions?: unknown } | undefined;
    if (created && at !== null && typeof created.topic === 'string' && typeof created.partitions === 'number') {
      return this.session.createTopic(at, created.topic, created.partitions);
    }
    // The operator's failover (group-broker's `failover GROUP MS`), at the model's time: the
    // broker's advance to it came as a line of its own.
    for (const kind of ['unload', 'load'] as const) {
      const step = line[kind] as { groupId?: unknown } | undefined;
      if (step && typeof step.groupId === 'string') return this.session[kind](step.groupId);
    }
    return null;
  }
}
