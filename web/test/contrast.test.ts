// The timeline's colours against its lanes' backgrounds (white and #f9fafb): every bar and mark
// colour keeps WCAG's 3:1 for non-text contrast; so do the scrubber's moments and the
// ownership view's consumers, which never share a colour.
import { describe, expect, it } from 'vitest';
import { contrast, ownerColour } from '../src/playground/ownership.ts';
import { API_COLOURS, ERROR, LIFE, NET, STATE_COLOURS, TIMER } from '../src/playground/timeline-legend.ts';

describe('the timeline palette', () => {
  const colours = { ...API_COLOURS, ...STATE_COLOURS, ERROR, LIFE, NET, TIMER };
  for (const [name, colour] of Object.entries(colours)) {
    it(`${name} (${colour}) keeps 3:1 on both lane backgrounds`, () => {
      expect(contrast(colour, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(contrast(colour, '#f9fafb')).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('the scrubber’s moment colours', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const dir = new URL('../src/styles/', import.meta.url);
  const css = readdirSync(dir)
    .filter((f) => f.endsWith('.css'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
  const vars = new Map([...css.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1], m[2]]));
  const marks = [...css.matchAll(/\n\.sm-([\w-]+) \{\s*background: ([^;]+);/g)].map((m) => [m[1], m[2].trim()]);
  it('names a colour for every mark the model makes', () => {
    expect(marks.map((m) => m[0]).sort()).toEqual(
      ['assigned', 'expiry', 'fault', 'generation', 'join', 'key', 'leave', 'migration', 'rebalance', 'stable'].sort(),
    );
  });
  for (const [name, value] of marks) {
    const colour = value.startsWith('var(') ? vars.get(value.slice(6, -1)) : value;
    it(`${name} (${colour}) keeps 3:1 on the panel`, () => {
      expect(colour).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(contrast(colour as string, '#ffffff')).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('the ownership view’s consumer colours', () => {
  const colours = Array.from({ length: 200 }, (_, i) => ownerColour(i));
  it('are all different for 200 consumers (no palette repeating every ten)', () => {
    expect(new Set(colours).size).toBe(200);
  });
  it('each keeps 3:1 against the lane', () => {
    for (const c of colours) expect(contrast(c, '#f2f4f7')).toBeGreaterThanOrEqual(3);
  });
  it('neighbours differ visibly (consumers 0-49)', () => {
    for (let i = 1; i < 50; i++) expect(colours[i]).not.toBe(colours[i - 1]);
  });
});
