// ConsumerGroupHeartbeats per second through the JS API of the wasm build, in Node: the workload
// of crates/coordinator/benches/consumer_heartbeats.rs (1,000 members on 10,000 partitions; the
// joins, reconciling to Stable, then steady heartbeats). Prints `BENCH wasm heartbeats_per_second N`.
import { readFileSync } from 'node:fs';
import { Coordinator, initSync } from '../web/pkg/group_coordinator_wasm.js';

initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });

const MEMBERS = 1000;
const c = new Coordinator();
c.updateMetadata(0, { topics: [{ name: 'orders', partitions: 10000 }] });
const id = (m) => `member-${String(m).padStart(4, '0')}`;
const epochs = new Array(MEMBERS).fill(0);
const owned = Array.from({ length: MEMBERS }, () => []);
const take = (m, r) => {
  epochs[m] = r.memberEpoch;
  if (r.assignment) owned[m] = r.assignment.topicPartitions;
};
let t = performance.now();
for (let m = 0; m < MEMBERS; m++) {
  const [r] = c.handle(0, {
    api: 'ConsumerGroupHeartbeat',
    apiVersion: 0,
    groupId: 'bench',
    memberId: id(m),
    memberEpoch: 0,
    rebalanceTimeoutMs: 300000,
    subscribedTopicNames: ['orders'],
    topicPartitions: [],
  });
  take(m, r);
}
const joins = performance.now() - t;
const beat = (m) =>
  c.handle(0, {
    api: 'ConsumerGroupHeartbeat',
    apiVersion: 0,
    groupId: 'bench',
    memberId: id(m),
    memberEpoch: epochs[m],
    topicPartitions: owned[m],
  })[0];
t = performance.now();
for (let round = 0; round < 10; round++) for (let m = 0; m < MEMBERS; m++) take(m, beat(m));
const settle = performance.now() - t;
if (c.describe('bench').state !== 'Stable') throw new Error(`not Stable: ${c.describe('bench').state}`);
c.events(); // (drained: the steady rounds below are timed without the backlog)
const rounds = 10;
t = performance.now();
for (let round = 0; round < rounds; round++) {
  for (let m = 0; m < MEMBERS; m++) beat(m);
  c.events();
}
const steady = performance.now() - t;
console.log(`joins of ${MEMBERS} members: ${joins.toFixed(1)} ms; reconciling to Stable: ${settle.toFixed(1)} ms`);
console.log(`BENCH wasm heartbeats_per_second ${Math.round((rounds * MEMBERS) / (steady / 1000))}`);
