// The group state machine: the five classic states, every legal transition labelled by its
// trigger (spec §2.1-2.2), the current state highlighted and the last transition animated.

import type { GroupView, StepRecord } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { stateLabel, stateName, transitions } from '../vocabulary.ts';
import { s } from './svg.ts';
import { heartbeatTimers, t } from './text.ts';

type State = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

const POS: Record<State, [number, number]> = {
  Empty: [90, 150],
  PreparingRebalance: [320, 50],
  CompletingRebalance: [550, 150],
  Stable: [320, 250],
  Dead: [90, 320],
};

/** How far each drawn transition bows (layout only: the transitions and their triggers come
 * from the model's table, `transitions()`); a self-loop (Dead -> Dead) is not drawn. */
const BEND: Record<string, number> = {
  'Stable>PreparingRebalance': -40,
  'CompletingRebalance>PreparingRebalance': -30,
  'PreparingRebalance>Empty': -30,
  'Stable>Dead': 20,
  'PreparingRebalance>Dead': 60,
  'CompletingRebalance>Dead': 40,
};

export interface StateMachineModel {
  state: State;
  last: { from: State; to: State; index: number } | null;
}

/** The current state (the group's, as the model describes it) and the last transition the
 * model recorded in its step records (none after a load: the group entered its state without a
 * transition). */
export function stateMachineModel(steps: readonly Pick<StepRecord, 'transition'>[], group: GroupView | null): StateMachineModel {
  for (let k = steps.length - 1; k >= 0; k--) {
    const t = steps[k].transition;
    if (!t) continue;
    const last = t.from ? { from: t.from as State, to: t.to as State, index: t.index } : null;
    return { state: (group?.state ?? t.to) as State, last };
  }
  return { state: (group?.state ?? 'Empty') as State, last: null };
}

export class StateMachineView {
  readonly root = h('section', { class: 'panel sm', id: 'state-machine', 'aria-labelledby': 'sm-title' });
  private lastDrawn = -1;

  private drawnKey = '';

  render(
    lang: Lang,
    model: StateMachineModel,
    group: GroupView | null,
    nameOf: (memberId: string | null) => string,
    onSelect: (i: number) => void,
  ): void {
    // Redrawn only when something it shows changed (it is drawn every frame while playing).
    // Heartbeat deadlines move on every heartbeat: a large group's would redraw every frame, so
    // only their count (and the earliest) is part of what is compared.
    const timers = group?.timers.filter((x) => x.kind === 'join' || x.kind === 'sync');
    const beats = group?.timers.filter((x) => x.kind === 'heartbeat') ?? [];
    const key = JSON.stringify([
      lang,
      model.state,
      model.last?.index,
      group?.generationId,
      group?.leaderId,
      group?.members.map((m) => m.clientId),
      timers,
      beats.length,
      beats.length <= 3 ? beats : null,
    ]);
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    // The diagram is built once per language; a redraw only moves classes and texts (a new
    // SVG every time costs a style, layout and paint pass over all of it).
    if (this.built?.lang !== lang) this.build(lang);
    const d = this.built!;
    for (const [state, node] of d.nodes) node.classList.toggle('current', state === model.state);
    for (const [edge, [path, label]] of d.edges) {
      const fired = !!model.last && edge === `${model.last.from}>${model.last.to}`;
      path.classList.toggle('fired', fired);
      label.classList.toggle('fired', fired);
      // A new transition flows along its edge for a few seconds (not forever: an endless
      // animation repaints the diagram on every frame).
      if (fired && model.last!.index !== this.lastIndex && !globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
        path.animate?.([{ strokeDashoffset: 0 }, { strokeDashoffset: -24 }], { duration: 1000, iterations: 3 });
      }
    }
    d.svg.setAttribute('aria-label', `${t('stateMachine', lang)}: ${model.state}`);
    this.onSelect = onSelect;
    this.lastIndex = model.last?.index ?? -1;
    d.state.className = `state state-${model.state}`;
    d.state.dataset.state = model.state;
    d.state.textContent = stateLabel(model.state, lang);
    d.generation.textContent = String(group?.generationId ?? 0);
    d.leader.textContent = group?.leaderId ? nameOf(group.leaderId) : t('none', lang);
    d.members.textContent = group ? group.members.map((m) => m.clientId).join(', ') || t('none', lang) : t('none', lang);
    d.timers.textContent = delayed(group, lang);
    this.lastDrawn = model.last?.index ?? -1;
  }

  private onSelect: (i: number) => void = () => {};
  private lastIndex = -1;
  private built: {
    lang: Lang;
    svg: SVGSVGElement;
    nodes: Map<State, SVGGElement>;
    edges: Map<string, [SVGPathElement, SVGTextElement]>;
    state: HTMLElement;
    generation: HTMLElement;
    leader: HTMLElement;
    members: HTMLElement;
    timers: HTMLElement;
  } | null = null;

