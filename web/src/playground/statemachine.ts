// The group state machine: for a classic group its five states and every legal transition
// labelled by its trigger (the model's table, `transitions()`); for a consumer group (KIP-848)
// its five derived states and the changes that happen between them (`consumerTransitions()`).
// The current state is highlighted and the last transition animated. Drawn from the frame's
// `machine` and `group`, or its `consumerGroup`.

import { html, render, type SVGTemplateResult, svg, type TemplateResult } from 'lit-html';
import type {
  ConsumerGroupState,
  ConsumerRow,
  Frame,
  FrameConsumerGroup,
  FrameGroup,
  GroupState,
  Name,
} from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import {
  clientMachine,
  consumerMemberStateName,
  consumerStateLabel,
  consumerStateName,
  consumerTransitions,
  memberStateName,
  stateLabel,
  stateName,
  transitions,
} from '../common/vocabulary.ts';
import { type ConsumerPages, pager, RowPages } from './rows.ts';
import { heartbeatTimers, t } from './text.ts';

/** Where a diagram's states are drawn, for one width of panel. */
interface Geometry<S extends string> {
  /** The drawing's size (its viewBox). */
  size: [number, number];
  pos: Record<S, [number, number]>;
  /** Each state's box width (the states whose names are short have narrower boxes). */
  width: (s: S) => number;
  /** How far each drawn transition bows (layout only); a self-loop is not drawn. */
  bend: Record<string, number>;
  /** Every transition labelled by its trigger on the drawing; or, where there is no room, the
   * one that fired said under it (every trigger is its edge's tooltip). */
  allLabels: boolean;
}

/** One diagram: its table, and its geometry for a wide panel and for a narrow one. */
interface Layout<S extends string> {
  wide: Geometry<S>;
  narrow: Geometry<S>;
  name: (s: S, lang: Lang) => string;
}

type Edge<S extends string> = { from: S; to: S; trigger: Name };

/** Below this width (px) the wide drawing's names would shrink under ~10 px: the narrow one,
 * a column of the cycle with Empty and Dead beside it, is drawn instead. */
const NARROW_BELOW = 520;

const WIDE_BOX = 160;

const CLASSIC_POS: Record<GroupState, [number, number]> = {
  Empty: [90, 150],
  PreparingRebalance: [320, 50],
  CompletingRebalance: [550, 150],
  Stable: [320, 250],
  Dead: [90, 320],
};

const CLASSIC_BEND: Record<string, number> = {
  'Stable>PreparingRebalance': -40,
  // Bowed far enough that its label clears the PreparingRebalance box.
  'CompletingRebalance>PreparingRebalance': -60,
  'PreparingRebalance>Empty': -30,
  'Stable>Dead': 20,
  // Straight: it passes between Empty and Stable (bowed, it ran under Stable and hid its label).
  'PreparingRebalance>Dead': 0,
  'CompletingRebalance>Dead': 40,
};

// The consumer group's states laid out like the classic ones they answer to: Assigning where a
// rebalance is prepared, Reconciling where it completes.
const CONSUMER_POS: Record<ConsumerGroupState, [number, number]> = {
  Empty: [90, 180],
  Assigning: [330, 50],
  Reconciling: [570, 180],
  Stable: [330, 310],
  Dead: [90, 330],
};

// Changes that go both ways between two states bow apart (each to its own side); the long one
// from Reconciling back to Empty passes under Assigning.
const CONSUMER_BEND: Record<string, number> = {
  'Stable>Reconciling': 30,
  'Reconciling>Stable': 30,
  'Assigning>Reconciling': 30,
  'Reconciling>Assigning': 30,
  'Stable>Assigning': 70,
  'Assigning>Stable': 70,
  'Empty>Stable': 30,
  'Stable>Empty': 30,
  'Assigning>Empty': -20,
  'Reconciling>Empty': -48,
};

