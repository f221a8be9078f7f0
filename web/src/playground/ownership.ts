// Partition ownership over time: a row per partition, time across (with an axis), coloured by
// the consumer that owns it; blank while nobody does, red while two do (a zombie). Pointing at
// a segment names the partition, its owner and when, and picks that owner out. Draws the
// segments the model hands over (`Player.ownership()`), fetched only when the panel is open.

import { html, render } from 'lit-html';
import type { Ownership } from '../../pkg/group_coordinator_wasm.js';
import { duration } from '../common/duration.ts';
import type { Lang } from '../common/i18n.ts';
import { element } from './element.ts';
import { ownershipLabel, t } from './text.ts';
import { legendKey } from './timeline-legend.ts';

/** Consumer `i`'s colour: hues a golden angle apart, so no two consumers share one however many
 * there are (a ten-colour palette repeated from the eleventh), alternately lighter and darker,
 * each darkened as far as it takes to keep 3:1 against the lane (yellows and greens need more).
 * Reds are left to "two owners": the hues span 25-335 degrees, the first consumer's blue. */
export function ownerColour(i: number): string {
  const hue = 25 + (((210 + i * 137.508) % 360) * 310) / 360;
  for (let light = i % 2 ? 36 : 46; light > 5; light -= 2) {
    const hex = hsl(hue, 0.72, light / 100);
    if (contrast(hex, LANE) >= 3) return hex;
  }
  return '#1d2433';
}

