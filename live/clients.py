"""The real clients the cases drive, each behind the same adapter: kafka-python, confluent-kafka
(librdkafka, classic or consumer protocol) and KafkaJS (a Node process, `kafkajs-members.mjs`).
Each returns its client class, a describe function and whether it reports generations."""

import json
import os
import subprocess
import threading
import time

from harness import ASSIGNOR_FAILS, FAIL_ASSIGNMENT, GROUP, TOPIC, Member, check

def kafka_python_client(broker):
    from kafka import KafkaConsumer
    from kafka.admin import KafkaAdminClient
    from kafka.consumer.subscription_state import ConsumerRebalanceListener
    from kafka.coordinator.assignors.range import RangePartitionAssignor

    class FailingRange(RangePartitionAssignor):
        """Kafka's range assignor, which fails when asked, after a second, until the
        application has seen it fail: the leader then closes while the group waits in
        CompletingRebalance for its assignment.

        It keeps failing until then because kafka-python 3.0.12 can lose the failure: the join
        runs as a task that `poll(timeout_ms=100)` awaits for 100 ms at a time, and a task that
        fails between two polls is replaced by a fresh JoinGroup (`join_group_async` only
        checks `is_done`), its exception dropped. On a busy machine that happens; the fresh
        JoinGroup, in CompletingRebalance with the same metadata, is answered at once with the
        same generation, and the leader assigns (and fails) again."""

        @classmethod
        def assign(cls, cluster, members):
            if FAIL_ASSIGNMENT.is_set():
                time.sleep(1)
                raise RuntimeError(ASSIGNOR_FAILS)
            return super().assign(cluster, members)

    class KafkaPython(Member):
        def open(self):
            self.consumer = KafkaConsumer(**{
                "bootstrap_servers": broker.bootstrap, "group_id": GROUP,
                "client_id": self.name_, "enable_auto_commit": False,
                "auto_offset_reset": "earliest", "session_timeout_ms": 30000,
                "heartbeat_interval_ms": 500, "max_poll_interval_ms": 120000,
                "partition_assignment_strategy": [FailingRange], **self.options})
            member = self

            class Listener(ConsumerRebalanceListener):
                def on_partitions_revoked(self, revoked):
                    pass

                def on_partitions_assigned(self, assigned):
                    member.on_assigned(assigned)

            self.consumer.subscribe([TOPIC], listener=Listener())

        def poll(self):
            self.consumer.poll(timeout_ms=100)

        def shut(self):
            self.consumer.close()

        def member_id(self):
            return self.consumer._coordinator._generation.member_id

        def generation(self):
            return self.consumer._coordinator._generation.generation_id

    def assignment_of(a):
        # Decoded by the admin client (a ConsumerProtocolAssignment), as a dict or an object.
        if not a:
            return set()
        if isinstance(a, dict):
            return {(t["topic"], p) for t in a["assigned_partitions"] for p in t["partitions"]}
        return {(tp.topic, tp.partition) for tp in a.partitions()}

    def describe():
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="admin")
        try:
            g = admin.describe_groups([GROUP])[GROUP]
            check(g["error"] is None, f"DescribeGroups: {g['error']}")
            return {"state": g["group_state"],
                    "members": {m["member_id"]: assignment_of(m["member_assignment"])
                                for m in g["members"]}}
        finally:
            admin.close()

    return KafkaPython, describe, True


