// Durations as a reader takes them in, in both languages (the playground's metrics and the
// console's timers).

import type { Lang } from './i18n.ts';

/** A duration as a reader takes it in: ms below 10 s, then seconds, minutes, hours, days. */
export function duration(ms: number, lang: Lang): string {
  const zh = lang === 'zh';
  if (Math.abs(ms) < 10_000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 3600) {
    const m = Math.floor(s / 60);
    const rest = (s - m * 60).toFixed(1);
    if (!m) return zh ? `${rest} 秒` : `${rest} s`;
    return zh ? `${m} 分 ${rest} 秒` : `${m} min ${rest} s`;
  }
  const h = Math.floor(s / 3600);
  const m = Math.round((s - h * 3600) / 60);
  if (h < 48) return zh ? `${h} 小时 ${m} 分` : `${h} h ${m} min`;
  const d = Math.floor(h / 24);
  return zh ? `${d} 天 ${h - d * 24} 小时` : `${d} d ${h - d * 24} h`;
}
