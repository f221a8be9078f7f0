// The compact form of an assignor's JSON input, as a caller with a large group would hold it
// (`assignCompact`, `serverAssignCompact`): names once, Int32Arrays for the rest, topics in the
// order `i.topics` lists them. Shared by the client and the server assignors' benchmarks.

/** `topicsOf(m)`: a member's subscribed names; `heldOf(m)`: its held `{ topic, partitions }`
 * list (claims, or the previous target); `generationOf(m)`, when given, its generation. */
export function compactOf(i, topicsOf, heldOf, generationOf) {
  const topics = Object.keys(i.topics);
  const index = new Map(topics.map((t, k) => [t, k]));
  const subscriptions = [];
  const owned = [];
  for (const m of i.members) {
    const subscribed = topicsOf(m);
    subscriptions.push(subscribed.length);
    for (const t of subscribed) subscriptions.push(index.get(t));
    const held = heldOf(m) ?? [];
    owned.push(held.reduce((n, tp) => n + tp.partitions.length, 0));
    for (const tp of held) for (const p of tp.partitions) owned.push(index.get(tp.topic), p);
  }
  const c = {
    topics,
    partitions: Int32Array.from(topics.map((t) => i.topics[t])),
    members: i.members.map((m) => m.memberId),
    subscriptions: Int32Array.from(subscriptions),
    owned: Int32Array.from(owned),
  };
  if (generationOf) c.generations = Int32Array.from(i.members.map(generationOf));
  return c;
}