def confluent_client(broker, protocol="classic"):
    from confluent_kafka import Consumer
    from confluent_kafka.admin import AdminClient

    errors = []

    class Confluent(Member):
        def open(self):
            def on_error(e):
                errors.append(f"{self.name_}: {e}")
            config = {
                "bootstrap.servers": broker.bootstrap, "group.id": GROUP,
                "client.id": self.name_, "enable.auto.commit": False,
                "auto.offset.reset": "earliest", "max.poll.interval.ms": 120000,
                "error_cb": on_error}
            if protocol == "classic":
                config.update({"session.timeout.ms": 30000, "heartbeat.interval.ms": 500,
                               "partition.assignment.strategy": "range"})
            else:
                # The coordinator sets the session and the heartbeat interval (KIP-848).
                config["group.protocol"] = "consumer"
            self.consumer = Consumer(config)
            self.consumer.subscribe([TOPIC], on_assign=self.assign_callback,
                                    on_revoke=self.revoke_callback,
                                    on_lost=self.revoke_callback)
            self.id = None

        # The callbacks are incremental with the consumer protocol (and cooperative
        # assignors), whole with eager ones (everything revoked, then everything assigned):
        # adding and removing covers both.
        def assign_callback(self, consumer, partitions):
            # The binding serialises calls on a consumer: another thread asking for the member
            # id while this one polls would wait for the poll; the callback runs inside it.
            self.id = consumer.memberid()
            self.assigned = (self.assigned or set()) | {(p.topic, p.partition) for p in partitions}
            self.assignments += 1

        def revoke_callback(self, consumer, partitions):
            self.assigned = (self.assigned or set()) - {(p.topic, p.partition)
                                                        for p in partitions}

        def poll(self):
            self.consumer.poll(0.1)

        def shut(self):
            self.consumer.close()

        def member_id(self):
            return self.id

        def generation(self):
            return None  # librdkafka does not expose it

    def describe():
        admin = AdminClient({"bootstrap.servers": broker.bootstrap})
        g = admin.describe_consumer_groups([GROUP])[GROUP].result(timeout=20)
        state = str(g.state).split(".")[-1]
        return {
            "state": {"STABLE": "Stable", "EMPTY": "Empty", "PREPARING_REBALANCE":
                      "PreparingRebalance", "COMPLETING_REBALANCE": "CompletingRebalance",
                      "DEAD": "Dead", "ASSIGNING": "Assigning",
                      "RECONCILING": "Reconciling"}.get(state, state),
            "members": {m.member_id: {(tp.topic, tp.partition)
                                      for tp in (m.assignment.topic_partitions or [])}
                        for m in g.members},
        }

    Confluent.errors = errors
    return Confluent, describe, False


def kafkajs_client(broker):
    """KafkaJS consumers in one Node process (live/kafkajs-members.mjs), driven by line
    commands."""
    import queue

    node = subprocess.Popen(
        ["node", os.path.join(os.path.dirname(__file__), "kafkajs-members.mjs"),
         broker.bootstrap, TOPIC, GROUP],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    members, described, errors = {}, queue.Queue(), []

    def send(**command):
        node.stdin.write(json.dumps(command) + "\n")
        node.stdin.flush()

    def read():
        for line in node.stdout:
            r = json.loads(line)
            if r["event"] == "error":
                errors.append(f"{r.get('name')}: {r['message']}")
            elif r["event"] == "described":
                described.put(r)
            elif r["event"] == "assigned":
                m = members[r["name"]]
                m.id = r["memberId"]
                m.on_assigned_pairs({(t, p) for t, p in r["partitions"]})
            elif r["event"] == "closed":
                members[r["name"]].closed.set()
            elif r["event"] == "blocked":
                members[r["name"]].blocked.set()

    threading.Thread(target=read, daemon=True).start()

    class KafkaJS:
        def __init__(self, name):
            self.name_ = name
            self.id = None
            self.assigned = None
            self.closed = threading.Event()
            self.blocked = threading.Event()
            members[name] = self

        def start(self):
            send(op="start", name=self.name_)

        def on_assigned_pairs(self, partitions):
            self.assigned = partitions

        def stop_polling(self):
            send(op="block", name=self.name_)
            check(self.blocked.wait(10), f"{self.name_}'s handler was not called to block")

        def close(self):
            send(op="close", name=self.name_)
            check(self.closed.wait(30), f"{self.name_} did not close")

        def member_id(self):
            return self.id

        def generation(self):
            return None  # KafkaJS does not report it

        stopping = False

    def describe():
        send(op="describe")
        r = described.get(timeout=20)
        return {"state": r["state"],
                "members": {m: {(t, p) for t, p in ps} for m, ps in r["members"].items()}}

    KafkaJS.errors = errors
    KafkaJS.node = node
    return KafkaJS, describe, False
