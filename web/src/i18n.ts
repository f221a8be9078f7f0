// The interface language: English or Chinese, from the browser's language unless chosen.

export type Lang = 'en' | 'zh';

export function detectLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  return languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}

/** The book's terms (shared/seed/README.md). */
export const STATE_NAMES: Record<string, Record<Lang, string>> = {
  Empty: { en: 'Empty', zh: '空 Empty' },
  PreparingRebalance: { en: 'PreparingRebalance', zh: '准备再平衡 PreparingRebalance' },
  CompletingRebalance: { en: 'CompletingRebalance', zh: '等待同步 CompletingRebalance' },
  Stable: { en: 'Stable', zh: '稳定 Stable' },
  Dead: { en: 'Dead', zh: '死亡 Dead' },
};
