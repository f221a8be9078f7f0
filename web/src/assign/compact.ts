// The compact form of an assignor's input (`assignCompact`): topic names and member ids once,
// integers for the rest, as the model's `CompactInput::of` builds it from the JSON form. The
// page's assignor calls take this path; rack-aware inputs stay on `assign` (the compact form has
// no racks).

import type { Assignment, AssignmentInput, CompactAssignmentInput, TopicPartitions } from '../../pkg/group_coordinator_wasm.js';

/** `input` in the compact form, or null when it has racks (members' or partitions'). Every topic
 * named anywhere (metadata, subscriptions, claims) is in the table, in name order; one without
 * metadata has 0 partitions. */
export function toCompact(input: AssignmentInput): CompactAssignmentInput | null {
  if (input.racks || input.members.some((m) => m.rackId)) return null;
  const counts = new Map(Object.entries(input.topics));
  for (const m of input.members) {
    for (const t of m.topics) if (!counts.has(t)) counts.set(t, 0);
    for (const tp of m.ownedPartitions ?? []) if (!counts.has(tp.topic)) counts.set(tp.topic, 0);
  }
  const topics = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const index = new Map(topics.map((t, i) => [t, i]));
  const subscriptions: number[] = [];
  const owned: number[] = [];
  // Pushed one by one: spread into `push`, a member's million claims were a million arguments
  // ("Maximum call stack size exceeded").
  for (const m of input.members) {
    subscriptions.push(m.topics.length);
    for (const t of m.topics) subscriptions.push(index.get(t) ?? 0);
    owned.push((m.ownedPartitions ?? []).reduce((n, tp) => n + tp.partitions.length, 0));
    for (const tp of m.ownedPartitions ?? []) {
      const k = index.get(tp.topic) ?? 0;
      for (const p of tp.partitions) owned.push(k, p);
    }
  }
  return {
    topics,
    partitions: Int32Array.from(topics, (t) => counts.get(t) ?? 0),
    members: input.members.map((m) => m.memberId),
    instanceIds: input.members.some((m) => m.groupInstanceId) ? input.members.map((m) => m.groupInstanceId ?? null) : null,
    subscriptions: Int32Array.from(subscriptions),
    owned: Int32Array.from(owned),
    generations: Int32Array.from(input.members, (m) => m.generationId ?? -1),
  };
}

/** `assignCompact`'s result (per member in turn: a count, then (topic index, partition) pairs)
 * in `assign`'s shape: every member, its topics ascending, their partitions ascending. */
export function fromCompact(input: CompactAssignmentInput, out: Int32Array): Assignment {
  const result: Assignment = {};
  let at = 0;
  for (const member of input.members) {
    const n = out[at] ?? 0;
    const byTopic = new Map<string, number[]>();
    for (let k = 0; k < n; k++) {
      const topic = input.topics[out[at + 1 + 2 * k]];
      const list = byTopic.get(topic) ?? [];
      list.push(out[at + 2 + 2 * k]);
      byTopic.set(topic, list);
    }
    at += 1 + 2 * n;
    result[member] = [...byTopic.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([topic, partitions]): TopicPartitions => ({ topic, partitions: partitions.sort((a, b) => a - b) }));
  }
  return result;
}
