// The same workload as crates/coordinator/benches/requests.rs, through the JS API of the wasm
// build, in Node: requests per second for one group of 1,000 members.
// Run after `npm run build:wasm`: `node bench/wasm-requests.mjs`.
import { readFileSync } from 'node:fs';
import { Coordinator, initSync } from '../web/pkg/group_coordinator_wasm.js';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

const MEMBERS = 1000;
const HEARTBEAT_ROUNDS = 10;
const SUBSCRIPTION = Buffer.from([0, 1, 0, 0, 0, 1, 0, 6, ...Buffer.from('orders')]).toString('base64');
const assignmentOf = (i) =>
  Buffer.from([0, 1, 0, 0, 0, 1, 0, 6, ...Buffer.from('orders'), 0, 0, 0, 1, 0, 0, 0, i & 255]).toString('base64');

function run() {
  const c = new Coordinator({});
  let correlation = 0;
  const join = (memberId) => ({
    api: 'JoinGroup',
    apiVersion: 7,
    correlationId: ++correlation,
    clientId: 'consumer',
    groupId: 'bench',
    sessionTimeoutMs: 45000,
    rebalanceTimeoutMs: 300000,
    memberId,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: SUBSCRIPTION }],
  });
  const sync = (memberId, generationId, assignments) => ({
    api: 'SyncGroup',
    apiVersion: 5,
    correlationId: ++correlation,
    groupId: 'bench',
    generationId,
    memberId,
    assignments,
  });
  const heartbeat = (memberId, generationId) => ({
    api: 'Heartbeat',
    apiVersion: 4,
    correlationId: ++correlation,
    groupId: 'bench',
    generationId,
    memberId,
  });
  const phases = [];
  const measure = (name, requests, f) => {
    const start = performance.now();
    f();
    phases.push({ name, requests, ms: performance.now() - start });
  };
  let ids = [];
  measure('join (first rebalance)', 2 * MEMBERS, () => {
    for (let i = 0; i < MEMBERS; i++) {
      const [r] = c.handle(0, join(''));
      c.handle(0, join(r.memberId));
    }
    const out = [...c.advance(3000), ...c.advance(6000)];
    if (out.length !== MEMBERS) throw new Error(`expected ${MEMBERS} join responses, got ${out.length}`);
    ids = out.map((r) => r.memberId);
    c.events();
  });
  const leader = c.describe('bench').leaderId;
  ids.sort((a, b) => (a === leader ? -1 : b === leader ? 1 : 0));
  const assignments = ids.map((memberId, i) => ({ memberId, assignment: assignmentOf(i) }));
  measure('sync', MEMBERS, () => {
    c.handle(6000, sync(ids[0], 1, assignments));
    for (const id of ids.slice(1)) c.handle(6000, sync(id, 1, []));
    c.events();
  });
  measure('heartbeat', MEMBERS * HEARTBEAT_ROUNDS, () => {
    for (let round = 0; round < HEARTBEAT_ROUNDS; round++) {
      const now = 6000 + 3000 * (round + 1);
      for (const id of ids) c.handle(now, heartbeat(id, 1));
      c.events();
    }
  });
  measure('rebalance (rejoin + sync)', 2 * MEMBERS, () => {
    for (const id of ids) c.handle(60000, join(id));
    c.handle(60000, sync(ids[0], 2, assignments));
    for (const id of ids.slice(1)) c.handle(60000, sync(id, 2, []));
    c.events();
  });
  if (c.describe('bench').generationId !== 2) throw new Error('the rebalance did not complete');
  c.free();
  return phases;
}

run();
const runs = Array.from({ length: 5 }, run);
let totalRequests = 0;
let totalMs = 0;
console.log(`wasm (Node ${process.version}): one group of ${MEMBERS} members (best of 5)`);
for (let i = 0; i < runs[0].length; i++) {
  const best = Math.min(...runs.map((r) => r[i].ms));
  const p = runs[0][i];
  totalRequests += p.requests;
  totalMs += best;
  console.log(
    `  ${p.name.padEnd(28)} ${String(p.requests).padStart(7)} requests ${best.toFixed(2).padStart(9)} ms ${Math.round(
      p.requests / (best / 1000),
    )
      .toString()
      .padStart(12)} requests/s`,
  );
}
console.log(
  `  ${'all'.padEnd(28)} ${String(totalRequests).padStart(7)} requests ${totalMs.toFixed(2).padStart(9)} ms ${Math.round(
    totalRequests / (totalMs / 1000),
  )
    .toString()
    .padStart(12)} requests/s`,
);
console.log(`BENCH wasm requests_per_second ${Math.round(totalRequests / (totalMs / 1000))}`);
