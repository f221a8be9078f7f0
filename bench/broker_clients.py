"""Requests per second through group-broker with 100 kafka-python consumers in one group on
loopback (a benchmark, not a test): the consumers join, the group settles, then for ten seconds
they heartbeat (every 100 ms), fetch and poll; the figure is the model's requests per second
read off the trace, with the front end's own Fetch, Metadata and ListOffsets answered beside
them (counted by the clients' own metrics where they have them).

    python bench/broker_clients.py target/release/group-broker
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from kafka import KafkaConsumer

CONSUMERS, WINDOW = 100, 10.0


def main(broker_bin):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    trace = os.path.join(tempfile.mkdtemp(prefix="broker-bench-"), "trace.jsonl")
    broker = subprocess.Popen([broker_bin, "--listen", f"127.0.0.1:{port}", "--topic",
                               f"orders:{CONSUMERS}", "--records", "1000", "--trace", trace],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    stop = threading.Event()
    consumers = []

    def consume(i):
        c = KafkaConsumer("orders", bootstrap_servers=f"127.0.0.1:{port}", group_id="bench",
                          client_id=f"c{i}", heartbeat_interval_ms=100,
                          session_timeout_ms=30000, max_poll_interval_ms=300000,
                          auto_offset_reset="earliest", enable_auto_commit=True,
                          auto_commit_interval_ms=1000)
        consumers.append(c)
        while not stop.is_set():
            c.poll(timeout_ms=100)
        c.close()

    threads = [threading.Thread(target=consume, args=(i,), daemon=True)
               for i in range(CONSUMERS)]
    t0 = time.time()
    for t in threads:
        t.start()

    def lines():
        with open(trace) as f:
            return [json.loads(l) for l in f if l.strip()]

    def stable():
        members, state = set(), None
        for l in lines():
            e = l.get("event", {})
            if e.get("type") == "MemberAdded":
                members.add(e["memberId"])
            elif e.get("type") == "MemberRemoved":
                members.discard(e["memberId"])
            elif e.get("type") == "StateChanged":
                state = e["to"]
        return state == "Stable" and len(members) == CONSUMERS

    while not stable():
        if time.time() - t0 > 180:
            sys.exit("the group did not settle in 3 minutes")
        time.sleep(0.5)
    settled = time.time() - t0
    time.sleep(2)  # past the first commits and fetches
    before = lines()
    start_at = max(l["at"] for l in before if "at" in l)
    time.sleep(WINDOW)
    after = lines()
    window = [l for l in after if "request" in l and l["at"] > start_at]
    span = (max(l["at"] for l in window) - start_at) / 1000
    by_api = {}
    for l in window:
        by_api[l["request"]["api"]] = by_api.get(l["request"]["api"], 0) + 1
    stop.set()
    for t in threads:
        t.join(timeout=30)
    broker.terminate()
    print(f"BENCH broker kafka_python_consumers {CONSUMERS} settled_in_s {settled:.1f}")
    print(f"BENCH broker kafka_python_model_requests_per_second {len(window) / span:.0f} "
          + " ".join(f"{api}={n / span:.0f}" for api, n in sorted(by_api.items())))
    replay = subprocess.run([broker_bin, "replay", trace], capture_output=True, text=True)
    print(f"BENCH broker replay {replay.stdout.strip() or replay.stderr.strip()}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/release/group-broker")
