// The timeline: one lane for the coordinator and one per consumer; a bar per request from send
// to end (a parked JoinGroup/SyncGroup stays open until answered), errors coloured and named,
// and marks for state changes, fired timers, crashes, closes, cuts and failovers. Drawn on a
// canvas from the frame's window (the model pairs the requests and merges sub-pixel bars).
// Explored like Porcupine's timelines: zoom (buttons, Ctrl+wheel), pan (buttons, drag) and back
// to following now; after now, a margin shows what is about to happen (the look-ahead).

import { html, render } from 'lit-html';
import type { TimelineBar, TimelineWindow, Upcoming } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { type ConsumerPages, pager } from './rows.ts';
import type { Store } from './store.ts';
import { t } from './text.ts';
import { AFTER_NOW, API_COLOURS, ERROR, legend, markColour, markLabel, markWords, TIMER } from './timeline-legend.ts';

const WINDOWS: [number, string][] = [
  [5_000, '5 s'],
  [30_000, '30 s'],
  [120_000, '2 min'],
  [3_600_000, '1 h'],
];
/** How far the timeline zooms in and out. */
const MIN_WINDOW_MS = 500;
const MAX_WINDOW_MS = 24 * 3_600_000;

/** A window's length as the zoom control says it. */
function spanLabel(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 120_000) return `${+(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}

interface Hit {
  x: number;
  y: number;
  w: number;
  h: number;
  index: number;
  text: string;
}

export class TimelineView {
  readonly root = document.createElement('section');
  private readonly canvas = document.createElement('canvas');
  private readonly tip = document.createElement('div');
  private readonly head = document.createElement('div');
  /** The hit boxes of what was last drawn, worked out when the pointer asks. */
  private hitsOf: () => Hit[] = () => [];
  /** The lane stripes and names, painted once per (lanes, size, language) and copied into every
   * frame: text is the dearest thing a canvas draws. */
  private lanesLayer: { key: string; canvas: HTMLCanvasElement } | null = null;
  /** A drag in progress (where it started, and the window's end then), and whether the pointer
   * moved far enough to be a drag rather than a click. */
  private drag: { x: number; end: number } | null = null;
  private dragged = false;
  /** The run's now and the plot's width, as last drawn. */
  private now = 0;
  private plotWidth = 600;

  constructor(
    private readonly store: Store,
    private readonly onSelect: (index: number) => void,
    /** Redraws after the window or the width changed. */
    private readonly redraw: () => void,
    /** The page of consumers whose lanes are shown. */
    private readonly pages: ConsumerPages,
  ) {
    this.root.className = 'panel timeline';
    this.root.id = 'timeline';
    this.root.setAttribute('aria-labelledby', 'tl-title');
    this.canvas.id = 'tl-canvas';
    this.canvas.setAttribute('role', 'img');
    this.tip.className = 'tl-tip';
    this.tip.setAttribute('role', 'tooltip');
    this.tip.hidden = true;
    const scroll = document.createElement('div');
    scroll.className = 'tl-scroll';
    scroll.append(this.canvas, this.tip);
    this.root.append(this.head, scroll);
    this.canvas.addEventListener('click', (ev) => {
      if (this.dragged) return;
      const hit = this.hitAt(ev);
      if (hit && hit.index >= 0) this.onSelect(hit.index);
    });
    // Drag to pan; Ctrl (or ⌘) and the wheel to zoom (the plain wheel scrolls the page).
    this.canvas.addEventListener('pointerdown', (ev) => {
      this.drag = { x: ev.clientX, end: this.end() };
      this.dragged = false;
    });
    this.canvas.addEventListener('pointermove', (ev) => {
      if (!this.drag || !(ev.buttons & 1)) return;
      const dx = ev.clientX - this.drag.x;
      if (Math.abs(dx) < 4 && !this.dragged) return;
      this.dragged = true;
      const msPerPx = (this.store.wants.windowMs * (1 + AFTER_NOW)) / Math.max(1, this.plotWidth);
      this.panTo(this.drag.end - dx * msPerPx);
    });
    const endDrag = () => {
      this.drag = null;
      setTimeout(() => {
        this.dragged = false;
      }, 0);
    };
    this.canvas.addEventListener('pointerup', endDrag);
    this.canvas.addEventListener('pointercancel', endDrag);
    this.canvas.addEventListener(
      'wheel',
      (ev) => {
        if (!ev.ctrlKey && !ev.metaKey) return;
        ev.preventDefault();
        this.zoom(ev.deltaY > 0 ? 2 : 0.5);
      },
      { passive: false },
    );
    this.canvas.addEventListener('mousemove', (ev) => {
      const hit = this.hitAt(ev);
      this.tip.hidden = !hit;
      if (hit) {
        this.tip.textContent = hit.text;
        this.tip.style.left = `${ev.offsetX + 12}px`;
        this.tip.style.top = `${ev.offsetY + 12}px`;
      }
    });
    this.canvas.addEventListener('mouseleave', () => {
      this.tip.hidden = true;
    });
    // The panel's width, kept by a ResizeObserver (reading it while drawing forces a layout).
    new ResizeObserver((entries) => {
      const w = Math.round(entries[0].contentRect.width);
      if (w > 0 && Math.abs(w - this.store.wants.widthPx) > 4) {
        this.store.wants.widthPx = w;
        this.redraw();
      }
    }).observe(this.root);
  }

  /** Where the window ends now (the run's now when following it). */
  private end(): number {
    return this.store.wants.endMs ?? this.now;
  }

  /** Pans so the window ends at `endMs` (at or after now: following now again). */
  private panTo(endMs: number): void {
    const w = this.store.wants;
    const end = Math.round(Math.max(Math.min(w.windowMs, this.now), endMs));
    w.endMs = end >= this.now ? null : end;
    this.redraw();
  }

  /** Zooms by `factor` (2: out, 0.5: in), keeping the window's end. */
  private zoom(factor: number): void {
    const w = this.store.wants;
    w.windowMs = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, Math.round(w.windowMs * factor)));
    this.redraw();
  }

  private hitAt(ev: MouseEvent): Hit | undefined {
    const { offsetX: x, offsetY: y } = ev;
    const hits = this.hitsOf();
    for (let i = hits.length - 1; i >= 0; i--) {
      const b = hits[i];
      if (x >= b.x - 2 && x <= b.x + b.w + 2 && y >= b.y - 2 && y <= b.y + b.h + 2) return b;
    }
    return undefined;
  }

  render(w: TimelineWindow, lang: Lang, selected: number | null, upcoming: Upcoming[] | undefined, nowMs: number): void {
    const wants = this.store.wants;
    const following = wants.endMs === null;
    this.now = nowMs;
    const preset = WINDOWS.some(([ms]) => ms === wants.windowMs);
    render(
      html`<h2 id="tl-title">${t('timeline', lang)}</h2>
        <div class="row tl-controls" role="group" aria-label=${t('timelineWindow', lang)}>
          <select id="tl-window" aria-label=${t('timelineWindow', lang)} @change=${(e: Event) => {
            wants.windowMs = Number((e.target as HTMLSelectElement).value);
            this.redraw();
          }}>${preset ? null : html`<option value=${wants.windowMs} selected>${spanLabel(wants.windowMs)}</option>`}${WINDOWS.map(
            ([ms, label]) => html`<option value=${ms} ?selected=${ms === wants.windowMs}>${label}</option>`,
          )}</select>
          <button type="button" id="tl-zoom-in" title=${t('zoomIn', lang)} aria-label=${t('zoomIn', lang)}
            ?disabled=${wants.windowMs <= MIN_WINDOW_MS} @click=${() => this.zoom(0.5)}>+</button>
          <button type="button" id="tl-zoom-out" title=${t('zoomOut', lang)} aria-label=${t('zoomOut', lang)}
            ?disabled=${wants.windowMs >= MAX_WINDOW_MS} @click=${() => this.zoom(2)}>−</button>
          <button type="button" id="tl-earlier" title=${t('panEarlier', lang)} aria-label=${t('panEarlier', lang)}
            ?disabled=${w.fromMs <= 0} @click=${() => this.panTo(this.end() - wants.windowMs / 2)}>◀</button>
          <button type="button" id="tl-later" title=${t('panLater', lang)} aria-label=${t('panLater', lang)}
            ?disabled=${following} @click=${() => this.panTo(this.end() + wants.windowMs / 2)}>▶</button>
          <button type="button" id="tl-follow" ?disabled=${following} @click=${() => this.panTo(Number.POSITIVE_INFINITY)}
            >${t('followNow', lang)}</button>
          <span class="muted tl-hint">${following ? t('timelineHint', lang) : t('panned', lang)}</span>
        </div>
        ${legend(lang, wants.widthPx >= 560)}
        ${pager('tl-pages', this.pages.from(), w.laneCount, this.pages.go, lang)}`,
      this.head,
    );
    const lanes = ['', ...w.lanes];
    // A large group gets thin lanes: less to paint every frame, and it fits the screen.
    const LANE = lanes.length > 21 ? 9 : 30;
    const BAR = LANE > 12 ? 8 : 3;
    // The panel's width, whatever it is (a phone's too: "now" stays on screen); narrower lane
    // names on a narrow screen.
    const width = Math.max(280, this.store.wants.widthPx);
    const LEFT = width < 560 ? 58 : 90;
    // Room for a few more lanes: consumers appear one by one, and resizing a canvas costs a new
    // backing store (and a dropped frame) each time.
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
    g.drawImage(this.lanesCanvas(lang, lanes, LANE, width, dpr, LEFT), 0, 0);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, lanes.length * LANE, width, height - lanes.length * LANE);
    // "Now" sits a little before the right edge (an eighth of the window after it), so what
    // happened at the cursor is not under the cursor's line and error names on bars fit.
    const { fromMs: t0, toMs: t1 } = w;
    const span = Math.max(1, t1 - t0) * (1 + AFTER_NOW);
    const tEnd = t0 + span;
    const x = (ms: number) => LEFT + ((Math.min(Math.max(ms, t0), tEnd) - t0) / span) * (width - LEFT - 10);
    this.plotWidth = width - LEFT - 10;
    const tick = niceTick(span);
    g.font = '9px system-ui, sans-serif';
    g.textAlign = 'center';
    for (let ms = Math.ceil(t0 / tick) * tick; ms <= tEnd; ms += tick) {
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
    const place = (bar: TimelineBar): [number, number, number] => {
      const low =
        bar.api === 'Heartbeat' ||
        bar.api === 'OffsetCommit' ||
        bar.api === 'FindCoordinator' ||
        (bar.api === 'ConsumerGroupHeartbeat' && bar.epoch !== 0 && bar.epoch !== -1 && bar.epoch !== -2 && !bar.error);
      const y = bar.lane * LANE + (low ? LANE - BAR - 5 * (LANE > 12 ? 1 : 0) - 1 : LANE > 12 ? 5 : 1);
      const bx = x(bar.sentMs);
      return [bx, y, Math.max(2, x(bar.endMs) - bx)];
    };
    // Bars are filled in one path per colour (a large group has ~1,000 in view: one fill each
    // made rasterising the canvas most of a frame); outlines and error names go on top.
    const fills = new Map<string, Path2D>();
    const outlined: [TimelineBar, number, number, number][] = [];
    for (const bar of w.bars) {
      const [bx, y, bw] = place(bar);
      const colour = bar.error ? ERROR : bar.lost || bar.timedOut ? '#fff' : (API_COLOURS[bar.api] ?? '#98a2b3');
      const key = bar.open ? `${colour}/open` : colour;
      let path = fills.get(key);
      if (!path) fills.set(key, (path = new Path2D()));
      path.rect(bx, y, bw, BAR);
      if (bar.open || bar.lost || bar.timedOut || selected === bar.index || (bar.error && bw > 30)) outlined.push([bar, bx, y, bw]);
    }
    for (const [key, path] of fills) {
      const [colour, open] = key.split('/');
      g.globalAlpha = open ? 0.45 : 1;
      g.fillStyle = colour;
      g.fill(path);
    }
    g.globalAlpha = 1;
    for (const [bar, bx, y, bw] of outlined) {
      if (bar.open || bar.lost || bar.timedOut || selected === bar.index) {
        g.strokeStyle = selected === bar.index ? '#000' : bar.lost || bar.timedOut ? ERROR : '#344054';
        g.lineWidth = selected === bar.index ? 2.5 : 1;
        g.setLineDash(bar.open ? [3, 2] : []);
        g.strokeRect(bx + 0.5, y + 0.5, bw - 1, BAR - 1);
        g.setLineDash([]);
        g.lineWidth = 1;
      }
      if (bar.error && bw > 30) {
        g.fillStyle = ERROR;
        g.fillText(bar.error, bx + bw + 2, y + BAR);
      }
    }
    // A member's epoch, written where it changes (the first heartbeat of each epoch).
    const epochOf = new Map<number, number>();
    g.fillStyle = API_COLOURS.ConsumerGroupHeartbeat;
    for (const bar of w.bars) {
      if (bar.epoch === undefined) continue;
      if (epochOf.get(bar.lane) !== bar.epoch && LANE > 12) {
        const [bx, y] = place(bar);
        g.fillText(`e${bar.epoch}`, bx + 3, y - 1);
      }
      epochOf.set(bar.lane, bar.epoch);
    }
    const kinds: Record<string, number> = {};
    for (const m of w.marks) {
      const mx = Math.round(x(m.atMs)) + 0.5;
      const y = m.lane * LANE;
      const words = markWords(m);
      const kind = words[0];
      g.strokeStyle = markColour(m);
      g.lineWidth = selected === m.index ? 4 : kind === 'life' || kind === 'net' ? 3 : 2;
      g.setLineDash(kind === 'timer' ? [2, 2] : kind === 'expiry' || kind === 'failover' ? [4, 2] : []);
      g.beginPath();
      g.moveTo(mx, y + 2);
      g.lineTo(mx, y + LANE - 2);
      g.stroke();
      g.setLineDash([]);
      g.lineWidth = 1;
      for (const k of words) kinds[k] = (kinds[k] ?? 0) + 1;
    }
    this.hitsOf = () => [
      ...w.bars.map((bar) => {
        const [bx, y, bw] = place(bar);
        const more = (bar.merged ?? 1) > 1 ? ` (+${(bar.merged ?? 1) - 1})` : '';
        const epoch = bar.epoch === undefined ? '' : ` ${t('epochOf', lang).replace('{n}', String(bar.epoch))}`;
        const text = `${lanes[bar.lane]} ${bar.api} #${bar.correlationId}${epoch}${more}: ${bar.sentMs}–${bar.open ? '…' : bar.endMs} ms${bar.error ? ` ${bar.error}` : ''}${bar.timedOut ? ` ${t('timedOut', lang)}` : ''}${bar.lost ? ` ${t('lost', lang)}` : ''}`;
        return { x: bx, y, w: bw, h: BAR, index: bar.index, text };
      }),
      ...w.marks.map((m) => ({
        x: Math.round(x(m.atMs)) - 1.5,
        y: m.lane * LANE + 2,
        w: 4,
        h: LANE - 4,
        index: m.index,
        text: `${m.atMs} ms: ${markLabel(m)}`,
      })),
    ];
    // The look-ahead (following now): what is about to happen, in the margin after now. A
    // message in flight runs dotted from now to its arrival; a timer is a hollow tick.
    const ahead: Hit[] = [];
    if (following && upcoming) {
      g.setLineDash([2, 3]);
      for (const u of upcoming) {
        if (u.atMs < t1 || u.atMs > tEnd) continue;
        const lane = u.consumer ? lanes.indexOf(u.consumer) : 0;
        if (lane < 0) continue;
        const ux = Math.round(x(u.atMs)) + 0.5;
        const y = lane * LANE + LANE / 2;
        const colour = u.message ? (API_COLOURS[u.message.api] ?? '#475467') : TIMER;
        g.strokeStyle = colour;
        g.lineWidth = 1.5;
        g.beginPath();
        if (u.message) {
          g.moveTo(x(t1) + 2, y);
          g.lineTo(ux, y);
        }
        g.moveTo(ux, y - Math.min(6, LANE / 2 - 1));
        g.lineTo(ux, y + Math.min(6, LANE / 2 - 1));
        g.stroke();
        ahead.push({ x: ux - 2, y: y - 6, w: 4, h: 12, index: -1, text: `${t('next', lang)} ${u.atMs} ms: ${u.text}` });
      }
      g.setLineDash([]);
      g.lineWidth = 1;
    }
    if (c.dataset.ahead !== String(ahead.length)) c.dataset.ahead = String(ahead.length);
    if (c.dataset.fromMs !== String(t0)) c.dataset.fromMs = String(t0);
    if (c.dataset.toMs !== String(t1)) c.dataset.toMs = String(t1);
    const hitsBefore = this.hitsOf;
    this.hitsOf = () => [...hitsBefore(), ...ahead];
    const nx = Math.round(x(t1)) + 0.5;
    g.strokeStyle = following ? '#2754c5' : '#98a2b3';
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(nx, 0);
    g.lineTo(nx, lanes.length * LANE);
    g.stroke();
    g.lineWidth = 1;
    // What is drawn, for assistive technology and tests (written only when it changes).
    const requests = w.bars.reduce((n, b) => n + (b.merged ?? 1), 0);
    const label = `${t('timeline', lang)}: ${lanes.length - 1} ${t('consumers', lang)}${lang === 'zh' ? '，' : ', '}${t('requestsN', lang).replace('{n}', String(requests))}`;
    if (c.getAttribute('aria-label') !== label) c.setAttribute('aria-label', label);
    if (c.dataset.bars !== String(requests)) c.dataset.bars = String(requests);
    for (const [k, n] of Object.entries(kinds)) {
      const name = `marks${k[0].toUpperCase()}${k.slice(1).replace(/-./g, (d) => d[1].toUpperCase())}`;
      if (c.dataset[name] !== String(n)) c.dataset[name] = String(n);
    }
  }

  private lanesCanvas(lang: Lang, lanes: string[], LANE: number, width: number, dpr: number, LEFT: number): HTMLCanvasElement {
    const key = `${lang}|${LANE}|${width}|${dpr}|${LEFT}|${lanes.join('\u0000')}`;
    if (this.lanesLayer?.key === key) return this.lanesLayer.canvas;
    const canvas = this.lanesLayer?.canvas ?? document.createElement('canvas');
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(lanes.length * LANE * dpr);
    const g = canvas.getContext('2d');
    if (g) {
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.font = `${LANE > 12 ? (LEFT < 80 ? 10 : 11) : 8}px system-ui, sans-serif`;
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