  private build(lang: Lang): void {
    const svg = s('svg', { viewBox: '0 0 660 370', role: 'img', class: 'sm-svg' }) as SVGSVGElement;
    svg.append(
      s(
        'defs',
        {},
        s(
          'marker',
          { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
          s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }),
        ),
      ),
    );
    const edges = new Map<string, [SVGPathElement, SVGTextElement]>();
    for (const e of transitions()) {
      if (e.from === e.to) continue;
      const [x1, y1] = POS[e.from];
      const [x2, y2] = POS[e.to];
      const bend = BEND[`${e.from}>${e.to}`] ?? 0;
      const mx = (x1 + x2) / 2 + (bend * (y2 - y1)) / 200;
      const my = (y1 + y2) / 2 - (bend * (x2 - x1)) / 200;
      // Shorten the ends so arrows stop at the boxes.
      const [sx, sy] = toward(x1, y1, mx, my, 45);
      const [ex, ey] = toward(x2, y2, mx, my, 45);
      const path = s('path', {
        d: `M${sx},${sy} Q${mx},${my} ${ex},${ey}`,
        class: 'edge',
        'marker-end': 'url(#arrow)',
        'data-from': e.from,
        'data-to': e.to,
      }) as SVGPathElement;
      const label = s('text', { x: mx, y: my - 4, class: 'edge-label', 'text-anchor': 'middle' }, e.trigger[lang]) as SVGTextElement;
      svg.append(path, label);
      edges.set(`${e.from}>${e.to}`, [path, label]);
    }
    const nodes = new Map<State, SVGGElement>();
    for (const [state, [x, y]] of Object.entries(POS) as [State, [number, number]][]) {
      const g = s('g', { class: `node state-${state}`, 'data-state': state }) as SVGGElement;
      g.append(s('rect', { x: x - 80, y: y - 22, width: 160, height: 44, rx: 8 }));
      const [first, second] = lang === 'zh' ? [stateName(state, 'zh'), state] : [state, ''];
      g.append(s('text', { x, y: second ? y - 3 : y + 5, 'text-anchor': 'middle', class: 'node-label' }, first));
      if (second) g.append(s('text', { x, y: y + 13, 'text-anchor': 'middle', class: 'node-sub' }, second));
      svg.append(g);
      nodes.set(state, g);
    }
    svg.addEventListener('click', () => {
      if (this.lastIndex >= 0) this.onSelect(this.lastIndex);
    });
    const dd = (id: string) => h('dd', { id });
    const built = {
      lang,
      svg,
      nodes,
      edges,
      state: h('span', { class: 'state', id: 'group-state' }),
      generation: dd('sm-generation'),
      leader: dd('sm-leader'),
      members: dd('sm-members'),
      timers: dd('sm-timers'),
    };
    const info = h(
      'dl',
      { class: 'sm-info' },
      h('dt', {}, t('generation', lang)),
      built.generation,
      h('dt', {}, t('leader', lang)),
      built.leader,
      h('dt', {}, t('members', lang)),
      built.members,
      h('dt', {}, t('delayed', lang)),
      built.timers,
    );
    replaceChildren(
      this.root,
      h('h2', { id: 'sm-title' }, t('stateMachine', lang), ' ', built.state),
      h('div', { class: 'sm-body' }, svg, info),
    );
    this.built = built;
  }

  get lastTransitionIndex(): number {
    return this.lastDrawn;
  }
}

function toward(x: number, y: number, tx: number, ty: number, d: number): [number, number] {
  const dx = tx - x;
  const dy = ty - y;
  const len = Math.hypot(dx, dy) || 1;
  // Boxes are wider than tall: leave more room horizontally.
  const k = Math.min(1, d / len) * (Math.abs(dx) > Math.abs(dy) ? 1.8 : 1);
  return [Math.round(x + dx * Math.min(k, 0.9)), Math.round(y + dy * Math.min(k, 0.9))];
}

/** The group's delayed operations (the book's purgatory): join, sync and heartbeat timers. */
function delayed(group: GroupView | null, lang: Lang): string {
  if (!group) return t('none', lang);
  const ops = group.timers.filter((x) => x.kind === 'join' || x.kind === 'sync').map((x) => `${x.kind} @${x.deadlineMs}`);
  const heartbeats = group.timers.filter((x) => x.kind === 'heartbeat');
  if (heartbeats.length > 3) {
    ops.push(heartbeatTimers(heartbeats.length, lang));
  } else {
    for (const x of heartbeats) ops.push(`heartbeat(${(x.memberId ?? '').split('-')[0]}) @${x.deadlineMs}`);
  }
  return ops.length ? ops.join(', ') : t('none', lang);
}
