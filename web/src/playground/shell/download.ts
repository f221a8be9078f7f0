// Saving a run: as JSON (the scenario, the user's actions and the step), or as one
// self-contained HTML file that opens offline at the same step.

import { html } from 'lit-html';
import { element } from '../element.ts';
import { exportRun } from '../exchange.ts';
import type { Run } from '../run.ts';
import { standaloneHtml } from '../standalone.ts';

function save(text: string, type: string, name: string): void {
  const a = element<HTMLAnchorElement>(html`<a href=${URL.createObjectURL(new Blob([text], { type }))} download=${name}></a>`);
  a.click();
  URL.revokeObjectURL(a.href);
}

export function downloadJson(run: Run): void {
  save(exportRun(run.scenario, run.actions, run.cursor), 'application/json', `${run.scenario.name}-step-${run.cursor}.json`);
}

/** Resolves when the file is saved; rejects with why it could not be made. */
export async function downloadHtml(run: Run, title: string): Promise<void> {
  const page = await standaloneHtml(exportRun(run.scenario, run.actions, run.cursor), title);
  save(page, 'text/html', `${run.scenario.name}-step-${run.cursor}.html`);
}
