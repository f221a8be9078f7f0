// Embedded in another page (`?embed=1&views=...`): only the chosen views and the time controls.

export type ViewName = 'sm' | 'timeline' | 'assignments' | 'steps';
export const ALL_VIEWS: ViewName[] = ['sm', 'timeline', 'assignments', 'steps'];

export interface EmbedOptions {
  views: Set<string>;
  autoplay: boolean;
  /** The frame takes the content's height (`height=auto`): nothing scrolls inside it. */
  autoHeight: boolean;
  /** Views asked for that this page does not have (named in the frame). */
  unknownViews: string[];
}

/** The step table's rows in an auto-height embed: the current step and the few before it, a
 * window that pages, not a scroll box. */
export const EMBED_STEP_ROWS = 6;

/** Hides what an embed does not show: the views not asked for, and the side panels. */
export function applyEmbed(
  root: HTMLElement,
  { views, autoHeight }: EmbedOptions,
  parts: { views: Record<ViewName, HTMLElement>; hidden: HTMLElement[] },
): void {
  root.classList.add('embedded');
  document.body.classList.toggle('auto-height', autoHeight);
  for (const [name, el] of Object.entries(parts.views)) el.hidden = !views.has(name);
  // `views=narration` (no view at all): a caption-sized embed, the narration in full.
  document.body.classList.toggle('narration-only', ![...views].some((v) => (ALL_VIEWS as string[]).includes(v)));
  for (const el of parts.hidden) el.hidden = true;
  const row = root.querySelector('#scenario')?.parentElement;
  if (row instanceof HTMLElement) row.hidden = true;
  const description = root.querySelector('#scenario-description');
  if (description instanceof HTMLElement) description.hidden = true;
}
