// The interface language: English or Chinese, from the browser's language unless chosen.

export type Lang = 'en' | 'zh';

export function detectLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  return languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}
