// Runs an example's steps one by one against a session.

import type { Request } from '../../pkg/group_coordinator_wasm.js';
import { type Example, type Step, substitute } from './examples.ts';
import type { Exchange, Session } from './session.ts';

export class ScriptRunner {
  index = 0;
  readonly vars: Record<string, string> = {};

  constructor(readonly example: Example) {}

  get done(): boolean {
    return this.index >= this.example.steps.length;
  }

  get next(): Step | undefined {
    return this.example.steps[this.index];
  }

  /** The request the next step would send (with ids filled in as far as they are known). */
  preview(session: Session): Request | null {
    const step = this.next;
    if (!step?.request) return null;
    const vars = { ...session.topicVars(), ...this.vars };
    return { ...substitute(step.request, vars), correlationId: session.nextCorrelationId } as Request;
  }

  /** Executes the next step. */
  step(session: Session): Exchange | null {
    const step = this.next;
    if (!step) return null;
    const request = this.preview(session);
    this.index++;
    // If the user moved the clock past the script meanwhile, the step happens now instead.
    const at = Math.max(step.atMs, session.now);
    if (step.advance || !request) return session.advance(at);
    if (step.bind) {
      const name = step.bind;
      session.onResponse(request.correlationId ?? 0, (r) => {
        if (r.api === 'JoinGroup' && r.memberId) this.vars[name] = r.memberId;
      });
    }
    return session.send(at, request);
  }
}
