// A run as a JSON file: the scenario itself (so a custom or changed scenario travels too), the
// user's actions and the step. Importing checks the shape here; the simulation checks the
// scenario and the actions, and any refusal is shown with its reason.

import type { Scenario } from '../../pkg/group_coordinator_wasm.js';
import type { TimedAction } from './run.ts';
import { isTimedAction } from './share.ts';

export const RUN_FORMAT = 'kafka-group-playground-run';
export const RUN_VERSION = 1;

export interface RunFile {
  format: typeof RUN_FORMAT;
  version: number;
  scenario: Scenario;
  actions: TimedAction[];
  step: number;
}

export function exportRun(scenario: Scenario, actions: TimedAction[], step: number): string {
  const file: RunFile = { format: RUN_FORMAT, version: RUN_VERSION, scenario, actions, step };
  return JSON.stringify(file, null, 2);
}

/** Reads an exported run; the error says why the file is not one. */
export function importRun(text: string): { run: RunFile | null; error: string | null } {
  const fail = (error: string) => ({ run: null, error: `This file is not a playground run: ${error}` });
  if (text.length > 20_000_000) return fail('it is larger than 20 MB');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(`it is not JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('it is not a JSON object');
  const v = value as Record<string, unknown>;
  if (v.format !== RUN_FORMAT) return fail(`its "format" is not "${RUN_FORMAT}"`);
  if (typeof v.version !== 'number' || v.version > RUN_VERSION)
    return fail(`its version ${String(v.version)} is not one this page reads (up to ${RUN_VERSION})`);
  if (typeof v.scenario !== 'object' || v.scenario === null || Array.isArray(v.scenario)) return fail('it has no scenario object');
  if (!Array.isArray(v.actions)) return fail('its "actions" is not a list');
  for (const [i, a] of v.actions.entries()) {
    if (typeof a !== 'object' || a === null || !isTimedAction(a.step, a.action)) {
      return fail(`action ${i + 1} is malformed`);
    }
  }
  if (!Number.isInteger(v.step) || (v.step as number) < 0) return fail('its "step" is not a whole number');
  return { run: v as unknown as RunFile, error: null };
}
