// Values a reader gave (a link's parameters, a live address, an attribute), quoted in a message:
// at most QUOTE_MAX characters of each, the rest counted, as the model's own errors quote
// (group_coordinator::quote). A link of megabytes is refused without being put on screen whole.

import type { Lang } from './i18n.ts';

/** How much of a value a message quotes (the model's `QUOTE_MAX`). */
export const QUOTE_MAX = 100;

/** `value` cut to QUOTE_MAX characters (UTF-16 units, never half a surrogate pair), with how
 * many more there were. */
export function clipped(value: string, lang: Lang = 'en'): string {
  if (value.length <= QUOTE_MAX) return value;
  // A cut between the halves of a pair would leave a lone surrogate: cut before it.
  const last = value.charCodeAt(QUOTE_MAX - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? QUOTE_MAX - 1 : QUOTE_MAX;
  const more = value.length - end;
  return `${value.slice(0, end)}…${lang === 'zh' ? `（另有 ${more} 个字符）` : ` (${more} more characters)`}`;
}
