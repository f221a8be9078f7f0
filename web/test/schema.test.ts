// The scenario format's JSON Schema (docs/src/scenario.schema.json, derived from the loader's own
// types) against the loader: every built-in scenario passes both, and what the schema refuses
// the loader refuses too.
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../pkg/group_coordinator_wasm.js';

const root = new URL('../../', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('docs/src/scenario.schema.json', root), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const dir = new URL('crates/simulator/scenarios/', root);
const builtIn = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8'))] as const);

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const loads = (s: unknown): boolean => {
  try {
    new wasm.Simulation(s as wasm.Scenario).free();
    return true;
  } catch {
    return false;
  }
};

describe('the scenario schema', () => {
  it('accepts every built-in scenario, which the loader loads', () => {
    expect(builtIn.length).toBeGreaterThan(10);
    for (const [file, s] of builtIn) {
      expect(validate(s), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(loads(s), file).toBe(true);
    }
  });

  it("the book's example scenario passes both, and runs to a Stable group", () => {
    const chapter = readFileSync(new URL('docs/src/simulator.md', root), 'utf8');
    const example = JSON.parse(chapter.match(/```json\n([\s\S]*?)```/)?.[1] ?? 'null');
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const sim = new wasm.Simulation(example);
    sim.runUntil(example.durationMs);
    expect(sim.group()?.state).toBe('Stable');
    sim.free();
  });

  it('refuses what the loader refuses: unknown fields, missing fields, wrong types', () => {
    const [, base] = builtIn[0];
    const broken: Record<string, unknown>[] = [
      { ...base, colour: 'blue' },
      { ...base, consumers: undefined },
      { ...base, topics: 'orders' },
      { ...base, network: { ...base.network, latencyMs: 'fast' } },
      { ...base, script: [{ atMs: 0, action: { type: 'Explode', consumer: 'a' } }] },
      { ...base, consumers: [{ ...base.consumers[0], unknown: 1 }] },
    ];
    for (const s of broken) {
      const text = JSON.stringify(s).slice(0, 120);
      expect(validate(JSON.parse(JSON.stringify(s))), text).toBe(false);
      expect(loads(JSON.parse(JSON.stringify(s))), text).toBe(false);
    }
  });
});