function hsl(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** WCAG's contrast ratio of two `#rrggbb` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const LEFT = 76;
const AXIS = 22;
const LANE = '#f2f4f7';
const TWO = '#b42318';

interface Layout {
  model: Ownership;
  row: number;
  width: number;
  now: number;
  x: (ms: number) => number;
}

export class OwnershipView {
  readonly root = element<HTMLDetailsElement>(html`<details class="panel ownership" id="ownership"></details>`);
  private readonly canvas = element<HTMLCanvasElement>(html`<canvas id="own-canvas" role="img"></canvas>`);
  private readonly tip = element<HTMLParagraphElement>(html`<p id="own-tip" class="own-tip muted" aria-live="polite"></p>`);
  private latest: [Lang, () => Ownership, number] | null = null;
  private layout: Layout | null = null;
  /** The owner picked out by the pointer (the others dimmed). */
  private picked: string | null = null;

  /** `ownership` is asked for only when the panel is open (it is the whole run's history). */
  render(lang: Lang, ownership: () => Ownership, now: number): void {
    this.latest = [lang, ownership, now];
    if (!this.root.querySelector('summary')) {
      render(html`<summary><h2 class="inline"></h2></summary>${this.canvas}${this.tip}<div class="own-legend legend"></div>`, this.root);
      // Drawn when opened (with what the page shows then), and after each step while open.
      this.root.addEventListener('toggle', () => {
        if (this.root.open && this.latest) this.draw(...this.latest);
      });
      this.canvas.addEventListener('pointermove', (ev) => this.point(ev));
      this.canvas.addEventListener('pointerleave', () => this.pick(null, ''));
    }
    (this.root.querySelector('summary h2') as HTMLElement).textContent = t('ownership', lang);
    if (this.root.open) this.draw(lang, ownership, now);
  }

  private draw(lang: Lang, ownership: () => Ownership, now: number): void {
    const model = ownership();
    // In the model's order: by topic, then partition.
    const rows = model.partitions;
    const row = rows.length > 60 ? 3 : rows.length > 24 ? 8 : 14;
    const c = this.canvas;
    // Measured at the width it is shown at (the first time, before this, a canvas is 300 px
    // wide by default: drawn at that and stretched, its labels came out wide and blurred).
    c.style.width = '100%';
    const width = Math.max(320, Math.round(c.clientWidth || this.root.clientWidth || 1000));
    const height = Math.max(20, rows.length * row + 4) + AXIS;
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    c.style.height = `${height}px`;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    const span = Math.max(1, now);
    const x = (ms: number) => LEFT + (Math.min(ms, now) / span) * (width - LEFT - 8);
    this.layout = { model, row, width, now, x };
    const colour = (owner: string) => {
      const c = ownerColour(model.owners.indexOf(owner));
      return this.picked === null || this.picked === owner ? c : '#d0d5dd';
    };
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    // Labels where they fit: every row when rows are tall enough, otherwise each topic's first
    // partition and then one every 14 px or more.
    let lastLabel = Number.NEGATIVE_INFINITY;
    rows.forEach(({ topic, partition, segments }, i) => {
      const y = i * row + 2;
      const first = i === 0 || rows[i - 1].topic !== topic;
      if (row >= 12 || first || y - lastLabel >= 14) {
        g.fillStyle = '#1d2433';
        g.fillText(`${topic}-${partition}`, 2, y + row / 2, LEFT - 8);
        if (row < 12) {
          g.fillRect(LEFT - 5, y, 3, Math.max(1, row - 1));
        }
        lastLabel = y;
      }
      g.fillStyle = LANE;
      g.fillRect(LEFT, y, width - LEFT - 8, row - 1);
      for (const s of segments) {
        g.fillStyle = colour(s.owner);
        g.fillRect(x(s.from), y, Math.max(1, x(s.to ?? now) - x(s.from)), row - 1);
      }
      // Two owners at once: red over the overlap.
      for (let a = 0; a < segments.length; a++) {
        for (let b = a + 1; b < segments.length; b++) {
          const from = Math.max(segments[a].from, segments[b].from);
          const to = Math.min(segments[a].to ?? now, segments[b].to ?? now);
          if (to > from) {
            g.fillStyle = TWO;
            g.fillRect(x(from), y, Math.max(1, x(to) - x(from)), row - 1);
          }
        }
      }
    });
    this.axis(g, rows.length * row + 4, width, span, lang);
    c.setAttribute('aria-label', ownershipLabel(rows.length, now, lang));
    const legend = this.root.querySelector('.own-legend');
    if (legend) {
      render(
        html`${model.owners.map((o) => legendKey(`background:${colour(o)}`, o))}${legendKey(`background:${TWO}`, t('twoOwners', lang))}${legendKey(
          `background:${LANE}`,
          t('unownedKey', lang),
        )}`,
        legend as HTMLElement,
      );
    }
  }

  /** Time ticks under the rows: about one per 110 px, at round durations. */
  private axis(g: CanvasRenderingContext2D, top: number, width: number, span: number, lang: Lang): void {
    const steps = [100, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
    const fit = Math.max(1, Math.floor((width - LEFT) / 110));
    const step = steps.find((s) => span / s <= fit) ?? Math.ceil(span / fit);
    g.strokeStyle = '#98a2b3';
    g.fillStyle = '#475467';
    g.textBaseline = 'top';
    g.textAlign = 'center';
    g.beginPath();
    g.moveTo(LEFT, top + 0.5);
    g.lineTo(width - 8, top + 0.5);
    for (let ms = 0; ms <= span; ms += step) {
      const x = LEFT + (ms / span) * (width - LEFT - 8);
      g.moveTo(Math.round(x) + 0.5, top);
      g.lineTo(Math.round(x) + 0.5, top + 4);
      g.fillText(duration(ms, lang), Math.min(Math.max(x, LEFT + 14), width - 24), top + 6);
    }
    g.stroke();
    g.textAlign = 'start';
  }

  /** What is under the pointer: its partition, owner and time, said and picked out. */
  private point(ev: PointerEvent): void {
    const l = this.layout;
    if (!l || !this.latest) return;
    const box = this.canvas.getBoundingClientRect();
    const px = ((ev.clientX - box.left) / box.width) * l.width;
    const i = Math.floor((ev.clientY - box.top - 2) / l.row);
    const part = l.model.partitions[i];
    if (!part || px < LEFT) {
      this.pick(null, '');
      return;
    }
    const ms = ((px - LEFT) / (l.width - LEFT - 8)) * Math.max(1, l.now);
    const lang = this.latest[0];
    const s = part.segments.find((seg) => seg.from <= ms && ms < (seg.to ?? l.now));
    const name = `${part.topic}-${part.partition}`;
    if (!s) {
      this.pick(null, `${name} · ${duration(Math.round(ms), lang)}: ${t('unownedKey', lang)}`);
      return;
    }
    const until = s.to === null || s.to === undefined ? t('now', lang) : duration(s.to, lang);
    this.pick(s.owner, `${name}: ${s.owner} · ${duration(s.from, lang)} → ${until}`);
  }

  private pick(owner: string | null, text: string): void {
    this.tip.textContent = text;
    if (owner === this.picked) return;
    this.picked = owner;
    if (this.latest && this.root.open) this.draw(...this.latest);
  }
}
