// The assign widget's worker: a large group's assignment off the page's main thread, with an
// instance of the model's module of its own. It runs the widget's own `run`, so its answer is
// the one the page would have drawn. Started by the widget for a large group only (widget.ts).

import init, { assign, assignCompact, serverAssign } from '../../pkg/group_coordinator_wasm.js';
import wasmUrl from '../../pkg/group_coordinator_wasm_bg.wasm?url';
import { run } from './run.ts';
import type { AssignAnswer, AssignRequest } from './widget.ts';

const ready = init({ module_or_path: wasmUrl });
const fns = { assign, assignCompact, serverAssign };
const scope = self as unknown as { postMessage(answer: AssignAnswer): void; onmessage: ((e: MessageEvent<AssignRequest>) => void) | null };

scope.onmessage = (e) => {
  const { id, strategy, text } = e.data;
  ready.then(
    () => scope.postMessage({ id, result: run(fns, strategy, text) }),
    (err) => scope.postMessage({ id, result: { ok: false, message: `The model failed to load: ${(err as Error).message}` } }),
  );
};
