// The interface language: English or Chinese, from the browser's language unless chosen.

export type Lang = 'en' | 'zh';

export function detectLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  return languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}

/** Tells the document (and so screen readers and fonts) which language the page is in. */
export function setDocumentLang(lang: Lang): void {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}
