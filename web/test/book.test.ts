// The book's JavaScript as it is printed: the examples of docs/src/using.md run against the real
// module, and the API reference (docs/src/api/javascript.md) is what the module's declarations
// give (scripts/api-docs.mjs).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations.
import { apiMarkdown } from '../../scripts/api-docs.mjs';
import * as wasm from '../pkg/group_coordinator_wasm.js';

const root = new URL('../../', import.meta.url);

beforeAll(() => {
  wasm.initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

describe('the book', () => {
  it("runs using.md's JavaScript examples as printed, their console.asserts holding", () => {
    const chapter = readFileSync(new URL('docs/src/using.md', root), 'utf8');
    const blocks = [...chapter.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBe(3);
    let asserts = 0;
    const strict = {
      assert: (ok: unknown, ...what: unknown[]) => {
        asserts++;
        if (!ok) throw new Error(`console.assert failed ${what.join(' ')}`);
      },
    };
    new Function('Coordinator', 'console', blocks[0])(wasm.Coordinator, strict);
    expect(asserts).toBe(3);
    new Function('assign', 'assignCompact', 'console', blocks[1])(wasm.assign, wasm.assignCompact, strict);
    expect(asserts).toBe(5);
    new Function('Coordinator', 'serverAssign', 'console', blocks[2])(wasm.Coordinator, wasm.serverAssign, strict);
    expect(asserts).toBe(9);
  });

  it('prints the same examples in its Chinese edition (so they run there too)', () => {
    const code = (path: string) =>
      [...readFileSync(new URL(path, root), 'utf8').matchAll(/```(?:js|rust)\n([\s\S]*?)```/g)].map((m) => m[1]);
    const english = code('docs/src/using.md');
    expect(english.length).toBe(4);
    expect(code('docs/zh/src/using.md')).toEqual(english);
  });

  it('has the JavaScript API reference the declarations give (node scripts/api-docs.mjs rewrites it)', () => {
    const declarations = readFileSync(new URL('web/pkg/group_coordinator_wasm.d.ts', root), 'utf8');
    const committed = readFileSync(new URL('docs/src/api/javascript.md', root), 'utf8');
    expect(committed).toBe(apiMarkdown(declarations));
    for (const name of ['assign', 'serverAssign', 'Coordinator', 'Simulation', 'Player']) expect(committed).toContain(`\`${name}\``);
  });
});
