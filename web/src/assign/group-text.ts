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
import type { Lang } from '../common/i18n.ts';

/** A message in both of the page's languages. */
export type Said = Record<Lang, string>;

/**
 * The group read, with notes on what Kafka accepts but is likely a slip (a subscribed topic the
 * topics line does not list, a claim on a partition that does not exist); or the first line
 * that cannot be read, and why.
 */
export type Parsed = { ok: true; input: AssignmentInput; notes: Said[] } | { ok: false; line: number; message: Said };

const NAME = /^[A-Za-z0-9._-]+$/;

const FORMAT = 'id [gen=N] [instance=ID] [rack=R]';

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
  /** Each member's line, for the notes (a note names the line it is about). */
  const lineOf = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const no = i + 1;
    if (!line || line.startsWith('#')) continue;
    const fail = (en: string, zh: string): Parsed => ({ ok: false, line: no, message: { en, zh } });
    if (/^topics\s*:/i.test(line)) {
      sawTopics = true;
      for (const item of list(line.slice(line.indexOf(':') + 1))) {
        const [name, count] = item.split('=');
        const n = Number(count);
        if (!name || !NAME.test(name) || !Number.isInteger(n) || n < 0 || n > 10_000) {
          return fail(
            `"${item}" is not topic=partitions (a name, then 0 to 10000)`,
            `“${item}” 不是 主题=分区数（主题名，再加 0 到 10000 的分区数）`,
          );
        }
        if (Object.hasOwn(input.topics, name)) return fail(`topic ${name} is listed twice`, `主题 ${name} 列出了两次`);
        input.topics[name] = n;
      }
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) {
      return fail(`a member line is "${FORMAT}: topics [| owns topic-p, …]"`, `成员行的写法是 “${FORMAT}: 主题 [| owns 主题-分区, …]”`);
    }
    const [id, ...options] = list(line.slice(0, colon));
    if (!id || !NAME.test(id)) return fail(`"${id ?? ''}" is not a member id`, `“${id ?? ''}” 不是成员 id`);
    if (input.members.some((m) => m.memberId === id)) return fail(`member ${id} is listed twice`, `成员 ${id} 列出了两次`);
    const member: AssignmentMember = { memberId: id, topics: [] };
    for (const option of options) {
      const [key, value] = option.split('=');
      if (key === 'gen' && /^-?\d+$/.test(value ?? '')) member.generationId = Number(value);
      else if (key === 'instance' && value && NAME.test(value)) member.groupInstanceId = value;
      else if (key === 'rack' && value && NAME.test(value)) member.rackId = value;
      else return fail(`"${option}" is not gen=N, instance=ID or rack=R`, `“${option}” 不是 gen=N、instance=ID 或 rack=R`);
    }
    const [subscribed, owns] = line.slice(colon + 1).split('|');
    member.topics = list(subscribed);
    if (member.topics.length === 0) return fail(`member ${id} subscribes to nothing`, `成员 ${id} 没有订阅任何主题`);
    for (const topic of member.topics) if (!NAME.test(topic)) return fail(`"${topic}" is not a topic name`, `“${topic}” 不是主题名`);
    if (owns !== undefined) {
      const items = list(owns);
      if (items[0] !== 'owns')
        return fail('after "|" comes "owns" and the partitions, as orders-0', '“|” 之后应是 “owns” 和分区，例如 orders-0');
      const owned = new Map<string, number[]>();
      for (const item of items.slice(1)) {
        const tp = partitionOf(item);
        if (!tp) return fail(`"${item}" is not topic-partition`, `“${item}” 不是 主题-分区 的写法`);
        const list = owned.get(tp.topic);
        if (list) list.push(tp.partition);
        else owned.set(tp.topic, [tp.partition]);
      }
      member.ownedPartitions = [...owned].map(([topic, partitions]): TopicPartitions => ({ topic, partitions }));
    }
    input.members.push(member);
    lineOf.set(id, no);
  }
  if (!sawTopics)
    return {
      ok: false,
      line: 1,
      message: { en: 'a "topics: name=partitions, …" line is needed', zh: '需要一行 “topics: 主题名=分区数, …”' },
    };
  if (input.members.length === 0) return { ok: false, line: lines.length, message: { en: 'no member', zh: '还没有成员' } };
  return { ok: true, input, notes: notes(input, (id) => lineOf.get(id) ?? 0) };
}

/**
 * What Kafka accepts without complaint but a reader most likely did not mean, each said with the
 * line it is about: a subscription to a topic the topics line does not list (no metadata: nobody
 * is assigned its partitions), a claim on a partition that does not exist, and a partition two
 * members claim to own. One note per topic or partition, naming its members. (Not refusals:
 * Kafka's assignors take such a group, and the table shows what they do with it.)
 */
