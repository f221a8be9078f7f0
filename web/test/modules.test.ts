// The two modules built from crates/wasm: the full one (the page's) and the embed one (an
// embedded scenario's, without the console, the assign widget and live mode). The page loads
// either through the full module's glue (main.ts), so the embed module must need nothing that
// glue does not give, export nothing the full one lacks, and play every built-in scenario
// exactly as the full one does.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

type Glue = typeof import('../pkg/group_coordinator_wasm.js');

const bytes = (name: string) => readFileSync(new URL(`../pkg/${name}`, import.meta.url));
const full = bytes('group_coordinator_wasm_bg.wasm');
const embed = bytes('group_coordinator_embed_bg.wasm');
const key = (d: { module?: string; name: string; kind: string }) => `${d.module ?? ''} ${d.name} ${d.kind}`;

/** A fresh instance of the full module's glue (its state is per module instance), loaded with `module`. */
async function load(module: Buffer): Promise<Glue> {
  vi.resetModules();
  const glue: Glue = await import('../pkg/group_coordinator_wasm.js');
  glue.initSync({ module });
  return glue;
}

describe('the embed module', () => {
  it('imports only what the full glue provides, and exports a subset of the full module', () => {
    const [f, e] = [new WebAssembly.Module(full), new WebAssembly.Module(embed)];
    const fullImports = new Set(WebAssembly.Module.imports(f).map(key));
    const missing = WebAssembly.Module.imports(e).filter((d) => !fullImports.has(key(d)));
    expect(missing).toEqual([]);
    const fullExports = new Set(WebAssembly.Module.exports(f).map(key));
    const extra = WebAssembly.Module.exports(e).filter((d) => !fullExports.has(key(d)));
    expect(extra).toEqual([]);
    // What it leaves out, and is smaller for.
    const names = new Set(WebAssembly.Module.exports(e).map((d) => d.name));
    for (const gone of ['coordinator_new', 'assign', 'assignCompact', 'serverAssign', 'decodeAssignment', 'player_live', 'player_follow']) {
      expect(names.has(gone), gone).toBe(false);
    }
    for (const kept of ['player_new', 'player_frame', 'simulation_new', 'scenarios', 'brokerConfigKeys']) {
      expect(names.has(kept), kept).toBe(true);
    }
    expect(embed.length).toBeLessThan(full.length * 0.95);
  });

  it('plays every built-in scenario as the full module does, frame for frame', async () => {
    const request = { lang: 'zh' as const, world: true, assignments: 8, steps: { span: 20 }, timeline: { windowMs: 60_000 } };
    const play = (glue: Glue) =>
      glue.scenarios().map(({ name }) => {
        const player = new glue.Player(glue.scenario(name));
        const frames: string[] = [];
        for (let i = 0; i < 6; i++) {
          player.forward(37);
          frames.push(JSON.stringify(player.frame(request)));
        }
        player.free();
        return frames;
      });
    const fromFull = play(await load(full));
    const small = await load(embed);
    // (It is the embed module that plays: the console's class is not in it.)
    expect(() => new small.Coordinator()).toThrow(/coordinator_new is not a function/);
    expect(play(small)).toEqual(fromFull);
    expect(fromFull.length).toBeGreaterThan(10);
    // A refused input is refused the same way; a live run's input is refused, saying why.
    expect(() => new small.Player({ name: 'x' } as never)).toThrow(/scenario/);
    const inject = {
      type: 'inject',
      client: 'c',
      atMs: 0,
      request: { api: 'Heartbeat', apiVersion: 4, groupId: 'g', generationId: 1, memberId: 'm' },
    };
    expect(() => new small.Player(small.scenario('leave-while-stable'), [{ step: 0, action: inject as never }])).toThrow(
      /actions is malformed: unknown variant `inject`.* \(a live run's input: the embed module has no live mode/,
    );
  });
});
