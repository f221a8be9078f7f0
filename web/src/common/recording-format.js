// The recording format of an embedded scenario, in one place for its writer
// (scripts/record-embeds.mjs, run by Node at build time, which cannot read TypeScript there) and
// its reader (web/src/playground/recorded.ts), and the playground's default frame request,
// which both the store and the recordings use: a recording answers only what the page asks by
// default, so the two must agree.

/** The recording format's version (the reader refuses another). */
export const RECORDING_FORMAT = 1;

/** Keys of a frame the reader derives itself (from the cursor and the known steps): not recorded. */
export const DERIVED_KEYS = ['cursor', 'knownSteps', 'steps'];

/** The key of a frame patch that lists the fields the frame no longer has. */
export const GONE = '-';

/** The playground's defaults: the timeline's window, the assignment table's generations (only
 * those where something moved), and the coming events listed. */
export const DEFAULT_WINDOW_MS = 30_000;
export const DEFAULT_ASSIGNMENT_COLUMNS = 8;
export const DEFAULT_CHANGED_ONLY = true;
export const DEFAULT_UPCOMING = 40;

/** The frame request recorded: the playground's defaults, every bar kept (`resolutionMs: 0`). */
export function recordedRequest(lang) {
  return {
    lang,
    timeline: { windowMs: DEFAULT_WINDOW_MS, resolutionMs: 0, selected: null, endMs: null },
    assignments: DEFAULT_ASSIGNMENT_COLUMNS,
    assignmentsChangedOnly: DEFAULT_CHANGED_ONLY,
    world: true,
    upcoming: DEFAULT_UPCOMING,
  };
}
