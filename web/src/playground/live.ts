// A live run in the playground: group-broker's trace, from its WebSocket feed (`?live=ws://…`) or
// from a file it wrote (`--trace`), followed by the model's own `Player.live()` (Rust,
// `group_simulator::live`). Lines are handed over in batches, one per animation frame, so a busy
// broker does not cost a crossing per line; the model applies them at the end of the run and
// checks every answer the broker recorded against its own. This module keeps no protocol state:
// it moves text and says where following stands.

import type { FollowStatus } from '../../pkg/group_coordinator_wasm.js';
import { type FeedEnd, liveFeedUrl, openLiveFeed } from '../common/live-feed.ts';
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
