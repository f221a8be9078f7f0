// The playground's keyboard shortcuts (listed in the help panel, `SHORTCUTS`). They act only
// when no control that takes keys of its own has the focus: a text field, a picker, the speed
// slider, or a button (Space presses it).

export interface KeyActions {
  toggle(): void;
  step(): void;
  back(): void;
  restart(): void;
  keyMoment(): void;
  nextMoment(): void;
  prevMoment(): void;
  faster(): void;
  slower(): void;
  switchLang(): void;
}

/** Whether `target` uses the key itself. */
function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const input = target as HTMLInputElement;
    // The scrubber is the run's own slider: its arrows are the run's steps.
    return input.id !== 'scrubber';
  }
  return (tag === 'BUTTON' || tag === 'SUMMARY' || tag === 'A') && (key === ' ' || key === 'Enter');
}

/** Listens on the document (the shortcuts work as soon as the page opens, before anything has
 * the focus) while `active()` says the playground is shown. */
export function installKeyboard(actions: KeyActions, active: () => boolean): void {
  document.addEventListener('keydown', (ev) => {
    if (!active() || ev.ctrlKey || ev.metaKey || ev.altKey || ownsKeys(ev.target, ev.key)) return;
    const keys: Record<string, () => void> = {
      ' ': actions.toggle,
      ArrowRight: actions.step,
      ArrowLeft: actions.back,
      Home: actions.restart,
      k: actions.keyMoment,
      ']': actions.nextMoment,
      '[': actions.prevMoment,
      '+': actions.faster,
      '-': actions.slower,
      l: actions.switchLang,
    };
    const f = keys[ev.key];
    if (f) {
      ev.preventDefault();
      f();
    }
  });
}
