"""The live tests' harness: a group-broker process on its own port (`Broker`), its trace read
as it grows (`Trace`), a client member run on its own thread (`Member`), and the checks' one
failure type. The client adapters are in `clients.py`, the cases in `cases.py`."""

import json
import logging
import os
import socket
import subprocess
import tempfile
import threading
import time


BROKER = os.environ.get("GROUP_BROKER", "target/debug/group-broker")
TOPIC, PARTITIONS, GROUP = "orders", 6, "g"
ALL = {(TOPIC, p) for p in range(PARTITIONS)}
STEP_TIMEOUT = 40.0



class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---- the broker and its trace --------------------------------------------------------------


class Broker:
    def __init__(self, *settings, records=100, topics=()):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.dir = tempfile.mkdtemp(prefix="group-broker-")
        self.trace_path = os.path.join(self.dir, "trace.jsonl")
        args = [BROKER, "--listen", f"127.0.0.1:{self.port}", "--topic", f"{TOPIC}:{PARTITIONS}",
                "--trace", self.trace_path, "--records", str(records)]
        for name, partitions in topics:
            args += ["--topic", f"{name}:{partitions}"]
        for s in settings:
            args += ["--set", s]
        self.log = open(os.path.join(self.dir, "broker.log"), "w")
        # Its standard input takes the operator's commands (`command`).
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.PIPE)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise Failure("the broker did not start")

    @property
    def bootstrap(self):
        return f"127.0.0.1:{self.port}"

    def command(self, line):
        """An operator's command on the broker's input (`failover GROUP MS`, ...)."""
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def trace(self):
        with open(self.trace_path) as f:
            text = f.read()
        # The broker may be in the middle of writing a line (a long one goes out in more than
        # one write): only the lines that end count.
        return Trace([json.loads(line) for line in text.split("\n")[:-1] if line.strip()])

    def wait(self, what, predicate, timeout=STEP_TIMEOUT):
        deadline = time.time() + timeout
        while time.time() < deadline:
            t = self.trace()
            if predicate(t):
                return t
            time.sleep(0.05)
        raise Failure(f"timed out waiting for {what}; the group is {self.trace().summary()}")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()
        with open(os.path.join(self.dir, "broker.log")) as f:
            return f.read()


class Trace:
    """The model's view of the group, read off the trace."""

    def __init__(self, lines):
        self.lines = lines
        self.state = "Empty"
        self.generation = 0
        self.members = set()
        self.leader = None
        self.transitions = []  # (line index, from, to, cause kind)
        # The consumer group protocol's group (KIP-848).
        self.group_epoch = 0
        self.consumer_members = {}  # member id -> (member epoch, state)
        for i, line in enumerate(lines):
            e = line.get("event")
            if not e or e.get("groupId") != GROUP:
                continue
            kind = e["type"]
            if kind == "ConsumerGroupStateChanged":
                self.state = e["to"]
            elif kind == "GroupEpochBumped":
                self.group_epoch = e["groupEpoch"]
            elif kind == "ConsumerMemberUpdated":
                self.consumer_members[e["memberId"]] = (e["memberEpoch"], e["state"])
            elif kind == "ConsumerMemberRemoved":
                self.consumer_members.pop(e["memberId"], None)
            if kind == "StateChanged":
                self.state = e["to"]
                self.transitions.append((i, e["from"], e["to"], e["cause"]["kind"]))
            elif kind == "GenerationBumped":
                self.generation = e["generationId"]
            elif kind == "MemberAdded":
                self.members.add(e["memberId"])
            elif kind == "MemberRemoved":
                self.members.discard(e["memberId"])
            elif kind == "MemberReplaced":
                self.members.discard(e["oldMemberId"])
                self.members.add(e["newMemberId"])
            elif kind == "LeaderChanged":
                self.leader = e["to"]

    def summary(self):
        return f"{self.state} at generation {self.generation} with {len(self.members)} members"

    def requests(self, api):
        return [(i, l) for i, l in enumerate(self.lines)
                if "request" in l and l["request"]["api"] == api]

    def responses(self, api):
        return [(i, l) for i, l in enumerate(self.lines)
                if "response" in l and l["response"]["api"] == api]

    def state_before(self, index):
        state = "Empty"
        for i, _, to, _ in self.transitions:
            if i < index:
                state = to
        return state

    def transitions_after(self, index):
        return [(i, f, to, cause) for i, f, to, cause in self.transitions if i > index]

    def parked(self, api):
        """Requests of `api` parked and not yet answered."""
        parked = {l["event"]["correlationId"] for l in self.lines
                  if l.get("event", {}).get("type") == "ResponseParked"
                  and l["event"]["api"] == api}
        answered = {l["response"]["correlationId"] for l in self.lines if "response" in l}
        return parked - answered


# ---- clients -------------------------------------------------------------------------------


class Member(threading.Thread):
    """A consumer polled on its own thread (clients are not thread-safe), which can stop
    polling, and closes on that same thread."""

    def __init__(self, name, **options):
        super().__init__(daemon=True, name=name)
        self.name_ = name
        self.options = options  # client settings over the harness's
        self.polling = True
        self.stopping = False
        self.assigned = None  # the last assignment its rebalance callback reported
        self.assignments = 0
        self.error = None

    def run(self):
        try:
            self.open()
            while not self.stopping:
                if self.polling:
                    try:
                        self.poll()
                    except Exception as e:
                        # The leader's assignor failing on purpose: the application closes.
                        if ASSIGNOR_FAILS not in str(e):
                            raise
                        FAIL_ASSIGNMENT.clear()
                        break
                else:
                    time.sleep(0.05)
            self.shut()
        except Exception as e:  # reported by the test, not lost in a thread
            self.error = e

    def stop_polling(self):
        self.polling = False

    def on_assigned(self, partitions):
        self.assigned = {(tp.topic, tp.partition) for tp in partitions}
        self.assignments += 1

    def close(self):
        self.stopping = True
        self.join(timeout=30)
        check(not self.is_alive(), f"{self.name_} did not close")
        check(self.error is None, f"{self.name_} failed: {self.error!r}")


class ErrorLog(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


FAIL_ASSIGNMENT = threading.Event()
ASSIGNOR_FAILS = "the assignor fails on purpose"


def errors_of(Client):
    return getattr(Client, "errors", [])
