// group-broker's live feed, as both the playground and the protocol console read it: the
// address (`live=`), the WebSocket with its budgets, why a feed ended, and whether a file is a
// broker trace. What each mode does with the lines is its own (playground/live.ts,
// console/live.ts).

import type { FollowStatus } from '../../pkg/group_coordinator_wasm.js';
import { badLiveUrl } from './live-text.ts';

/** Where a live run stands (the model's follower's status). */
export type LiveStatus = FollowStatus;

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