/** The narrow drawing (a 360 px frame, a phone): the rebalance cycle as a column, Empty and
 * Dead beside it; every state inside 344 px, names at least 9 px tall in a 320 px panel. */
const NARROW_SIZE: [number, number] = [344, 336];

const CLASSIC_NARROW: Geometry<GroupState> = {
  size: NARROW_SIZE,
  pos: {
    PreparingRebalance: [98, 36],
    CompletingRebalance: [98, 168],
    Stable: [98, 300],
    Empty: [290, 36],
    Dead: [290, 234],
  },
  // (Room for "CompletingRebalance" at 12 px; Empty and Dead are short.)
  width: (s) => (s === 'Empty' || s === 'Dead' ? 100 : 148),
  bend: {
    'Empty>PreparingRebalance': 30,
    'PreparingRebalance>Empty': 30,
    'PreparingRebalance>CompletingRebalance': -30,
    'CompletingRebalance>PreparingRebalance': -30,
    // Round the left of CompletingRebalance, back up to PreparingRebalance.
    'Stable>PreparingRebalance': 75,
  },
  allLabels: false,
};

const CONSUMER_NARROW: Geometry<ConsumerGroupState> = {
  size: NARROW_SIZE,
  pos: {
    Assigning: [120, 36],
    Reconciling: [120, 168],
    Stable: [120, 300],
    Empty: [290, 168],
    Dead: [290, 300],
  },
  width: () => 100,
  bend: {
    'Assigning>Reconciling': -30,
    'Reconciling>Assigning': -30,
    'Reconciling>Stable': -30,
    'Stable>Reconciling': -30,
    // Both round the left of Reconciling, one inside the other.
    'Stable>Assigning': 118,
    'Assigning>Stable': -73,
    'Empty>Stable': 24,
    'Stable>Empty': 24,
  },
  allLabels: false,
};

const CLASSIC: Layout<GroupState> = {
  wide: { size: [660, 370], pos: CLASSIC_POS, width: () => WIDE_BOX, bend: CLASSIC_BEND, allLabels: true },
  narrow: CLASSIC_NARROW,
  name: stateName,
};

const CONSUMER: Layout<ConsumerGroupState> = {
  wide: { size: [660, 370], pos: CONSUMER_POS, width: () => WIDE_BOX, bend: CONSUMER_BEND, allLabels: true },
  narrow: CONSUMER_NARROW,
  name: consumerStateName,
};

export class StateMachineView {
  readonly root = document.createElement('section');
  private animated = -1;
  /** Whether the panel is narrow (the narrow drawing), as last measured. */
  private narrow = false;
  private last: { frame: Frame; lang: Lang } | null = null;
  private readonly redraw = () => this.last && this.render(this.last.frame, this.last.lang);
  /** The pages of the consumer group's members (the members' state machines show the
   * consumers' page). */
  private readonly memberPages = new RowPages('cm-pages', this.redraw);

  constructor(
    private readonly onSelect: (index: number) => void,
    private readonly pages: ConsumerPages,
  ) {
    this.root.className = 'panel sm';
    this.root.id = 'state-machine';
    this.root.setAttribute('aria-labelledby', 'sm-title');
    // The drawing follows its panel's width (a phone turned, a frame resized), not only the
    // next frame.
    globalThis.ResizeObserver &&
      new ResizeObserver(() => {
        if (this.last && this.isNarrow() !== this.narrow) this.render(this.last.frame, this.last.lang);
      }).observe(this.root);
  }

  private isNarrow(): boolean {
    const width = this.root.clientWidth;
    return width > 0 && width < NARROW_BELOW;
  }

