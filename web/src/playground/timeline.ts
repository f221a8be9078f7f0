// The timeline: one lane for the coordinator and one per consumer; a bar per request from send
// to response (a parked JoinGroup/SyncGroup stays open until answered), errors coloured and
// named, and marks for state changes, fired timers, crashes, closes, cuts and failovers.

import type { TraceEntry } from '../../pkg/group_coordinator_wasm.js';
import { h, legendKey, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { t } from './text.ts';

export interface Bar {
  consumer: string;
  api: string;
  correlationId: number;
  sent: number;
  /** Index of the RequestSent entry (what selecting the bar selects). */
  index: number;
  delivered?: number;
  answered?: number;
  done?: number;
  error?: string;
  lost?: boolean;
  timedOut?: boolean;
}

export interface Mark {
  lane: string;
  at: number;
  kind: string;
  label: string;
  index: number;
}

/** Bars and marks, built incrementally as entries arrive. */
export class TimelineModel {
  readonly bars: Bar[] = [];
  readonly marks: Mark[] = [];
  readonly lanes: string[] = [];
  readonly open = new Map<number, Bar>();
  private seen = 0;

  update(entries: readonly TraceEntry[]): void {
    if (entries.length < this.seen) this.reset();
    for (let i = this.seen; i < entries.length; i++) this.add(entries[i], i);
    this.seen = entries.length;
  }

  private reset(): void {
    this.bars.length = 0;
    this.marks.length = 0;
    this.lanes.length = 0;
    this.open.clear();
    this.seen = 0;
  }

  private lane(name: string): void {
    if (!this.lanes.includes(name)) this.lanes.push(name);
  }

  private add(e: TraceEntry, index: number): void {
    switch (e.type) {
      case 'requestSent': {
        this.lane(e.consumer);
        const bar: Bar = { consumer: e.consumer, api: e.api, correlationId: e.correlationId, sent: e.atMs, index };
        this.bars.push(bar);
        this.open.set(e.correlationId, bar);
        break;
      }
      case 'requestDelivered': {
        const bar = this.open.get(e.correlationId);
        if (bar) bar.delivered = e.atMs;
        break;
      }
      case 'responseSent': {
        const bar = this.open.get(e.correlationId);
        if (bar) {
          bar.answered = e.atMs;
          if (e.errorCode !== 0) bar.error = e.error;
        }
        break;
      }
      case 'responseDelivered':
      case 'requestTimedOut':
      case 'messageLost': {
        const bar = this.open.get(e.correlationId);
        if (bar) {
          bar.done = e.atMs;
          if (e.type === 'requestTimedOut') bar.timedOut = true;
          if (e.type === 'messageLost') bar.lost = true;
          this.open.delete(e.correlationId);
        }
        break;
      }
      case 'coordinator':
        if (e.event.type === 'StateChanged') {
          this.marks.push({ lane: '', at: e.atMs, kind: `state state-${e.event.to}`, label: e.event.to, index });
        } else if (e.event.type === 'TimerFired') {
          this.marks.push({ lane: '', at: e.atMs, kind: 'timer', label: e.event.key, index });
        }
        break;
      case 'lifecycle':
        this.lane(e.consumer);
        this.marks.push({ lane: e.consumer, at: e.atMs, kind: `life ${e.what}`, label: e.what, index });
        break;
      case 'clientExpired':
        this.marks.push({ lane: e.consumer, at: e.atMs, kind: 'expiry', label: e.expiry, index });
        break;
      case 'action':
        if (e.action.type === 'cut' || e.action.type === 'heal') {
          this.marks.push({ lane: e.action.consumer, at: e.atMs, kind: `net ${e.action.type}`, label: e.action.type, index });
        } else if (e.action.type === 'failover') {
          this.marks.push({ lane: '', at: e.atMs, kind: 'failover', label: 'failover', index });
        }
        break;
      default:
        break;
    }
  }
}

const LEFT = 90;

/** The colours of the bars (shown in the legend). JoinGroup is blue: the error red must stand
 * out among the bars, and an orange JoinGroup bar could not be told from it. */
const API_COLOURS: Record<string, string> = {
  JoinGroup: '#2e90fa',
  SyncGroup: '#6941c6',
  Heartbeat: '#84adff',
  LeaveGroup: '#101828',
  OffsetCommit: '#12b76a',
  FindCoordinator: '#98a2b3',
};
const ERROR = '#b42318';
/** The marks' colours other than a state change's (which takes its state's colour). */
const TIMER = '#667085';
const NET = '#f79009';

/** What the colours and strokes of the timeline mean, in the page's language. */
function legend(lang: Lang): HTMLElement {
  const line = (colour: string, dash = false) => `width:0;border:0;border-left:${dash ? '2px dashed' : '3px solid'} ${colour};height:.9rem`;
  return h(
    'div',
    { class: 'legend', id: 'tl-legend' },
    ...Object.entries(API_COLOURS).map(([api, colour]) => legendKey(`background:${colour}`, api)),
    legendKey(`background:${ERROR}`, t('errorBar', lang)),
    legendKey(`background:#fff;border-color:${ERROR}`, t('lostBar', lang)),
    legendKey('background:#c8d6f5;border:1px dashed #344054', t('openBar', lang)),
    legendKey(line(STATE_COLOURS.Stable), t('stateMark', lang)),
    legendKey(line(TIMER, true), t('timerMark', lang)),
    legendKey(line(ERROR), t('faultMark', lang)),
    legendKey(line(NET), t('netMark', lang)),
  );
}
const STATE_COLOURS: Record<string, string> = {
  Empty: '#101828',
  PreparingRebalance: '#b54708',
  CompletingRebalance: '#6941c6',
  Stable: '#1f7a3d',
  Dead: '#101828',
};

interface Hit {
  x: number;
  y: number;
  w: number;
  h: number;
  index: number;
  bar?: Bar;
  mark?: Mark;
}

function describe(hit: Hit, lang: Lang): string {
  const bar = hit.bar;
  if (bar)
    return `${bar.consumer} ${bar.api} #${bar.correlationId}: ${bar.sent}–${bar.done ?? '…'} ms${bar.error ? ` ${bar.error}` : ''}${bar.timedOut ? ` ${t('timedOut', lang)}` : ''}${bar.lost ? ` ${t('lost', lang)}` : ''}`;
  return hit.mark ? `${hit.mark.at} ms: ${hit.mark.label}` : '';
}

/** Drawn on a canvas: a 50-consumer group has thousands of bars in view, too many DOM nodes
 * to rebuild every frame. The step table is the text equivalent; hovering names a bar. */
export class TimelineView {
  readonly root = h('section', { class: 'panel timeline', id: 'timeline', 'aria-labelledby': 'tl-title' });
  windowMs = 30_000;
  private readonly canvas = h('canvas', { id: 'tl-canvas', role: 'img' });
  private readonly tip = h('div', { class: 'tl-tip', role: 'tooltip', hidden: true });
  private readonly zoom = h('select', { id: 'tl-window', 'aria-label': 'Timeline window' });
  private readonly title = h('h2', { id: 'tl-title' });
  /** The hit boxes of what was last drawn (see `hitAt`). */
  private hitsOf: () => Hit[] = () => [];
  /** Reused from frame to frame. */
  private readonly visible: Bar[] = [];
  private onSelect: (i: number) => void = () => {};
  private lang: Lang = 'en';
  private redraw: () => void = () => {};
  /** The panel's width, kept by a ResizeObserver (reading it while drawing forces a layout). */
  private width = 1000;

  constructor() {
    for (const [ms, label] of [
      [5_000, '5 s'],
      [30_000, '30 s'],
      [120_000, '2 min'],
      [3_600_000, '1 h'],
    ] as const) {
      this.zoom.append(h('option', { value: String(ms), selected: ms === this.windowMs }, label));
    }
    this.zoom.addEventListener('change', () => {
      this.windowMs = Number(this.zoom.value);
      this.redraw();
    });
    this.canvas.addEventListener('click', (ev) => {
      const hit = this.hitAt(ev);
      if (hit) this.onSelect(hit.index);
    });
    this.canvas.addEventListener('mousemove', (ev) => {
      const hit = this.hitAt(ev);
      this.tip.hidden = !hit;
      if (hit) {
        this.tip.textContent = describe(hit, this.lang);
        this.tip.style.left = `${ev.offsetX + 12}px`;
        this.tip.style.top = `${ev.offsetY + 12}px`;
      }
    });
    this.canvas.addEventListener('mouseleave', () => {
      this.tip.hidden = true;
    });
    this.root.append(this.title, h('div', { class: 'tl-scroll' }, this.canvas, this.tip));
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver((entries) => {
        const w = Math.round(entries[0].contentRect.width);
        if (w > 0 && Math.abs(w - this.width) > 4) {
          this.width = w;
          this.redraw();
        }
      }).observe(this.root);
    }
  }

  private hitAt(ev: MouseEvent): Hit | undefined {
    const { offsetX: x, offsetY: y } = ev;
    // The hit boxes are worked out when the pointer asks, not on every frame (a large group
    // would allocate thousands of them per frame, and the garbage collector would pause).
    const hits = this.hitsOf();
    for (let i = hits.length - 1; i >= 0; i--) {
      const b = hits[i];
      if (x >= b.x - 2 && x <= b.x + b.w + 2 && y >= b.y - 2 && y <= b.y + b.h + 2) return b;
    }
    return undefined;
  }

  /** The lane stripes and names, painted once per (lanes, size, language) and copied into
   * every frame: text is the dearest thing a canvas draws. */
  private lanesLayer: { key: string; canvas: HTMLCanvasElement } | null = null;
  /** What the DOM around the canvas last said (written only when it changes: a DOM write
   * every frame costs a style and layout pass). */
  private shown = { lang: '', label: '', marks: '' };

  render(lang: Lang, model: TimelineModel, now: number, selected: number | null, onSelect: (i: number) => void): void {
    this.onSelect = onSelect;
    this.lang = lang;
    this.redraw = () => this.render(lang, model, now, selected, onSelect);
    if (this.shown.lang !== lang) {
      replaceChildren(this.title, t('timeline', lang), ' ', this.zoom);
      this.zoom.setAttribute('aria-label', t('timelineWindow', lang));
      this.root.querySelector('#tl-legend')?.remove();
      this.root.append(legend(lang));
      this.shown.lang = lang;
    }
    const lanes = ['', ...model.lanes];
    // A large group gets thin lanes: less to paint every frame, and it fits the screen.
    const LANE = lanes.length > 21 ? 9 : 30;
    const BAR = LANE > 12 ? 8 : 3;
    const width = Math.max(700, this.width);
    // Room for a few more lanes: consumers appear one by one, and resizing a canvas costs a
    // new backing store (and a dropped frame) each time.
    const rows = lanes.length <= 21 ? lanes.length : Math.ceil(lanes.length / 8) * 8;
    const height = rows * LANE + 24;
    const dpr = globalThis.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.drawImage(this.lanesCanvas(lang, lanes, LANE, width, dpr), 0, 0);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, lanes.length * LANE, width, height - lanes.length * LANE);
    const t1 = Math.max(now, 1);
    const t0 = Math.max(0, t1 - this.windowMs);
    const span = Math.max(1, t1 - t0);
    const x = (ms: number) => LEFT + ((Math.min(Math.max(ms, t0), t1) - t0) / span) * (width - LEFT - 10);
    const tick = niceTick(span);
    g.font = '9px system-ui, sans-serif';
    g.textAlign = 'center';
    for (let ms = Math.ceil(t0 / tick) * tick; ms <= t1; ms += tick) {
      const xx = Math.round(x(ms)) + 0.5;
      g.strokeStyle = '#eaecf0';
      g.beginPath();
      g.moveTo(xx, 0);
      g.lineTo(xx, lanes.length * LANE);
      g.stroke();
      g.fillStyle = '#667085';
      g.fillText(`${(ms / 1000).toFixed(tick < 1000 ? 1 : 0)}s`, xx, lanes.length * LANE + 14);
    }
    g.textAlign = 'left';
    const laneOf = this.laneIndex(lanes);
    // Bars are in send order: walk back from the newest until well before the window, then add
    // the ones still open (a parked JoinGroup may have been sent long before).
    const visible = this.visible;
    visible.length = 0;
    for (let i = model.bars.length - 1; i >= 0; i--) {
      const bar = model.bars[i];
      if (bar.sent < t0 - 60_000) break;
      if (bar.done !== undefined) visible.push(bar);
    }
    for (const bar of model.open.values()) visible.push(bar);
    /** Where a bar is drawn; null when it is not. */
    const place = (bar: Bar): [number, number, number] | null => {
      const end = bar.done ?? now;
      if (end < t0 || bar.sent > t1) return null;
      const lane = laneOf.get(bar.consumer);
      if (lane === undefined) return null;
      const low = bar.api === 'Heartbeat' || bar.api === 'OffsetCommit' || bar.api === 'FindCoordinator';
      const y = lane * LANE + (low ? LANE - BAR - 5 * (LANE > 12 ? 1 : 0) - 1 : LANE > 12 ? 5 : 1);
      const bx = x(bar.sent);
      return [bx, y, Math.max(2, x(end) - bx)];
    };
    // Bars are filled in one path per colour (a large group has ~1,000 in view: one fill each
    // made rasterising the canvas most of a frame); outlines and error names go on top.
    let drawn = 0;
    const fills = new Map<string, Path2D>();
    const outlined: [Bar, number, number, number][] = [];
    for (const bar of visible) {
      const at = place(bar);
      if (!at) continue;
      const [bx, y, w] = at;
      const open = bar.done === undefined;
      const colour = bar.error ? ERROR : bar.lost || bar.timedOut ? '#fff' : (API_COLOURS[bar.api] ?? '#98a2b3');
      const key = open ? `${colour}/open` : colour;
      let path = fills.get(key);
      if (!path) fills.set(key, (path = new Path2D()));
      path.rect(bx, y, w, BAR);
      if (open || bar.lost || bar.timedOut || selected === bar.index || (bar.error && w > 30)) outlined.push([bar, bx, y, w]);
      drawn++;
    }
    for (const [key, path] of fills) {
      const [colour, open] = key.split('/');
      g.globalAlpha = open ? 0.45 : 1;
      g.fillStyle = colour;
      g.fill(path);
    }
    g.globalAlpha = 1;
    for (const [bar, bx, y, w] of outlined) {
      const open = bar.done === undefined;
      if (open || bar.lost || bar.timedOut || selected === bar.index) {
        g.strokeStyle = selected === bar.index ? '#000' : bar.lost || bar.timedOut ? ERROR : '#344054';
        g.lineWidth = selected === bar.index ? 2.5 : 1;
        g.setLineDash(open ? [3, 2] : []);
        g.strokeRect(bx + 0.5, y + 0.5, w - 1, BAR - 1);
        g.setLineDash([]);
        g.lineWidth = 1;
      }
      if (bar.error && w > 30) {
        g.fillStyle = ERROR;
        g.fillText(bar.error, bx + w + 2, y + BAR);
      }
    }
    const kinds: Record<string, number> = {};
    for (let i = model.marks.length - 1; i >= 0; i--) {
      const m = model.marks[i];
      if (m.at < t0) break;
      if (m.at > t1) continue;
      const lane = laneOf.get(m.lane);
      if (lane === undefined) continue;
      const mx = Math.round(x(m.at)) + 0.5;
      const y = lane * LANE;
      const kind = m.kind.split(' ');
      g.strokeStyle =
        kind[0] === 'state' ? (STATE_COLOURS[m.label] ?? '#101828') : kind[0] === 'timer' ? TIMER : kind[0] === 'net' ? NET : ERROR;
      g.lineWidth = selected === m.index ? 4 : kind[0] === 'life' || kind[0] === 'net' ? 3 : 2;
      g.setLineDash(kind[0] === 'timer' ? [2, 2] : kind[0] === 'expiry' || kind[0] === 'failover' ? [4, 2] : []);
      g.beginPath();
      g.moveTo(mx, y + 2);
      g.lineTo(mx, y + LANE - 2);
      g.stroke();
      g.setLineDash([]);
      g.lineWidth = 1;
      for (const k of kind) kinds[k] = (kinds[k] ?? 0) + 1;
    }
    const bars = [...visible];
    this.hitsOf = () => {
      const hits: Hit[] = [];
      for (const bar of bars) {
        const at = place(bar);
        if (at) hits.push({ x: at[0], y: at[1], w: at[2], h: BAR, index: bar.index, bar });
      }
      for (let i = model.marks.length - 1; i >= 0; i--) {
        const m = model.marks[i];
        if (m.at < t0) break;
        const lane = laneOf.get(m.lane);
        if (m.at > t1 || lane === undefined) continue;
        hits.push({ x: Math.round(x(m.at)) - 1.5, y: lane * LANE + 2, w: 4, h: LANE - 4, index: m.index, mark: m });
      }
      return hits;
    };
    const nx = Math.round(x(now)) + 0.5;
    g.strokeStyle = '#2754c5';
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(nx, 0);
    g.lineTo(nx, lanes.length * LANE);
    g.stroke();
    g.lineWidth = 1;
    // What is drawn, for assistive technology and tests.
    const label = `${t('timeline', lang)}: ${lanes.length - 1} ${t('consumers', lang)}, ${drawn} requests`;
    if (label !== this.shown.label) {
      c.setAttribute('aria-label', label);
      c.dataset.bars = String(drawn);
      this.shown.label = label;
    }
    const marks = JSON.stringify(kinds);
    if (marks !== this.shown.marks) {
      for (const [k, n] of Object.entries(kinds))
        c.dataset[`marks${k[0].toUpperCase()}${k.slice(1).replace(/-./g, (d) => d[1].toUpperCase())}`] = String(n);
      this.shown.marks = marks;
    }
  }

  private laneMap: { key: string; map: Map<string, number> } = { key: '', map: new Map() };

  /** Lane name -> row, rebuilt when the lanes change. */
  private laneIndex(lanes: string[]): Map<string, number> {
    const key = lanes.join('\u0000');
    if (this.laneMap.key !== key) this.laneMap = { key, map: new Map(lanes.map((l, i) => [l, i])) };
    return this.laneMap.map;
  }

  private lanesCanvas(lang: Lang, lanes: string[], LANE: number, width: number, dpr: number): HTMLCanvasElement {
    const key = `${lang}|${LANE}|${width}|${dpr}|${lanes.join('\u0000')}`;
    if (this.lanesLayer?.key === key) return this.lanesLayer.canvas;
    const canvas = this.lanesLayer?.canvas ?? document.createElement('canvas');
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(lanes.length * LANE * dpr);
    const g = canvas.getContext('2d');
    if (g) {
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.font = `${LANE > 12 ? 11 : 8}px system-ui, sans-serif`;
      lanes.forEach((lane, i) => {
        g.fillStyle = i % 2 ? '#f9fafb' : '#fff';
        g.fillRect(0, i * LANE, width, LANE);
        g.fillStyle = '#1d2433';
        g.fillText(lane === '' ? t('coordinator', lang) : lane, 6, i * LANE + (LANE > 12 ? 19 : 8), LEFT - 10);
      });
    }
    this.lanesLayer = { key, canvas };
    return canvas;
  }
}
function niceTick(span: number): number {
  for (const step of [100, 250, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 300_000, 600_000]) {
    if (span / step <= 12) return step;
  }
  return 1_800_000;
}
