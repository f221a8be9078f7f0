// A live feed as the page reads it (`openLiveFeed`, shared by the console and the playground),
// against a WebSocket stand-in the test drives: a message holding several lines gives each line;
// a binary frame, a message past the page's limit, or a feed past its budget ends following with
// the reason; a close says its code and reason; an address never reached says so. And the
// console's live run takes two lines in one call (it once threw a SyntaxError at the socket).
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';
import { type FeedEnd, MAX_FEED_CHARS, MAX_MESSAGE_CHARS, openLiveFeed } from '../src/common/live-feed.ts';
import { feedEnd, liveStatus } from '../src/common/live-text.ts';
import { clipped, QUOTE_MAX } from '../src/common/quote.ts';
import { LiveRun } from '../src/console/live.ts';

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

/** The last socket made, driven by the test as a server would drive it. */
class FakeSocket extends EventTarget {
  static last: FakeSocket;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    super();
    FakeSocket.last = this;
  }
  open(): void {
    this.dispatchEvent(new Event('open'));
  }
  send(data: unknown): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data }));
  }
  end(code: number, reason = ''): void {
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason }));
  }
  close(code = 1005): void {
    this.closedWith = code;
  }
}

const real = globalThis.WebSocket;
afterEach(() => {
  globalThis.WebSocket = real;
});

function feed(): { lines: string[]; ends: FeedEnd[]; socket: FakeSocket } {
  globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
  const lines: string[] = [];
  const ends: FeedEnd[] = [];
  openLiveFeed(
    'ws://127.0.0.1:9/',
    (l) => lines.push(l),
    (e) => ends.push(e),
  );
  return { lines, ends, socket: FakeSocket.last };
}

const trace = readFileSync(new URL('./fixtures/broker-trace.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n');

describe('a live feed', () => {
  it('gives each line of a message that holds several, and none blank', () => {
    const { lines, ends, socket } = feed();
    socket.open();
    socket.send(`${trace[0]}\n${trace[1]}\r\n\n`);
    socket.send(trace[2]);
    expect(lines).toEqual([trace[0], `${trace[1]}\r`, trace[2]]);
    socket.end(1000);
    expect(ends).toEqual([{ kind: 'closed', code: 1000, reason: '', opened: true }]);
    expect(feedEnd(ends[0], 'en')).toBe('The feed closed.');
  });

  it('stops at a binary frame, a message past its limit, and past its budget, saying why', () => {
    const binary = feed();
    binary.socket.open();
    binary.socket.send(new ArrayBuffer(8));
    binary.socket.send(trace[0]);
    expect(binary.lines).toEqual([]);
    expect(binary.ends).toEqual([{ kind: 'binary' }]);
    expect(binary.socket.closedWith).toBe(1000);
    expect(feedEnd(binary.ends[0], 'en')).toContain('binary frame');
    expect(feedEnd(binary.ends[0], 'zh')).toContain('二进制帧');

    const large = feed();
    large.socket.open();
    large.socket.send('x'.repeat(MAX_MESSAGE_CHARS + 1));
    expect(large.ends).toEqual([{ kind: 'too-large', chars: MAX_MESSAGE_CHARS + 1, limit: MAX_MESSAGE_CHARS }]);
    expect(feedEnd(large.ends[0], 'en')).toContain('what was applied stays');

    const many = feed();
    many.socket.open();
    const chunk = `${'x'.repeat(MAX_MESSAGE_CHARS - 1)}`;
    for (let sent = 0; sent <= MAX_FEED_CHARS; sent += chunk.length) many.socket.send(chunk);
    expect(many.ends).toEqual([{ kind: 'budget', limit: MAX_FEED_CHARS }]);
    expect(many.lines.length).toBe(Math.floor(MAX_FEED_CHARS / chunk.length));
    // A close after the page ended the feed says nothing more.
    many.socket.end(1000);
    expect(many.ends).toHaveLength(1);
  });

  it('names a close that is not clean, and an address never reached', () => {
    const protocol = feed();
    protocol.socket.open();
    protocol.socket.end(1002, 'bad frame');
    const status = liveStatus({ kind: 'waiting' }, 'ws://127.0.0.1:9/', true, 'en', protocol.ends[0]);
    expect(status).toBe(
      'No trace came from group-broker at ws://127.0.0.1:9/. The feed closed: a protocol error (code 1002, reason "bad frame").',
    );
    const never = feed();
    never.socket.end(1006);
    expect(feedEnd(never.ends[0], 'en')).toContain('Could not connect');
    expect(feedEnd(never.ends[0], 'zh')).toContain('无法连接');
    // A reason of any length is quoted in part.
    const long = feed();
    long.socket.open();
    long.socket.end(1011, 'r'.repeat(5000));
    expect(feedEnd(long.ends[0], 'en').length).toBeLessThan(250);
  });
});

describe('the console’s live run', () => {
  it('takes several lines in one call, as it takes them one by one', () => {
    const factory = (config: Record<string, number | string | boolean>, seed?: number) =>
      seed ? wasm.Coordinator.withSeed(seed, config) : new wasm.Coordinator(config);
    const together = new LiveRun(factory, wasm.Player.live());
    expect(() => together.apply(trace.slice(0, 3).join('\n'))).not.toThrow();
    for (const line of trace.slice(3)) together.apply(line);
    const apart = new LiveRun(factory, wasm.Player.live());
    for (const line of trace) apart.apply(line);
    expect(together.status).toEqual(apart.status);
    expect(together.status.kind).toBe('following');
    expect(together.session?.log.length).toBe(apart.session?.log.length);
  });
});

describe('a value quoted in a message', () => {
  it('is cut at QUOTE_MAX characters, never through a surrogate pair, the rest counted', () => {
    expect(clipped('short')).toBe('short');
    const long = 'a'.repeat(1_500_000);
    expect(clipped(long)).toBe(`${'a'.repeat(QUOTE_MAX)}… (1499900 more characters)`);
    expect(clipped(long, 'zh')).toContain('另有 1499900 个字符');
    const pair = `${'a'.repeat(QUOTE_MAX - 1)}🦀tail`;
    expect(clipped(pair).startsWith(`${'a'.repeat(QUOTE_MAX - 1)}…`)).toBe(true);
  });
});