  render(frame: Frame, lang: Lang): void {
    this.last = { frame, lang };
    this.narrow = this.isNarrow();
    const cg = frame.consumerGroup;
    if (cg) {
      const last = cg.last ? { ...cg.last, cause: '' } : null;
      this.draw(
        CONSUMER,
        consumerTransitions(),
        cg.state,
        last,
        lang,
        t('consumerStateMachine', lang),
        consumerStateLabel(cg.state, lang),
        html`${consumerInfo(cg, this.memberPages, lang)}${members(frame.consumers, frame.consumerCount, this.pages, lang)}`,
      );
      return;
    }
    const { state, last } = frame.machine;
    this.draw(
      CLASSIC,
      transitions(),
      state,
      last,
      lang,
      t('stateMachine', lang),
      stateLabel(state, lang),
      html`${classicInfo(frame.group, lang)}${members(frame.consumers, frame.consumerCount, this.pages, lang)}`,
    );
  }

  private draw<S extends string>(
    layout: Layout<S>,
    table: readonly Edge<S>[],
    state: S,
    last: { from: S; to: S; index: number; cause: string } | null,
    lang: Lang,
    title: string,
    label: string,
    info: TemplateResult,
  ): void {
    const g = this.narrow ? layout.narrow : layout.wide;
    const [width, height] = g.size;
    const fired = last ? `${last.from}>${last.to}` : '';
    const labels: SVGTemplateResult[] = [];
    // The narrow drawing has no room for labels on its edges: the fired edge's says why under
    // the drawing (every edge's trigger is its tooltip).
    let firedWhy: string | null = null;
    const edges = table
      .filter((e) => e.from !== e.to)
      .map((e) => {
        const [x1, y1] = g.pos[e.from];
        const [x2, y2] = g.pos[e.to];
        const bend = g.bend[`${e.from}>${e.to}`] ?? 0;
        const mx = (x1 + x2) / 2 + (bend * (y2 - y1)) / 200;
        const my = (y1 + y2) / 2 - (bend * (x2 - x1)) / 200;
        // The ends stop at the boxes' edges, towards the curve's control point.
        const [sx, sy] = boxEdge(x1, y1, g.width(e.from), mx, my);
        const [ex, ey] = boxEdge(x2, y2, g.width(e.to), mx, my);
        const isFired = fired === `${e.from}>${e.to}`;
        const on = isFired ? ' fired' : '';
        // The label sits on the curve (its middle point), over a halo that keeps it legible where
        // it crosses another edge; the fired edge says why it fired this time. Where there is
        // no room for every label, only the fired edge's is drawn, kept inside the drawing.
        const why = isFired && last?.cause ? last.cause : e.trigger[lang];
        const lx = Math.round((sx + 2 * mx + ex) / 4);
        const ly = Math.round((sy + 2 * my + ey) / 4);
        if (g.allLabels) labels.push(svg`<text x=${lx} y=${ly - 4} class=${`edge-label${on}`} text-anchor="middle">${why}</text>`);
        else if (isFired) firedWhy = why;
        return svg`<path d=${`M${sx},${sy} Q${mx},${my} ${ex},${ey}`} class=${`edge${on}`} marker-end="url(#arrow)"
            data-from=${e.from} data-to=${e.to}><title>${e.trigger[lang]}</title></path>`;
      });
    const nodes = (Object.entries(g.pos) as [S, [number, number]][]).map(([s, [x, y]]) => {
      const [first, second] = lang === 'zh' ? [layout.name(s, 'zh'), s] : [s, ''];
      const w = g.width(s);
      return svg`<g class=${`node state-${s}${s === state ? ' current' : ''}`} data-state=${s}>
        <rect x=${x - w / 2} y=${y - 22} width=${w} height="44" rx="8"></rect>
        <text x=${x} y=${second ? y - 3 : y + 5} text-anchor="middle" class="node-label">${first}</text>
        ${second ? svg`<text x=${x} y=${y + 13} text-anchor="middle" class="node-sub">${second}</text>` : null}
      </g>`;
    });
    render(
      html`<h2 id="sm-title">${title} <span class=${`state state-${state}`} id="group-state" data-state=${state}>${label}</span></h2>
        <div class="sm-body">
          <svg viewBox=${`0 0 ${width} ${height}`} role="img" class=${this.narrow ? 'sm-svg narrow' : 'sm-svg'}
            aria-label=${`${title}: ${state}`} @click=${() => last && this.onSelect(last.index)}>
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" class="arrowhead"></path></marker></defs>
            ${edges}${labels}${nodes}
          </svg>
          ${
            firedWhy && last
              ? html`<p class="sm-fired" id="sm-fired"><b>${layout.name(last.from, lang)} → ${layout.name(last.to, lang)}</b>: ${firedWhy}</p>`
              : null
          }
          ${info}
        </div>`,
      this.root,
    );
    // A new transition flows along its edge for a few seconds (not forever: an endless
    // animation repaints the diagram on every frame).
    if (last && last.index !== this.animated) {
      this.animated = last.index;
      if (!globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
        this.root
          .querySelector('path.edge.fired')
          ?.animate?.([{ strokeDashoffset: 0 }, { strokeDashoffset: -24 }], { duration: 1000, iterations: 3 });
      }
    }
  }
}

