// KafkaJS consumers for live/cases.py: the Python harness drives them through this process, one
// JSON command per line on stdin, and reads one JSON report per line on stdout, so that the three
// clients go through the same cases with the same checks.
//
//   {"op":"start","name":"a"}     a consumer joins the group (its reports: "assigned", "error")
//   {"op":"block","name":"a"}     its message handler stops returning (it stops polling);
//                                 reports "blocked" once it has
//   {"op":"close","name":"a"}     it leaves (a blocked handler is released); reports "closed"
//   {"op":"describe"}             the admin client's DescribeGroups; reports "described"
import { createInterface } from 'node:readline';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';

const [broker, topic, group] = process.argv.slice(2);
const report = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

// Errors any KafkaJS part logs are reported (the harness fails the run on them).
const logCreator =
  () =>
  ({ namespace, level, log }) => {
    if (level === logLevel.ERROR) {
      report({ event: 'error', message: `${namespace}: ${log.message}: ${log.error ?? ''}` });
    }
  };
const kafka = (clientId) => new Kafka({ clientId, brokers: [broker], logLevel: logLevel.ERROR, logCreator, retry: { retries: 3 } });

const members = new Map();

async function start(name) {
  const consumer = kafka(name).consumer({
    groupId: group,
    sessionTimeout: 30000,
    rebalanceTimeout: 60000,
    heartbeatInterval: 500,
    maxWaitTimeInMs: 200,
  });
  const member = { consumer, blocked: false, release: null };
  members.set(name, member);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const partitions = Object.entries(payload.memberAssignment).flatMap(([t, ps]) => ps.map((p) => [t, p]));
    report({ name, event: 'assigned', memberId: payload.memberId, partitions });
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async () => {
      if (member.blocked) {
        // A handler that does not return: no heartbeat, no rejoin, until released.
        report({ name, event: 'blocked' });
        await new Promise((resolve) => {
          member.release = resolve;
        });
      }
    },
  });
}

async function close(name) {
  const member = members.get(name);
  // Stop the runner first, then release the handler: released first, the runner would see the
  // rebalance and rejoin before it left.
  const disconnected = member.consumer.disconnect();
  member.blocked = false;
  setTimeout(() => member.release?.(), 100);
  await disconnected;
  report({ name, event: 'closed' });
}

async function describe() {
  const admin = kafka('admin').admin();
  await admin.connect();
  try {
    const {
      groups: [g],
    } = await admin.describeGroups([group]);
    const assigned = {};
    for (const m of g.members) {
      const a = m.memberAssignment.length > 0 ? AssignerProtocol.MemberAssignment.decode(m.memberAssignment) : null;
      assigned[m.memberId] = a ? Object.entries(a.assignment).flatMap(([t, ps]) => ps.map((p) => [t, p])) : [];
    }
    report({ event: 'described', state: g.state, members: assigned });
  } finally {
    await admin.disconnect();
  }
}

const ops = {
  start: ({ name }) => start(name),
  block: ({ name }) => {
    members.get(name).blocked = true;
  },
  close: ({ name }) => close(name),
  describe: () => describe(),
};

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  // Commands run concurrently (a close must not wait for another member's join).
  Promise.resolve(ops[command.op](command)).catch((e) =>
    report({ name: command.name, event: 'error', message: `${command.op}: ${e.message}` }),
  );
}
