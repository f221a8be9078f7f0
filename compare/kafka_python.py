"""Side by side with kafka-python 3.0.12 (the peer's own code, from PyPI): on random inputs,
range and roundrobin results must be identical, and the consumer-protocol codecs must produce
the same bytes both ways.

Usage: python compare/kafka_python.py PATH_TO_PEER_IO_BINARY [N]
Prints one summary line per comparison and exits non-zero on any difference.

Known faults of kafka-python 3.0.12 worked around here (not copied into our code):
- roundrobin: its skip loop rebinds `member_id` to a (group_instance_id, member_id) tuple and
  then fails with KeyError whenever subscriptions differ. We hand its cycle objects that are
  the member id and also unpack as that tuple (MemberRef), so its own loop runs unchanged.
- range/roundrobin: itertools.groupby on the unsorted member list loses members when static and
  dynamic members are interleaved. We pass members static-first, as Kafka's order has them.
"""
import base64
import itertools
import json
import random
import subprocess
import sys

from kafka.coordinator.assignors import roundrobin as rr_module
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment as A
from kafka.protocol.consumer.metadata import ConsumerProtocolSubscription as S


class MemberRef(str):
    """A member id that also unpacks as (group_instance_id, member_id)."""

    def __new__(cls, pair):
        ref = super().__new__(cls, pair[1])
        ref.pair = pair
        return ref

    def __iter__(self):
        return iter(self.pair)


class _Itertools:
    groupby = staticmethod(itertools.groupby)

    @staticmethod
    def cycle(pairs):
        return itertools.cycle([MemberRef(p) for p in pairs])


rr_module.itertools = _Itertools


class Cluster:
    def __init__(self, topics):
        self.topics = topics

    def partitions_for_topic(self, topic):
        n = self.topics.get(topic)
        return None if n is None else set(range(n))


class Member:
    def __init__(self, m):
        self.member_id = m["memberId"]
        self.group_instance_id = m.get("groupInstanceId")
        self.metadata = S(version=0, topics=list(m["topics"]), user_data=b"")


def random_input(rng):
    topics = {f"t{i}": rng.randint(0, 12) for i in range(rng.randint(1, 8))}
    names = list(topics) + ["no-metadata"]
    members = []
    for i in range(rng.randint(1, 12)):
        static = rng.random() < 0.3
        members.append({
            "memberId": f"consumer-{rng.randint(0, 999):03d}-{i}",
            "groupInstanceId": f"instance-{rng.randint(0, 99):02d}-{i}" if static else None,
            "topics": sorted(rng.sample(names, rng.randint(1, len(names)))) if rng.random() < 0.6 else list(names),
        })
    # kafka-python's groupby needs static members first (see the module docstring).
    members.sort(key=lambda m: m["groupInstanceId"] is None)
    return {"topics": topics, "members": members}


def peer(assignor, case):
    result = assignor.assign(Cluster(case["topics"]), [Member(m) for m in case["members"]])
    return {mid: [[t, sorted(ps)] for t, ps in sorted(a.assigned_partitions) if ps] for mid, a in result.items()}


def ours_normalised(out):
    return {mid: [[tp["topic"], tp["partitions"]] for tp in lst] for mid, lst in out.items()}


def random_subscription(rng):
    version = rng.randint(0, 3)
    return S(
        version=version,
        topics=[f"topic-{rng.randint(0, 50)}" for _ in range(rng.randint(0, 5))],
        user_data=rng.choice([None, b"", bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 9)))]),
        owned_partitions=[S.TopicPartition(topic=f"t{i}", partitions=[rng.randint(0, 99) for _ in range(rng.randint(0, 4))]) for i in range(rng.randint(0, 3))] if version >= 1 else [],
        generation_id=rng.randint(-1, 1000) if version >= 2 else -1,
        rack_id=rng.choice([None, "", "rack-a", "机架"]) if version >= 3 else None,
    )


