// The timeline's colours against its lanes' backgrounds (white and #f9fafb): every bar and mark
// colour keeps WCAG's 3:1 for non-text contrast.
import { describe, expect, it } from 'vitest';
import { API_COLOURS, ERROR, LIFE, NET, STATE_COLOURS, TIMER } from '../src/playground/timeline-legend.ts';

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

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
  const { readFileSync } = await import('node:fs');
  const css = readFileSync(new URL('../src/style.css', import.meta.url), 'utf8');
  const vars = new Map([...css.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1], m[2]]));
  const marks = [...css.matchAll(/\n\.sm-([\w-]+) \{\s*background: ([^;]+);/g)].map((m) => [m[1], m[2].trim()]);
  it('names a colour for every mark the model makes', () => {
    expect(marks.map((m) => m[0]).sort()).toEqual(['expiry', 'fault', 'generation', 'join', 'key', 'leave', 'rebalance', 'stable'].sort());
  });
  for (const [name, value] of marks) {
    const colour = value.startsWith('var(') ? vars.get(value.slice(6, -1)) : value;
    it(`${name} (${colour}) keeps 3:1 on the panel`, () => {
      expect(colour).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(contrast(colour as string, '#ffffff')).toBeGreaterThanOrEqual(3);
    });
  }
});
