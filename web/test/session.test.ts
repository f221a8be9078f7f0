// The console's model against the real wasm module in Node.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Coordinator, errorName, initSync, type JoinGroupRequest, requestText, shortIds } from '../pkg/group_coordinator_wasm.js';
import { EXAMPLES, substitute } from '../src/console/examples.ts';
import { ScriptRunner } from '../src/console/script.ts';
import { Session } from '../src/console/session.ts';

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
});

const newSession = () => new Session((config) => new Coordinator(config));

function runAll(id: string): Session {
  const session = newSession();
  const runner = new ScriptRunner(EXAMPLES.find((e) => e.id === id)!);
  while (!runner.done) {
    const x = runner.step(session);
    expect(x?.error, `step ${runner.index} of ${id}`).toBeNull();
  }
  return session;
}

describe('the seed examples', () => {
  it('leave while PreparingRebalance completes the join: generation 2 with A and C', () => {
    const s = runAll('leave-preparing');
    const v = s.classicView()!;
    expect(v.state).toBe('CompletingRebalance');
    expect(v.generationId).toBe(2);
    expect(v.members.map((m) => m.clientId).sort()).toEqual(['consumer-a', 'consumer-c']);
    const last = s.log.at(-1)!;
    expect(last.responses.filter((r) => r.api === 'JoinGroup').map((r) => r.errorCode)).toEqual([0, 0]);
  });

  it('leave while CompletingRebalance answers B with REBALANCE_IN_PROGRESS, then generation 2', () => {
    const s = runAll('leave-completing');
    const leave = s.log.find((x) => x.request?.api === 'LeaveGroup')!;
    const sync = leave.responses.find((r) => r.api === 'SyncGroup')!;
    expect(errorName(sync.errorCode)).toBe('REBALANCE_IN_PROGRESS');
    expect(s.classicView()!.generationId).toBe(2);
    expect(s.classicView()!.state).toBe('CompletingRebalance');
  });

  it('leave while Stable rebalances to a Stable generation 2', () => {
    const s = runAll('leave-stable');
    expect(s.classicView()!.state).toBe('Stable');
    expect(s.classicView()!.generationId).toBe(2);
  });

  it('the last member leaving empties the group with generation + 1', () => {
    const s = runAll('last-leaves');
    expect(s.classicView()!.state).toBe('Empty');
    expect(s.classicView()!.generationId).toBe(2);
  });
});

describe('the session', () => {
  it('a script step after the user moved the clock on happens now, not in the past', () => {
    const s = newSession();
    const runner = new ScriptRunner(EXAMPLES[0]);
    s.advance(5000);
    const x = runner.step(s)!;
    expect(x.error).toBeNull();
    expect(x.atMs).toBe(5000);
    expect(s.classicView()!.state).toBe('PreparingRebalance');
  });

  it('fills templates with the next correlation id and the member id handed out last', () => {
    const s = newSession();
    const first = s.send(0, s.template('JoinGroup', 9));
    expect(errorName(first.told[0].errorCode)).toBe('MEMBER_ID_REQUIRED');
    const again = s.template('JoinGroup', 9);
    expect(again.correlationId).toBe(2);
    expect(again.api === 'JoinGroup' && again.memberId).toBe(s.lastMemberId);
    expect(s.send(0, again).responses).toEqual([]);
    expect(s.classicView()!.state).toBe('PreparingRebalance');
  });

  it('logs a refused request without changing anything', () => {
    const s = newSession();
    const x = s.send(0, { api: 'JoinGroup', apiVersion: 42 } as never);
    expect(x.error).toMatch(/RangeError: .*version 42/);
    expect(s.view()).toBeNull();
    const y = s.send(0, { api: 'Nope', apiVersion: 1 } as never);
    expect(y.error).toMatch(/TypeError: request is malformed/);
  });

  it('every template is accepted at every version', () => {
    const s = newSession();
    for (const api of [
      'JoinGroup',
      'SyncGroup',
      'Heartbeat',
      'LeaveGroup',
      'OffsetCommit',
      'OffsetFetch',
      'DescribeGroups',
      'ListGroups',
      'DeleteGroups',
    ] as const) {
      const max = {
        JoinGroup: 9,
        SyncGroup: 5,
        Heartbeat: 4,
        LeaveGroup: 5,
        OffsetCommit: 9,
        OffsetFetch: 9,
        DescribeGroups: 5,
        ListGroups: 5,
        DeleteGroups: 2,
      }[api];
      for (let v = 0; v <= max; v++) {
        const x = s.send(s.now, s.template(api, v));
        expect(x.error, `${api} v${v}`).toBeNull();
        const parked = x.events.filter((e) => e.type === 'ResponseParked').length;
        expect(x.responses.length + parked, `${api} v${v}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('formatting', () => {
  it('tells requests and responses in the model’s words, in both languages, with short member ids', () => {
    expect(shortIds('consumer-a-3f1c2b4d-1111-4222-8333-444455556666')).toBe('consumer-a-3f1c2b4d…');
    expect(shortIds('plain')).toBe('plain');
    const s = newSession();
    const x = s.send(0, s.template('Heartbeat', 4));
    expect(x.told).toHaveLength(1);
    expect(x.told[0].text.en).toContain('UNKNOWN_MEMBER_ID');
    expect(x.told[0].errorCode).toBe(25);
    const join = s.send(0, { ...(s.template('JoinGroup', 9) as JoinGroupRequest), memberId: '' });
    expect(requestText(join.request as JoinGroupRequest)).toMatch(/^JoinGroup v9 #\d+$/);
    expect(join.told[0].text.en).toMatch(/^JoinGroup #\d+ · MEMBER_ID_REQUIRED · member console-[0-9a-f]{8}…$/);
    expect(join.told[0].text.zh).toMatch(/^JoinGroup #\d+ · MEMBER_ID_REQUIRED · 成员 /);
    const y = s.send(0, s.template('JoinGroup', 3));
    // Events come narrated by the model, in both languages.
    expect(y.events.map((e) => e.text.en).join('\n')).toContain('group: Empty → PreparingRebalance');
    expect(y.events.map((e) => e.text.zh).join('\n')).toContain('空 → 准备再平衡');
  });

  it('substitutes bound ids only where a whole string names them', () => {
    expect(substitute({ a: '$A', b: ['$B', 'x$A'], c: 1 }, { A: 'id-a' })).toEqual({ a: 'id-a', b: ['$B', 'x$A'], c: 1 });
  });
});