def random_assignment(rng):
    return A(
        version=rng.randint(0, 3),
        assigned_partitions=[A.TopicPartition(topic=f"t{i}", partitions=[rng.randint(0, 99) for _ in range(rng.randint(0, 4))]) for i in range(rng.randint(0, 4))],
        user_data=rng.choice([None, b"", b"\x00\x00\x00\x05"]),
    )


def sub_json(s):
    return {"version": s.version, "topics": s.topics,
            "userData": None if s.user_data is None else base64.b64encode(s.user_data).decode(),
            "ownedPartitions": [{"topic": tp.topic, "partitions": tp.partitions} for tp in s.owned_partitions],
            "generationId": s.generation_id, "rackId": s.rack_id}


def asg_json(a):
    return {"version": a.version,
            "assignedPartitions": [{"topic": tp.topic, "partitions": tp.partitions} for tp in a.assigned_partitions],
            "userData": None if a.user_data is None else base64.b64encode(a.user_data).decode()}


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = random.Random(20261129)
    requests, expected = [], []
    cases = [random_input(rng) for _ in range(n)]
    for strategy, assignor in (("range", RangePartitionAssignor), ("roundrobin", RoundRobinPartitionAssignor)):
        for case in cases:
            requests.append({"op": "assign", "strategy": strategy, "input": case})
            expected.append(("assign", strategy, peer(assignor, case)))
    subs = [random_subscription(rng) for _ in range(n)]
    asgs = [random_assignment(rng) for _ in range(n)]
    for s in subs:
        raw = s.encode(version=s.version)
        requests.append({"op": "decodeSubscription", "bytes": base64.b64encode(raw).decode()})
        expected.append(("decodeSubscription", s, raw))
        requests.append({"op": "encodeSubscription", "value": sub_json(s)})
        expected.append(("encodeSubscription", s, raw))
    for a in asgs:
        raw = a.encode(version=a.version)
        requests.append({"op": "decodeAssignment", "bytes": base64.b64encode(raw).decode()})
        expected.append(("decodeAssignment", a, raw))
        requests.append({"op": "encodeAssignment", "value": asg_json(a)})
        expected.append(("encodeAssignment", a, raw))

    proc = subprocess.run([binary], input="\n".join(json.dumps(r) for r in requests) + "\n",
                          capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(requests), (len(answers), len(requests))
    counts, failures = {}, []
    for req, exp, ans in zip(requests, expected, answers):
        kind = exp[0] if exp[0] != "assign" else f"assign {exp[1]}"
        counts[kind] = counts.get(kind, 0) + 1
        if "error" in ans:
            failures.append((kind, req, ans["error"]))
            continue
        if exp[0] == "assign":
            ours = {k: v for k, v in ours_normalised(ans["ok"]).items()}
            theirs = {k: v for k, v in exp[2].items()}
            for mid in ours:
                theirs.setdefault(mid, [])
            if ours != theirs:
                failures.append((kind, req, {"ours": ours, "kafka-python": theirs}))
        elif exp[0].startswith("decode"):
            if base64.b64decode(ans["reencoded"]) != exp[2]:
                failures.append((kind, req, "our re-encoding differs from kafka-python's bytes"))
            decoded = ans["ok"]
            want = sub_json(exp[1]) if exp[0] == "decodeSubscription" else asg_json(exp[1])
            if decoded != want:
                failures.append((kind, req, {"ours": decoded, "kafka-python": want}))
        else:
            if base64.b64decode(ans["ok"]) != exp[2]:
                failures.append((kind, req, "our bytes differ from kafka-python's"))
            back = (S if exp[0] == "encodeSubscription" else A).decode(base64.b64decode(ans["ok"]))
            if back.to_dict() != exp[1].to_dict() if hasattr(back, "to_dict") else False:
                failures.append((kind, req, "kafka-python decodes our bytes differently"))
    for failure in failures[:5]:
        print("DIFFERENCE:", json.dumps(failure, default=str)[:2000])
    for kind, count in sorted(counts.items()):
        bad = sum(1 for f in failures if f[0] == kind)
        print(f"kafka-python comparison: {kind}: {count - bad} identical, {bad} different")
    total = sum(counts.values())
    print(f"kafka-python comparison: {total - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
