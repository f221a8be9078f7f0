// The step table, in the book's manner: for each step the time, the actor, what happened, the
// group state after it, the members and the delayed operations. The accessible text equivalent
// of the diagrams; a window on the run, paged, drawn from the frame's step window. (Its roles
// are explicit: on a phone its rows are laid out as blocks, which would drop a table's
// semantics.)

import { html, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { StepActor, StepRow, StepWindow } from '../../pkg/group_coordinator_wasm.js';
import { scrollWithin } from '../common/dom.ts';
import type { Lang } from '../common/i18n.ts';
import { consumerStateLabel, stateLabel } from '../common/vocabulary.ts';
import type { Store } from './store.ts';
import { generationLabel, stepPaging, t } from './text.ts';

/** Members listed per row before the rest are counted (a 50-member group would fill the row). */
const MEMBERS_SHOWN = 8;

/** A state's label with a break opportunity between its words ("Preparing|Rebalance"): the
 * state column of an embed is narrow, and a name written as one word was otherwise broken
 * wherever the column ended ("PreparingR|ebalance"). */
export function breakableLabel(label: string): (string | ReturnType<typeof html>)[] {
  return label.split(/(?<=[a-z])(?=[A-Z])/).flatMap((word, i) => (i === 0 ? [word] : [html`<wbr />`, word]));
}

function actor(a: StepActor, lang: Lang): string {
  switch (a.type) {
    case 'consumer':
      return a.name;
    case 'coordinator':
      return t('coordinator', lang);
    case 'network':
      return t('network', lang);
    case 'action':
      return t('youOrScript', lang);
    default:
      return t('scenarioActor', lang);
  }
}

export class StepTableView {
  readonly root = document.createElement('section');
  private scrollFrame = 0;

  constructor(
    private readonly store: Store,
    private readonly onSelect: (index: number) => void,
    private readonly onGoto: (step: number) => void,
    /** Redraws after paging (the store's window moved). */
    private readonly redraw: () => void,
  ) {
    this.root.className = 'panel steptable';
    this.root.id = 'steps-panel';
    this.root.setAttribute('aria-labelledby', 'st-title');
  }

  render(steps: StepWindow, lang: Lang, selected: number | null): void {
    const { from, to, total } = steps;
    const span = this.store.wants.stepsSpan;
    const latest = Math.max(0, total - span);
    const paging = stepPaging(lang, span, total ? from + 1 : 0, to, total);
    const following = from === latest;
    const page = (label: string, id: string, enabled: boolean, anchor: number | null) =>
      html`<button type="button" id=${id} ?disabled=${!enabled} @click=${() => {
        this.store.wants.stepsFrom = anchor;
        this.store.wants.stepsAround = null;
        this.redraw();
      }}>${label}</button>`;
    const row = (st: StepRow) => {
      const isSelected = selected !== null && selected >= st.first && selected < st.end;
      const isCurrent = st.step === total;
      const members =
        st.members.length > MEMBERS_SHOWN
          ? `${st.members.slice(0, MEMBERS_SHOWN).join(', ')} … (+${st.members.length - MEMBERS_SHOWN})`
          : st.members.join(', ');
      const state = st.consumerState ?? st.state ?? '—';
      const label = st.consumerState ? consumerStateLabel(st.consumerState, lang) : stateLabel(state, lang);
      return html`<tr role="row" class=${[isSelected ? 'selected' : '', isCurrent ? 'current' : ''].join(' ').trim()} data-step=${st.step}>
        <td role="cell"><button type="button" class="link" title=${t('gotoStep', lang)}
          aria-label=${t('gotoStepN', lang).replace('{n}', String(st.step))} @click=${() => this.onGoto(st.step)}>${st.step}</button></td>
        <td role="cell" class="at">${st.atMs}</td>
        <td role="cell">${actor(st.actor, lang)}</td>
        <td role="cell">${st.lines.map(
          (l) =>
            html`<div class=${l.note ? 'line t-narration' : 'line'} data-index=${l.index} @click=${() => this.onSelect(l.index)}>${l.text}</div>`,
        )}</td>
        <td role="cell"><span class=${`state state-${state}`} data-state=${state}>${breakableLabel(label)}</span>
          <span class="gen">${generationLabel(st.generationId, lang, !!st.consumerState)}</span></td>
        <td role="cell" class="members" title=${st.members.length > MEMBERS_SHOWN ? st.members.join(', ') : ''}>${members}</td>
        <td role="cell" class="mono">${st.delayed.join(', ')}</td>
      </tr>`;
    };
    // Rows are keyed by their step modulo the span: a step on moves one row from the top to the
    // bottom (the others stay as they are), and a jump rewrites the rows in place instead of
    // building 60 new ones.
    render(
      html`<h2 id="st-title">${t('stepTable', lang)}</h2>
        <div class="row st-nav">
          ${page(paging.earlier, 'st-earlier', from > 0, Math.max(0, from - span))}
          <span class="muted" id="st-range">${paging.range}</span>
          ${page(paging.later, 'st-later', to < total, to >= latest ? null : from + span)}
          ${page(t('followStep', lang), 'st-follow', !following, null)}
        </div>
        <div class="st-scroll">
          <table id="step-table" role="table">
            <caption class="sr-only">${t('stepTable', lang)}</caption>
            <colgroup><col class="st-n" /><col class="st-ms" /><col class="st-actor" /><col /><col class="st-state" />
              <col class="st-members" /><col class="st-delayed" /></colgroup>
            <thead role="rowgroup"><tr role="row"><th role="columnheader" scope="col">#</th><th role="columnheader" scope="col">ms</th><th role="columnheader" scope="col">${t('actor', lang)}</th>
              <th role="columnheader" scope="col">${t('what', lang)}</th><th role="columnheader" scope="col">${t('stateAfter', lang)}</th>
              <th role="columnheader" scope="col">${t('members', lang)}</th><th role="columnheader" scope="col">${t('delayed', lang)}</th></tr></thead>
            <tbody role="rowgroup">${repeat(steps.rows, (st) => st.step % span, row)}</tbody>
          </table>
        </div>`,
      this.root,
    );
    // Scrolled to in the next frame, when the browser has laid the table out anyway (scrolling
    // now would force a layout in the middle of the page's render); only the table scrolls, not
    // the page (a step pressed at the top of the page must not carry the reader down here).
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      const current = this.root.querySelector<HTMLElement>('tr.selected') ?? this.root.querySelector<HTMLElement>('tr.current');
      const scroller = this.root.querySelector<HTMLElement>('.st-scroll');
      if (current && scroller) scrollWithin(scroller, current);
    });
  }
}