/** Where the line from a box's centre (x, y) towards (tx, ty) leaves the box (44 px tall, `w`
 * wide), a few pixels out, so that an arrow stops at the box. */
function boxEdge(x: number, y: number, w: number, tx: number, ty: number): [number, number] {
  const dx = tx - x;
  const dy = ty - y;
  const len = Math.hypot(dx, dy) || 1;
  const k = Math.min(dx ? w / 2 / Math.abs(dx) : Infinity, dy ? 22 / Math.abs(dy) : Infinity);
  const out = 4 / len;
  return [Math.round(x + dx * Math.min(k + out, 0.9)), Math.round(y + dy * Math.min(k + out, 0.9))];
}

function classicInfo(group: FrameGroup | null, lang: Lang): TemplateResult {
  return html`<dl class="sm-info">
    <dt>${t('generation', lang)}</dt><dd id="sm-generation">${group?.generationId ?? 0}</dd>
    <dt>${t('leader', lang)}</dt><dd id="sm-leader">${group?.leader ?? t('none', lang)}</dd>
    <dt>${t('members', lang)}</dt><dd id="sm-members">${group?.members.join(', ') || t('none', lang)}</dd>
    <dt>${t('delayed', lang)}</dt><dd id="sm-timers">${delayed(group, lang)}</dd>
  </dl>`;
}

/** The consumer group's epochs, and each member as the coordinator holds it: its state, epoch,
 * partitions, those it still has to revoke, and its target when that differs. */
function consumerInfo(cg: FrameConsumerGroup, pages: RowPages, lang: Lang): TemplateResult {
  const members = pages.rows(cg.members).map(
    (m) => html`<li data-member=${m.name}><b>${m.name}</b>${
      m.classicProtocol ? html` <span class="cm-classic" title=${t('classicMemberHint', lang)}>${t('classicTag', lang)}</span>` : null
    }
      <span class="cm-state" data-state=${m.state}>${consumerMemberStateName(m.state, lang)}</span>,
      ${t('memberEpoch', lang)} <span class="cm-epoch">${m.memberEpoch}</span>:
      ${m.assigned || '∅'}${m.pendingRevocation ? html`; ${t('pendingRevocation', lang)} ${m.pendingRevocation}` : null}${
        m.target !== m.assigned ? html`; ${t('targetOf', lang)} ${m.target || '∅'}` : null
      }${m.subscribedTopicRegex ? html`; ${t('subscribedRegex', lang)} <code class="cm-regex">${m.subscribedTopicRegex}</code>` : null}</li>`,
  );
  const regexes = cg.resolvedRegularExpressions ?? [];
  const timers = cg.timers.map((x) => (x.member ? `${x.kind}(${x.member}) @${x.deadlineMs}` : `${x.kind} @${x.deadlineMs}`));
  return html`<dl class="sm-info">
    <dt>${t('groupEpoch', lang)}</dt><dd id="sm-generation">${cg.groupEpoch}</dd>
    <dt>${t('assignmentEpoch', lang)}</dt><dd id="sm-assignment-epoch">${cg.assignmentEpoch}</dd>
    <dt>${t('serverAssignor', lang)}</dt><dd id="sm-assignor">${cg.assignor}</dd>
    <dt>${t('members', lang)}</dt><dd id="sm-members">${
      members.length ? html`<ul class="cm-list">${members}</ul>${pages.pager(cg.members.length, lang)}` : t('none', lang)
    }</dd>
    ${
      regexes.length
        ? html`<dt title=${t('resolvedRegexHint', lang)}>${t('resolvedRegex', lang)}</dt><dd id="sm-regexes">${regexes.map(
            (r, i) => html`${i ? '; ' : ''}<code>${r.regex}</code> → ${r.topics.length ? r.topics.join(', ') : '∅'}`,
          )}</dd>`
        : null
    }
    <dt>${t('timeouts', lang)}</dt><dd id="sm-timers">${timers.length ? timers.join(', ') : t('none', lang)}</dd>
  </dl>`;
}

