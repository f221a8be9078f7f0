"""kafka-python's assignors timed on the benchmark grid's inputs (members <= 1,000; its sticky
assignor takes seconds to minutes beyond that), each cell bounded by a time limit.
Usage: PYTHONHASHSEED=0 python compare/kafka_python_bench.py PEER_IO_BINARY [filter...]
Prints `BENCH key,ms` (or `BENCH key,timeout>LIMIT`) lines."""
import json
import signal
import subprocess
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from kafka_python import (  # noqa: E402  (the comparison module's peer adapters)
    Cluster, CooperativeStickyAssignor, Member, RangePartitionAssignor, RoundRobinPartitionAssignor,
    StickyPartitionAssignor, TimedOut, peer_sticky)

LIMIT = 20.0


def bench_input(members, topics, subs, per_topic):
    names = [f"topic-{t}" for t in range(topics)]
    bucket = -(-topics // 5)
    return {"topics": {n: per_topic for n in names},
            "members": [{"memberId": f"member-{m:05d}",
                         "topics": names if subs == "homogeneous" else names[(m % 5) * bucket:(m % 5 + 1) * bucket]}
                        for m in range(members)]}


def main():
    binary = sys.argv[1]
    filters = sys.argv[2:]
    for members in (100, 1000):
        for topics in (10, 100, 1000):
            for subs in ("homogeneous", "heterogeneous"):
                for mode in ("fresh", "join"):
                    for strategy, cls in (("range", RangePartitionAssignor), ("roundrobin", RoundRobinPartitionAssignor),
                                          ("sticky", StickyPartitionAssignor), ("cooperative-sticky", CooperativeStickyAssignor)):
                        key = f"{strategy},{members},{topics},{subs},{mode}"
                        if filters and not any(f in key for f in filters):
                            continue
                        per_topic = max(1, members * 10 // topics)
                        if mode == "fresh":
                            case = bench_input(members, topics, subs, per_topic)
                            for m in case["members"]:
                                m.update({"ownedPartitions": [], "generationId": None})
                        else:
                            case = bench_input(members - 1, topics, subs, per_topic)
                            base = "sticky" if strategy == "cooperative-sticky" else strategy
                            out = subprocess.run([binary], input=json.dumps({"op": "assign", "strategy": base, "input": case}) + "\n",
                                                 capture_output=True, text=True, check=True)
                            owned = json.loads(out.stdout)["ok"]
                            for m in case["members"]:
                                m.update({"ownedPartitions": owned[m["memberId"]], "generationId": 1})
                            case["members"].append({"memberId": "member-new", "topics": case["members"][-1]["topics"],
                                                    "ownedPartitions": [], "generationId": None})
                        if strategy in ("sticky", "cooperative-sticky"):
                            run = lambda: peer_sticky(cls, case, LIMIT)
                        else:
                            def run():
                                def alarm(*_):
                                    raise TimedOut()
                                signal.signal(signal.SIGALRM, alarm)
                                signal.setitimer(signal.ITIMER_REAL, LIMIT)
                                try:
                                    cls.assign(Cluster(case["topics"]), [Member(m) for m in case["members"]])
                                finally:
                                    signal.setitimer(signal.ITIMER_REAL, 0)
                        try:
                            t = time.perf_counter()
                            run()
                            ms = (time.perf_counter() - t) * 1e3
                            print(f"BENCH {key},{ms:.4f}", flush=True)
                        except TimedOut:
                            print(f"BENCH {key},timeout>{LIMIT:.0f}s", flush=True)


if __name__ == "__main__":
    main()
