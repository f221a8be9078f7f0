// Partition ownership over time: a row per partition, time across, coloured by the consumer
// that owns it; blank while nobody does, red while two do (a zombie). Draws the segments the
// model hands over (`Player.ownership()`), fetched only when the panel is open.

import type { Ownership } from '../../pkg/group_coordinator_wasm.js';
import { h, legendKey, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';
import { ownershipLabel, t } from './text.ts';

const PALETTE = ['#2754c5', '#12b76a', '#f79009', '#7a5af8', '#ee46bc', '#06aed4', '#667085', '#b54708', '#1f7a3d', '#9e77ed'];

export class OwnershipView {
  readonly root = h('details', { class: 'panel ownership', id: 'ownership' });
  private readonly canvas = h('canvas', { id: 'own-canvas', role: 'img' });
  private latest: [Lang, () => Ownership, number] | null = null;

  /** `ownership` is asked for only when the panel is open (it is the whole run's history). */
  render(lang: Lang, ownership: () => Ownership, now: number): void {
    this.latest = [lang, ownership, now];
    if (!this.root.querySelector('summary')) {
      this.root.append(h('summary', {}, h('h2', { class: 'inline' })), this.canvas, h('div', { class: 'own-legend legend' }));
      // Drawn when opened (with what the page shows then), and after each step while open.
      this.root.addEventListener('toggle', () => {
        if (this.root.open && this.latest) this.draw(...this.latest);
      });
    }
    (this.root.querySelector('summary h2') as HTMLElement).textContent = t('ownership', lang);
    if (this.root.open) this.draw(lang, ownership, now);
  }

  private draw(lang: Lang, ownership: () => Ownership, now: number): void {
    const model = ownership();
    // In the model's order: by topic, then partition.
    const rows = model.partitions;
    const row = rows.length > 60 ? 3 : 14;
    const left = row > 3 ? 80 : 10;
    const width = 1000;
    const height = Math.max(20, rows.length * row + 4);
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
    rows.forEach(({ topic, partition, segments }, i) => {
      const y = i * row + 2;
      if (row > 3) {
        g.fillStyle = '#1d2433';
        g.fillText(`${topic}-${partition}`, 2, y + row - 4, left - 6);
      }
      g.fillStyle = '#f2f4f7';
      g.fillRect(left, y, width - left - 4, row - 1);
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
    c.setAttribute('aria-label', ownershipLabel(rows.length, now, lang));
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
