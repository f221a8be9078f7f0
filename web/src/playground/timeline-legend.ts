// What the timeline's colours, strokes and marks mean: the palette the canvas paints with, and
// the legend that names it in the page's language.

import { html } from 'lit-html';
import type { TimelineMark } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { t } from './text.ts';

/** A legend entry: a swatch (its inline style) and what it means. */
export const legendKey = (swatch: string, label: string) => html`<span class="legend-key"><i style=${swatch}></i>${label}</span>`;

/** The colours of the bars (shown in the legend). JoinGroup is blue: the error red must stand
 * out among the bars, and an orange JoinGroup bar could not be told from it. Every colour here
 * and below keeps 3:1 against the lanes' backgrounds (WCAG's non-text contrast; tested). */
export const API_COLOURS: Record<string, string> = {
  JoinGroup: '#2e90fa',
  SyncGroup: '#6941c6',
  Heartbeat: '#0891b2',
  LeaveGroup: '#101828',
  OffsetCommit: '#0f9d58',
  FindCoordinator: '#7a8494',
  ConsumerGroupHeartbeat: '#c11574',
};
export const ERROR = '#b42318';
/** The marks' colours other than a state change's (which takes its state's colour). */
export const TIMER = '#667085';
export const NET = '#d97706';
/** A consumer starting or closing gracefully (not a fault: not red). */
export const LIFE = '#344054';
/** How much room the timeline leaves after "now", as a share of its window. */
export const AFTER_NOW = 0.125;

/** A mark's colour: a state change takes its state's; a crash, an expiry or a failover is red;
 * a start or a graceful close is dark grey, a pause grey; a timer grey, a cut or heal orange. */
export function markColour(m: TimelineMark): string {
  switch (m.type) {
    case 'state':
      return STATE_COLOURS[m.state] ?? '#101828';
    case 'timer':
      return TIMER;
    case 'cut':
    case 'heal':
      return NET;
    case 'life':
      return m.what === 'crashed' ? ERROR : m.what === 'paused' || m.what === 'resumed' ? TIMER : LIFE;
    default:
      return ERROR;
  }
}
export const STATE_COLOURS: Record<string, string> = {
  Empty: '#101828',
  PreparingRebalance: '#b54708',
  CompletingRebalance: '#6941c6',
  Stable: '#1f7a3d',
  Dead: '#101828',
};

/** A mark's class words: its kind, and what it says (a state, a lifecycle change). */
export function markWords(m: TimelineMark): string[] {
  switch (m.type) {
    case 'state':
      return ['state', `state-${m.state}`];
    case 'life':
      return ['life', m.what];
    case 'cut':
    case 'heal':
      return ['net', m.type];
    default:
      return [m.type];
  }
}

export function markLabel(m: TimelineMark): string {
  switch (m.type) {
    case 'state':
      return m.state;
    case 'timer':
      return m.key;
    case 'life':
      return m.what;
    case 'expiry':
      return m.expiry;
    default:
      return m.type;
  }
}

/** The legend; folded away on a narrow screen (`open` false), where it would push the lanes
 * below the fold. */
export function legend(lang: Lang, open = true) {
  const line = (colour: string, dash = false) => `width:0;border:0;border-left:${dash ? '2px dashed' : '3px solid'} ${colour};height:.9rem`;
  return html`<details class="tl-legend-box" ?open=${open}><summary class="muted">${t('legend', lang)}</summary><div class="legend" id="tl-legend">
    ${Object.entries(API_COLOURS).map(([api, colour]) => legendKey(`background:${colour}`, api))}
    ${legendKey(`background:${ERROR}`, t('errorBar', lang))} ${legendKey(`background:#fff;border-color:${ERROR}`, t('lostBar', lang))}
    ${legendKey('background:#c8d6f5;border:1px dashed #344054', t('openBar', lang))} ${legendKey(line(STATE_COLOURS.Stable), t('stateMark', lang))}
    ${legendKey(line(TIMER, true), t('timerMark', lang))} ${legendKey(line(ERROR), t('faultMark', lang))} ${legendKey(line(LIFE), t('lifeMark', lang))}
    ${legendKey(line(NET), t('netMark', lang))}
  </div></details>`;
}
