// Live mode: a real group-broker and real KafkaJS consumers followed by the console and the playground, fast feeds, bad addresses.
// `npx playwright test live` runs these alone.
import { readFileSync } from 'node:fs';
import { expectEq, longestTask, open, out, PG, pageNow, server, startBroker, test, watchLongTasks } from '../support.mjs';
import { feedServer } from '../ws-feed.mjs';

test('the console follows a live group-broker run: a real KafkaJS consumer joins and leaves', async ({ page }) => {
  await open(page);
  const { Kafka, logLevel } = await import('kafkajs');
  const broker = await startBroker();
  const kafka = new Kafka({ clientId: 'kafkajs-demo', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: 'live-demo', heartbeatInterval: 500 });
  try {
    await page.goto(`${server.url}?mode=console&live=${encodeURIComponent(broker.live)}`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.waitForSelector('#live-status:has-text("Following group-broker")');
    expectEq(await page.isVisible('#send'), false, 'the composer gives way while following');
    await consumer.connect();
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true });
    await consumer.run({ eachMessage: async () => {} });
    // The page's own model, fed the broker's inputs, shows the group the consumer joined.
    await page.waitForFunction(() => document.querySelector('#group-state')?.getAttribute('data-state') === 'Stable', null, {
      timeout: 15000,
    });
    expectEq((await page.textContent('#group')).includes('kafkajs-demo'), true, 'the member, by its client id');
    // Its assignment, decoded by the model's codec from the bytes KafkaJS's leader sent.
    await page.waitForSelector('#members td:has-text("orders 0,1,2,3")');
    await page.screenshot({ path: new URL('console-live.png', out).pathname, fullPage: true });
    await consumer.disconnect();
    await page.waitForFunction(() => document.querySelector('#group-state')?.getAttribute('data-state') === 'Empty', null, {
      timeout: 15000,
    });
    await page.waitForSelector('#log .exchange:has-text("LeaveGroup")');
    const status = await page.textContent('#live-status');
    expectEq(/all (\d+) responses as the broker gave them/.test(status), true, `every response checked: ${status}`);
    expectEq(Number(status.match(/all (\d+) responses/)[1]) > 5, true, 'and there were some');
    // Stop following: the console is the user's again.
    await page.click('#stop-live');
    expectEq(await page.isVisible('#send'), true, 'the composer is back');
  } finally {
    await consumer.disconnect().catch(() => {});
    broker.proc.kill();
  }
});