/** Where each member is in its own (the client's) state machine: one row per consumer, the
 * protocol's states in the order a member goes through them, its current one marked; a state's
 * title names where it can go next. Each consumer is drawn in the machine of the protocol it
 * speaks: a run whose consumers speak both (a rolling upgrade) gets one table per protocol. */
function members(rows: ConsumerRow[] | undefined, total: number | undefined, pages: ConsumerPages, lang: Lang): TemplateResult | null {
  if (!rows?.length) return null;
  const protocols = (['classic', 'consumer'] as const).filter((p) => rows.some((c) => c.protocol === p));
  const both = protocols.length > 1;
  return html`<div class="member-sm" id="member-sm">
    <h3>${t('memberStates', lang)}</h3>
    ${protocols.map((p) =>
      machineTable(
        rows.filter((c) => c.protocol === p),
        p,
        both ? t(p === 'classic' ? 'classicClients' : 'consumerClients', lang) : null,
        lang,
      ),
    )}
    ${pager('member-sm-pages', pages.from(), total ?? rows.length, pages.go, lang)}
  </div>`;
}

function machineTable(rows: ConsumerRow[], protocol: 'classic' | 'consumer', caption: string | null, lang: Lang): TemplateResult {
  const { states, transitions } = clientMachine(protocol);
  const next = (s: string) =>
    transitions
      .filter(([from]) => from === s)
      .map(([, to]) => memberStateName(to, lang))
      .join(', ');
  return html`<div class="msm-scroll" data-protocol=${protocol}><table>
      ${caption ? html`<caption>${caption}</caption>` : null}
      <thead><tr><th scope="col">${t('consumer', lang)}</th>${states.map(
        // (A state's name may break after an underscore, not inside a word.)
        (s) => html`<th scope="col" title=${`→ ${next(s)}`}>${memberStateName(s, lang).replaceAll('_', '_\u200b')}</th>`,
      )}</tr></thead>
      <tbody>${rows.map((c) => {
        const running = c.life === 'running' || c.life === 'closing';
        return html`<tr data-consumer=${c.name} class=${running ? '' : 'gone'}>
          <th scope="row">${c.name}</th>${states.map(
            (s) => html`<td class=${s === c.state ? 'here' : ''} data-state=${s}>${s === c.state ? (running ? '●' : '○') : ''}</td>`,
          )}</tr>`;
      })}</tbody>
    </table></div>`;
}

/** The group's delayed operations (the book's purgatory): join, sync and heartbeat timers. */
function delayed(group: FrameGroup | null, lang: Lang): string {
  if (!group) return t('none', lang);
  const ops = group.delayed.map((x) => (x.member ? `${x.kind}(${x.member}) @${x.deadlineMs}` : `${x.kind} @${x.deadlineMs}`));
  if (group.heartbeats > 3) ops.push(heartbeatTimers(group.heartbeats, lang));
  return ops.length ? ops.join(', ') : t('none', lang);
}
