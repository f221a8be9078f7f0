// The run in the URL: version, scenario, seed (when changed), the user's actions and the step,
// as a diff from the built-in scenario. Links are versioned: `v=1` links load forever; a link
// from a newer page, a tampered one or a malformed one is refused with a message that says what
// is wrong, and the page loads the scenario's defaults instead.

import type { Action } from '../../pkg/group_coordinator_wasm.js';
import { clipped } from '../common/quote.ts';
import type { TimedAction } from './run.ts';
import { isSettingsDiff, type SettingsDiff } from './settings.ts';

export const SHARE_VERSION = 1;

export interface ShareState {
  scenario: string;
  step: number;
  actions: TimedAction[];
  seed?: number;
  /** Changed settings (Kafka names), as a diff from the built-in scenario. */
  settings?: SettingsDiff;
  /** A named moment to open at instead of `step`: `key`, the scenario's key moment. */
  moment?: 'key';
}

const MAX_STEP = 1_000_000;
const MAX_ACTIONS = 1_000;

/** base64url of UTF-8 text (URL-safe, no padding). */
function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function encodeShare(state: ShareState, params = new URLSearchParams()): URLSearchParams {
  params.set('v', String(SHARE_VERSION));
  params.set('scenario', state.scenario);
  if (state.seed !== undefined) params.set('seed', String(state.seed));
  if (state.settings && Object.keys(state.settings).length) params.set('cfg', toBase64Url(JSON.stringify(state.settings)));
  else params.delete('cfg');
  if (state.actions.length) params.set('actions', toBase64Url(JSON.stringify(state.actions.map((a) => [a.step, a.action]))));
  else params.delete('actions');
  params.set('step', String(state.step));
  if (state.moment) params.set('moment', state.moment);
  else params.delete('moment');
  return params;
}

/** A step and an action as links and files carry them: the simulation checks the action's
 * fields when it is applied; this checks only the shape. */
export function isTimedAction(step: unknown, action: unknown): boolean {
  return (
    Number.isInteger(step) &&
    (step as number) >= 0 &&
    (step as number) <= MAX_STEP &&
    typeof action === 'object' &&
    action !== null &&
    !Array.isArray(action) &&
    typeof (action as { type?: unknown }).type === 'string'
  );
}

const UNREADABLE = Symbol('unreadable');

/** A parameter holding base64url JSON: undefined when absent, UNREADABLE when it is not. */
function readJson(params: URLSearchParams, name: string): unknown {
  const text = params.get(name);
  if (text === null) return undefined;
  try {
    return JSON.parse(fromBase64Url(text));
  } catch {
    return UNREADABLE;
  }
}

/** `notice`: what in the link was out of range and how the run opens instead (the rest of the
 * link is kept). */
export type Decoded = { state: ShareState | null; error: string | null; notice?: string };

/** Reads the run from a URL's parameters. No `scenario` parameter: no shared run (null, no error). */
export function decodeShare(params: URLSearchParams, known: (name: string) => boolean): Decoded {
  const name = params.get('scenario');
  if (name === null) return { state: null, error: null };
  const fail = (error: string): Decoded => ({ state: null, error: `This link cannot be loaded: ${error}` });
  const v = params.get('v') ?? '1';
  if (!/^\d+$/.test(v)) return fail(`its version "${clipped(v)}" is not a number`);
  if (Number(v) > SHARE_VERSION)
    return fail(`it comes from a newer version of the playground (link version ${v}, this page reads up to ${SHARE_VERSION})`);
  if (!known(name)) return fail(`there is no scenario named "${clipped(name)}"`);
  // A step out of range does not cost the reader the rest of the link: it is clamped, and said.
  const stepText = params.get('step') ?? '0';
  let step = Number(stepText);
  let notice: string | undefined;
  if (!/^\d+$/.test(stepText)) {
    step = 0;
    notice = `The link's step "${clipped(stepText)}" is not a whole number from 0 to ${MAX_STEP}: the run opens at step 0.`;
  } else if (step > MAX_STEP) {
    step = MAX_STEP;
    notice = `The link's step ${clipped(stepText)} is past the last step a link can ask for (${MAX_STEP}).`;
  }
  const state: ShareState = { scenario: name, step, actions: [] };
  const moment = params.get('moment');
  if (moment === 'key') state.moment = 'key';
  else if (moment !== null) {
    notice = `${notice ?? ''} The link's moment "${clipped(moment)}" is not one this page knows (it knows "key").`.trim();
  }
  const seed = params.get('seed');
  if (seed !== null) {
    if (!/^\d{1,15}$/.test(seed)) return fail(`seed "${clipped(seed)}" is not a whole number`);
    state.seed = Number(seed);
  }
  const settings = readJson(params, 'cfg');
  if (settings === UNREADABLE) return fail('its settings are not readable (the link was cut or changed)');
  if (settings !== undefined) {
    if (!isSettingsDiff(settings)) return fail('its settings are malformed');
    state.settings = settings;
  }
  const actions = readJson(params, 'actions');
  if (actions === UNREADABLE) return fail('its actions are not readable (the link was cut or changed)');
  if (actions !== undefined) {
    if (!Array.isArray(actions) || actions.length > MAX_ACTIONS) return fail(`its actions must be a list of at most ${MAX_ACTIONS}`);
    let last = 0;
    for (const [i, item] of actions.entries()) {
      if (!Array.isArray(item) || item.length !== 2 || !isTimedAction(item[0], item[1]) || item[0] < last) {
        return fail(`action ${i + 1} is malformed`);
      }
      last = item[0];
      state.actions.push({ step: item[0], action: item[1] as Action });
    }
  }
  return { state, error: null, notice };
}
