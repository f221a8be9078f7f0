// What a followed live feed says about itself, in both languages: where following stands, why
// the feed ended, and a `live=` address the page cannot use.

import type { Lang } from './i18n.ts';
import type { FeedEnd, LiveStatus } from './live-feed.ts';
import { clipped } from './quote.ts';

/** What a followed live run says about itself. */
export function liveStatus(status: LiveStatus, address: string, closed: boolean, lang: Lang, why: FeedEnd | null = null): string {
  const source = clipped(address, lang);
  const end = closed ? ` ${feedEnd(why, lang)}` : '';
  switch (status.kind) {
    case 'waiting':
      if (closed)
        return (lang === 'zh' ? `没有收到 ${source} 上 group-broker 的记录。` : `No trace came from group-broker at ${source}.`) + end;
      return lang === 'zh' ? `正在等待 ${source} 上的 group-broker……` : `Waiting for group-broker at ${source}…`;
    case 'following':
      return (
        (lang === 'zh'
          ? `跟随 group-broker（${source}）：${status.inputs} 个输入；${status.checked} 个响应均与 broker 的一致（本页的模型重新计算了它们）。`
          : `Following group-broker (${source}): ${status.inputs} inputs; all ${status.checked} responses as the broker gave them (this page's model computed them again).`) +
        end
      );
    case 'diverged':
      return lang === 'zh' ? `第 ${status.line} 行出现分歧：${status.what}` : `Diverged at line ${status.line}: ${status.what}`;
    case 'refused':
      return lang === 'zh' ? `第 ${status.line} 行无法使用：${status.what}` : `Line ${status.line} cannot be used: ${status.what}`;
  }
}

/** WebSocket close codes a feed may end with, by name (RFC 6455, section 7.4.1). */
const CLOSE_CODES: Record<number, { en: string; zh: string }> = {
  1002: { en: 'a protocol error', zh: '协议错误' },
  1003: { en: 'data it cannot take', zh: '无法接受的数据' },
  1006: { en: 'the connection was lost without a close frame', zh: '连接在没有关闭帧的情况下断开' },
  1007: { en: 'invalid data', zh: '无效数据' },
  1008: { en: 'a policy violation', zh: '违反策略' },
  1009: { en: 'a message too big', zh: '消息过大' },
  1011: { en: 'an error in the server', zh: '服务器出错' },
};

/** Why a live feed ended, in a sentence: a clean close is only that; anything else is named, and
 * when the page stopped it, that what was applied stays. */
export function feedEnd(why: FeedEnd | null, lang: Lang): string {
  const zh = lang === 'zh';
  const kept = zh ? '已停止跟随；已应用的内容保留。' : 'Following stopped; what was applied stays.';
  if (why === null) return zh ? '数据源已关闭。' : 'The feed closed.';
  switch (why.kind) {
    case 'binary':
      return (
        (zh ? '数据源发送了二进制帧，而 group-broker 只发送文本行。' : 'The feed sent a binary frame; group-broker sends lines of text. ') +
        kept
      );
    case 'too-large':
      return (
        (zh
          ? `数据源发送了一条 ${why.chars} 个字符的消息，超过本页单条可读的 ${why.limit} 个字符。`
          : `The feed sent a message of ${why.chars} characters, more than the ${why.limit} the page reads in one. `) + kept
      );
    case 'budget':
      return (
        (zh
          ? `数据源已发送超过 ${why.limit / 1024 / 1024} MiB，为保持页面响应，在此停止。`
          : `The feed has sent more than ${why.limit / 1024 / 1024} MiB; the page stops here to stay responsive. `) + kept
      );
    case 'closed': {
      if (!why.opened) {
        return zh
          ? '无法连接（地址拒绝连接、不可达，或被本页的安全策略阻止）。'
          : "Could not connect (the address refused, could not be reached, or is blocked by this page's security policy).";
      }
      const named = CLOSE_CODES[why.code];
      if (!named) return zh ? '数据源已关闭。' : 'The feed closed.';
      const reason = why.reason ? (zh ? `，原因：“${clipped(why.reason, lang)}”` : `, reason "${clipped(why.reason, lang)}"`) : '';
      return zh ? `数据源已关闭：${named.zh}（代码 ${why.code}${reason}）。` : `The feed closed: ${named.en} (code ${why.code}${reason}).`;
    }
  }
}

/** "live= must be a ws:// or wss:// address, got X" */
export function badLiveUrl(value: string, lang: Lang): string {
  const got = clipped(value, lang);
  return lang === 'zh' ? `live= 必须是 ws:// 或 wss:// 地址，收到的是 ${got}` : `live= must be a ws:// or wss:// address, got ${got}`;
}
