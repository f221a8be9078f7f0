// A group's description as Kafka 4's tool prints it, for the browser tests and the benchmark of
// the page's "Your group" comparison (bench/wasm-your-group.mjs).

/** What Kafka 4's kafka-consumer-groups.sh --describe --members --verbose prints for a classic
 * group of `n` members on `partitions` partitions of one topic, its columns padded as the tool
 * pads them. */
export function describeMembers(n, partitions) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `consumer-billing-1-${String(i).padStart(8, '0')}-4a5b-8c9d-0e1f2a3b4c5d`,
    host: `/10.2.${i >> 8}.${i & 255}`,
    tps: [],
  }));
  for (let p = 0; p < partitions; p++) rows[p % n].tps.push(p);
  const assignment = (r) => (r.tps.length ? `events:${r.tps.join(',')}` : '-');
  const width = (k, min) => Math.max(min, ...rows.map(k));
  const [cl, hl, ca] = [width((r) => r.id.length, 15), width((r) => r.host.length, 15), width((r) => assignment(r).length, 20)];
  const line = (g, id, host, client, count, epoch, current, target, targetAssignment) =>
    `${g.padEnd(15)} ${id.padEnd(cl)} ${host.padEnd(hl)} ${client.padEnd(18)} ${count.padEnd(15)} ${epoch.padEnd(15)} ${current.padEnd(ca)} ${target.padEnd(15)} ${targetAssignment.padEnd(20)}`;
  const head = line(
    'GROUP',
    'CONSUMER-ID',
    'HOST',
    'CLIENT-ID',
    '#PARTITIONS',
    'CURRENT-EPOCH',
    'CURRENT-ASSIGNMENT',
    'TARGET-EPOCH',
    'TARGET-ASSIGNMENT',
  );
  return [
    head,
    ...rows.map((r) => line('billing', r.id, r.host, 'consumer-billing-1', String(r.tps.length), '-', assignment(r), '-', '-')),
  ].join('\n');
}
