// The assign widget's worker: a large group's assignment off the page's main thread, with an
// instance of the model's module of its own. It runs the widget's own `run` and `table`, so its
// answer is the table the page would have made itself. Started by the widget for a large group
// only (widget.ts).

import init, { assign, assignCompact, serverAssign } from '../../pkg/group_coordinator_wasm.js';
import wasmUrl from '../../pkg/group_coordinator_wasm_bg.wasm?url';
import { run, table } from './run.ts';
import type { AssignAnswer, AssignRequest } from './widget.ts';

const ready = init({ module_or_path: wasmUrl });
const fns = { assign, assignCompact, serverAssign };
const scope = self as unknown as { postMessage(answer: AssignAnswer): void; onmessage: ((e: MessageEvent<AssignRequest>) => void) | null };

scope.onmessage = (e) => {
  const { id, strategy, text, lang } = e.data;
  ready.then(
    // The table, not the assignment: a million partitions would cost the page their copying.
    () => scope.postMessage({ id, result: table(run(fns, strategy, text), lang) }),
    (err) => scope.postMessage({ id, result: { ok: false, message: `The model failed to load: ${(err as Error).message}` } }),
  );
};