test('the playground follows a live group-broker run in every view: two real KafkaJS consumers join, one leaves', async ({ page }) => {
  await open(page, PG);
  const { Kafka, logLevel } = await import('kafkajs');
  const broker = await startBroker();
  const kafka = (clientId) => new Kafka({ clientId, brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const first = kafka('kjs-a').consumer({ groupId: 'live-demo', heartbeatInterval: 500 });
  const second = kafka('kjs-b').consumer({ groupId: 'live-demo', heartbeatInterval: 500 });
  const start = async (c) => {
    await c.connect();
    await c.subscribe({ topics: ['orders'], fromBeginning: true });
    await c.run({ eachMessage: async () => {} });
  };
  const stable = () => page.waitForSelector('#group-state[data-state="Stable"]', { timeout: 20000 });
  /** The partitions each lane holds now, from the assignment table's current column. */
  const held = () =>
    page
      .locator('#assignment-table td.now-col')
      .evaluateAll((tds) => Object.fromEntries(tds.map((td) => [td.dataset.consumer, td.textContent.replaceAll('\u200b', '').trim()])));
  try {
    await page.goto(`${server.url}?lang=en&live=${encodeURIComponent(broker.live)}`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.waitForSelector('#pg-live-status:has-text("Following group-broker")');
    expectEq((await page.textContent('#scenario-title')).trim(), 'A live group, served by group-broker', 'the live run is loaded');
    await start(first);
    await stable();
    await page.waitForFunction(() => document.querySelector('#sm-members')?.textContent.includes('kjs-a'));
    expectEq(
      Object.keys(await held()).some((lane) => lane.startsWith('kjs-a')),
      true,
      'a lane for the first client',
    );
    await start(second);
    // Two members in a new generation: the state machine, the table and the steps show it.
    await page.waitForFunction(
      () =>
        document.querySelector('#sm-members')?.textContent.includes('kjs-b') &&
        document.querySelector('#group-state')?.dataset.state === 'Stable',
      null,
      { timeout: 20000 },
    );
    await page.waitForFunction(
      () => [...document.querySelectorAll('#assignment-table td.now-col')].filter((td) => /orders/.test(td.textContent)).length === 2,
      null,
      { timeout: 10000 },
    );
    const table = await held();
    const lanes = Object.keys(table).filter((lane) => /orders/.test(table[lane]));
    expectEq(lanes.length, 2, `both clients hold partitions: ${JSON.stringify(table)}`);
    expectEq((await page.textContent('#step-table')).includes('SyncGroup'), true, 'the step table lists the exchanges');
    await page.screenshot({ path: new URL('playground-live.png', out).pathname, fullPage: true });
    // What if this group restarts now? The live group, in the Your group panel.
    await page.click('#pg-live-what-if');
    await page.waitForSelector('#yg-facts');
    const facts = await page.textContent('#yg-facts');
    expectEq(facts.includes('Members2') && facts.includes('orders') && facts.includes('group-broker'), true, facts);
    // Looking back while the group moves on: the user stays where they are.
    await page.click('#restart');
    const before = await page.textContent('#step-no');
    await second.disconnect();
    await page.waitForFunction(() =>
      /responses as the broker gave them/.test(document.querySelector('#pg-live-status')?.textContent ?? ''),
    );
    await page.waitForTimeout(1500);
    expectEq(await page.textContent('#step-no'), before, 'the scrubbed-back step is kept while lines arrive');
    // Forward to the live edge: the first client holds everything again.
    await page.evaluate(() => window.playgroundTest.goto(1e9));
    await stable();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#assignment-table td.now-col')].some((td) =>
          td.textContent.replaceAll('\u200b', '').includes('orders-0..3'),
        ),
      null,
      { timeout: 10000 },
    );
    const status = await page.textContent('#pg-live-status');
    expectEq(Number(status.match(/all (\d+) responses/)?.[1] ?? 0) > 8, true, `every response checked: ${status}`);
    // Acting on a real client's lane is not offered; sharing says why there is no link.
    expectEq(await page.locator('td.actions button[data-action="crash"]:visible').count(), 0, 'no crash buttons');
    await page.click('#share');
    await page.waitForSelector('#pg-message:has-text("A live run has no share link")');
    await page.click('#pg-stop-live');
    await page.waitForSelector('#pg-live-status:has-text("The feed closed")');
  } finally {
    await first.disconnect().catch(() => {});
    await second.disconnect().catch(() => {});
    broker.proc.kill();
  }
});

test('the playground opens a group-broker trace file and follows it to its end', async ({ page }) => {
  await open(page, PG);
  const trace = readFileSync(new URL('../../web/test/fixtures/broker-trace.jsonl', import.meta.url));
  await page.setInputFiles('#import', { name: 'broker-trace.jsonl', mimeType: 'application/x-ndjson', buffer: trace });
  await page.waitForSelector('#pg-live-status:has-text("all 24 responses as the broker gave them")');
  expectEq(await page.textContent('#pg-live-status').then((s) => s.includes('The feed closed')), true, 'a file has ended');
  expectEq(await page.getAttribute('#group-state', 'data-state'), 'Empty', 'the last member left');
  await page.click('#restart');
  await page.evaluate(() => window.playgroundTest.goto(1e9));
  expectEq(await page.getAttribute('#group-state', 'data-state'), 'Empty', 'scrubbing the ended run');
  // A tampered trace stops where it differs, and says so.
  const tampered = String(trace).replace('"errorCode":79', '"errorCode":0');
  await page.setInputFiles('#import', { name: 'tampered.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(tampered) });
  await page.waitForSelector('#pg-live-status.error:has-text("Diverged at line 8")');
});

test('a fast live feed (4,000 lines a second, several a message) is followed in the playground and the console with no long task, every response checked', async ({
  page,
}) => {
  await open(page, PG);
  // A broker's trace: its header, then one client's heartbeats, each answered, ten lines a
  // message (a message holding several lines once threw in the console).
  const lines = ['{"broker":{"config":{},"seed":0,"settings":[],"topics":[["orders",4]]}}'];
  for (let i = 1; i <= 10_000; i++) {
    lines.push(
      `{"at":${1000 + i},"from":"c 1","request":{"api":"Heartbeat","apiVersion":4,"clientId":"c","correlationId":${i},"groupId":"g","generationId":1,"memberId":"m","groupInstanceId":null}}`,
      `{"at":${1000 + i},"response":{"api":"Heartbeat","apiVersion":4,"correlationId":${i},"errorCode":25,"throttleTimeMs":0}}`,
    );
  }
  const messages = [];
  for (let i = 0; i < lines.length; i += 10) messages.push(lines.slice(i, i + 10).join('\n'));
  await watchLongTasks(page, { onLoad: true });
  for (const [mode, status] of [
    ['', '#pg-live-status'],
    ['mode=console&', '#live-status'],
  ]) {
    const feed = await feedServer(messages, 40, 10);
    try {
      await page.goto(`${server.url}?${mode}lang=en&live=${encodeURIComponent(feed.url)}`);
      await page.waitForSelector('body[data-wasm="ready"]');
      const from = await pageNow(page);
      await page.waitForSelector(`${status}:has-text("all 10000 responses as the broker gave them")`, { timeout: 60000 });
      await page.waitForSelector(`${status}:has-text("The feed closed.")`, { timeout: 15000 });
      const { ms: longest } = await longestTask(page, from);
      console.log(`  measure: ${mode || 'playground '}following 20,001 lines: the longest task ${longest.toFixed(0)} ms`);
      if (longest >= 200) throw new Error(`${mode}a task of ${longest.toFixed(0)} ms while following`);
    } finally {
      feed.close();
    }
  }
});

test('the playground refuses a live address that is not a WebSocket, and keeps its scenario', async ({ page }) => {
  await open(page, PG);
  await page.goto(`${server.url}?lang=en&live=${encodeURIComponent('http://example.invalid/')}`);
  await page.waitForSelector('body[data-wasm="ready"]');
  await page.waitForSelector('#pg-message:has-text("must be a ws:// or wss:// address")');
  expectEq(await page.isVisible('#pg-live'), false, 'no live bar');
  await page.click('#step');
  expectEq((await page.textContent('#step-no')).includes('1'), true, 'the default scenario steps');
});
