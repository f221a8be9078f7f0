// The assign widget's input: a group written as a few lines of text, read into the assignors'
// input. A line that cannot be read is refused with its number and why; nothing is guessed.
//
//   topics: orders=6, payments=3
//   c1: orders, payments
//   c2 gen=1: orders, payments | owns orders-0, orders-1
//   c3 instance=host-3: orders
//
// Members are listed in any order; `owns` gives the partitions the member had (the sticky family
// keeps them where it can; the server assignors take them as the previous target), `gen` its
// generation, `instance` its group.instance.id and `rack` its rack.

import type { AssignmentInput, AssignmentMember, TopicPartitions } from '../../pkg/group_coordinator_wasm.js';

export type Parsed = { ok: true; input: AssignmentInput } | { ok: false; line: number; message: string };

const NAME = /^[A-Za-z0-9._-]+$/;

/** `orders-3` → orders, 3 (the last dash splits, as Kafka's `TopicPartition.toString`). */
function partitionOf(text: string): { topic: string; partition: number } | null {
  const at = text.lastIndexOf('-');
  if (at <= 0) return null;
  const partition = Number(text.slice(at + 1));
  if (!Number.isInteger(partition) || partition < 0 || text.slice(at + 1) === '') return null;
  return { topic: text.slice(0, at), partition };
}

function list(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseGroup(text: string): Parsed {
  const input: AssignmentInput = { topics: {}, members: [] };
  let sawTopics = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const no = i + 1;
    if (!line || line.startsWith('#')) continue;
    const fail = (message: string): Parsed => ({ ok: false, line: no, message });
    if (/^topics\s*:/i.test(line)) {
      sawTopics = true;
      for (const item of list(line.slice(line.indexOf(':') + 1))) {
        const [name, count] = item.split('=');
        const n = Number(count);
        if (!name || !NAME.test(name) || !Number.isInteger(n) || n < 0 || n > 10_000) {
          return fail(`"${item}" is not topic=partitions (a name, then 0 to 10000)`);
        }
        input.topics[name] = n;
      }
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) return fail('a member line is "id [gen=N] [instance=ID] [rack=R]: topics [| owns topic-p, …]"');
    const [id, ...options] = list(line.slice(0, colon));
    if (!id || !NAME.test(id)) return fail(`"${id ?? ''}" is not a member id`);
    if (input.members.some((m) => m.memberId === id)) return fail(`member ${id} is listed twice`);
    const member: AssignmentMember = { memberId: id, topics: [] };
    for (const option of options) {
      const [key, value] = option.split('=');
      if (key === 'gen' && /^-?\d+$/.test(value ?? '')) member.generationId = Number(value);
      else if (key === 'instance' && value && NAME.test(value)) member.groupInstanceId = value;
      else if (key === 'rack' && value && NAME.test(value)) member.rackId = value;
      else return fail(`"${option}" is not gen=N, instance=ID or rack=R`);
    }
    const [subscribed, owns] = line.slice(colon + 1).split('|');
    member.topics = list(subscribed);
    if (member.topics.length === 0) return fail(`member ${id} subscribes to nothing`);
    for (const topic of member.topics) if (!NAME.test(topic)) return fail(`"${topic}" is not a topic name`);
    if (owns !== undefined) {
      const items = list(owns);
      if (items[0] !== 'owns') return fail('after "|" comes "owns" and the partitions, as orders-0');
      const owned = new Map<string, number[]>();
      for (const item of items.slice(1)) {
        const tp = partitionOf(item);
        if (!tp) return fail(`"${item}" is not topic-partition`);
        owned.set(tp.topic, [...(owned.get(tp.topic) ?? []), tp.partition]);
      }
      member.ownedPartitions = [...owned].map(([topic, partitions]): TopicPartitions => ({ topic, partitions }));
    }
    input.members.push(member);
  }
  if (!sawTopics) return { ok: false, line: 1, message: 'a "topics: name=partitions, …" line is needed' };
  if (input.members.length === 0) return { ok: false, line: lines.length, message: 'no member' };
  return { ok: true, input };
}

/** What a member keeps, gets and gives up: its owned partitions against its assignment. */
export interface Moves {
  kept: string[];
  added: string[];
  revoked: string[];
}

const names = (tps: TopicPartitions[] | undefined): string[] => (tps ?? []).flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`));

export function moves(owned: TopicPartitions[] | undefined, assigned: TopicPartitions[]): Moves {
  const had = new Set(names(owned));
  const got = names(assigned);
  const gets = new Set(got);
  return {
    kept: got.filter((p) => had.has(p)),
    added: got.filter((p) => !had.has(p)),
    revoked: [...had].filter((p) => !gets.has(p)),
  };
}