function notes(input: AssignmentInput, lineOf: (id: string) => number): Said[] {
  const out: Said[] = [];
  const at = (id: string): Said => ({ en: `line ${lineOf(id)}: `, zh: `第 ${lineOf(id)} 行：` });
  const said = (where: Said, what: Said): Said => ({ en: where.en + what.en, zh: where.zh + what.zh });
  const unlisted = new Map<string, string[]>();
  for (const m of input.members) {
    for (const topic of m.topics) {
      if (Object.hasOwn(input.topics, topic)) continue;
      const members = unlisted.get(topic);
      if (members) members.push(m.memberId);
      else unlisted.set(topic, [m.memberId]);
    }
  }
  for (const [topic, members] of unlisted) {
    out.push(
      said(at(members[0]), {
        en: `${topic} (subscribed by ${some(members, 'en')}) is not on the topics line: without its metadata nobody is assigned its partitions, as in Kafka`,
        zh: `${topic}（${some(members, 'zh')} 订阅了它）不在 topics 行里：没有它的元数据，谁也分不到它的分区，与 Kafka 相同`,
      }),
    );
  }
  for (const m of input.members) {
    for (const { topic, partitions } of m.ownedPartitions ?? []) {
      const count = Object.hasOwn(input.topics, topic) ? input.topics[topic] : undefined;
      const missing = partitions.filter((p) => count === undefined || p >= count).map((p) => `${topic}-${p}`);
      if (missing.length === 0) continue;
      out.push(
        said(
          at(m.memberId),
          count === undefined
            ? {
                en: `${m.memberId} owns ${some(missing, 'en')}, but ${topic} is not on the topics line`,
                zh: `${m.memberId} 拥有 ${some(missing, 'zh')}，但 ${topic} 不在 topics 行里`,
              }
            : {
                en: `${m.memberId} owns ${some(missing, 'en')}, which ${topic} does not have (it has ${count} partitions)`,
                zh: `${m.memberId} 拥有 ${some(missing, 'zh')}，但 ${topic} 只有 ${count} 个分区`,
              },
        ),
      );
    }
  }
  // Two owners of one partition (at most ten noted): the sticky assignors resolve the claims
  // by generation, and in the same generation neither keeps it.
  const owners = new Map<string, string[]>();
  for (const m of input.members) {
    for (const { topic, partitions } of m.ownedPartitions ?? []) {
      for (const p of new Set(partitions)) {
        const key = `${topic}-${p}`;
        const list = owners.get(key);
        if (list) list.push(m.memberId);
        else owners.set(key, [m.memberId]);
      }
    }
  }
  let twice = 0;
  for (const [tp, members] of owners) {
    if (members.length < 2 || twice++ >= 10) continue;
    out.push(
      said(at(members[1]), {
        en: `${tp} is owned by ${some(members, 'en')}: the sticky assignors give it to the claim of the highest generation, and when those are equal, to neither (then it is assigned afresh)`,
        zh: `${tp} 同时被 ${some(members, 'zh')} 拥有：粘性分配器把它留给代最高的声明；代相同时谁也不保留（重新分配）`,
      }),
    );
  }
  return out;
}

/** Names listed in a note: the first ten, then how many more (a note on 2,000 members names
 * ten). */
function some(names: string[], lang: Lang): string {
  const shown = names.slice(0, 10).join(lang === 'zh' ? '、' : ', ');
  const more = names.length - 10;
  if (more <= 0) return shown;
  return lang === 'zh' ? `${shown} 等另外 ${more} 个` : `${shown} and ${more} more`;
}

/** What a member keeps, gets and gives up: its owned partitions against its assignment. Each
 * list holds at most the `cap` first names; `counts` are of all of them. */
export interface Moves {
  kept: string[];
  added: string[];
  revoked: string[];
  counts: { kept: number; added: number; revoked: number };
}

/** By topic, the partitions as numbers: a million partitions compared as numbers, not as a
 * million names made first. */
function byTopic(tps: TopicPartitions[] | undefined): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const tp of tps ?? []) {
    const set = out.get(tp.topic) ?? new Set<number>();
    for (const p of tp.partitions) set.add(p);
    out.set(tp.topic, set);
  }
  return out;
}

export function moves(owned: TopicPartitions[] | undefined, assigned: TopicPartitions[], cap = Number.POSITIVE_INFINITY): Moves {
  const had = byTopic(owned);
  const gets = byTopic(assigned);
  const out: Moves = { kept: [], added: [], revoked: [], counts: { kept: 0, added: 0, revoked: 0 } };
  const note = (which: 'kept' | 'added' | 'revoked', topic: string, p: number) => {
    if (out.counts[which]++ < cap) out[which].push(`${topic}-${p}`);
  };
  for (const [topic, ps] of gets) {
    const before = had.get(topic);
    for (const p of ps) note(before?.has(p) ? 'kept' : 'added', topic, p);
  }
  for (const [topic, ps] of had) {
    const now = gets.get(topic);
    for (const p of ps) if (!now?.has(p)) note('revoked', topic, p);
  }
  return out;
}
