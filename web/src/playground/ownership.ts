// Partition ownership over time: a row per partition, time across, coloured by the consumer
// that owns it; blank while nobody does, red while two do (a zombie). Built incrementally from
// the trace's assignments, revocations and crashes.

import type { TraceEntry } from '../../pkg/group_coordinator_wasm.js';
import { h, legendKey, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { ownershipLabel, t } from './text.ts';

interface Segment {
  owner: string;
  from: number;
  to: number | null;
}

export class OwnershipModel {
  /** "topic-partition" -> ownership segments in time order (overlapping when two own it). */
  readonly partitions = new Map<string, Segment[]>();
  readonly owners: string[] = [];
  private readonly held = new Map<string, Set<string>>();
  private seen = 0;

  update(entries: readonly TraceEntry[]): void {
    if (entries.length < this.seen) {
      this.partitions.clear();
      this.owners.length = 0;
      this.held.clear();
      this.seen = 0;
    }
    for (let i = this.seen; i < entries.length; i++) {
      const e = entries[i];
      if (e.type === 'assigned') {
        for (const [topic, p] of e.revoked) this.release(e.consumer, `${topic}-${p}`, e.atMs);
        for (const [topic, p] of e.assigned) this.acquire(e.consumer, `${topic}-${p}`, e.atMs);
      } else if (e.type === 'revoked') {
        for (const [topic, p] of e.partitions) this.release(e.consumer, `${topic}-${p}`, e.atMs);
      } else if (e.type === 'lifecycle' && e.what === 'crashed') {
        for (const tp of [...(this.held.get(e.consumer) ?? [])]) this.release(e.consumer, tp, e.atMs);
      }
    }
    this.seen = entries.length;
  }

  private acquire(owner: string, tp: string, at: number): void {
    if (!this.owners.includes(owner)) this.owners.push(owner);
    const held = this.held.get(owner) ?? new Set<string>();
    this.held.set(owner, held);
    if (held.has(tp)) return;
    held.add(tp);
    const segments = this.partitions.get(tp) ?? [];
    this.partitions.set(tp, segments);
    segments.push({ owner, from: at, to: null });
  }

  private release(owner: string, tp: string, at: number): void {
    this.held.get(owner)?.delete(tp);
    const open = this.partitions.get(tp)?.find((s) => s.owner === owner && s.to === null);
    if (open) open.to = at;
  }
}

const PALETTE = ['#2754c5', '#12b76a', '#f79009', '#7a5af8', '#ee46bc', '#06aed4', '#667085', '#b54708', '#1f7a3d', '#9e77ed'];

export class OwnershipView {
  readonly root = h('details', { class: 'panel ownership', id: 'ownership' });
  private readonly canvas = h('canvas', { id: 'own-canvas', role: 'img' });
  private latest: [Lang, OwnershipModel, number] | null = null;

  render(lang: Lang, model: OwnershipModel, now: number): void {
    this.latest = [lang, model, now];
    if (!this.root.querySelector('summary')) {
      this.root.append(h('summary', {}, h('h2', { class: 'inline' })), this.canvas, h('div', { class: 'own-legend legend' }));
      // Drawn when opened (with what the page shows then), and after each step while open.
      this.root.addEventListener('toggle', () => {
        if (this.root.open && this.latest) this.draw(...this.latest);
      });
    }
    (this.root.querySelector('summary h2') as HTMLElement).textContent = t('ownership', lang);
    if (this.root.open) this.draw(lang, model, now);
  }

  private draw(lang: Lang, model: OwnershipModel, now: number): void {
    const names = [...model.partitions.keys()].sort((a, b) => {
      const [ta, pa] = [a.slice(0, a.lastIndexOf('-')), Number(a.slice(a.lastIndexOf('-') + 1))];
      const [tb, pb] = [b.slice(0, b.lastIndexOf('-')), Number(b.slice(b.lastIndexOf('-') + 1))];
      return ta === tb ? pa - pb : ta < tb ? -1 : 1;
    });
    const row = names.length > 60 ? 3 : 14;
    const left = row > 3 ? 80 : 10;
    const width = 1000;
    const height = Math.max(20, names.length * row + 4);
    const c = this.canvas;
    c.width = width;
    c.height = height;
    c.style.width = '100%';
    c.style.maxWidth = `${width}px`;
    const g = c.getContext('2d');
    if (!g) return;
    g.clearRect(0, 0, width, height);
    const span = Math.max(1, now);
    const x = (ms: number) => left + (Math.min(ms, now) / span) * (width - left - 4);
    const colour = (owner: string) => PALETTE[model.owners.indexOf(owner) % PALETTE.length];
    g.font = '10px system-ui, sans-serif';
    names.forEach((tp, i) => {
      const y = i * row + 2;
      if (row > 3) {
        g.fillStyle = '#1d2433';
        g.fillText(tp, 2, y + row - 4, left - 6);
      }
      g.fillStyle = '#f2f4f7';
      g.fillRect(left, y, width - left - 4, row - 1);
      const segments = model.partitions.get(tp) ?? [];
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
            g.fillStyle = '#b42318';
            g.fillRect(x(from), y, Math.max(1, x(to) - x(from)), row - 1);
          }
        }
      }
    });
    c.setAttribute('aria-label', ownershipLabel(names.length, now, lang));
    const legend = this.root.querySelector('.own-legend');
    if (legend) {
      replaceChildren(
        legend,
        ...model.owners.map((o) => legendKey(`background:${colour(o)}`, o)),
        legendKey('background:#b42318', t('twoOwners', lang)),
        legendKey('background:#f2f4f7', t('unownedKey', lang)),
      );
    }
  }
}
