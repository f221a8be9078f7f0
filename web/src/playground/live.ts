// A live run in the playground: group-broker's trace, from its WebSocket feed (`?live=ws://…`) or
// from a file it wrote (`--trace`), followed by the model's own `Player.live()` (Rust,
// `group_simulator::live`). Lines are handed over in batches, one per animation frame, so a busy
// broker does not cost a crossing per line; the model applies them at the end of the run and
// checks every answer the broker recorded against its own. This module keeps no protocol state:
// it moves text and says where following stands.

import type { FollowStatus } from '../../pkg/group_coordinator_wasm.js';
import { badLiveUrl } from '../console/text.ts';
import type { Run } from './run.ts';

/** Lines handed to the model in one call at most (about a frame's work on a large trace). */
export const BATCH_LINES = 2_000;

export class LiveFeed {
  status: FollowStatus = { kind: 'waiting' };
  /** The feed ended (the socket closed, or the file was read to its end). */
  closed = false;
  /** Why the socket's feed ended, when it did (a file's end has none). */
  end: FeedEnd | null = null;
  private queue: string[] = [];
  private scheduled = false;
  private socket: WebSocket | null = null;

  constructor(
    private readonly run: Run,
    /** Where the lines come from (the feed's address or the file's name), as the status says. */
    readonly source: string,
    /** Called after each batch (and when the feed closes): the page redraws. */
    private readonly onChange: () => void,
  ) {}

  /** Opens group-broker's live feed; throws with the reason for an address that is not ws:// or
   * wss:// (the page says it and stays as it was). */
  static connect(run: Run, url: string, onChange: () => void, lang: 'en' | 'zh'): LiveFeed {
    const href = liveFeedUrl(url, lang);
    const feed = new LiveFeed(run, href, onChange);
    feed.socket = openLiveFeed(
      href,
      (line) => feed.push(line),
      (why) => {
        feed.closed = true;
        feed.end = why;
        feed.flush();
      },
    );
    return feed;
  }

  /** A trace file, read as a live run that has ended (in batches, so a long file does not hold
   * the page in one call). */
  static read(run: Run, text: string, name: string, onChange: () => void): LiveFeed {
    const feed = new LiveFeed(run, name, onChange);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i += BATCH_LINES) feed.apply(lines.slice(i, i + BATCH_LINES).join('\n'));
    feed.closed = true;
    onChange();
    return feed;
  }

  /** Stops listening; the run keeps what it got. */
  stop(): void {
    this.socket?.close();
    this.socket = null;
    this.closed = true;
    this.queue = [];
  }

  get stopped(): boolean {
    return this.status.kind === 'diverged' || this.status.kind === 'refused';
  }

  private push(line: string): void {
    this.queue.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && !this.stopped) {
      this.apply(this.queue.splice(0, BATCH_LINES).join('\n'));
    }
    this.queue = [];
    this.onChange();
  }

  private apply(lines: string): void {
    if (this.stopped || lines.trim() === '') return;
    this.status = this.run.follow(lines);
  }
}

/** Whether `text` is a group-broker trace (its first line is the broker's header). */
export function isBrokerTrace(text: string): boolean {
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  try {
    const line = JSON.parse(first) as Record<string, unknown>;
    return line !== null && typeof line === 'object' && 'broker' in line;
  } catch {
    return false;
  }
}

/** The address of group-broker's live feed (`live=`), normalised; throws, saying why, for one
 * that is not ws:// or wss:// (the console and the playground both read it). */
export function liveFeedUrl(url: string, lang: 'en' | 'zh'): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')) throw new Error(badLiveUrl(url, lang));
  return parsed.href;
}

/** The most a feed may send in one message, in characters: the largest JSON text the model reads
 * as one request (`Items::Request`, crates/wasm/src/args.rs). A larger message stops following. */
export const MAX_MESSAGE_CHARS = 10 * 1024 * 1024;
/** The most a feed may send in all, in characters. Everything a feed sends is kept (the model's
 * run, the console's exchanges): past this, following stops with the reason, and what was
 * applied stays. 1 MB JoinGroups once took the page to 3 GB in 20 seconds. */
export const MAX_FEED_CHARS = 64 * 1024 * 1024;

/** Why a feed ended, when the page can say more than that it closed. */
export type FeedEnd =
  | { kind: 'closed'; code: number; reason: string; opened: boolean }
  | { kind: 'binary' }
  | { kind: 'too-large'; chars: number; limit: number }
  | { kind: 'budget'; limit: number };

/** Opens group-broker's live feed at `href` (checked by `liveFeedUrl`): each line of the trace
 * goes to `onLine` (a message may hold several), and `onEnd` is called once when the feed ends,
 * with why (the console and the playground both read it so). Past the budgets above, or on a
 * binary frame, the page closes the feed itself. */
export function openLiveFeed(href: string, onLine: (line: string) => void, onEnd: (why: FeedEnd) => void): WebSocket {
  const socket = new WebSocket(href);
  let received = 0;
  let opened = false;
  let ended = false;
  const end = (why: FeedEnd): void => {
    if (ended) return;
    ended = true;
    if (why.kind !== 'closed') socket.close(1000);
    onEnd(why);
  };
  socket.addEventListener('open', () => {
    opened = true;
  });
  socket.addEventListener('message', (m) => {
    if (ended) return;
    if (typeof m.data !== 'string') return end({ kind: 'binary' });
    if (m.data.length > MAX_MESSAGE_CHARS) return end({ kind: 'too-large', chars: m.data.length, limit: MAX_MESSAGE_CHARS });
    received += m.data.length;
    if (received > MAX_FEED_CHARS) return end({ kind: 'budget', limit: MAX_FEED_CHARS });
    for (const line of m.data.split('\n')) if (line.trim() !== '') onLine(line);
  });
  socket.addEventListener('close', (e) => end({ kind: 'closed', code: e.code, reason: e.reason, opened }));
  return socket;
}
