// End-to-end: the built page (the playground and the protocol console) in Debian's Chromium,
// driven as a user would.
// Prints "N passed, M failed" last and exits non-zero on failure. `node e2e/page.mjs <text>`
// runs only the tests whose names contain the text.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { feedServer } from './ws-feed.mjs';

const out = new URL('./out/', import.meta.url);
mkdirSync(out, { recursive: true });
const server = await serve(new URL('../web/dist/', import.meta.url).pathname);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
let passed = 0;
let failed = 0;

const only = process.argv[2];

/** Collects a page's console errors and warnings and its uncaught errors. */
function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

/** Opens a link (a share link, an exported file) in a new page, watched, once the page is
 * ready; `offline`: any request to a server is a problem too. */
async function openLink(url, { timeout = 5000, offline = false } = {}) {
  const page = await browser.newPage();
  const problems = watch(page);
  if (offline)
    page.on('request', (r) => {
      if (r.url().startsWith('http')) problems.push(`network request: ${r.url()}`);
    });
  await page.goto(url);
  await page.waitForSelector('body[data-wasm="ready"]', { timeout });
  return { page, problems };
}

async function test(name, body, query = '?mode=console') {
  if (only && !name.includes(only)) return;
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  page.setDefaultTimeout(5000);
  const problems = watch(page);
  try {
    await page.goto(server.url + query);
    if (!query.startsWith('example') && !query.startsWith('book/')) await page.waitForSelector('body[data-wasm="ready"]');
    await body(page);
    if (problems.length) throw new Error(problems.join('\n'));
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(
      `FAILED - ${name}\n  ${String(e.stack ?? e)
        .split('\n')
        .join('\n  ')}`,
    );
    await page.screenshot({ path: new URL(`failed-${name.replace(/\W+/g, '-')}.png`, out).pathname, fullPage: true });
  } finally {
    await page.close();
  }
}

function expectEq(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const state = (page) => page.locator('#group-state').getAttribute('data-state');

/** Records the page's long tasks (over 50 ms): on every page it loads from now on (`onLoad`, the
 * tasks of loading included), or on the page as it is, from now. */
async function watchLongTasks(page, { onLoad = false } = {}) {
  const install = (buffered) => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered });
  };
  if (onLoad) await page.addInitScript(install, true);
  else await page.evaluate(install, false);
}

/** The page's clock, for `longestTask`'s `since`. */
const pageNow = (page) => page.evaluate(() => performance.now());

/** The longest task recorded (`watchLongTasks`) that began at `since` or later, in ms, and how
 * many there were. */
const longestTask = (page, since = 0) =>
  page.evaluate((from) => {
    const ms = window.longTasks.filter((t) => t.start >= from).map((t) => t.ms);
    return { ms: Math.max(0, ...ms), count: ms.length };
  }, since);

/** An embed on a docs page: scrolled to (its frame loads lazily), then its page, once the module is ready. */
async function openEmbed(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const frame = page.frameLocator(`${selector} iframe`);
  await frame.locator('body[data-wasm="ready"]').waitFor({ timeout: 15000 });
  return frame;
}

await test('the console can be typed into: its time follows the clock, its group follows the request, timers read as durations, errors as sentences', async (page) => {
  await page.waitForSelector('text=No such group yet');
  // A request sent by hand after the clock has moved (its time was left at 0: refused as
  // "time went backwards").
  await page.selectOption('#api', 'JoinGroup');
  await page.click('#template');
  await page.click('#send');
  await page.click('#template');
  await page.click('#send');
  await page.click('#next-deadline');
  const now = Number((await page.textContent('#clock')).match(/\d+/)[0]);
  expectEq(now > 0, true, `the clock moved (${now} ms)`);
  const body = JSON.parse(await page.inputValue('#request'));
  body.groupId = 'payments-group';
  body.memberId = '';
  await page.fill('#request', JSON.stringify(body));
  await page.click('#send');
  await page.waitForSelector('#log .responses li:has-text("MEMBER_ID_REQUIRED")');
  expectEq(Number(await page.inputValue('#at')) >= now, true, 'the time field follows the clock');
  expectEq((await page.textContent('#message')).includes('backwards'), false, await page.textContent('#message'));
  // The group panel shows the group the request named.
  expectEq((await page.textContent('#group h2')).includes('payments-group'), true, await page.textContent('#group h2'));
  // Timers as durations from now, their ms on hover.
  const timer = await page.locator('#timers tbody td:nth-child(2)').first().textContent();
  expectEq(/^in \d/.test(timer) || timer === 'due now', true, `a timer reads ${timer}`);
  // An error is a sentence.
  await page.fill('#request', '{"api": "JoinGroup", "apiVersion": "nine"}');
  await page.click('#send');
  const said = await page.textContent('#message');
  expectEq(/^[A-Za-z]*Error:/.test(said), false, `no error class name: ${said}`);
});

await test('a JoinGroup composed in the console gets MEMBER_ID_REQUIRED, then joins', async (page) => {
  await page.waitForSelector('text=No such group yet');
  await page.selectOption('#api', 'JoinGroup');
  await page.click('#template');
  await page.click('#send');
  await page.waitForSelector('#log .responses li:has-text("MEMBER_ID_REQUIRED")');
  expectEq(await state(page), 'Empty', 'state after MEMBER_ID_REQUIRED');
  expectEq((await page.textContent('#pending')).includes('console-'), true, 'pending member listed');
  await page.click('#template');
  const body = JSON.parse(await page.inputValue('#request'));
  expectEq(body.memberId.startsWith('console-'), true, 'the template reuses the id handed out');
  expectEq(body.correlationId, 2, 'next correlation id');
  await page.click('#send');
  expectEq(await state(page), 'PreparingRebalance', 'state after the second JoinGroup');
  await page.click('#next-deadline');
  await page.waitForSelector('#log .responses li:has-text("generation 1")');
  expectEq(await state(page), 'CompletingRebalance', 'state after the initial delay');
  expectEq(await page.textContent('#generation'), '1', 'generation');
  await page.screenshot({ path: new URL('console-join.png', out).pathname, fullPage: true });
});

await test('the default example (leave while PreparingRebalance) runs to generation 2', async (page) => {
  const seen = [];
  while (await page.isEnabled('#next-step')) {
    await page.click('#next-step');
    seen.push(await state(page));
  }
  expectEq(
    seen.join(','),
    [
      'PreparingRebalance',
      'PreparingRebalance',
      'PreparingRebalance',
      'CompletingRebalance',
      'Stable',
      'Stable',
      'PreparingRebalance',
      'PreparingRebalance',
      'CompletingRebalance',
    ].join(','),
    'states after each step',
  );
  expectEq(await page.textContent('#generation'), '2', 'generation');
  await page.screenshot({ path: new URL('console-example.png', out).pathname, fullPage: true });
});

await test("the console keeps the user's own request, and the example stops once the user sends one", async (page) => {
  await page.click('#reset');
  await page.selectOption('#api', 'LeaveGroup');
  await page.click('#template');
  await page.click('#send');
  await page.waitForSelector('#log .responses li:has-text("LeaveGroup")');
  const body = JSON.parse(await page.inputValue('#request'));
  expectEq(body.api, 'LeaveGroup', 'the editor still holds the LeaveGroup the user composed');
  expectEq(await page.inputValue('#api'), 'LeaveGroup', 'and its API');
  expectEq(await page.isEnabled('#next-step'), false, "the example's next step no longer applies");
  expectEq((await page.textContent('#steps')).includes('request of your own'), true, 'and the page says why');
  // Editing and sending again keeps the edit; Reset brings the example back.
  await page.fill('#request', (await page.inputValue('#request')).replace('"LeaveGroup"', '"Heartbeat"'));
  await page.click('#reset');
  expectEq(await page.isEnabled('#next-step'), true, 'Reset brings the example back');
  expectEq(JSON.parse(await page.inputValue('#request')).api, 'JoinGroup', 'with its first request');
});

await test('the console in Chinese: lang set, every label translated, and a switch that keeps the session', async (page) => {
  await page.goto(`${server.url}?mode=console&lang=zh`);
  await page.waitForSelector('body[data-wasm="ready"]');
  expectEq(await page.getAttribute('html', 'lang'), 'zh-CN', 'lang');
  expectEq(await page.textContent('#next-step'), '下一步', 'the buttons');
  expectEq((await page.textContent('#group')).includes('消费组尚不存在'), true, 'the group panel');
  await page.click('#next-step');
  await page.waitForSelector('#log .exchange');
  expectEq((await page.textContent('#log h2')).includes('请求、响应与事件'), true, 'the log');
  // What the user does besides requests is logged in Chinese too, and a response's words.
  await page.click('.faults summary');
  await page.click('#unload');
  expectEq((await page.locator('#log .exchange header').first().textContent()).includes('卸载消费组'), true, 'an action in the log');
  const words = await page.textContent('#log');
  expectEq(/member |generation |leader /.test(words), false, `no English words in the responses: ${words.slice(0, 300)}`);
  // The settings' explanations, in Chinese.
  const tip = await page.locator('.config label').first().getAttribute('title');
  expectEq(/[\u4e00-\u9fff]/.test(tip), true, `a Chinese tooltip: ${tip}`);
  const log = await page.locator('#log .exchange').count();
  await page.click('#console-lang');
  expectEq(await page.getAttribute('html', 'lang'), 'en', 'switched');
  expectEq(await page.textContent('#next-step'), 'Next step', 'the buttons in English');
  expectEq(await page.locator('#log .exchange').count(), log, 'the session is kept');
  expectEq(await page.textContent('#page-title'), 'Kafka group coordinator Protocol console', 'the header follows');
});

await test('group configs by hand in the console: IncrementalAlterConfigs sets the session, a bad value is refused by name, DescribeConfigs reads it back', async (page) => {
  await page.selectOption('#api', 'IncrementalAlterConfigs');
  await page.click('#template');
  const request = JSON.parse(await page.inputValue('#request'));
  expectEq(request.resources[0].resourceType, 32, 'a GROUP resource');
  await page.click('#send');
  expectEq((await page.textContent('#log')).includes('IncrementalAlterConfigs #'), true, 'the log names the request');
  // A session of 1 ms: INVALID_CONFIG with Kafka's message.
  request.correlationId += 1;
  request.resources[0].configs[0].value = '1';
  await page.fill('#request', JSON.stringify(request));
  await page.click('#send');
  const log = await page.textContent('#log');
  expectEq(
    log.includes('INVALID_CONFIG') && log.includes('group.consumer.min.session.timeout.ms'),
    true,
    `refused by name: ${log.slice(-300)}`,
  );
  await page.selectOption('#api', 'DescribeConfigs');
  await page.click('#template');
  await page.click('#send');
  const described = await page.textContent('#log');
  expectEq(described.includes('consumer.session.timeout.ms=50000'), true, `the group's value: ${described.slice(-300)}`);
  expectEq(described.includes('consumer.heartbeat.interval.ms=5000 (default)'), true, "the broker's value, marked");
});

await test('a KIP-848 consumer group by hand in the console: the example, then a member composed with Fill defaults', async (page) => {
  await page.selectOption('#example', 'kip848');
  const states = [];
  for (let i = 0; i < 8; i++) {
    await page.click('#next-step');
    states.push(await page.getAttribute('#group-state', 'data-state'));
    if (i === 2) {
      const badge = await page.$eval('#group-state', (e) => [getComputedStyle(e).backgroundColor, e.textContent]);
      expectEq(badge[0] !== 'rgba(0, 0, 0, 0)' && badge[1] === 'Reconciling', true, `the state badge is drawn: ${badge}`);
      expectEq(await page.textContent('#members tr[data-member="member-a"] .member-state'), 'UNREVOKED_PARTITIONS', 'A must revoke first');
      expectEq(await page.textContent('#members tr[data-member="member-b"] .member-state'), 'UNRELEASED_PARTITIONS', 'B waits');
    }
    if (i === 4) {
      expectEq(await page.textContent('#group-epoch'), '2', 'group epoch 2');
      expectEq((await page.textContent('#group-type')).includes('KIP-848'), true, 'the group says its type');
    }
  }
  expectEq(states.join(' '), 'Stable Reconciling Reconciling Reconciling Stable Assigning Stable Empty', 'the states a reader follows');
  // On a phone the consumer group's wide table scrolls inside its panel, not the page.
  await page.setViewportSize({ width: 390, height: 844 });
  expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll on a phone');
  await page.setViewportSize({ width: 1400, height: 1000 });
  expectEq(await page.textContent('#group-epoch'), '4', 'the last member left: the epoch still advanced');
  expectEq((await page.textContent('#log')).includes('ConsumerGroupHeartbeat'), true, 'the log names the request');
  // Composing one by hand: Fill defaults gives a full join with the client's own member id.
  await page.selectOption('#api', 'ConsumerGroupHeartbeat');
  await page.click('#template');
  const request = JSON.parse(await page.inputValue('#request'));
  expectEq(request.memberEpoch, 0, 'a join');
  expectEq(request.memberId.length > 0, true, 'KIP-1082: the client names itself');
  await page.click('#send');
  expectEq(await page.getAttribute('#group-state', 'data-state'), 'Stable', 'it joins the empty group and gets everything');
  // Fill defaults again: the same member acknowledges at its epoch.
  await page.click('#template');
  const again = JSON.parse(await page.inputValue('#request'));
  expectEq(
    [again.memberId, again.memberEpoch > 0, Array.isArray(again.topicPartitions)].join(' '),
    `${request.memberId} true true`,
    'a heartbeat at its epoch',
  );
});

await test('a malformed request shows an error and the page keeps working', async (page) => {
  await page.fill('#request', '{ "api": "JoinGroup", "apiVersion": 3, "groupID": "x" }');
  await page.click('#send');
  await page.waitForSelector('#message.error');
  expectEq((await page.textContent('#message')).includes('groupID'), true, 'the error names the field');
  await page.fill('#request', '{ not json');
  await page.click('#send');
  expectEq((await page.textContent('#message')).includes('not valid JSON'), true, 'bad JSON reported');
  await page.click('#next-step');
  expectEq(await state(page), 'PreparingRebalance', 'still works');
});

await test('switching examples and restarting with Kafka 3.x settings', async (page) => {
  await page.selectOption('#example', 'leave-completing');
  await page.click('summary:has-text("Faults and settings")');
  await page.check('#kafka3');
  await page.fill('input[name="group.initial.rebalance.delay.ms"]', '3000');
  await page.click('#apply-config');
  for (let i = 0; i < 7; i++) await page.click('#next-step');
  await page.waitForSelector('#log .responses li:has-text("REBALANCE_IN_PROGRESS")');
  expectEq(await state(page), 'PreparingRebalance', 'state after C leaves');
  await page.fill('input[name="group.max.size"]', '0');
  await page.click('#apply-config');
  expectEq((await page.textContent('#message')).includes('group.max.size'), true, 'bad setting named');
});

// ---- the playground ------------------------------------------------------------------------

const PG = '?lang=en';
const pgState = (page) => page.locator('#group-state').getAttribute('data-state');
const stepNo = async (page) => Number((await page.textContent('#step-no')).match(/\d+/)[0]);

/** Steps until the current step's lines contain `text`; returns the step number. */
async function stepUntil(page, text, limit = 400) {
  for (let i = 0; i < limit; i++) {
    await page.click('#step');
    const lines = await page.locator('#step-table tr.current').textContent();
    if (lines.includes(text)) return stepNo(page);
  }
  throw new Error(`no step with "${text}" within ${limit} steps`);
}

await test(
  'the playground opens on the first seed scenario and plays it to a Stable group',
  async (page) => {
    expectEq(await page.inputValue('#scenario'), 'normal-join', 'default scenario');
    expectEq(await pgState(page), 'Empty', 'before the first step');
    // The shortcuts work on a page just opened, before anything has the focus.
    await page.keyboard.press('ArrowRight');
    expectEq(await stepNo(page), 1, '→ steps on a fresh page');
    // The step table scrolls to the new step within itself, not the page (after a frame).
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expectEq(await page.evaluate(() => window.scrollY), 0, 'the page stays where the reader is');
    await page.keyboard.press('ArrowLeft');
    expectEq(await stepNo(page), 0, '← steps back');
    await page.locator('#speed').evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expectEq(await page.textContent('#speed-label'), 'max', 'full speed');
    // Read in the same task as the click: at full speed the 10 s scenario can end (and playing
    // stop) before a separate read reaches the page on a loaded machine.
    const liveWhilePlaying = await page.evaluate(() => {
      document.querySelector('#play').click();
      return document.querySelector('#narration').getAttribute('aria-live');
    });
    expectEq(liveWhilePlaying, 'off', 'no announcements while playing');
    // Playing stops by itself at the scenario's end (durationMs 10 s), where the group is Stable.
    await page.waitForFunction(
      () =>
        document.querySelector('#step-no')?.textContent?.includes('end of the scenario') &&
        document.querySelector('#play')?.textContent?.includes('Play'),
      null,
      { timeout: 20000 },
    );
    const at = Number((await page.getAttribute('#sim-time', 'title')).match(/\d+/)[0]);
    expectEq(at <= 10000, true, `stopped within the scenario (${at} ms)`);
    expectEq(await page.getAttribute('#narration', 'aria-live'), 'polite', 'announcements again');
    expectEq(await pgState(page), 'Stable', 'after playing');
    expectEq(await page.textContent('#sm-generation'), '1', 'generation');
    expectEq((await page.textContent('#sm-members')).replace(/\s/g, ''), 'A,B,C', 'members');
    expectEq(await page.locator('#assignment-table td.now-col').count(), 3, 'three consumers in the assignment table');
    await page.screenshot({ path: new URL('playground.png', out).pathname, fullPage: true });
    await page.locator('#state-machine').screenshot({ path: new URL('view-state-machine.png', out).pathname });
    await page.locator('#timeline').screenshot({ path: new URL('view-timeline.png', out).pathname });
    await page.locator('#assignments').screenshot({ path: new URL('view-assignments.png', out).pathname });
    await page.locator('#steps-panel').screenshot({ path: new URL('view-steps.png', out).pathname });
  },
  PG,
);

await test(
  'seed: a leave while PreparingRebalance lets the delayed join complete at once',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-preparing-rebalance');
    await stepUntil(page, 'the coordinator receives JoinGroup #24 from D');
    expectEq(await pgState(page), 'PreparingRebalance', 'D joined: PreparingRebalance');
    await stepUntil(page, 'the coordinator receives LeaveGroup');
    expectEq(await pgState(page), 'CompletingRebalance', 'after C leaves, the join completed');
    expectEq(await page.textContent('#sm-generation'), '2', 'generation 2');
    expectEq((await page.textContent('#sm-members')).replace(/\s/g, ''), 'A,B,D', 'members after the leave');
    await page.screenshot({ path: new URL('seed-leave-preparing.png', out).pathname, fullPage: true });
  },
  PG,
);

await test(
  'consumer protocol: B leaves while A still revokes; the consumer group machine, epochs and member states follow, in both languages',
  async (page) => {
    await page.selectOption('#scenario', 'consumer-protocol-leave-while-reconciling');
    expectEq(
      await page.textContent('#sm-title'),
      'Consumer group state machine (KIP-848) Empty',
      'the consumer group machine, before the first join',
    );
    // The consumer group's five states are drawn, and no classic state.
    const nodes = await page.locator('#state-machine g.node').evaluateAll((gs) => gs.map((g) => g.dataset.state));
    expectEq(nodes.join(','), 'Empty,Assigning,Reconciling,Stable,Dead', 'the consumer group states');
    await stepUntil(page, 'member', 40);
    await stepUntil(page, 'C starts');
    await stepUntil(page, 'the coordinator receives ConsumerGroupHeartbeat #13 from C');
    expectEq(await pgState(page), 'Reconciling', 'C joined: a new target, the group reconciles');
    expectEq(await page.textContent('#sm-generation'), '3', 'group epoch 3');
    expectEq(await page.textContent('#sm-assignment-epoch'), '3', 'target epoch 3');
    expectEq(
      await page.locator('#sm-members li[data-member="C"] .cm-state').getAttribute('data-state'),
      'UNRELEASED_PARTITIONS',
      'C waits for partitions others hold',
    );
    await stepUntil(page, 'A revokes [orders-5]');
    expectEq(
      await page.locator('#sm-members li[data-member="A"] .cm-state').getAttribute('data-state'),
      'UNREVOKED_PARTITIONS',
      'A must revoke first',
    );
    expectEq(await page.locator('tr[data-consumer="A"] .client-state').getAttribute('data-state'), 'Reconciling', "A's client state");
    // Each member's own state machine: the consumer protocol's nine states, A in RECONCILING.
    expectEq(await page.locator('#member-sm thead th[title]').count(), 9, "the client's nine states");
    expectEq(await page.locator('#member-sm tr[data-consumer="A"] td.here').getAttribute('data-state'), 'Reconciling', 'A is marked');
    // B leaves while A revokes: no rejoin, a new epoch; nobody else stops.
    await stepUntil(page, 'B sends ConsumerGroupHeartbeat #22');
    expectEq(await page.locator('tr[data-consumer="B"] .client-state').getAttribute('data-life'), 'closed', 'B is closed');
    await stepUntil(page, 'the group epoch becomes 4');
    expectEq(await pgState(page), 'Assigning', 'a new epoch, the target not computed yet');
    expectEq(await page.textContent('#sm-generation'), '4', 'group epoch 4');
    // The assignment table's columns are epochs; the step table's state is the consumer group's.
    const heads = await page.locator('#assignment-table thead th').allTextContents();
    expectEq(
      heads.some((h) => h.startsWith('epoch ')),
      true,
      `epoch columns: ${heads.join(' | ')}`,
    );
    expectEq(await page.locator('#step-table tr.current [data-state]').getAttribute('data-state'), 'Assigning', 'step row state');
    // Play to the end at full speed: Stable again, and no invariant broken.
    await page.locator('#speed').evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('#play');
    await page.waitForFunction(
      () =>
        document.querySelector('#step-no')?.textContent?.includes('end of the scenario') &&
        document.querySelector('#play')?.textContent?.includes('Play'),
      null,
      { timeout: 30000 },
    );
    expectEq(await pgState(page), 'Stable', 'Stable at the end');
    expectEq(await page.textContent('#m-violations'), '0', 'no invariant violated');
    await page.click('#lang');
    expectEq(await page.getAttribute('html', 'lang'), 'zh-CN', 'document language');
    expectEq(await page.textContent('#sm-title'), '消费组状态机（KIP-848） 稳定 Stable', 'the title in Chinese');
    expectEq((await page.locator('tr[data-consumer="A"] .client-state').textContent()).trim(), '稳定', "A's state in Chinese");
  },
  PG,
);

await test(
  'seed: a leave while CompletingRebalance starts a new rebalance; step back and forward',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-completing-rebalance');
    await stepUntil(page, 'generation 2 begins');
    expectEq(await pgState(page), 'CompletingRebalance', 'generation 2 formed');
    const n = await stepUntil(page, 'the coordinator receives LeaveGroup');
    expectEq(await pgState(page), 'PreparingRebalance', 'after C leaves');
    // The step table keeps its current row in view, scrolling itself (after a frame).
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const inView = await page.evaluate(() => {
      const box = document.querySelector('#steps-panel .st-scroll').getBoundingClientRect();
      const row = document.querySelector('#step-table tr.current').getBoundingClientRect();
      return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
    });
    expectEq(inView, true, 'the current step is in view in the step table');
    const narration = await page.textContent('#narration');
    await page.click('#back');
    expectEq(await stepNo(page), n - 1, 'one step back');
    expectEq(await pgState(page), 'CompletingRebalance', 'back before the leave');
    await page.click('#step');
    expectEq(await stepNo(page), n, 'forward again');
    expectEq(await pgState(page), 'PreparingRebalance', 'the same state again');
    expectEq(await page.textContent('#narration'), narration, 'the same step again');
    await page.keyboard.press('Home');
    expectEq(await stepNo(page), 0, 'Home restarts');
  },
  PG,
);

await test(
  'the scrubber moves the run both ways, its span stays, and the tables follow',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-stable');
    for (let i = 0; i < 150; i++) await page.keyboard.press('ArrowRight');
    expectEq(await stepNo(page), 150, 'stepped to 150');
    const max = Number(await page.getAttribute('#scrubber', 'max'));
    const slide = (to) =>
      page.locator('#scrubber').evaluate((el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, to);
    await slide(40);
    expectEq(await stepNo(page), 40, 'back to 40');
    await page.waitForFunction(() => document.querySelector('#step-table tr.current')?.dataset.step === '40');
    expectEq(Number(await page.getAttribute('#scrubber', 'max')), max, 'the span stays (the known future is kept)');
    await slide(120);
    expectEq(await stepNo(page), 120, 'forward to 120');
    await page.waitForFunction(() => document.querySelector('#step-table tr.current')?.dataset.step === '120');
  },
  PG,
);

await test(
  'the state machine: no trigger label under a state box, and the fired transition says why it fired',
  async (page) => {
    for (const lang of ['en', 'zh']) {
      await page.goto(`${server.url}?lang=${lang}&scenario=crash-session-timeout&step=120`);
      await page.waitForSelector('body[data-wasm="ready"]');
      const overlaps = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('#state-machine .node rect')].map((r) => r.getBBox());
        const hits = [];
        for (const label of document.querySelectorAll('#state-machine .edge-label')) {
          const b = label.getBBox();
          for (const r of boxes) {
            if (b.x < r.x + r.width && b.x + b.width > r.x && b.y < r.y + r.height && b.y + b.height > r.y) hits.push(label.textContent);
          }
        }
        return hits;
      });
      expectEq(overlaps.join(' | '), '', `${lang}: labels clear of the boxes`);
    }
    const fired = await page.textContent('#state-machine .edge-label.fired');
    expectEq(fired.includes('持久化'), true, `the fired edge gives this time's cause: ${fired}`);
    const all = await page.locator('#state-machine .edge-label').allTextContents();
    expectEq(
      all.some((l) => l.includes('偏移量过期')),
      true,
      'Empty → Dead names offset expiry among its triggers',
    );
  },
  PG,
);

await test(
  'crashing a consumer: the session timeout removes it',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-stable');
    await stepUntil(page, 'C is assigned');
    await page.click('#consumer-table button[data-action="crash"][data-consumer="C"]');
    expectEq((await page.textContent('#consumer-table tr[data-consumer="C"]')).includes('crashed'), true, 'C crashed');
    // The script still closes C at 8 s: it is refused (C is not running), and the group waits
    // for C's session (45 s) to expire.
    await stepUntil(page, 'session timed out', 2000);
    await stepUntil(page, 'generation 2 begins', 400);
    expectEq((await page.textContent('#sm-members')).replace(/\s/g, ''), 'A,B', 'C removed');
    await page.selectOption('#tl-window', '120000');
    expectEq(Number(await page.getAttribute('#tl-canvas', 'data-marks-crashed')) > 0, true, 'the crash is marked on the timeline');
  },
  PG,
);

await test(
  'switching to Chinese translates the interface and the narration',
  async (page) => {
    await page.click('#step');
    await page.click('#lang');
    expectEq(await page.getAttribute('html', 'lang'), 'zh-CN', 'document language');
    expectEq((await page.textContent('#state-machine h2')).includes('消费组状态机'), true, 'view title');
    expectEq((await page.textContent('#narration')).includes('启动'), true, 'narration in Chinese');
    expectEq((await page.textContent('#tl-legend')).includes('错误响应'), true, 'the timeline legend in Chinese');
    expectEq(await page.textContent('#page-title'), 'Kafka 消费组协调者 演练场', 'page header');
    await stepUntil(page, '协调者', 50);
    await page.screenshot({ path: new URL('playground-zh.png', out).pathname, fullPage: true });
    await page.click('#lang');
    expectEq((await page.textContent('#state-machine h2')).includes('Group state machine'), true, 'back to English');
  },
  PG,
);

await test(
  'a refused action shows an error and the page keeps working',
  async (page) => {
    await page.click('#step');
    await page.click('#consumer-table button[data-action="cut"][data-consumer="B"]');
    await page.click('#consumer-table button[data-action="heal"][data-consumer="B"]');
    await page.evaluate(() => window.playgroundTest.act({ type: 'crash', consumer: 'nobody' }));
    await page.waitForSelector('#pg-message.error');
    expectEq((await page.textContent('#pg-message')).includes('nobody'), true, 'the error names the consumer');
    await page.click('#step');
    expectEq(await page.textContent('#pg-message'), '', 'cleared by the next step');
  },
  PG,
);

await test(
  "a share link reopens the same run at the same step, with the user's actions",
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-stable');
    for (let i = 0; i < 40; i++) await page.click('#step');
    await page.click('#consumer-table button[data-action="crash"][data-consumer="B"]');
    for (let i = 0; i < 25; i++) await page.click('#step');
    const narration = await page.textContent('#narration');
    const state = await pgState(page);
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    expectEq(link.includes('scenario=leave-while-stable') && link.includes('actions=') && link.includes('step=65'), true, `link ${link}`);
    const { page: other, problems } = await openLink(link);
    expectEq(await stepNo(other), 65, 'same step');
    expectEq(await pgState(other), state, 'same state');
    expectEq(await other.textContent('#narration'), narration, 'same narration');
    expectEq((await other.textContent('#consumer-table tr[data-consumer="B"]')).includes('crashed'), true, 'the crash replayed');
    expectEq(problems.join('\n'), '', 'no console errors in the shared page');
    await other.close();
  },
  PG,
);

await test(
  'a tampered or malformed link shows a clear error and the page keeps working',
  async (page) => {
    for (const [query, needle] of [
      ['?scenario=leave-while-stable&step=5&actions=!!!not-base64', 'not readable'],
      ['?scenario=no-such-scenario', 'no scenario named'],
      ['?scenario=normal-join&v=99', 'newer version'],
      ['?scenario=normal-join&step=-3', 'step'],
      [
        `?scenario=normal-join&step=3&actions=${Buffer.from(JSON.stringify([[1, { type: 'crash', consumer: 'Z' }]])).toString('base64url')}`,
        'refused',
      ],
      [`?scenario=normal-join&actions=${Buffer.from('[[1,"<img src=x onerror=alert(1)>"]]').toString('base64url')}`, 'malformed'],
    ]) {
      await page.goto(server.url + query);
      await page.waitForSelector('body[data-wasm="ready"]');
      const message = await page.textContent('#pg-message');
      expectEq(message.includes(needle), true, `${query}: "${message}"`);
      expectEq(await page.locator('img').count(), 0, 'nothing from the link is inserted as HTML');
      await page.click('#step');
      expectEq(await stepNo(page), 1, `${query}: the page still steps`);
    }
  },
  PG,
);

await test(
  'a link with an out-of-range step keeps its scenario and actions, opens clamped, and says so',
  async (page) => {
    const actions = Buffer.from(JSON.stringify([[2, { type: 'crash', consumer: 'B' }]])).toString('base64url');
    await page.goto(`${server.url}?lang=en&scenario=leave-while-stable&step=-7&actions=${actions}`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.inputValue('#scenario'), 'leave-while-stable', 'the scenario of the link, not another');
    expectEq(await stepNo(page), 0, 'opened at step 0');
    expectEq((await page.textContent('#pg-message')).includes('"-7"'), true, 'the out-of-range step is named');
    for (let i = 0; i < 3; i++) await page.click('#step');
    expectEq((await page.textContent('#consumer-table tr[data-consumer="B"]')).includes('crashed'), true, "the link's action is kept");
    await page.goto(`${server.url}?lang=en&scenario=normal-join&step=7000000`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.inputValue('#scenario'), 'normal-join', 'a step past the bound keeps the scenario too');
    expectEq((await page.textContent('#pg-message')).includes('past the last step'), true, await page.textContent('#pg-message'));
  },
  PG,
);

await test(
  'play stops at the end and says why; after a crash there it plays on until the group is at rest',
  async (page) => {
    await page.selectOption('#scenario', 'normal-join');
    await page.locator('#speed').evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('#play');
    await page.waitForFunction(() => !window.playgroundTest.playing, null, { timeout: 10000 });
    expectEq((await page.textContent('#pg-message')).includes("scenario's end"), true, 'it says why it stopped');
    const end = await stepNo(page);
    await page.click('#consumer-table button[data-action="crash"][data-consumer="B"]');
    await page.click('#play');
    await page.waitForFunction(() => !window.playgroundTest.playing, null, { timeout: 10000 });
    expectEq((await page.textContent('#pg-message')).includes('Stable again'), true, await page.textContent('#pg-message'));
    expectEq((await stepNo(page)) > end + 20, true, 'it played on past the end');
    expectEq((await page.textContent('#sm-members')).replace(/\s/g, ''), 'A,C', "B's session timed out and the group rebalanced");
  },
  PG,
);

await test(
  "the user's actions are listed and can be removed or undone; a scenario note after them is marked",
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-stable');
    for (let i = 0; i < 10; i++) await page.click('#step');
    await page.click('#consumer-table button[data-action="crash"][data-consumer="A"]');
    expectEq(await page.locator('#user-actions li').count(), 1, 'the crash is listed');
    expectEq((await page.textContent('#user-actions li')).includes('crash A'), true, 'named');
    await page.evaluate(() => window.playgroundTest.goto(300));
    await page.waitForSelector('#narration strong.stale');
    expectEq((await page.textContent('#narration')).includes('as scripted'), true, 'the later note is marked');
    await page.click('#consumer-table button[data-action="cut"][data-consumer="B"]');
    expectEq(await page.locator('#user-actions li').count(), 2, 'two actions');
    await page.click('#undo-action');
    expectEq(await page.locator('#user-actions li').count(), 1, 'undo removed the last');
    expectEq(await stepNo(page), 300, 'at the same step');
    await page.click('#user-actions button[data-remove="0"]');
    expectEq(await page.locator('#user-actions').count(), 0, 'no action left');
    expectEq(await page.locator('#narration strong.stale').count(), 0, 'the note applies again');
    expectEq((await page.textContent('#consumer-table tr[data-consumer="A"]')).includes('crashed'), false, 'A runs as scripted');
    // Back to the scenario: all at once.
    await page.click('#consumer-table button[data-action="crash"][data-consumer="B"]');
    await page.click('#consumer-table button[data-action="cut"][data-consumer="A"]');
    expectEq(await page.locator('#user-actions li').count(), 2, 'two again');
    await page.click('#back-to-scenario');
    expectEq(await page.locator('#user-actions').count(), 0, 'back to the scenario as scripted');
  },
  PG,
);

await test(
  "the book's four LeaveGroup cases open at the leave: from a link's moment=key, the button and K",
  async (page) => {
    const cases = [
      ['leave-while-preparing-rebalance', 'delayed join', 'close C'],
      ['leave-while-completing-rebalance', "leader's SyncGroup", 'close C'],
      ['leave-while-stable', 'LeaveGroup while Stable', 'close C'],
      ['last-member-leaves', 'the last member', 'close A'],
    ];
    for (const [name, note, action] of cases) {
      await page.goto(`${server.url}?lang=en&scenario=${name}&moment=key`);
      await page.waitForSelector('body[data-wasm="ready"]');
      expectEq((await page.textContent('#narration')).includes(note), true, `${name}: ${await page.textContent('#narration')}`);
      expectEq((await page.textContent('#step-table tr.current')).includes(action), true, `${name}: the step closes the leaving consumer`);
      expectEq((await page.locator('#scrub-marks .sm-key').count()) > 0, true, `${name}: the moment is marked on the scrubber`);
      const text = `${await page.textContent('#step-table')} ${await page.textContent('#narration')}`;
      expectEq(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/.test(text), false, `${name}: member ids shortened`);
      expectEq(/: NONE\b/.test(text), false, `${name}: success said as success`);
    }
    // The fourth case in full: the group goes Empty and the generation still advances.
    for (let i = 0; i < 40 && (await pgState(page)) !== 'Empty'; i++) await page.click('#step');
    expectEq(await pgState(page), 'Empty', 'the last member gone: Empty');
    expectEq(await page.textContent('#sm-generation'), '3', 'and the generation still advanced');
    // The button and the K key take a freshly chosen scenario there too.
    await page.selectOption('#scenario', 'leave-while-stable');
    await page.click('#key-moment');
    const at = await stepNo(page);
    expectEq((await page.textContent('#narration')).includes('LeaveGroup while Stable'), true, 'the button');
    await page.keyboard.press('Home');
    await page.keyboard.press('k');
    expectEq(await stepNo(page), at, 'K goes to the same step');
  },
  PG,
);

await test(
  "one click from the picker to each of the book's cases at the leave; moments as labelled chapters, walked with buttons and [ ]",
  async (page) => {
    // On a phone, in Chinese too: the four cases are one tap each, and the page does not scroll sideways.
    for (const [lang, width] of [
      ['en', 1280],
      ['zh', 390],
    ]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`${server.url}?lang=${lang}&scenario=normal-join`);
      await page.waitForSelector('body[data-wasm="ready"]');
      const chips = page.locator('#book-cases button');
      expectEq(await chips.count(), 4, `${lang}: four cases`);
      const names = ['leave-while-preparing-rebalance', 'leave-while-completing-rebalance', 'leave-while-stable', 'last-member-leaves'];
      for (let i = 0; i < 4; i++) {
        await chips.nth(i).click();
        expectEq(await page.inputValue('#scenario'), names[i], `${lang}: case ${i + 1} loaded`);
        expectEq(
          (await page.textContent('#step-table tr.current')).includes(lang === 'en' ? 'close' : '关闭'),
          true,
          `${lang}: case ${i + 1} opens at the step that closes the leaving consumer`,
        );
        expectEq(await chips.nth(i).getAttribute('aria-current'), 'true', `${lang}: case ${i + 1} shown as current`);
        expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, `${lang}: no sideways scroll`);
      }
      // The state machine's words stay readable (at least 9 px tall): on a phone, the narrow
      // drawing.
      const label = await page.locator('#state-machine .node-label').first().boundingBox();
      expectEq(label.height >= 9, true, `${lang}: state names ${label.height.toFixed(1)} px tall`);
      // Every setting explains itself in the page's language.
      await page.click('#settings summary');
      const tips = await page.locator('#settings-form label[title]').evaluateAll((ls) => ls.map((l) => l.title));
      const han = tips.filter((tip) => /[\u4e00-\u9fff]/.test(tip)).length;
      expectEq(han, lang === 'zh' ? tips.length : 0, `${lang}: the settings' tooltips (${tips.length})`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // The book's PreparingRebalance case: from the key moment, the next moment is C's LeaveGroup
    // reaching the coordinator, labelled so; ] and [ walk the same way.
    await page.goto(`${server.url}?lang=en&scenario=leave-while-preparing-rebalance&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    const key = await stepNo(page);
    expectEq((await page.textContent('#moment-label')).includes(`step ${key}`), true, 'the key step is a moment');
    await page.click('#next-moment');
    const leave = await stepNo(page);
    expectEq(leave > key, true, 'on to a later step');
    const label = await page.textContent('#moment-label');
    expectEq(label.includes('receives LeaveGroup') && label.includes('from C'), true, `the leave arrives: ${label}`);
    expectEq((await page.textContent('#step-table tr.current')).includes('LeaveGroup'), true, 'the step table agrees');
    await page.keyboard.press('[');
    expectEq(await stepNo(page), key, '[ goes back to the previous moment');
    await page.keyboard.press(']');
    expectEq(await stepNo(page), leave, '] goes on to it again');
    // Every tick is a labelled button to its step; the scenario's whole run is marked before it is played.
    const ticks = page.locator('#scrub-marks .tick');
    const n = await ticks.count();
    expectEq(n > 8, true, `the whole run's moments are ticks (${n})`);
    const last = ticks.nth(n - 1);
    const step = Number(await last.getAttribute('data-step'));
    expectEq((await last.getAttribute('title')).startsWith(`step ${step}: `), true, 'a tick is labelled with its step and what happened');
    await last.click();
    expectEq(await stepNo(page), step, 'a tick takes the run to its step');
    // Past the last moment, "next" says there is none within reach and leaves the page working.
    await page.click('#step');
    await page.click('#next-moment');
    expectEq((await page.textContent('#pg-message')).includes('No further moment'), true, 'said when there is none');
    await page.click('#back');
    expectEq((await stepNo(page)) > 0, true, 'the page still works');
  },
  PG,
);

await test(
  'the assignment table: partition ranges, lists that wrap only between partitions, and generations where nothing moved a click away',
  async (page) => {
    // D joins for a topic that does not exist (nothing moves), then leaves (nothing moves).
    const actions = [
      [100, { type: 'addConsumer', name: 'D', topics: ['nowhere'] }],
      [900, { type: 'close', consumer: 'D' }],
    ];
    const b64 = Buffer.from(JSON.stringify(actions)).toString('base64url');
    await page.goto(`${server.url}?lang=en&v=1&scenario=leave-while-stable&actions=${b64}&step=1600`);
    await page.waitForSelector('body[data-wasm="ready"]');
    const cells = await page.locator('#assignment-table tbody td').allTextContents();
    expectEq(
      cells.some((c) => c.replaceAll('\u200b', '').includes('orders-0..2')),
      true,
      `consecutive partitions as a range: ${cells.join(' | ').replaceAll('\u200b', '')}`,
    );
    const heads = async () => (await page.locator('#assignment-table thead th').allTextContents()).slice(1, -1);
    const few = await heads();
    expectEq((await page.textContent('#as-unchanged')).includes('nothing moved'), true, 'says what is left out');
    await page.click('#as-show-all');
    const all = await heads();
    expectEq(all.length > few.length, true, `the left-out generations shown on request: ${few} → ${all}`);
    await page.click('#as-changed-only');
    expectEq((await heads()).length, few.length, 'and left out again');
    // No name is broken inside: every cell breaks only where a zero-width space or a space is.
    const broken = await page.locator('#assignment-table tbody td, #assignment-table th').evaluateAll(
      (els) =>
        els.filter((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          return lines.size > 1 && !/[\u200b ]/.test(el.textContent);
        }).length,
    );
    expectEq(broken, 0, 'no word wrapped mid-name');
  },
  PG,
);

await test(
  'the timeline: zoom, pan back and follow now again, drag to pan, a look-ahead after now, and it fits a phone',
  async (page) => {
    await page.goto(`${server.url}?lang=en&scenario=leave-while-preparing-rebalance&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    const span = async () => {
      const d = await page.locator('#tl-canvas').evaluate((c) => [Number(c.dataset.fromMs), Number(c.dataset.toMs)]);
      return d;
    };
    expectEq(await page.locator('#tl-canvas').evaluate((c) => Number(c.dataset.ahead) > 0), true, 'what happens next is drawn after now');
    // Later in the run, where the window is full.
    await page.evaluate(() => window.playgroundTest.goto(900));
    const [from0, to0] = await span();
    expectEq(to0 - from0, 30_000, 'a full 30 s window');
    await page.click('#tl-zoom-in');
    const [from1, to1] = await span();
    expectEq(`${to1} ${(to1 - from1) * 2}`, `${to0} ${to0 - from0}`, 'zoomed in: half the window, still ending now');
    await page.click('#tl-zoom-out');
    await page.click('#tl-zoom-out');
    expectEq(await page.inputValue('#tl-window'), '60000', 'a zoom the presets do not have is shown as such');
    await page.click('#tl-zoom-in');
    await page.click('#tl-earlier');
    const [, to2] = await span();
    expectEq(to2 < to0, true, `panned back (${to2} < ${to0})`);
    expectEq(await page.locator('#tl-canvas').evaluate((c) => c.dataset.ahead), '0', 'no look-ahead while looking back');
    // The run goes on; the view stays where it was looked at.
    await page.click('#step');
    expectEq((await span())[1], to2, 'the view stays put while the run moves');
    await page.click('#tl-follow');
    const [, to3] = await span();
    expectEq(to3 > to2, true, 'following now again');
    // Dragging right looks back in time.
    const box = await page.locator('#tl-canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 200, box.y + 40, { steps: 5 });
    await page.mouse.up();
    expectEq((await span())[1] < to3, true, 'dragged back');
    // On a phone, the timeline fits the screen with now on it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#tl-follow').catch(() => {});
    await page.waitForTimeout(300);
    const phone = await page.locator('#tl-canvas').boundingBox();
    expectEq(phone.x + phone.width <= 390, true, `the timeline fits (${phone.x}+${phone.width})`);
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll');
  },
  PG,
);

await test(
  'what happens next: the user makes a later request arrive first, or drops one, as actions',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-preparing-rebalance');
    // Step until two consumers' requests are both on their way to the coordinator.
    let choice = null;
    for (let i = 0; i < 400 && !choice; i++) {
      await page.click('#step');
      choice = await page.evaluate(() => {
        const items = [...document.querySelectorAll('#upcoming li')].filter(
          (li) =>
            li.querySelector('button[data-action="deliverNow"]:not([disabled])') && li.textContent.includes('reaches the coordinator'),
        );
        const names = new Set(items.map((li) => li.textContent.trim().split(' ')[2]));
        return items.length >= 2 && names.size >= 2 ? items[1].dataset.correlation : null;
      });
    }
    expectEq(choice !== null, true, 'a race between two consumers');
    await page.click(`#upcoming li[data-correlation="${choice}"] button[data-action="deliverNow"]`);
    expectEq((await page.textContent('#user-actions')).includes(`#${choice}`), true, 'the choice is one of your actions');
    await page.click('#step');
    expectEq(
      (await page.textContent('#step-table tr.current')).includes(`#${choice}`),
      true,
      `the chosen request #${choice} arrives first: ${await page.textContent('#step-table tr.current')}`,
    );
    // Dropping the next one: it is lost, and the page says so.
    const next = await page.getAttribute('#upcoming li:has(button[data-action="drop"]:not([disabled]))', 'data-correlation');
    await page.click(`#upcoming li[data-correlation="${next}"] button[data-action="drop"]`);
    expectEq((await page.textContent('#narration')).includes('you dropped it'), true, await page.textContent('#narration'));
    await page.click('#undo-action');
    expectEq((await page.textContent('#user-actions')).includes('drop'), false, 'undone');
  },
  PG,
);

await test(
  'keys: shortcuts leave native controls alone, and focus survives a redraw',
  async (page) => {
    // Space on a focused button presses it (one step), it does not start playing.
    await page.focus('#step');
    await page.keyboard.press('Space');
    expectEq(await stepNo(page), 1, 'Space pressed the Step button');
    expectEq(await page.evaluate(() => window.playgroundTest.playing), false, 'and did not start playing');
    // Arrows on the speed slider change the speed, not the step.
    const speed = await page.textContent('#speed-label');
    await page.focus('#speed');
    await page.keyboard.press('ArrowRight');
    expectEq(await stepNo(page), 1, 'the arrow did not step the run');
    expectEq((await page.textContent('#speed-label')) !== speed, true, 'it changed the speed');
    // After a scenario is chosen, → steps that scenario (the picker gives the keys back).
    await page.selectOption('#scenario', 'leave-while-stable');
    await page.keyboard.press('ArrowRight');
    expectEq(await page.inputValue('#scenario'), 'leave-while-stable', '→ did not load another scenario');
    expectEq(await stepNo(page), 1, '→ stepped the chosen scenario');
    // Enter on a consumer's button acts, and the focus stays on that row's button.
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await page.focus('#consumer-table button[data-action="cut"][data-consumer="B"]');
    await page.keyboard.press('Enter');
    const focused = await page.evaluate(() => [document.activeElement?.dataset.consumer, document.activeElement?.dataset.action]);
    expectEq(focused.join(' '), 'B heal', "the focus is on B's button, now Heal link");
    await page.keyboard.press('Enter');
    expectEq(await page.evaluate(() => document.activeElement?.dataset.action), 'cut', 'and Enter again heals the link, keeping the focus');
  },
  PG,
);

await test(
  'a page opened in Chinese says so in <html lang>',
  async (page) => {
    expectEq(await page.getAttribute('html', 'lang'), 'zh-CN', 'lang at load');
  },
  '?lang=zh',
);

await test(
  'a run exported as JSON imports back at the same step; a bad file is refused',
  async (page) => {
    await page.selectOption('#scenario', 'zombie-fenced');
    for (let i = 0; i < 30; i++) await page.click('#step');
    await page.click('#consumer-table button[data-action="cut"][data-consumer="A"]');
    for (let i = 0; i < 10; i++) await page.click('#step');
    const state = await pgState(page);
    const narration = await page.textContent('#narration');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const text = await (await import('node:fs/promises')).readFile(await download.path(), 'utf8');
    expectEq(JSON.parse(text).format, 'kafka-group-playground-run', 'the exported format');
    await page.click('#restart');
    for (const [bad, needle] of [
      ['{ not json', 'not JSON'],
      ['[1,2]', 'not a JSON object'],
      ['{"format":"kafka-group-playground-run","version":1,"scenario":{"name":"x"},"actions":[],"step":0}', 'simulator'],
      ['{"format":"something-else"}', 'format'],
    ]) {
      await page.setInputFiles('#import', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
      await page.waitForFunction((n) => document.querySelector('#pg-message')?.textContent?.includes(n), needle);
      expectEq(await stepNo(page), 0, 'the current run is kept');
    }
    // A well-formed run whose last action the model refuses only when the replay reaches it
    // (a consumer the scenario does not have): the page stays on its own run, as it says.
    const refusedLate = JSON.parse(text);
    refusedLate.actions.push({ step: refusedLate.step - 2, action: { ...refusedLate.actions[0].action, consumer: 'NOPE' } });
    await page.setInputFiles('#import', {
      name: 'late.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(refusedLate)),
    });
    await page.waitForFunction(() => document.querySelector('#pg-message')?.textContent?.includes('simulator accepts'));
    expectEq(await stepNo(page), 0, 'the current run is kept when an action is refused on the way');
    expectEq(await page.inputValue('#scenario'), 'zombie-fenced', 'the same scenario');
    await page.setInputFiles('#import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.querySelector('#step-no')?.textContent?.trim().startsWith('step 40'));
    expectEq(await pgState(page), state, 'the same state');
    expectEq(await page.textContent('#narration'), narration, 'the same step');
    expectEq((await page.textContent('#consumer-table tr[data-consumer="A"]')).includes('✂'), true, 'the cut replayed');
  },
  PG,
);

await test(
  'compare: the rolling restart five ways (classic eager, cooperative, static; consumer protocol, dynamic and static), and two settings of the current scenario',
  async (page) => {
    await page.click('#compare summary');
    // Each column's median over its seeds (the cell's first figure), its range beneath.
    const medians = async (metric) =>
      (await page.locator(`#compare-table tr[data-metric="${metric}"] td .value`).allTextContents()).map((v) => v.replace(' †', ''));
    await page.click('#compare-rolling');
    await page.waitForSelector('#compare-table');
    const rebalances = await medians('rebalances');
    expectEq(rebalances.length, 5, 'five columns');
    expectEq(rebalances[2], '1', 'static membership: only the first join');
    // The consumer protocol: every join is a new group epoch; a static member's -2 leave and
    // return are not.
    expectEq(rebalances[4], '4', 'consumer protocol, static: only the four joins');
    expectEq(Number(rebalances[3]) > 4, true, 'consumer protocol, dynamic: each leave and rejoin too');
    expectEq(Number(rebalances[1]) > Number(rebalances[0]), true, 'cooperative: follow-up rebalances');
    // It says what it compared, names the consumer protocol's count honestly, and says why its
    // unowned time is longer; the button names the columns as their headers do.
    expectEq(
      (await page.textContent('#compare-setup-line')).includes('4 consumers on 12 partitions'),
      true,
      await page.textContent('#compare-setup-line'),
    );
    expectEq((await page.textContent('#compare-epochs')).includes('target assignments (group epochs)'), true, 'epochs named');
    expectEq((await page.textContent('#compare-why')).includes('group.consumer.heartbeat.interval.ms'), true, 'why explained');
    const heads = (await page.locator('#compare-table thead th[scope=col]').allTextContents()).filter((x) => x.trim());
    const button = await page.textContent('#compare-rolling');
    for (const head of heads) expectEq(button.includes(head.replace(/ open ↗$/, '').trim()), true, `the button names "${head}"`);
    const moved = await page.locator('#compare-table tr[data-metric="partitionsMoved"] td .value').allTextContents();
    expectEq(Number(moved[1]) < Number(moved[0]), true, 'cooperative moves fewer partitions');
    // Each metric says what it measures, and a duration reads as one (its exact ms on hover).
    const docs = await page.locator('#compare-table th[scope=row] .metric-doc.muted').count();
    expectEq(docs, await page.locator('#compare-table tbody tr').count(), 'every metric explained where it is shown');
    const unowned = page.locator('#compare-table tr[data-metric="unownedPartitionMs"] td').first();
    expectEq(/^\d+ ms$|^[\d.]+ s$|min|h /.test(await unowned.textContent()), true, `a duration: ${await unowned.textContent()}`);
    expectEq(/^\d+ ms$/.test(await unowned.getAttribute('title')), true, 'its exact ms on hover');
    expectEq(
      (await page.textContent('#compare-table tr[data-metric="maxUnownedPartitionMs"] th')).includes('all its gaps'),
      true,
      'the one-partition metric says it sums the gaps',
    );
    // With the application's listener time (the panel's defaults: 200 ms per partition revoked,
    // 100 per partition assigned), eager leaves partitions unprocessed far longer than
    // cooperative; with none, the protocols alone, it is the other way round. Each run opens
    // in a playground of its own, with the same settings.
    const unownedMs = async () =>
      (await page.locator('#compare-table tr[data-metric="unownedPartitionMs"] td').evaluateAll((tds) => tds.map((td) => td.title))).map(
        (ms) => Number.parseInt(ms, 10),
      );
    const withListener = await unownedMs();
    expectEq(withListener[0] > 1.5 * withListener[1], true, `eager pays the listener for every partition: ${withListener}`);
    await page.fill('#compare-revoke', '0');
    await page.fill('#compare-assign', '0');
    await page.fill('#compare-jitter', '0');
    await page.click('#compare-rolling');
    await page.waitForSelector('#compare-table');
    const alone = await unownedMs();
    expectEq(alone[0] < alone[1], true, `the protocols alone: ${alone}`);
    await page.fill('#compare-revoke', '200');
    await page.fill('#compare-assign', '100');
    await page.fill('#compare-jitter', '30');
    await page.click('#compare-rolling');
    await page.waitForSelector('#compare-table');
    const link = await page.locator('#compare-table thead a.open-run').first().getAttribute('href');
    const opened = await browser.newPage();
    await opened.goto(link);
    await opened.waitForSelector('body[data-wasm="ready"]');
    expectEq(await opened.inputValue('#scenario'), 'rolling-restart-eager', 'the run opens in its own playground');
    await opened.click('#settings summary');
    expectEq(await opened.inputValue('input[name="application:revokeMsPerPartition"]'), '200', 'with the listener time compared');
    await opened.close();
    await page.locator('#compare').screenshot({ path: new URL('view-compare.png', out).pathname });
    await page.selectOption('#scenario', 'leave-while-stable');
    await page.click('#compare summary').catch(() => {});
    if (!(await page.isVisible('#compare-run'))) await page.click('#compare summary');
    await page.fill('#compare-b', 'session.timeout.ms=10000\nheartbeat.interval.ms=20000');
    await page.click('#compare-run');
    await page.waitForSelector('#compare-out .error');
    expectEq((await page.textContent('#compare-out')).includes('heartbeat.interval.ms'), true, 'the bad setting is named');
    await page.fill('#compare-b', 'group.instance.id=*');
    await page.click('#compare-run');
    await page.waitForSelector('#compare-table');
    expectEq(await page.locator('#compare-table th[scope=col]').count(), 3, 'A and B');
    // The reader's own setup: six consumers on 24 partitions, a restart every 10 s, 3 seeds;
    // on a phone the table scrolls inside its panel.
    await page.fill('#compare-consumers', '6');
    await page.fill('#compare-partitions', '24');
    await page.fill('#compare-gap', '10000');
    await page.fill('#compare-seeds', '3');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#compare-rolling');
    await page.waitForSelector('#compare-table');
    const setup = await page.textContent('#compare-setup-line');
    expectEq(setup.includes('6 consumers on 24 partitions') && /every 10(\.0)? s/.test(setup) && setup.includes('3 seeds'), true, setup);
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll on a phone');
    expectEq(Number((await medians('generations'))[0]) > 4, true, 'six restarts make more generations');
    await page.fill('#compare-seeds', '0');
    await page.click('#compare-rolling');
    await page.waitForSelector('#compare-out .error');
    expectEq((await page.textContent('#compare-out')).includes('seeds'), true, 'a bad setup is named');
  },
  PG,
);

/** What Kafka 4's kafka-consumer-groups.sh --describe --members --verbose prints for a classic
 * group of `n` members on `partitions` partitions of one topic, its columns padded as the tool
 * pads them. */
function describeMembers(n, partitions) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `consumer-billing-1-${String(i).padStart(8, '0')}-4a5b-8c9d-0e1f2a3b4c5d`,
    host: `/10.2.${i >> 8}.${i & 255}`,
    tps: [],
  }));
  for (let p = 0; p < partitions; p++) rows[p % n].tps.push(p);
  const assignment = (r) => (r.tps.length ? `events:${r.tps.join(',')}` : '-');
  const width = (k, min) => Math.max(min, ...rows.map(k));
  const [cl, hl, ca] = [width((r) => r.id.length, 15), width((r) => r.host.length, 15), width((r) => assignment(r).length, 20)];
  const line = (g, id, host, client, count, epoch, current, target, targetAssignment) =>
    `${g.padEnd(15)} ${id.padEnd(cl)} ${host.padEnd(hl)} ${client.padEnd(18)} ${count.padEnd(15)} ${epoch.padEnd(15)} ${current.padEnd(ca)} ${target.padEnd(15)} ${targetAssignment.padEnd(20)}`;
  const head = line(
    'GROUP',
    'CONSUMER-ID',
    'HOST',
    'CLIENT-ID',
    '#PARTITIONS',
    'CURRENT-EPOCH',
    'CURRENT-ASSIGNMENT',
    'TARGET-EPOCH',
    'TARGET-ASSIGNMENT',
  );
  return [
    head,
    ...rows.map((r) => line('billing', r.id, r.host, 'consumer-billing-1', String(r.tps.length), '-', assignment(r), '-', '-')),
  ].join('\n');
}

await test(
  'your group: a describe output read (a bad line named and selected), compared five ways off the main thread, a 300-consumer group read and cancelled, and opened in the playground',
  async (page) => {
    await page.click('#your-group summary');
    await page.fill('#yg-text', 'GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT\ng m-1 /10.0.0.1 c two -\n');
    await page.click('#yg-read');
    await page.waitForSelector('#yg-error');
    const error = await page.textContent('#yg-error');
    expectEq(error.includes('line 2') && error.includes('#PARTITIONS'), true, error);
    const selected = await page.evaluate(() => {
      const t = document.querySelector('#yg-text');
      return t.value.slice(t.selectionStart, t.selectionEnd);
    });
    expectEq(selected, 'g m-1 /10.0.0.1 c two -', 'the line is selected');
    // The example: 30 processes of one application on two topics.
    await page.click('#yg-example');
    await page.waitForSelector('#yg-facts');
    const facts = await page.textContent('#yg-facts');
    expectEq(
      facts.includes('Members30') && facts.includes('orders (48), payments (12)') && facts.includes('cooperative-sticky'),
      true,
      facts,
    );
    expectEq(await page.inputValue('#yg-assumed input[data-key="consumer.session.timeout.ms"]'), '45000', 'assumed, shown');
    await page.fill('#yg-seeds', '2');
    await page.fill('#yg-gap', '8000');
    await watchLongTasks(page);
    const since = await pageNow(page);
    await page.click('#yg-compare');
    await page.waitForSelector('#yg-table', { timeout: 60000 });
    const heads = (await page.locator('#yg-table thead th[scope=col]').allTextContents()).filter((x) => x.trim());
    expectEq(
      heads.join(' | '),
      'As described | eager (range) | Static membership | Consumer protocol | Rolling upgrade to the consumer protocol',
      'five options',
    );
    const rebalances = (await page.locator('#yg-table tr[data-metric="rebalances"] td .value').allTextContents()).map((v) =>
      v.replace(' †', ''),
    );
    expectEq(rebalances[2], '1', 'static members come back within their session: only the first join');
    expectEq(Number(rebalances[0]) > 30, true, `thirty restarts rebalance the group as described: ${rebalances[0]}`);
    expectEq((await page.textContent('#yg-setup-line')).includes('30 consumers on 60 partitions'), true, 'what was compared');
    const { ms } = await longestTask(page, since);
    expectEq(ms < 200, true, `the runs are off the page's main thread: its longest task ${ms} ms`);
    // 300 consumers on 2,400 partitions: read, their comparison under way with its progress and
    // the page answering, then cancelled.
    await page.fill('#yg-text', describeMembers(300, 2400));
    await page.click('#yg-read');
    await page.waitForSelector('#yg-facts');
    expectEq((await page.textContent('#yg-facts')).includes('Members300'), true, '300 members');
    await page.fill('#yg-seeds', '5');
    await page.click('#yg-compare');
    await page.waitForSelector('#yg-bar');
    expectEq(await page.getAttribute('#yg-bar', 'max'), '25', 'five options, five seeds');
    const t0 = Date.now();
    await page.evaluate(() => 1);
    expectEq(Date.now() - t0 < 500, true, 'the page answers while the runs go on');
    await page.click('#yg-cancel');
    expectEq((await page.textContent('#yg-out')).includes('Cancelled'), true, 'cancelled');
    // Opened in the playground: the 300 consumers, a page of them at a time.
    await page.click('#yg-open');
    await page.waitForSelector('#consumer-pages');
    expectEq((await page.textContent('#scenario-title .title-text')).includes('Your group: billing'), true, 'the group is the run');
    expectEq((await page.textContent('#consumer-pages')).includes('300'), true, await page.textContent('#consumer-pages'));
    await page.locator('#your-group').screenshot({ path: new URL('view-your-group.png', out).pathname });
  },
  PG,
);

await test(
  'settings by Kafka name: a bad one is named, a good one restarts the run and travels in the share link',
  async (page) => {
    await page.click('#settings summary');
    expectEq(await page.getAttribute('input[name="consumer:session.timeout.ms"]', 'placeholder'), '45000', 'the default is shown');
    await page.fill('input[name="consumer:heartbeat.interval.ms"]', '60000');
    await page.click('#settings-apply');
    await page.waitForSelector('#settings-error');
    // Said once: at its field, with the reason beside it and the focus on it (not on the
    // message line as well).
    expectEq(await page.getAttribute('input[name="consumer:heartbeat.interval.ms"]', 'aria-invalid'), 'true', 'the field is marked');
    expectEq((await page.textContent('#settings-error')).includes('heartbeat.interval.ms'), true, 'the reason is at the field');
    expectEq(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'consumer:heartbeat.interval.ms', 'focused');
    expectEq(await page.locator('#settings-error').isVisible(), true, 'in sight');
    expectEq((await page.textContent('#pg-message')).includes('heartbeat.interval.ms'), false, 'said once');
    await page.fill('input[name="consumer:heartbeat.interval.ms"]', '');
    await page.fill('input[name="broker:group.initial.rebalance.delay.ms"]', '0');
    await page.click('#settings-apply');
    expectEq(await page.locator('#settings-error').count(), 0, 'fixed: the old error is gone');
    const first = await stepUntil(page, 'generation 1 begins');
    const at = Number(await page.locator('#step-table tr.current td.at').textContent());
    expectEq(at < 3000, true, `no initial delay: generation 1 at ${at} ms`);
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    expectEq(link.includes('cfg='), true, 'the link carries the settings');
    const { page: other } = await openLink(link);
    expectEq(await stepNo(other), first, 'same step');
    expectEq(await other.locator('#step-table tr.current td.at').textContent(), String(at), 'same time');
    await other.click('#settings summary');
    expectEq(await other.inputValue('input[name="broker:group.initial.rebalance.delay.ms"]'), '0', 'the setting is shown');
    await other.close();
  },
  PG,
);

await test(
  "the group's own configs (KIP-848): a consumer-protocol group's heartbeat interval set for the group paces its members, a value outside the broker's bounds is named at its field, and both travel in the link",
  async (page) => {
    for (const lang of ['en', 'zh']) {
      await page.goto(`${server.url}?lang=${lang}&scenario=consumer-protocol-leave-while-stable`);
      await page.waitForSelector('body[data-wasm="ready"]');
      await page.click('#settings summary');
      const legend = await page.textContent('#group-settings legend');
      expectEq(legend.includes('KIP-848'), true, `${lang}: the group's own configs: ${legend}`);
      expectEq(
        await page.getAttribute('input[name="group:consumer.heartbeat.interval.ms"]', 'placeholder'),
        '5000',
        `${lang}: its default is the broker's group.consumer.heartbeat.interval.ms`,
      );
      // The broker's group.consumer.* settings are offered too.
      expectEq(await page.locator('input[name="broker:group.consumer.max.heartbeat.interval.ms"]').count(), 1, 'broker bound shown');
    }
    const heartbeats = () =>
      page.evaluate(
        () =>
          window.playgroundTest.entries().filter((e) => e.type === 'requestSent' && e.api === 'ConsumerGroupHeartbeat' && e.atMs <= 40000)
            .length,
      );
    await page.evaluate(() => window.playgroundTest.goto(100000));
    const before = await heartbeats();
    await page.fill('input[name="group:consumer.heartbeat.interval.ms"]', '60000');
    await page.click('#settings-apply');
    await page.waitForSelector('#settings-error');
    expectEq(await page.getAttribute('input[name="group:consumer.heartbeat.interval.ms"]', 'aria-invalid'), 'true', 'the field is marked');
    const why = await page.textContent('#settings-error');
    expectEq(why.includes('group.consumer.max.heartbeat.interval.ms'), true, `Kafka's reason: ${why}`);
    await page.fill('input[name="group:consumer.heartbeat.interval.ms"]', '12000');
    await page.click('#settings-apply');
    expectEq(await page.locator('#settings-error').count(), 0, 'accepted');
    await page.evaluate(() => window.playgroundTest.goto(100000));
    const after = await heartbeats();
    // (Joins and reconciliation heartbeat at once, whatever the interval: a third fewer at least.)
    expectEq(after * 3 < before * 2, true, `heartbeats in the first 40 s: ${after} at 12 s, ${before} at 5 s`);
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    const { page: other } = await openLink(link);
    await other.click('#settings summary');
    expectEq(await other.inputValue('input[name="group:consumer.heartbeat.interval.ms"]'), '12000', 'the link carries it');
    await other.close();
  },
  PG,
);

await test(
  'a setting that makes every consumer fail is explained at the top, naming the error and the broker setting',
  async (page) => {
    for (const lang of ['en', 'zh']) {
      await page.goto(`${server.url}?lang=${lang}&scenario=normal-join`);
      await page.waitForSelector('body[data-wasm="ready"]');
      await page.click('#settings summary');
      await page.fill('input[name="consumer:session.timeout.ms"]', '5000');
      await page.click('#settings-apply');
      await page.evaluate(() => window.playgroundTest.goto(40));
      await page.waitForSelector('#failure-note');
      const note = await page.textContent('#failure-note');
      for (const needle of ['INVALID_SESSION_TIMEOUT', 'group.min.session.timeout.ms', 'A, B, C'])
        expectEq(note.includes(needle), true, `${lang}: the note names ${needle}: ${note}`);
      const note0 = await page.locator('#failure-note').boundingBox();
      const steps = await page.locator('#steps-panel').boundingBox();
      expectEq(note0.y < steps.y, true, `${lang}: at the top, above the views`);
    }
  },
  PG,
);

await test(
  'settings: every Kafka name clear of its field and every field inside the panel, at 1440 px and on a phone, in both languages',
  async (page) => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      for (const lang of ['en', 'zh']) {
        await page.goto(`${server.url}?lang=${lang}`);
        await page.waitForSelector('body[data-wasm="ready"]');
        await page.click('#settings summary');
        const problems = await page.evaluate(() => {
          const out = [];
          const panel = document.querySelector('#settings').getBoundingClientRect();
          for (const label of document.querySelectorAll('#settings label')) {
            const name = label.querySelector('span');
            const input = label.querySelector('input:not([type=checkbox])');
            if (!name || !input) continue;
            const a = name.getBoundingClientRect();
            const b = input.getBoundingClientRect();
            if (a.right > b.left && a.left < b.right && a.bottom > b.top && a.top < b.bottom) out.push(`overlap ${name.textContent}`);
            if (b.right > panel.right || a.right > panel.right) out.push(`cut ${name.textContent}`);
          }
          if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page scrolls sideways');
          // The step table never squeezes what a step did (on a phone, each step is a block
          // with what happened on a line of its own).
          const what = document.querySelector('#step-table tbody td:nth-child(4)');
          if (what && what.getBoundingClientRect().width < 180)
            out.push(`the step table's "what" column is ${what.getBoundingClientRect().width} px`);
          return out;
        });
        expectEq(problems.join(', '), '', `${width} px, ${lang}`);
      }
    }
  },
  PG,
);

await test(
  "one consumer's settings and static membership, from its row, travel in the share link",
  async (page) => {
    await page.selectOption('#scenario', 'normal-rebalance');
    const rows = page.locator('#consumer-table tr[data-consumer]');
    const first = await rows.nth(0).getAttribute('data-consumer');
    await rows.nth(0).locator('button[data-action="settings"]').click();
    expectEq(await page.getAttribute('#settings', 'open'), '', 'the settings panel opens');
    expectEq(await page.inputValue('#consumer-pick'), first, 'on that consumer');
    expectEq(await page.getAttribute('input[name="one:session.timeout.ms"]', 'placeholder'), '45000', 'its default is shown');
    // A refused value of this consumer's is marked at its own field.
    await page.fill('input[name="one:heartbeat.interval.ms"]', '90000');
    await page.click('#settings-apply');
    await page.waitForSelector('input[name="one:heartbeat.interval.ms"][aria-invalid="true"]');
    expectEq(await page.inputValue('#consumer-pick'), first, 'on the consumer refused');
    await page.fill('input[name="one:heartbeat.interval.ms"]', '');
    await page.check('#static-one');
    expectEq(await page.inputValue('input[name="one:group.instance.id"]'), first, 'static membership fills group.instance.id');
    await page.fill('input[name="one:session.timeout.ms"]', '12000');
    await page.click('#settings-apply');
    await page.waitForSelector(`#consumer-table tr[data-consumer="${first}"] .badge.static`);
    expectEq(await page.locator('#consumer-table .badge.static').count(), 1, 'only that consumer is static');
    await page.evaluate(() => window.playgroundTest.goto(60));
    const joins = await page.evaluate(
      (name) =>
        window.playgroundTest
          .entries()
          .filter((e) => e.type === 'requestSent' && e.consumer === name && e.api === 'JoinGroup')
          .map((e) => JSON.stringify(e.request)),
      first,
    );
    expectEq(
      joins.length > 0 && joins.every((j) => j.includes(`"${first}"`) && j.includes('12000')),
      true,
      `its JoinGroups carry the instance id and session timeout: ${joins[0]}`,
    );
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    const { page: other } = await openLink(link);
    expectEq(await other.locator(`#consumer-table tr[data-consumer="${first}"] .badge.static`).count(), 1, 'the link carries it');
    await other.close();
    // Every consumer static at once, then back.
    await page.check('#static-all');
    await page.click('#settings-apply');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#consumer-table .badge.static').length ===
        document.querySelectorAll('#consumer-table tr[data-consumer]').length,
    );
    await page.uncheck('#static-all');
    await page.click('#settings-apply');
    await page.waitForFunction(() => document.querySelectorAll('#consumer-table .badge.static').length === 0);
    await page.locator('#settings').screenshot({ path: new URL('view-settings.png', out).pathname });
  },
  PG,
);

await test(
  "partition ownership over time shows the zombie's overlap",
  async (page) => {
    await page.selectOption('#scenario', 'zombie-fenced');
    await page.evaluate(() => window.playgroundTest.goto(400));
    await page.click('#ownership summary');
    // The panel draws when it opens (its toggle event comes after the click).
    await page.waitForFunction(() => document.querySelector('#own-canvas')?.getAttribute('aria-label')?.includes('partitions'));
    const label = await page.getAttribute('#own-canvas', 'aria-label');
    expectEq(label.includes('6 partitions'), true, label);
    expectEq((await page.textContent('#ownership .own-legend')).includes('two owners'), true, 'legend');
    // Pointing at a partition's row names it, its owner and when; that owner is picked out.
    const box = await page.locator('#own-canvas').boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + 9);
    const tip = await page.textContent('#own-tip');
    expectEq(/^orders-0(: \w+ · .+ → .+| · .+: unowned)$/.test(tip), true, `the pointer's partition: ${tip}`);
    await page.locator('#ownership').screenshot({ path: new URL('view-ownership.png', out).pathname });
    // A time axis under the rows: the canvas is taller than its rows.
    const rowsHeight = await page.evaluate(() => 6 * 14 + 4);
    expectEq(box.height > rowsHeight + 15, true, `room for the axis (${box.height} px)`);
    // With many consumers, every one keeps its own colour in the legend.
    await page.selectOption('#scenario', 'large-group-50');
    await page.evaluate(() => window.playgroundTest.goto(3000));
    await page.waitForFunction(() => document.querySelectorAll('#ownership .own-legend .legend-key').length > 40);
    const swatches = await page.locator('#ownership .own-legend .legend-key i').evaluateAll((is) => is.map((i) => i.style.background));
    expectEq(new Set(swatches).size, swatches.length, `${swatches.length} distinct colours`);
    await page.locator('#ownership').screenshot({ path: new URL('view-ownership-50.png', out).pathname });
  },
  PG,
);

await test(
  'a run exported as one self-contained HTML file opens offline at the same step',
  async (page) => {
    await page.selectOption('#scenario', 'leave-while-stable');
    for (let i = 0; i < 50; i++) await page.click('#step');
    const state = await pgState(page);
    const narration = await page.textContent('#narration');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
    const path = new URL('standalone.html', out).pathname;
    await download.saveAs(path);
    const { page: other, problems } = await openLink(`file://${path}`, { timeout: 15000, offline: true });
    expectEq(await stepNo(other), 50, 'same step');
    expectEq(await pgState(other), state, 'same state');
    expectEq(await other.textContent('#narration'), narration, 'same narration');
    await other.click('#step');
    // One file plays its run: the console and the assign widget (code the page loads with their
    // mode) are not offered, and asking for them by URL still opens the run.
    expectEq(await other.locator('#modes a').count(), 1, "only the playground in the file's navigation");
    await other.goto(`file://${path}?mode=console`);
    await other.waitForSelector('body[data-wasm="ready"]', { timeout: 15000 });
    expectEq(await stepNo(other), 50, 'the file with ?mode=console still opens the run');
    expectEq(problems.join('\n'), '', 'no errors, nothing fetched from a server');
    await other.close();
  },
  PG,
);

/** Text that breaks naive HTML: it closes a script, opens a comment and a script (the HTML
 * parser's "script data escaped" states), and injects markup. */
const HOSTILE = '</script><!--<script><img src=x onerror="window.__pwned=1">\u2028';

await test(
  'hostile names and titles reach the real sinks as text, and an export of them still opens',
  async (page) => {
    // An added consumer's name, through a share link (the shape check lets a name through; the
    // simulation accepts it; the views and the export must treat it as text).
    const actions = Buffer.from(JSON.stringify([[2, { type: 'addConsumer', name: HOSTILE.slice(0, 60), topics: ['orders'] }]])).toString(
      'base64url',
    );
    await page.goto(`${server.url}?lang=en&scenario=normal-join&step=40&actions=${actions}`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.textContent('#pg-message'), '', 'the link loads');
    expectEq(await page.locator('img').count(), 0, 'nothing from the link is inserted as HTML');
    expectEq((await page.textContent('#consumers')).includes('<!--<script>'), true, 'the name is shown as text');
    // An imported run whose scenario title carries the same text, then exported as one file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const run = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
    run.scenario.title = { en: HOSTILE, zh: HOSTILE };
    run.scenario.description = { en: HOSTILE, zh: HOSTILE };
    await page.setInputFiles('#import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
    expectEq(await stepNo(page), 40, 'the imported run opens at its step');
    const [html] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
    const path = new URL('standalone-hostile.html', out).pathname;
    await html.saveAs(path);
    const text = readFileSync(path, 'utf8');
    expectEq(text.includes('Content-Security-Policy'), true, 'the export carries a CSP');
    const { page: other, problems } = await openLink(`file://${path}`, { timeout: 15000, offline: true });
    expectEq(await stepNo(other), 40, 'the export opens (not stuck on "Loading…") at the same step');
    expectEq(await other.locator('img').count(), 0, 'nothing inserted as HTML in the export');
    expectEq(await other.evaluate(() => window.__pwned), undefined, 'no injected script ran');
    await other.click('#step');
    expectEq(await stepNo(other), 41, 'the export steps');
    expectEq(problems.join('\n'), '', 'no errors, nothing fetched from a server');
    await other.close();
  },
  PG,
);

await test(
  "a link or embed asking for a far step opens at once at the run's reach and says so",
  async (page) => {
    for (const query of [
      '?lang=en&scenario=normal-join&step=1000000',
      '?embed=1&lang=en&scenario=normal-join&views=sm,steps&step=999999',
    ]) {
      const started = Date.now();
      await page.goto(server.url + query);
      await page.waitForSelector('body[data-wasm="ready"]', { timeout: 15000 });
      const ms = Date.now() - started;
      const reached = await stepNo(page);
      if (!(reached > 0 && reached < 10_000)) throw new Error(`${query}: reached step ${reached}`);
      const message = await page.textContent('#pg-message');
      expectEq(message.includes(`opened at step ${reached}, not`), true, `${query}: says so: "${message}"`);
      console.log(`  ${query}: step ${reached} in ${ms} ms`);
      const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
      if (heap > 300e6) throw new Error(`${query}: ${(heap / 1e6).toFixed(0)} MB of heap`);
      await page.click('#step');
      expectEq(await stepNo(page), reached + 1, 'and steps on');
    }
  },
  PG,
);

await test(
  'a link to a far step of a large group is reached in slices: progress shown, no long task meanwhile, and it can be stopped',
  async (page) => {
    await watchLongTasks(page, { onLoad: true });
    const query = '?lang=en&scenario=large-group-50&step=50000';
    await page.goto(server.url + query);
    await page.waitForSelector('#pg-reach:not([hidden])', { timeout: 15000 });
    const barAt = await pageNow(page);
    expectEq((await page.textContent('#pg-reach-status')).startsWith('Taking the run to step 50000'), true, 'the progress is said');
    await page.waitForSelector('body[data-wasm="ready"]', { timeout: 60000 });
    expectEq(await stepNo(page), 50000, 'the step asked for');
    const { ms: longest, count } = await longestTask(page, barAt);
    console.log(`  measure: the longest task while reaching step 50,000: ${longest.toFixed(0)} ms (${count} over 50 ms)`);
    if (longest >= 200) throw new Error(`a task of ${longest.toFixed(0)} ms while reaching`);
    // Stopped on the way: the run stays where it got, says so, and steps on from there.
    // (Clicked by the page itself the moment the bar shows: the whole way takes about a
    // second, and a click from here, after polling for the bar, sometimes came after it.)
    await page.context().addInitScript(() => {
      new MutationObserver((_, observer) => {
        const bar = document.getElementById('pg-reach');
        if (bar && !bar.hidden) {
          observer.disconnect();
          document.getElementById('pg-stop-reach')?.click();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
    });
    await page.goto(server.url + query);
    await page.waitForSelector('body[data-wasm="ready"]', { timeout: 15000 });
    const at = await stepNo(page);
    if (!(at > 0 && at < 50000)) throw new Error(`stopped at step ${at}`);
    expectEq((await page.textContent('#pg-message')).includes(`Stopped at step ${at} of 50000`), true, 'the stop is said');
    await page.click('#step');
    expectEq(await stepNo(page), at + 1, 'and the run steps on');
  },
  PG,
);

await test(
  'the embed URL shows a chrome-less view of a named scenario',
  async (page) => {
    await page.goto(`${server.url}?embed=1&scenario=leave-while-stable&views=sm,steps&step=20`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.isVisible('header'), false, 'no page header');
    expectEq(await page.isVisible('#scenario'), false, 'no scenario picker');
    expectEq(await page.isVisible('#state-machine'), true, 'the state machine');
    expectEq(await page.isVisible('#steps-panel'), true, 'the step table');
    expectEq(await page.isVisible('#timeline'), false, 'no timeline (not asked for)');
    expectEq(await stepNo(page), 20, 'the start step');
    // It loaded the embed module (no console, assign widget or live mode), not the page's.
    const modules = (of = page) =>
      of.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((r) =>
            r.name
              .split('/')
              .pop()
              .replace(/-[\w-]+\.wasm$/, '.wasm'),
          )
          .filter((n) => n.endsWith('.wasm'))
          .join(),
      );
    // It drew the scenario from its recording, with no module yet (recorded.ts) ...
    const fetched = (of = page) =>
      of.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((r) => r.name.split('/').pop())
          .join(),
      );
    expectEq(await modules(), '', 'no module before the reader asks for more than the recording');
    expectEq((await fetched()).includes('leave-while-stable.en.json'), true, `the recording fetched: ${await fetched()}`);
    expectEq(await page.getAttribute('body', 'data-model'), 'recorded', 'a recorded run');
    const atRecorded = await page.locator('#narration').textContent();
    await page.click('#step');
    await page.click('#back');
    expectEq(await page.locator('#narration').textContent(), atRecorded, 'a step and back, from the recording');
    // The other language comes from that language's recording of the run, still no module ...
    await page.keyboard.press('l');
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('#narration')?.textContent ?? ''));
    expectEq(await page.getAttribute('body', 'data-model'), 'recorded', 'still recorded in Chinese');
    expectEq((await fetched()).includes('leave-while-stable.zh.json'), true, 'the Chinese recording fetched');
    expectEq(await stepNo(page), 20, 'at the same step');
    // ... and the first thing no recording holds (an action) loads the embed module (no console,
    // assign widget or live mode), which goes on from the same step and takes the action.
    await page.evaluate(() => window.playgroundTest.act({ type: 'crash', consumer: 'A' }));
    await page.waitForSelector('body[data-model="module"]');
    expectEq(await modules(), 'group_coordinator_embed_bg.wasm', 'the module an embed loads');
    expectEq(await stepNo(page), 20, 'the same step with the model');
    expectEq(/[\u4e00-\u9fff]/.test(await page.locator('#narration').textContent()), true, 'the narration still in Chinese');
    expectEq(await page.evaluate(() => window.playgroundTest.entries().some((e) => e.type === 'action')), true, 'the action taken');
    await page.click('#step');
    expectEq(await stepNo(page), 21, 'and the model steps on');
    // A link with more than the recording holds (an action, settings) loads the module at once.
    const acted = await browser.newPage();
    await acted.goto(`${server.url}?embed=1&scenario=leave-while-stable&views=sm&seed=7`);
    await acted.waitForSelector('body[data-wasm="ready"]');
    expectEq(await acted.getAttribute('body', 'data-model'), 'module', 'a changed seed: the model from the start');
    expectEq(await modules(acted), 'group_coordinator_embed_bg.wasm', 'the module it loads');
    await acted.close();
    // ... and only the page's entry script: the console's and the assign widget's load with their mode.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((r) => r.name.split('/').pop())
        .filter((n) => n.endsWith('.js')),
    );
    expectEq(scripts.length === 1 && scripts[0].startsWith('index-'), true, `the scripts an embed loads: ${scripts.join(', ')}`);
    await page.screenshot({ path: new URL('embed.png', out).pathname, fullPage: true });
    // The page itself, and an embed following a live broker, load the full module. (A page of
    // its own: the live one logs its failed connection, as it should, with no broker here.)
    const other = await browser.newPage();
    for (const search of ['?scenario=leave-while-stable', '?embed=1&live=ws://127.0.0.1:1/']) {
      await other.goto(`${server.url}${search}`);
      await other.waitForSelector('body[data-wasm="ready"]');
      expectEq(await modules(other), 'group_coordinator_wasm_bg.wasm', `the module ${search} loads`);
    }
    await other.close();
  },
  PG,
);

await test(
  'a recorded embed whose module fails to load says so, keeps its step, and loads it on the next try; a page that cannot load it says so in its language',
  async () => {
    // A page of its own: the refused fetch is logged by the browser, as it should be.
    const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    await page.goto(`${server.url}?embed=1&scenario=leave-while-preparing-rebalance&views=sm,timeline&moment=key`);
    await page.waitForSelector('body[data-model="recorded"]');
    const at = await stepNo(page);
    let refuse = true;
    await page.route(/\.wasm$/, (route) => (refuse ? route.abort() : route.continue()));
    // Zooming the timeline needs the model; the network refuses it.
    await page.locator('#timeline button:has-text("+")').click();
    await page.waitForSelector('body[data-model="recorded"]');
    await page.waitForSelector('#pg-message.error');
    expectEq(await stepNo(page), at, 'the step kept');
    expectEq(await page.locator('#timeline select').inputValue(), '30000', 'the timeline back at the window the recording holds');
    await page.click('#step');
    expectEq(await stepNo(page), at + 1, 'and the recording still steps');
    refuse = false;
    await page.locator('#timeline button:has-text("+")').click();
    await page.waitForSelector('body[data-model="module"]');
    expectEq(await stepNo(page), at + 1, 'the model goes on from the same step');
    await page.close();
    // A page that cannot load its module at all says so in the reader's language.
    const zh = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await zh.route(/\.wasm$/, (route) => route.abort());
    await zh.goto(`${server.url}?lang=zh`);
    const said = await zh.locator('#app p.error').textContent();
    expectEq(said.startsWith('协调者模型（WebAssembly）加载失败：'), true, `the failure said in Chinese (${said})`);
    expectEq(await zh.getAttribute('html', 'lang'), 'zh-CN', 'the page marked as Chinese');
    expectEq(await zh.textContent('#mode-book'), '文档', 'and its header in Chinese, with the way to the book');
    await zh.close();
  },
  PG,
);

await test(
  'an embed fits its frame: at 360×300 the controls take one row and stay in view, and the views scroll beneath them',
  async (page) => {
    await page.setViewportSize({ width: 360, height: 300 });
    await page.goto(`${server.url}?embed=1&lang=zh&scenario=last-member-leaves&views=sm&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    const inView = async (sel) => {
      const b = await page.locator(sel).boundingBox();
      return b !== null && b.y >= 0 && b.y + b.height <= 300 && b.x >= 0 && b.x + b.width <= 360;
    };
    for (const sel of ['#play', '#back', '#step', '#next-moment', '#narration', '#scrubber']) {
      expectEq(await inView(sel), true, `${sel} in the frame`);
    }
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= 360), true, 'nothing wider than the frame');
    const top = await page.locator('.pg-top').boundingBox();
    // A short frame has the controls in one row (step buttons, scrubber, moment buttons) under
    // a one-line narration: the view has most of the frame.
    expectEq(top.height <= 120, true, `the controls take ${top.height} px of 300`);
    const rowOf = async (sel) => Math.round((await page.locator(sel).boundingBox()).y / 10);
    expectEq(new Set([await rowOf('#play'), await rowOf('#next-moment')]).size, 1, 'the step and moment buttons share a row');
    // The state machine scrolls into view under the controls, which stay.
    await page.mouse.move(180, 280);
    await page.mouse.wheel(0, 160);
    await page.waitForTimeout(100);
    expectEq(await inView('#play'), true, 'the controls stay while the views scroll');
    const sm = await page.locator('#state-machine svg').boundingBox();
    expectEq(sm.y < 300 - 80 && sm.y + sm.height > top.height + 80, true, `the state machine shows under the controls (${sm.y})`);
    await page.click('#next-moment');
    expectEq((await stepNo(page)) > 0, true, 'the controls work');
    await page.screenshot({ path: new URL('embed-360x300.png', out).pathname });
  },
  PG,
);

await test(
  'an embed of each view at 480×360, classic and consumer protocol: the view shows under the controls, fits the width, and follows a step',
  async (page) => {
    await page.setViewportSize({ width: 480, height: 360 });
    // (The state machine is drawn for its width: at 480 px, the narrow drawing.)
    const views = { sm: '#state-machine svg', timeline: '#tl-canvas', assignments: '#assignment-table', steps: '#step-table' };
    for (const scenario of ['leave-while-stable', 'consumer-protocol-leave-while-stable']) {
      for (const [view, sel] of Object.entries(views)) {
        await page.goto(`${server.url}?embed=1&lang=en&scenario=${scenario}&views=${view}&moment=key`);
        await page.waitForSelector('body[data-wasm="ready"]');
        const what = `${scenario} ${view}`;
        expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= 480), true, `${what}: nothing wider than the frame`);
        // Only the view asked for shows.
        for (const [other, otherSel] of Object.entries(views)) {
          if (other !== view) expectEq(await page.locator(otherSel).first().isVisible(), false, `${what}: no ${other}`);
        }
        const top = await page.locator('.pg-top').boundingBox();
        expectEq(top.height <= 220, true, `${what}: the controls take ${top.height} px of 360`);
        await page.locator(sel).first().scrollIntoViewIfNeeded();
        const box = await page.locator(sel).first().boundingBox();
        const visible = Math.min(box.y + box.height, 360) - Math.max(box.y, top.height);
        expectEq(visible >= 100 || visible >= box.height - 1, true, `${what}: ${visible} px of the view show under the controls`);
        expectEq(box.x >= 0 && box.x + box.width <= 481, true, `${what}: the view fits the width (${box.x}+${box.width})`);
        if (view === 'sm') {
          // Every state is inside the frame.
          const nodes = await page
            .locator('#state-machine g.node rect')
            .evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect()).filter((b) => b.left < 0 || b.right > innerWidth + 1));
          expectEq(nodes.length, 0, `${what}: every state inside the frame`);
        }
        const before = await stepNo(page);
        await page.click('#step');
        expectEq(await stepNo(page), before + 1, `${what}: a step from the embed`);
        expectEq((await page.locator(sel).count()) > 0, true, `${what}: the view is still drawn`);
      }
    }
    await page.screenshot({ path: new URL('embed-480x360.png', out).pathname });
  },
  PG,
);

await test(
  'a narration-only embed (views=narration) at 360×300: no view, the step told in full, and it follows a step',
  async (page) => {
    await page.setViewportSize({ width: 360, height: 300 });
    await page.goto(`${server.url}?embed=1&lang=en&scenario=leave-while-stable&views=narration&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    for (const sel of ['#state-machine', '#timeline', '#assignments', '#steps-panel']) {
      expectEq(await page.locator(sel).isVisible(), false, `${sel} hidden`);
    }
    const narration = page.locator('#narration');
    const before = await narration.textContent();
    expectEq(before.includes('close C'), true, `the step's own lines too: ${before}`);
    const box = await narration.boundingBox();
    expectEq(box.y >= 0 && box.y + box.height <= 300, true, 'the narration fits the frame');
    await page.click('#step');
    expectEq((await narration.textContent()) !== before, true, 'the next step is told');
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= 360), true, 'nothing wider than the frame');
  },
  PG,
);

await test(
  'the example documentation page embeds live scenarios with <kafka-group-playground>',
  async (page) => {
    const frame = await openEmbed(page, 'kafka-group-playground#preparing');
    expectEq(await frame.locator('#group-state').getAttribute('data-state'), 'PreparingRebalance', 'the embed opened at its key moment');
    await frame.locator('#next-moment').click();
    expectEq(await frame.locator('#group-state').getAttribute('data-state'), 'CompletingRebalance', "C's LeaveGroup completes the join");
    const second = await openEmbed(page, 'kafka-group-playground#stable');
    await second.locator('#play').click();
    await second.locator('#group-state[data-state="Stable"]').waitFor({ timeout: 15000 });
    await page.screenshot({ path: new URL('example-docs.png', out).pathname, fullPage: true });
  },
  'example-docs.html',
);

await test(
  'the book\'s "When a member leaves" chapter embeds the seed\'s cases, each at its key moment',
  async (page) => {
    await page.locator('main h1', { hasText: 'When a member leaves' }).waitFor();
    // The leave, and the state the group is in when it reaches the coordinator (the key moment).
    const cases = [
      ['leave-while-preparing-rebalance', 'PreparingRebalance'],
      ['leave-while-completing-rebalance', 'CompletingRebalance'],
      ['leave-while-stable', 'Stable'],
      ['last-member-leaves', 'Stable'],
    ];
    for (const [scenario, before] of cases) {
      const frame = await openEmbed(page, `kafka-group-playground[scenario="${scenario}"]`);
      expectEq(await frame.locator('#group-state').getAttribute('data-state'), before, `${scenario}: the state at its key moment`);
      const step = Number((await frame.locator('#step-no').textContent()).match(/\d+/)[0]);
      expectEq(step > 0, true, `${scenario}: opened past the start (step ${step})`);
    }
    // The Chinese chapter, with the book's terms in its embeds.
    await page.click('a[href="zh/leaving.html"]');
    await page.locator('main h1', { hasText: '成员离开消费组' }).waitFor();
    const zh = await openEmbed(page, 'kafka-group-playground[scenario="leave-while-preparing-rebalance"]');
    await zh.locator('#group-state', { hasText: '准备再平衡' }).waitFor();
    // The reference pages it links to are there, in Chinese, with the English pages' anchors.
    await page.click('a[href="classic-protocol.html#leave-stable"]');
    await page.locator('main h1', { hasText: '经典消费组协议' }).waitFor();
    await page.locator('#leave-stable').waitFor({ state: 'attached' });
    await page.click('a[href="../reference/classic-protocol.html"]');
    await page.locator('main h1', { hasText: 'The classic group protocol' }).waitFor();
    await page.screenshot({ path: new URL('book-reference.png', out).pathname });
  },
  'book/leaving.html',
);

await test(
  'the assign widget runs the assignors on a group written as text, and names the line it cannot read',
  async (page) => {
    const cell = (member, column) => page.locator(`#assign-result tr[data-member="${member}"] td.${column}`).textContent();
    expectEq(await cell('a', 'assigned'), 'orders 0,1,2', 'range: a takes the first range');
    expectEq(await cell('b', 'assigned'), 'orders 3,4', 'range: b the rest');
    await page.selectOption('#assign-strategy', 'roundrobin');
    expectEq(await cell('a', 'assigned'), 'orders 0,2,4', 'roundrobin deals in turn');
    await page.fill('#assign-group', 'topics: orders=4\na gen=1: orders | owns orders-0, orders-1, orders-2, orders-3\nb: orders');
    await page.selectOption('#assign-strategy', 'cooperative-sticky');
    expectEq(await cell('a', 'revoked'), 'orders-2 orders-3', 'cooperative-sticky: a gives up two');
    expectEq(await cell('b', 'added'), '—', 'and b gets them only in the next round');
    expectEq(await page.textContent('#assign-moved'), '2 given up, 0 new to their member', 'the summary');
    await page.selectOption('#assign-strategy', 'sticky');
    expectEq(await cell('b', 'added'), 'orders-2 orders-3', 'sticky (eager) moves them at once');
    // At phone width a wide result scrolls in its own box; the page never scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.fill(
      '#assign-group',
      'topics: orders=6, payments=3\nc1 gen=1: orders, payments | owns orders-0, orders-1, orders-2, payments-0, payments-1\nc2 gen=1: orders, payments | owns orders-3, orders-4, orders-5, payments-2\nc3: orders, payments',
    );
    expectEq(await cell('c3', 'added'), 'orders-2 orders-5 payments-1', 'sticky: the newcomer takes its share');
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll on a phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.fill('#assign-group', 'topics: orders=4\nthis line has no colon');
    expectEq(
      await page.textContent('#assign-error'),
      'Line 2: a member line is "id [gen=N] [instance=ID] [rack=R]: topics [| owns topic-p, …]"',
      'the line and why',
    );
    // A likely slip that Kafka accepts is assigned as Kafka would, with a note beside it.
    await page.fill('#assign-group', 'topics: orders=2\na: orders, oders\nb: oders');
    expectEq(await cell('a', 'assigned'), 'orders 0,1', 'the listed topic is assigned');
    expectEq(
      await page.textContent('#assign-notes'),
      'line 2: oders (subscribed by a, b) is not on the topics line: without its metadata nobody is assigned its partitions, as in Kafka',
      'the note names its line, the topic and its members',
    );
    await page.fill('#assign-group', 'topics: orders=2\na: orders');
    expectEq(await page.locator('#assign-notes').count(), 0, 'no note on a well-formed group');
    // The typed group is in the address: a reload (or the link) opens it.
    await page.selectOption('#assign-strategy', 'roundrobin');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('strategy') === 'roundrobin');
    expectEq(new URL(page.url()).searchParams.get('group'), 'topics: orders=2\na: orders', 'the group in the address');
    await page.reload();
    expectEq(await page.inputValue('#assign-group'), 'topics: orders=2\na: orders', 'reloaded: the group');
    expectEq(await page.inputValue('#assign-strategy'), 'roundrobin', 'reloaded: the assignor');
    await page.screenshot({ path: new URL('assign-widget.png', out).pathname, fullPage: true });
  },
  `?mode=assign&lang=en&strategy=range&group=${encodeURIComponent('topics: orders=5\na: orders\nb: orders')}`,
);

await test(
  'the assign widget on groups of real size: a million partitions, 2,000 members; the table lists the first and counts the rest',
  async (page) => {
    // Set as a paste would (Playwright's fill inserts a long text for seconds).
    const paste = (text) =>
      page.evaluate((value) => {
        const area = document.querySelector('#assign-group');
        area.value = value;
        area.dispatchEvent(new Event('input'));
      }, text);
    const topics = Array.from({ length: 100 }, (_, i) => `t${i}=10000`).join(', ');
    const all = Array.from({ length: 100 }, (_, i) => `t${i}`).join(', ');
    // A million partitions: assigned in the widget's worker, the page answering meanwhile.
    await watchLongTasks(page);
    await paste(`topics: ${topics}\nc1: ${all}\nc2: ${all}`);
    expectEq(await page.isVisible('#assign-busy'), true, 'the worker is said to be at it');
    expectEq(await page.getAttribute('#assign-result', 'aria-busy'), 'true', "the last group's table is marked busy meanwhile");
    await page.waitForSelector('#assign-busy[hidden]', { state: 'attached', timeout: 15000 });
    expectEq(await page.getAttribute('#assign-result', 'aria-busy'), null, 'and not after');
    const { ms: longest } = await longestTask(page);
    console.log(`  measure: a million partitions in the worker: the page's longest task ${longest.toFixed(0)} ms`);
    if (longest >= 200) throw new Error(`a task of ${longest.toFixed(0)} ms on the page`);
    const assigned = await page.locator('#assign-result tr[data-member="c1"] td.assigned').textContent();
    expectEq(assigned.endsWith('… and 499900 more'), true, `a million partitions: a hundred listed (${assigned.slice(-40)})`);
    expectEq(await page.textContent('#assign-moved'), '0 given up, 1000000 new to their member', 'counted whole');
    const members = Array.from({ length: 2000 }, (_, i) => `m${String(i).padStart(4, '0')}: orders`).join('\n');
    await paste(`topics: orders=600\n${members}`);
    await page.waitForSelector('#assign-more', { timeout: 15000 });
    expectEq(await page.locator('#assign-result tbody tr').count(), 201, '200 members drawn, then a line for the rest');
    expectEq((await page.textContent('#assign-more')).includes('1800 more members'), true, 'the rest counted');
    expectEq(await page.textContent('#assign-moved'), '0 given up, 600 new to their member', 'every member counted');
  },
  '?mode=assign&lang=en&strategy=range',
);

await test(
  'the assign widget in Chinese: the line it cannot read, and its notes, in Chinese',
  async (page) => {
    expectEq(await page.textContent('#assign-error'), '第 3 行：主题 orders 列出了两次', 'the line and why, in Chinese');
    await page.fill('#assign-group', 'topics: orders=2\na: orders | owns orders-5');
    expectEq(await page.textContent('#assign-notes'), '第 2 行：a 拥有 orders-5，但 orders 只有 2 个分区', 'a note, in Chinese');
    expectEq(await page.textContent('#assign-moved'), '1 个分区被交出，2 个分区对其成员来说是新的', 'the summary, in Chinese');
    expectEq(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'the document says Chinese');
  },
  `?mode=assign&lang=zh&strategy=range&group=${encodeURIComponent('topics: orders=2\na: orders\ntopics: orders=3')}`,
);

await test(
  "the book's API pages: the JavaScript reference and the crates' rustdoc are served with it",
  async (page) => {
    await page.locator('main h1', { hasText: 'JavaScript API reference' }).waitFor();
    await page.locator('#serverassign').waitFor({ state: 'attached' });
    await page.goto(`${server.url}book/using.html`);
    const link = page.locator('a[href="rustdoc/group_coordinator/index.html"]');
    expectEq(await link.count(), 1, 'the chapter links the rustdoc');
    // Fetched, not opened: rustdoc's own scripts are not this project's to test.
    const rustdoc = await page.request.get(new URL('rustdoc/group_coordinator/index.html', page.url()).toString());
    expectEq(rustdoc.status(), 200, 'the rustdoc is served');
    expectEq((await rustdoc.text()).includes('struct.Coordinator.html'), true, 'the Coordinator is documented');
  },
  'book/api/javascript.html',
);

await test(
  'the rolling upgrade: its key moment follows the conversion, the members are drawn by protocol, and Compare sets the upgrade beside the cooperative restart',
  async (page) => {
    // The key moment comes right after the conversion: the consumer group's machine; the moment
    // before it on the scrubber is the conversion itself.
    expectEq((await page.locator('#sm-title').textContent()).includes('KIP-848'), true, "the consumer group's machine");
    await page.click('#prev-moment');
    await page.locator('.moment-label', { hasText: 'online upgrade' }).first().waitFor();
    await page.click('#next-moment');
    // B, C and D stay, marked as classic members of the consumer group; A is not.
    const tagged = await page
      .locator('#sm-members li')
      .evaluateAll((lis) => lis.map((li) => `${li.dataset.member}:${li.querySelector('.cm-classic') ? 'classic' : 'consumer'}`));
    expectEq(tagged.sort().join(' '), 'A:consumer B:classic C:classic D:classic', 'members of the converted group');
    // Each consumer in the client machine of the protocol it speaks.
    const byProtocol = await page
      .locator('#member-sm .msm-scroll')
      .evaluateAll((ts) =>
        ts.map((t) => `${t.dataset.protocol}=${[...t.querySelectorAll('tbody tr')].map((r) => r.dataset.consumer).join(',')}`),
      );
    expectEq(byProtocol.join(' '), 'classic=B,C,D consumer=A', 'one table per protocol');
    // Compare: the upgrade costs about what a cooperative rolling restart costs.
    await page.click('#compare summary');
    await page.click('#compare-upgrade');
    await page.waitForSelector('#compare-table');
    const heads = await page.locator('#compare-table thead th').allTextContents();
    expectEq(heads.filter((x) => x.trim()).length, 3, 'three runs compared');
    const violations = await page.locator('#compare-table tr[data-metric="invariantViolations"] td .value').allTextContents();
    expectEq(violations.map((x) => x.trim()).join(','), '0,0,0', 'no violation in any run');
  },
  '?lang=en&scenario=rolling-upgrade-to-consumer-protocol&moment=key',
);

await test(
  'adding a partition from the consumers panel: the consumer group gives it out at its next heartbeat',
  async (page) => {
    // The key moment (orders grows to 9); one more from the panel makes 10.
    await page.click('#add-partitions button[data-topic="orders"]');
    expectEq((await page.locator('#add-partitions').textContent()).includes('(10)'), true, 'the count moved on');
    await stepUntil(page, 'added [orders-9]', 200);
    expectEq((await page.locator('#sm-members').textContent()).includes('9'), true, "the new partition is in a member's assignment");
    expectEq(
      await page.locator('#sm-generation').textContent(),
      '4',
      'one new group epoch: the next heartbeat finds 10 partitions at once',
    );
  },
  '?lang=en&scenario=consumer-protocol-partition-count-change&moment=key',
);

await test(
  'the npm package, installed into a documentation site, embeds a live run and gives the JavaScript API, and a site built with Vite bundles it',
  async (page) => {
    // scripts/package.sh packs it into target/npm/ (the test command runs it before this).
    const packs = new URL('../target/npm/', import.meta.url);
    const tarball = existsSync(packs) ? readdirSync(packs).find((f) => f.endsWith('.tgz')) : undefined;
    if (!tarball) throw new Error('no package in target/npm/: run bash scripts/package.sh');
    const site = mkdtempSync(join(tmpdir(), 'docs-site-'));
    writeFileSync(join(site, 'package.json'), '{"name":"docs-site","private":true}');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', new URL(tarball, packs).pathname], { cwd: site });
    writeFileSync(
      join(site, 'index.html'),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs</title><h1>Our docs</h1>
<script src="/node_modules/kafka-group-playground/site/kafka-group-playground.js" defer></script>
<kafka-group-playground scenario="leave-while-stable" views="sm,steps" moment="key" height="600"></kafka-group-playground>`,
    );
    const docs = await serve(site);
    try {
      await page.goto(docs.url);
      const frame = await openEmbed(page, 'kafka-group-playground');
      expectEq(
        await frame.locator('#group-state').getAttribute('data-state'),
        'Stable',
        'the installed page opened the run at its key moment',
      );
    } finally {
      docs.close();
    }
    // The library, from Node, as a site's build script would use it.
    const script = `import { readFileSync } from 'node:fs';
import { initSync, Simulation, scenario, assignCompact } from 'kafka-group-playground';
initSync({ module: readFileSync(new URL(import.meta.resolve('kafka-group-playground/pkg/group_coordinator_wasm_bg.wasm'))) });
const sim = new Simulation(scenario('leave-while-stable'));
sim.runUntil(60000);
console.log(sim.group().state);
// The compact assignors, whose glue imports the module's inline JavaScript (pkg/snippets/).
const c = { topics: ['t'], partitions: Int32Array.of(2), members: ['a', 'b'], subscriptions: Int32Array.of(1, 0, 1, 0) };
console.log([...assignCompact('range', c)].join(' '));`;
    writeFileSync(join(site, 'check.mjs'), script);
    // On the Node the tests run on (the current LTS line), and on the oldest line users may
    // have (USER_NODE: the machine's Node 20, which scripts/test.sh names).
    for (const node of new Set(['node', process.env.USER_NODE ?? 'node'])) {
      expectEq(
        execFileSync(node, ['check.mjs'], { cwd: site, encoding: 'utf8' }).trim(),
        'Stable\n1 0 0 1 0 1',
        `the API runs a scenario and an assignor from the package (${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()})`,
      );
    }
    // A site built with Vite: its own script imports the API (the bundler takes the wasm module
    // along), and the playground page, copied into public/, is embedded with the custom element.
    const app = join(site, 'app');
    mkdirSync(join(app, 'public'), { recursive: true });
    cpSync(join(site, 'node_modules/kafka-group-playground/site'), join(app, 'public/playground'), { recursive: true });
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs</title><h1>Our docs</h1>
<p>After the leave: <output id="state"></output></p>
<script type="module" src="/main.js"></script>
<script src="/playground/kafka-group-playground.js" defer></script>
<kafka-group-playground scenario="consumer-protocol-leave-while-stable" views="sm" moment="key" height="600"></kafka-group-playground>`,
    );
    writeFileSync(
      join(app, 'main.js'),
      `import init, { Simulation, scenario } from 'kafka-group-playground';
await init();
const sim = new Simulation(scenario('leave-while-stable'));
sim.runUntil(60000);
document.querySelector('#state').textContent = sim.group().state;`,
    );
    const vite = new URL('../node_modules/vite/bin/vite.js', import.meta.url).pathname;
    execFileSync('node', [vite, 'build', '--logLevel', 'warn'], { cwd: app, encoding: 'utf8' });
    const built = await serve(join(app, 'dist'));
    try {
      await page.goto(built.url);
      await page.locator('#state', { hasText: 'Stable' }).waitFor({ timeout: 15000 });
      const frame = await openEmbed(page, 'kafka-group-playground');
      expectEq(
        await frame.locator('#group-state').getAttribute('data-state'),
        'Stable',
        'the Vite-built site embeds a consumer-protocol run at its key moment',
      );
      expectEq((await frame.locator('#sm-title').textContent()).includes('KIP-848'), true, "the consumer group's machine");
    } finally {
      built.close();
    }
  },
  'index.html?mode=console',
);

await test('the built site works under a sub-path of a static host: the page, the book, and an embed stepped in each language', async (page) => {
  const sub = await serve(new URL('../web/dist/', import.meta.url).pathname, '/docs/kafka/');
  try {
    await page.goto(`${sub.url}index.html?lang=en`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.click('#mode-book');
    await page.locator('main h1', { hasText: 'When a member leaves' }).waitFor();
    expectEq(new URL(page.url()).pathname, '/docs/kafka/book/leaving.html', 'the book under the sub-path');
    for (const [lang, after] of [
      ['en', 'CompletingRebalance'],
      ['zh', '等待同步'],
    ]) {
      if (lang === 'zh') {
        await page.click('a[href="zh/leaving.html"]');
        await page.locator('main h1', { hasText: '成员离开消费组' }).waitFor();
      }
      const frame = await openEmbed(page, 'kafka-group-playground[scenario="leave-while-preparing-rebalance"]');
      await frame.locator('#next-moment').click();
      await frame.locator('#group-state', { hasText: after }).waitFor();
    }
  } finally {
    sub.close();
  }
});

/** What breaks a view's fit in the page it is in: elements of `selector` outside the window's
 * width, text under 9 px (an SVG's text as drawn, at its scale), and with `noScroll`, any
 * element that scrolls vertically inside the page. */
const misfits = (page, selector, noScroll) =>
  page.evaluate(
    ([sel, noScroll]) => {
      const view = document.querySelector(sel);
      if (!view || view.hidden || !view.getClientRects().length) return [`${sel} is not shown`];
      const out = [];
      const name = (e) =>
        `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}`;
      for (const e of [view, ...view.querySelectorAll('*')]) {
        const r = e.getBoundingClientRect();
        if (
          !r.width ||
          !r.height ||
          (e.closest('[hidden], .sr-only, thead[role="rowgroup"]') && e !== view && getComputedStyle(e).position === 'absolute')
        )
          continue;
        if (e.closest('.sr-only')) continue;
        if (r.left < -1 || r.right > innerWidth + 1)
          out.push(`${name(e)} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${innerWidth}`);
        const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (own) {
          let px = Number.parseFloat(getComputedStyle(e).fontSize);
          const svg = e.closest('svg');
          if (svg?.viewBox.baseVal?.width) px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          if (px < 9) out.push(`${name(e)} "${e.textContent.trim().slice(0, 20)}" is ${px.toFixed(1)} px`);
        }
        if (noScroll && /auto|scroll/.test(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1)
          out.push(`${name(e)} scrolls (${e.scrollHeight} in ${e.clientHeight})`);
      }
      return out.slice(0, 8);
    },
    [selector, noScroll],
  );

const FIT_VIEWS = { sm: '#state-machine', timeline: '#timeline', assignments: '#assignments', steps: '#steps-panel' };
const BOOK_CASES = ['leave-while-preparing-rebalance', 'leave-while-completing-rebalance', 'leave-while-stable', 'last-member-leaves'];

await test(
  "the fit matrix: the book's four cases at their key moment, every view, in frames of 360×300 to 1440×900 and a 390 px phone page, in English and Chinese",
  async (page) => {
    const problems = [];
    // [width, height, how]: an embed of a fixed height (its views scroll under the controls),
    // one that takes its content's height (nothing scrolls inside it), or the page itself.
    const frames = [
      [360, 300, 'fixed'],
      [360, 300, 'auto'],
      [480, 360, 'fixed'],
      [480, 360, 'auto'],
      [640, 480, 'auto'],
      [390, 844, 'page'],
      [1440, 900, 'auto'],
    ];
    for (const lang of ['en', 'zh']) {
      for (const [width, height, how] of frames) {
        await page.setViewportSize({ width, height });
        for (const scenario of BOOK_CASES) {
          const views = Object.keys(FIT_VIEWS).join(',');
          const query =
            how === 'page'
              ? `?lang=${lang}&scenario=${scenario}&moment=key`
              : `?embed=1&lang=${lang}&scenario=${scenario}&views=${views}&moment=key${how === 'auto' ? '&height=auto' : ''}`;
          await page.goto(server.url + query);
          await page.waitForSelector('body[data-wasm="ready"]');
          if (how === 'page') await page.click('#ownership summary').catch(() => {});
          for (const [view, sel] of Object.entries(FIT_VIEWS)) {
            for (const p of await misfits(page, sel, how === 'auto'))
              problems.push(`${lang} ${width}×${height} ${how} ${scenario} ${view}: ${p}`);
          }
        }
      }
    }
    expectEq(problems.length, 0, `every view fits:\n${problems.slice(0, 40).join('\n')}`);
  },
  PG,
);

await test(
  'every embed in both books takes the height of its content and shows every view it asks for, with nothing scrolling inside it',
  async (page) => {
    const problems = [];
    let seen = 0;
    for (const chapter of ['leaving', 'embedding', 'trying-assignors']) {
      for (const lang of ['', 'zh/']) {
        await page.goto(`${server.url}book/${lang}${chapter}.html`);
        const elements = page.locator('kafka-group-playground');
        const n = await elements.count();
        for (let i = 0; i < n; i++) {
          const element = elements.nth(i);
          const where = `${lang}${chapter} #${i + 1} (${await element.getAttribute('scenario')})`;
          await element.scrollIntoViewIfNeeded();
          const handle = await element.locator('iframe').elementHandle();
          const frame = await handle.contentFrame();
          await frame.waitForSelector('body[data-wasm="ready"]', { timeout: 15000 });
          // The frame's height follows the content's reports: settled when it stops changing.
          let last = -1;
          for (let k = 0; k < 20; k++) {
            const h = await handle.evaluate((f) => f.getBoundingClientRect().height);
            if (h === last) break;
            last = h;
            await page.waitForTimeout(150);
          }
          const inner = await frame.evaluate(() => ({
            content: document.documentElement.scrollHeight,
            frame: innerHeight,
            overflow: Math.max(
              0,
              ...[...document.querySelectorAll('*')].map((e) =>
                /auto|scroll/.test(getComputedStyle(e).overflowY) ? e.scrollHeight - e.clientHeight : 0,
              ),
            ),
          }));
          seen++;
          if (inner.content > inner.frame + 1) problems.push(`${where}: content ${inner.content} px in a frame of ${inner.frame}`);
          if (inner.overflow > 1) problems.push(`${where}: an element scrolls ${inner.overflow} px inside the frame`);
          const asked = (await element.getAttribute('views'))?.split(',') ?? [];
          for (const view of asked) {
            const box = await frame.evaluate((sel) => {
              const e = document.querySelector(sel);
              const r = e?.getBoundingClientRect();
              return e && !e.hidden && r.height > 0 ? { top: r.top, bottom: r.bottom } : null;
            }, FIT_VIEWS[view]);
            if (!box) problems.push(`${where}: ${view} is not shown`);
            else if (box.top < 0 || box.bottom > inner.frame + 1)
              problems.push(`${where}: ${view} lies at ${box.top}..${box.bottom} of ${inner.frame}`);
            else for (const p of await misfits(frame, FIT_VIEWS[view], true)) problems.push(`${where} ${view}: ${p}`);
          }
        }
      }
    }
    expectEq(seen >= 24, true, `the books' embeds (${seen})`);
    expectEq(problems.length, 0, `every embed fits:\n${problems.join('\n')}`);
  },
  'book/leaving.html',
);

await test(
  "who got what: from each of the book's cases one click reaches the moment the new assignment reaches the last member, the new generation beside the old",
  async (page) => {
    await page.setViewportSize({ width: 360, height: 640 });
    for (const lang of ['en', 'zh']) {
      for (const scenario of [...BOOK_CASES.slice(0, 3), 'consumer-protocol-leave-while-stable']) {
        await page.goto(`${server.url}?embed=1&lang=${lang}&scenario=${scenario}&views=sm,assignments&moment=key&height=auto`);
        await page.waitForSelector('body[data-wasm="ready"]');
        const key = await stepNo(page);
        // In a 360 px frame the button is there to be seen, not cut off with the title.
        const seen = await page.locator('#who-got-what').evaluate((b) => {
          const r = b.getBoundingClientRect();
          return r.right <= innerWidth && b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
        });
        expectEq(seen, true, `${lang} ${scenario}: the button shows in the frame`);
        await page.click('#who-got-what');
        await page.waitForFunction((k) => Number(document.querySelector('#step-no').textContent.match(/\d+/)[0]) > k, key);
        const label = await page.textContent('#moment-label');
        expectEq(
          label.includes(lang === 'en' ? 'every member has' : '每个成员都'),
          true,
          `${lang} ${scenario}: the moment says who got what (${label})`,
        );
        const columns = await page.locator('#assignment-table thead th').count();
        // Consumer, the generation before, the new one, now.
        expectEq(columns >= 4, true, `${lang} ${scenario}: the new generation beside the old (${columns} columns)`);
        // (One rebalance in a classic case; a consumer group may reconcile in rounds.)
        if (!scenario.startsWith('consumer'))
          expectEq(await page.locator('#who-got-what').count(), 0, `${lang} ${scenario}: none further ahead`);
      }
    }
    // The case without one after its key (the last member leaves: nobody is left to assign)
    // offers none.
    await page.goto(`${server.url}?embed=1&lang=en&scenario=last-member-leaves&views=sm&moment=key&height=auto`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.locator('#who-got-what').count(), 0, 'no one left to assign');
  },
  PG,
);

await test(
  'the address is the run: stepping replaces it, a new scenario pushes it, Back returns, a reload opens the same step, and Share link says it copied',
  async (page) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${server.url}?lang=en&scenario=leave-while-stable`);
    await page.waitForSelector('body[data-wasm="ready"]');
    const param = async (name) => new URL(page.url()).searchParams.get(name);
    const settled = async (name, value) =>
      page.waitForFunction(([n, v]) => new URL(location.href).searchParams.get(n) === v, [name, value]);
    for (let i = 0; i < 5; i++) await page.click('#step');
    await settled('step', '5');
    expectEq(await param('scenario'), 'leave-while-stable', 'the scenario in the address');
    const depth = await page.evaluate(() => history.length);
    await page.locator('#book-cases button').nth(0).click();
    await settled('scenario', 'leave-while-preparing-rebalance');
    const key = await stepNo(page);
    await settled('step', String(key));
    expectEq(await page.evaluate(() => history.length), depth + 1, 'a new scenario is a new entry');
    // A step more, then a reload: the same step of the same scenario.
    await page.click('#step');
    await settled('step', String(key + 1));
    await page.reload();
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.inputValue('#scenario'), 'leave-while-preparing-rebalance', 'reloaded: the scenario');
    expectEq(await stepNo(page), key + 1, 'reloaded: the step');
    // Back: the scenario before, at the step it was left at.
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#scenario').value === 'leave-while-stable');
    await page.waitForFunction(() => document.querySelector('#step-no').textContent.includes('5'));
    expectEq(await stepNo(page), 5, 'back: the step it was left at');
    // The language goes into the address too.
    await page.click('#lang');
    await settled('lang', 'zh');
    // Share link: copied, and said so.
    await page.click('#share');
    await page.waitForFunction(() => document.querySelector('#pg-message').textContent.length > 0);
    expectEq((await page.textContent('#pg-message')).includes('链接已复制'), true, 'the copy is confirmed');
    expectEq(
      await page.evaluate(() => navigator.clipboard.readText()),
      await page.inputValue('#share-link'),
      'the link is on the clipboard',
    );
  },
  PG,
);

await test(
  'an embed says what is wrong with its link: unknown views are named, and an unknown scenario is named with nothing running beneath it',
  async (page) => {
    await page.setViewportSize({ width: 360, height: 300 });
    await page.goto(`${server.url}?embed=1&lang=en&scenario=leave-while-stable&views=nonsense&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq((await page.textContent('#embed-views-error')).includes('"nonsense"'), true, 'the unknown view named');
    await page.goto(`${server.url}?embed=1&lang=zh&scenario=leave-while-stable&views=sm,bogus&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq((await page.textContent('#embed-views-error')).includes('"bogus"'), true, 'named beside a known view');
    expectEq(await page.isVisible('#state-machine'), true, 'the known view still shows');
    // (In a page of its own: looking for the unknown scenario's recording is a 404 in the
    // console, which is what it is.)
    const other = await browser.newPage({ viewport: { width: 360, height: 300 } });
    try {
      await other.goto(`${server.url}?embed=1&lang=en&scenario=no-such-case&views=sm&autoplay=1`);
      await other.waitForSelector('body[data-wasm="ready"]');
      expectEq((await other.textContent('#embed-error')).includes('"no-such-case"'), true, 'the unknown scenario named');
      for (const sel of ['#state-machine', '#play', '#narration', '#scrubber'])
        expectEq(await other.isVisible(sel), false, `${sel}: nothing runs beneath the error`);
      const box = await other.locator('#embed-error').boundingBox();
      expectEq(box.x >= 0 && box.x + box.width <= 360 && box.y < 300, true, 'the error is in the frame');
    } finally {
      await other.close();
    }
  },
  PG,
);

await test(
  'linking always shows its result: a selection made outside the step table pages it to its step; "first" is offered only where it changes the order',
  async (page) => {
    await page.goto(`${server.url}?lang=en&scenario=leave-while-stable&step=68`);
    await page.waitForSelector('body[data-wasm="ready"]');
    // Generation 1's assignment was taken some 40 steps back, off the table's 30-row page.
    const cell = page.locator('#assignment-table td[data-gen="1"][data-index]').first();
    const index = Number(await cell.getAttribute('data-index'));
    expectEq(await page.locator(`#step-table .line[data-index="${index}"]`).count(), 0, 'off the page before');
    await cell.click();
    await page.locator('#step-table tr.selected').waitFor();
    expectEq(await page.locator(`#step-table tr.selected .line[data-index="${index}"]`).count(), 1, 'its step, selected, on the page');
    expectEq(await page.isEnabled('#st-follow'), true, 'and the way back to the current step');
    await page.click('#st-follow');
    expectEq(await page.locator('#step-table tr.current').count(), 1, 'following again');
    // What happens next: the soonest event is next already, so it is offered no "first".
    const first = page.locator('#upcoming li').first();
    expectEq(await first.locator('button[data-action="deliverNow"]').count(), 0, 'no "first" on the first');
  },
  PG,
);

await test(
  'keyboard and screen readers: a skip link to Play, buttons named for what they do and to whom, case rows as groups',
  async (page) => {
    await page.goto(`${server.url}?lang=en&scenario=leave-while-stable&step=3`);
    await page.waitForSelector('body[data-wasm="ready"]');
    let tabs = 0;
    for (; tabs < 5; tabs++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => document.activeElement?.id);
      if (id === 'skip-to-run') {
        await page.keyboard.press('Enter');
        break;
      }
    }
    expectEq(await page.evaluate(() => document.activeElement?.id), 'play', `Play reached by the skip link within ${tabs + 1} Tabs`);
    const names = await page.locator('#consumer-table button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    expectEq(names.includes('Crash consumer B') && names.includes('Settings of consumer A'), true, `named for whom: ${names.slice(0, 8)}`);
    expectEq(new Set(names).size, names.length, 'no two buttons share a name');
    expectEq(await page.getAttribute('#step-table tr.current button', 'aria-label'), 'Go to step 3', 'a step button says where it goes');
    expectEq(await page.locator('nav.book-cases, #book-cases[role="navigation"]').count(), 0, 'case rows are not navigation');
    expectEq(await page.getAttribute('#book-cases', 'role'), 'group', 'case rows are groups');
  },
  PG,
);

await test(
  'a first screen that says what this is: one sentence, the four cases, the other rows folded, and Play in the first screen of a phone',
  async (page) => {
    for (const lang of ['en', 'zh']) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}?lang=${lang}`);
      await page.waitForSelector('body[data-wasm="ready"]');
      expectEq((await page.textContent('#intro')).length > 40, true, `${lang}: a sentence`);
      expectEq(await page.locator('#book-cases button').count(), 4, `${lang}: the four cases`);
      expectEq(await page.isVisible('#kip848-cases'), false, `${lang}: the other rows folded`);
      const play = await page.locator('#play').boundingBox();
      expectEq(play.y + play.height <= 844, true, `${lang}: Play at ${Math.round(play.y)} px, in the first screen`);
      await page.click('#more-scenarios summary');
      expectEq(await page.isVisible('#kip848-cases'), true, `${lang}: unfolded`);
    }
    // A run of a folded row opens with its row unfolded.
    await page.goto(`${server.url}?lang=en&scenario=consumer-protocol-leave-while-stable&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq(await page.isVisible('#kip848-cases button[aria-current="true"]'), true, 'its row shown');
  },
  PG,
);

/** Steps the playground (up to `limit` steps) until `selector`'s text passes `ok`; the text. */
async function stepUntilText(page, selector, ok, limit = 600) {
  const found = await page.evaluate(
    ({ selector, ok, limit }) => {
      const pass = new Function('text', `return (${ok})(text)`);
      for (let i = 0; i < limit; i++) {
        const text = document.querySelector(selector)?.textContent ?? '';
        if (pass(text)) return text;
        window.playgroundTest.stepOnce();
      }
      return null;
    },
    { selector, ok: ok.toString(), limit },
  );
  if (found === null) throw new Error(`${selector}: not there within ${limit} steps`);
  return found;
}

await test(
  "a topic created later joins a pattern subscription: one click to each protocol's case, the resolved patterns shown, and Create topic as an action",
  async (page) => {
    await page.goto(`${server.url}?lang=en&scenario=normal-join`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.click('#more-scenarios summary');
    const chips = page.locator('#pattern-cases button');
    expectEq(await chips.count(), 2, 'two pattern cases');
    expectEq(await chips.nth(0).textContent(), '1. classic protocol', 'the classic one named by its protocol');
    // The consumer protocol: the coordinator resolved orders.* before the topic was created…
    await page.click('#pattern-cases button[data-scenario="consumer-protocol-regex-new-topic"]');
    expectEq(await page.inputValue('#scenario'), 'consumer-protocol-regex-new-topic', 'loaded');
    expectEq((await page.textContent('#step-table tr.current')).includes('orders-us'), true, 'opens at the creation');
    const before = await page.textContent('#sm-regexes');
    expectEq(before.includes('orders.*') && before.includes('orders-eu') && !before.includes('orders-us'), true, `resolved: ${before}`);
    expectEq(await page.locator('#sm-members .cm-regex').first().textContent(), 'orders.*', "a member's pattern");
    // …and again once orders-us exists, then the members are assigned from it.
    await stepUntilText(page, '#sm-regexes', (text) => text.includes('orders-us'));
    const members = await stepUntilText(page, '#sm-members', (text) => text.includes('orders-us-'));
    expectEq(members.includes('payments'), false, `payments matches no pattern: ${members}`);
    // The classic twin, where each client matches its own metadata; Create topic by hand.
    await page.click('#pattern-cases button[data-scenario="regex-new-topic"]');
    expectEq(await page.inputValue('#scenario'), 'regex-new-topic', 'the classic case loaded');
    await page.fill('#create-topic input[name="topic"]', 'orders-x');
    await page.fill('#create-topic input[name="partitions"]', '2');
    await page.click('#create-topic button[type="submit"]');
    expectEq((await page.textContent('#user-actions')).includes('orders-x'), true, 'the creation is one of the actions');
    await stepUntilText(page, '#assignments', (text) => text.includes('orders-x'), 2000);
    // A name Kafka refuses is named in the error, and the page keeps working.
    await page.fill('#create-topic input[name="topic"]', 'bad name!');
    await page.click('#create-topic button[type="submit"]');
    await page.waitForSelector('#pg-message.error');
    expectEq((await page.textContent('#pg-message')).includes('bad name!'), true, 'the error names the topic');
    await page.click('#step');
    // In Chinese, on a phone: the row and the resolved patterns are labelled in Chinese.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}?lang=zh&scenario=consumer-protocol-regex-new-topic&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq((await page.textContent('#pattern-cases')).includes('按模式'), true, 'the row in Chinese');
    expectEq(await page.textContent('#sm-regexes').then((x) => x.includes('orders-eu')), true, 'the patterns shown');
    expectEq(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll');
    await page.screenshot({ path: new URL('pattern-zh-390.png', out).pathname, fullPage: true });
  },
  PG,
);

await test(
  'the Chinese page is Chinese throughout: its book link opens the Chinese book, and the timeline is labelled in Chinese',
  async (page) => {
    await page.goto(`${server.url}?lang=zh&scenario=leave-while-stable&moment=key`);
    await page.waitForSelector('body[data-wasm="ready"]');
    expectEq((await page.getAttribute('#mode-book', 'href')).endsWith('book/zh/leaving.html'), true, 'the Chinese book');
    const label = await page.getAttribute('#tl-canvas', 'aria-label');
    expectEq(/requests|consumers/.test(label) || !label.includes('个请求'), false, `the timeline's label: ${label}`);
  },
  PG,
);

await test(
  'the ownership chart is drawn at the width it is shown at when first opened (not stretched)',
  async (page) => {
    await page.goto(`${server.url}?lang=en&scenario=leave-while-stable&step=68`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.click('#ownership summary');
    const [drawn, shown] = await page
      .locator('#own-canvas')
      .evaluate((c) => [c.width / Math.min(2, devicePixelRatio || 1), c.getBoundingClientRect().width]);
    expectEq(Math.abs(drawn - shown) <= 1, true, `drawn ${drawn} px wide, shown ${shown} px`);
  },
  PG,
);

await test(
  'an embed without a height takes the height of what it shows, and nothing scrolls inside it',
  async (page) => {
    const frame = await openEmbed(page, '#auto-height');
    await page.waitForFunction(() => {
      const f = document.querySelector('#auto-height iframe');
      return f && f.style.height !== '600px';
    });
    await page.waitForTimeout(300);
    const outer = await page.locator('#auto-height iframe').evaluate((f) => f.getBoundingClientRect().height);
    const inner = await frame.locator('.playground').evaluate((p) => ({ scroll: p.scrollHeight, client: p.clientHeight }));
    expectEq(inner.scroll <= inner.client + 1, true, `no scroll inside (content ${inner.scroll}, frame ${inner.client})`);
    expectEq(outer > 200 && outer < 2000, true, `a height that fits (${outer} px)`);
    // It follows the content: a step that changes the views resizes the frame, and it settles.
    await frame.locator('#next-moment').click();
    await page.waitForTimeout(500);
    const after = await frame.locator('.playground').evaluate((p) => p.scrollHeight - p.clientHeight);
    expectEq(after <= 1, true, `still nothing to scroll after a step (${after})`);
  },
  'book/embedding.html',
);

await test(
  'the book embeds the assign widget',
  async (page) => {
    const frame = await openEmbed(page, 'kafka-group-playground[strategy="cooperative-sticky"]');
    expectEq(await frame.locator('#assign-strategy').inputValue(), 'cooperative-sticky', 'the strategy of the element');
    expectEq(await frame.locator('#assign-result tr[data-member="c3"] td.added').textContent(), '—', 'c3 waits a round');
    const said = await frame.locator('#assign-notes').textContent();
    expectEq(said.includes('follow-up rebalance') && said.includes('c3'), true, `and the widget says so: ${said}`);
    // Where the table has room, no partition name breaks after its hyphen ("orders-" / "2"):
    // the frame made 500 px wide, whatever the book's own layout (without the rule, this
    // group's names break at that width).
    await page.locator('kafka-group-playground[strategy="cooperative-sticky"]').evaluate((e) => {
      e.style.display = 'block';
      e.style.width = '500px';
    });
    await frame
      .locator('body')
      .evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(innerWidth)))));
    expectEq(await frame.locator('body').evaluate(() => innerWidth), 500, 'the frame 500 px wide');
    const broken = await frame
      .locator('#assign-result .tp')
      .evaluateAll((spans) => spans.filter((s) => s.getClientRects().length > 1).map((s) => s.textContent));
    expectEq(broken.length === 0 && (await frame.locator('#assign-result .tp').count()) > 0, true, `names on one line (${broken})`);
    const second = await openEmbed(page, 'kafka-group-playground[strategy="roundrobin"]');
    // Round robin deals orders-0..3 then payments-0..3 in turn, skipping c2 for payments: c2 ends with one.
    expectEq(
      await second.locator('#assign-result tr[data-member="c1"] td.assigned').textContent(),
      'orders 0,3; payments 1,3',
      "the element's group",
    );
    expectEq(await second.locator('#assign-result tr[data-member="c2"] td.assigned').textContent(), 'orders 1', 'c2 reads only orders');
    // The book gives the widgets no height: each frame takes its content's, and follows it when
    // the reader writes a longer group or a shorter one.
    const selector = 'kafka-group-playground[strategy="roundrobin"] iframe';
    const fits = async (what) => {
      await page.waitForFunction(
        (s) => {
          const f = document.querySelector(s);
          const d = f.contentDocument.documentElement;
          return (
            d.scrollHeight <= d.clientHeight && f.contentDocument.getElementById('app').getBoundingClientRect().bottom > d.clientHeight - 4
          );
        },
        selector,
        { timeout: 5000 },
      );
      const height = await page.locator(selector).evaluate((f) => f.getBoundingClientRect().height);
      expectEq(height > 200 && height < 2000, true, `${what}: a height that fits (${height} px)`);
      return height;
    };
    const before = await fits('as the book gives it');
    const text = await second.locator('#assign-group').inputValue();
    const longer = `${text}\n${Array.from({ length: 8 }, (_, i) => `c${i + 4}: orders`).join('\n')}`;
    await second.locator('#assign-group').fill(longer);
    await second.locator('#assign-result tr[data-member="c11"]').waitFor();
    const grown = await fits('eight more members');
    expectEq(grown > before + 100, true, `the frame grew with the table (${before} → ${grown} px)`);
    await second.locator('#assign-group').fill(text);
    await second.locator('#assign-result tr[data-member="c11"]').waitFor({ state: 'detached' });
    const shrunk = await fits("back to the book's group");
    expectEq(Math.abs(shrunk - before) <= 1, true, `the frame shrank back (${grown} → ${shrunk} px, first ${before})`);
  },
  'book/trying-assignors.html',
);

await test(
  'the Chinese book embeds the assign widget on the same groups, in Chinese',
  async (page) => {
    const second = await openEmbed(page, 'kafka-group-playground[strategy="roundrobin"]');
    expectEq(await second.locator('html').getAttribute('lang'), 'zh-CN', 'the widget in Chinese');
    expectEq(await second.locator('#assign-error').count(), 0, 'the group reads without an error');
    expectEq(
      await second.locator('#assign-result tr[data-member="c1"] td.assigned').textContent(),
      'orders 0,3; payments 1,3',
      "the element's group, one member a line",
    );
    expectEq(await second.locator('#assign-result tr[data-member="c2"] td.assigned').textContent(), 'orders 1', 'c2 reads only orders');
  },
  'book/zh/trying-assignors.html',
);

await test(
  'a 50-consumer, 500-partition group plays at full speed (frame times measured)',
  async (page) => {
    const t0 = Date.now();
    await page.selectOption('#scenario', 'large-group-50');
    const loadMs = Date.now() - t0;
    await page.locator('#speed').evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('#play');
    await page.waitForTimeout(500);
    // Frame times over 4 s of play (or to the scenario's end, 600 simulated s, if it comes
    // first), measured with no tracing running (tracing costs CPU on a 2-core machine); the trace
    // below is for the breakdown only.
    await page.evaluate(() => {
      window.playgroundTest.frameTimes.length = 0;
      window.playgroundTest.frameStamps.length = 0;
    });
    await page
      .waitForFunction(() => !window.playgroundTest.playing, null, { timeout: 4000 })
      .catch(() => {
        /* still playing */
      });
    const ended = await page.evaluate(() => !window.playgroundTest.playing);
    const frames = await page.evaluate(() => [...window.playgroundTest.frameTimes]);
    const stamps = await page.evaluate(() => [...window.playgroundTest.frameStamps]);
    // The frame that reaches the end redraws everything, as a pause does: measured apart.
    if (ended) {
      frames.pop();
      stamps.pop();
    }
    const simulated = await page.textContent('#sim-time');
    // Pausing draws the tables a large group does not draw while playing; each step after that
    // redraws what changed. Timed with the layout they cause.
    const [pauseMs, ...stepMs] = await page.evaluate(() => {
      const pg = window.playgroundTest;
      const timed = (f) => {
        const t = performance.now();
        f();
        void document.body.offsetHeight;
        return performance.now() - t;
      };
      return [timed(() => pg.stop()), ...Array.from({ length: 9 }, () => timed(() => pg.stepOnce()))];
    });
    stepMs.sort((a, b) => a - b);
    console.log(
      `  measure: 50 consumers, layout included: pausing ${pauseMs.toFixed(0)} ms (the tables drawn); ` +
        `a step while paused: median ${stepMs[4].toFixed(0)} ms, max ${stepMs[8].toFixed(0)} ms`,
    );
    // Time travel in the page (the player's checkpoints; drawing included): a step back, a scrub
    // to the middle and back to where it was. Reported, not asserted (benchmarks assert nothing
    // about speed either; scripts/bench.sh has the model's own figures).
    const travel = await page.evaluate(async () => {
      const pg = window.playgroundTest;
      const timed = (f) => {
        const t = performance.now();
        f();
        void document.body.offsetHeight;
        return performance.now() - t;
      };
      /** A scrub: the views that follow every step at once (layout included), and the time until
       * the tables, drawn in the next frame, are laid out too. */
      const scrub = async (step) => {
        const t = performance.now();
        const first = timed(() => pg.scrub(step));
        await new Promise((done) => requestAnimationFrame(() => done()));
        void document.body.offsetHeight;
        return [first, performance.now() - t];
      };
      const end = pg.cursor;
      const back = Array.from({ length: 5 }, () => timed(() => pg.goto(pg.cursor - 1))).sort((a, b) => a - b);
      const middle = await scrub(Math.floor(end / 2));
      const again = await scrub(end - 5);
      return { end, back: back[2], middle, again, cursor: pg.cursor };
    });
    expectEq(travel.cursor, travel.end - 5, 'time travel lands where asked');
    console.log(
      `  measure: time travel at step ${travel.end}, drawing and layout included: a step back ${travel.back.toFixed(0)} ms (median of 5); ` +
        `a scrub to the middle ${travel.middle[0].toFixed(0)} ms (tables done at ${travel.middle[1].toFixed(0)} ms), ` +
        `back to the end ${travel.again[0].toFixed(0)} ms (tables done at ${travel.again[1].toFixed(0)} ms)`,
    );
    // The large assignment table scrolls in its panel; selecting a cell (which redraws the table)
    // and stepping keep the reader's place in it. The scroll is given a frame to be reported, as
    // it would be between a user's scroll and click.
    await page.evaluate(() => {
      document.querySelector('#assignments .as-scroll').scrollTop = 200;
    });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const scrolled = await page.evaluate(() => {
      const before = document.querySelector('#assignments .as-scroll');
      const top = before.scrollTop;
      document.querySelector('#assignments td[data-index]').click();
      for (let i = 0; i < 20; i++) window.playgroundTest.stepOnce();
      const after = document.querySelector('#assignments .as-scroll');
      return [top, after.scrollTop, document.querySelector('#assignments td.selected') !== null];
    });
    expectEq(scrolled[0] > 0 && scrolled[2], true, `the table was scrolled, then a cell selected (${scrolled})`);
    expectEq(scrolled[1], scrolled[0], 'the assignment table keeps its scroll position over a selection and 20 steps');
    await page.click('#restart');
    await page.click('#play');
    await page.waitForTimeout(300);
    // Where the browser's time goes while playing (Chromium's own trace, 3 s): our script per
    // animation frame, then the browser's style, layout, paint, commit and compositing.
    const tracePath = new URL('play-trace.json', out).pathname;
    await browser.startTracing(page, { path: tracePath, categories: ['devtools.timeline', 'viz', 'cc'] });
    await page.waitForTimeout(3000);
    await browser.stopTracing();
    await page.evaluate(() => window.playgroundTest.stop());
    const trace = JSON.parse(readFileSync(tracePath, 'utf8'));
    const events = trace.traceEvents ?? trace;
    const threadNames = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
    const busy = {};
    for (const e of events) {
      const thread = threadNames.get(`${e.pid}:${e.tid}`);
      const key =
        thread === 'CrRendererMain' && ['FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'Commit', 'Layerize'].includes(e.name)
          ? e.name
          : thread === 'VizCompositorThread' && e.name === 'SoftwareRenderer::DoDrawQuad'
            ? 'compositing (software)'
            : null;
      if (key && e.ph === 'X' && e.dur) busy[key] = (busy[key] ?? 0) + e.dur / 1000;
    }
    console.log(
      `  measure: in 3 s of playing, ms spent on: ${Object.entries(busy)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
    const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));
    console.log(
      '  parts (ms summed)',
      JSON.stringify(round(await page.evaluate(() => window.playgroundTest.parts))),
      'largest in one frame',
      JSON.stringify(round(await page.evaluate(() => window.playgroundTest.partsMax))),
    );
    /** The q-quantile of a sorted list, as text. */
    const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    const sorted = [...frames].sort((a, b) => a - b);
    const p = (q) => quantile(sorted, q);
    const over = frames.filter((f) => f > 16).length;
    const gaps = stamps
      .slice(1)
      .map((x, i) => x - stamps[i])
      .sort((a, b) => a - b);
    const g = (q) => quantile(gaps, q);
    console.log(
      `  measure: frame intervals (paint included): median ${g(0.5)} ms, p95 ${g(0.95)} ms, ` +
        `${gaps.filter((x) => x > 17).length} of ${gaps.length} over 16.7 ms`,
    );
    console.log(
      `  measure: large-group-50 load (look-ahead then goes on in idle time) ${loadMs} ms; script time per frame over ${frames.length} frames: ` +
        `median ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${sorted.at(-1).toFixed(1)} ms, ${over} over 16 ms; ` +
        `simulated to ${simulated}${ended ? ' (the end)' : ''}`,
    );
    // Max speed does as many steps as a frame's budget allows, so a fast machine reaches the
    // scenario's end (600 simulated s) in fewer frames: 4 s of play, or 20 frames to the end.
    expectEq(frames.length > (ended ? 20 : 50), true, `frames were drawn (${frames.length}${ended ? ', to the end' : ''})`);
    await page.screenshot({ path: new URL('large-group.png', out).pathname, fullPage: true });
  },
  PG,
);

/** group-broker (the wire front end), with its live feed, on free loopback ports: `{ proc,
 * bootstrap, live }`. Built by the test command's live step; built here if it is missing. */
async function startBroker() {
  const bin = new URL('../target/debug/group-broker', import.meta.url).pathname;
  if (!existsSync(bin)) execFileSync('cargo', ['build', '-q', '-p', 'group-broker'], { stdio: 'inherit' });
  const proc = spawn(bin, [
    '--listen',
    '127.0.0.1:0',
    '--live',
    '127.0.0.1:0',
    '--topic',
    'orders:4',
    '--set',
    'group.initial.rebalance.delay.ms=0',
  ]);
  let output = '';
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`group-broker did not start: ${output}`)), 10000);
    proc.stdout.on('data', (d) => {
      output += d;
      const bootstrap = output.match(/listening on (\S+)/)?.[1];
      const live = output.match(/live feed on (ws:\/\/\S+)/)?.[1];
      if (bootstrap && live) {
        clearTimeout(timer);
        resolve({ bootstrap, live });
      }
    });
  });
  return { proc, ...ready };
}

await test('the console follows a live group-broker run: a real KafkaJS consumer joins and leaves', async (page) => {
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

await test(
  'the playground follows a live group-broker run in every view: two real KafkaJS consumers join, one leaves',
  async (page) => {
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
  },
  PG,
);

await test(
  'the playground opens a group-broker trace file and follows it to its end',
  async (page) => {
    const trace = readFileSync(new URL('../web/test/fixtures/broker-trace.jsonl', import.meta.url));
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
  },
  PG,
);

await test(
  'a link, a live address and an embed attribute of any size: at most 100 characters quoted, and the frame bounded',
  async (page) => {
    // (The test server reads request lines of up to 16 KB: long enough to show the cut.)
    const long = 'z'.repeat(10_000);
    for (const [query, selector] of [
      [`?lang=en&scenario=${long}`, '#pg-message'],
      [`?lang=en&scenario=leave-while-stable&v=${long}`, '#pg-message'],
      [`?lang=en&live=${long}`, '#pg-message'],
      [`?mode=console&live=${long}`, '#message'],
    ]) {
      await page.goto(server.url + query);
      await page.waitForSelector('body[data-wasm="ready"]');
      const said = await page.textContent(selector);
      expectEq(said.includes('z'.repeat(100)) && !said.includes('z'.repeat(101)), true, `${query.slice(0, 40)}: quoted in part`);
      expectEq(said.length < 400, true, `${query.slice(0, 40)}: a short message (${said.length} characters)`);
      // At a phone's width, the quote breaks where it must: the page never scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      expectEq(await page.evaluate(() => document.documentElement.scrollWidth), 390, `${query.slice(0, 40)}: no sideways scroll at 390 px`);
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
    // The custom element: a fixed height is bounded both ways, whatever the attribute says.
    await page.goto(`${server.url}example-docs.html`);
    const heights = await page.evaluate(async () => {
      const out = [];
      for (const height of ['1e9', '5', 'auto', '640']) {
        const el = document.createElement('kafka-group-playground');
        el.setAttribute('scenario', 'x'.repeat(5000));
        el.setAttribute('height', height);
        document.body.append(el);
        const frame = el.querySelector('iframe');
        out.push([height, Number.parseFloat(frame.style.height), frame.title.length]);
        el.remove();
      }
      return out;
    });
    for (const [height, px, title] of heights) {
      expectEq(px >= 120 && px <= 2000, true, `height="${height}" gives a frame of ${px} px`);
      expectEq(title < 150, true, `the frame's title quotes the scenario in part (${title} characters)`);
    }
    expectEq(heights.find(([h]) => h === '640')[1], 640, 'a height within bounds is kept');
  },
  PG,
);

await test(
  'an imported run of 1,000 consumers on 100,000 partitions at step 50,000: reached in slices, no task of 200 ms, the consumers a page at a time, and the page works after',
  async (page) => {
    // Made by the model's own package, as the page's Export JSON would write it.
    const pkg = await import('../web/pkg/group_coordinator_wasm.js');
    pkg.initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
    const run = {
      format: 'kafka-group-playground-run',
      version: 1,
      scenario: pkg.largeGroupScenario(1000, 100, 3_600_000),
      actions: [],
      step: 50_000,
    };
    await watchLongTasks(page);
    const started = Date.now();
    await page.setInputFiles('#import', { name: 'large.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
    await page.waitForSelector('#pg-reach:not([hidden])', { timeout: 15000 });
    await page.waitForSelector('#pg-reach[hidden]', { state: 'attached', timeout: 120000 });
    const { ms: longest } = await longestTask(page);
    console.log(`  measure: import of 1,000 x 100 to step 50,000 in ${Date.now() - started} ms; the longest task ${longest.toFixed(0)} ms`);
    expectEq(await stepNo(page), 50000, 'the step of the file');
    if (longest >= 200) throw new Error(`a task of ${longest.toFixed(0)} ms`);
    // The consumers' tables and lanes show a page of 50, and turn pages together.
    const shown = () =>
      page.evaluate(() => ({
        consumers: document.querySelectorAll('#consumer-table tbody tr').length,
        first: document.querySelector('#consumer-table tbody tr')?.dataset.consumer,
        machines: document.querySelectorAll('#member-sm tbody tr').length,
        assigned: document.querySelector('#assignment-table tbody tr th')?.textContent?.trim(),
        pagers: [...document.querySelectorAll('.row-pager span')].map((s) => s.textContent.trim()),
      }));
    let now = await shown();
    expectEq(now.consumers, 50, 'a page of consumers');
    expectEq(now.machines, 50, 'a page of member state machines');
    expectEq([now.first, now.assigned].join(), 'c0,c0', 'the first page');
    expectEq(
      now.pagers.join('|'),
      ['Rows 1–50 of 1000', 'Rows 1–50 of 1000', 'Rows 1–50 of 1000', 'Rows 1–50 of 1000'].join('|'),
      'every pager',
    );
    await page.click('#consumer-pages [data-page="after"]');
    now = await shown();
    expectEq([now.first, now.assigned].join(), 'c50,c50', 'the next page in both tables');
    expectEq(
      new Set(now.pagers).size === 1 && now.pagers[0] === 'Rows 51–100 of 1000',
      true,
      `every pager on the next page: ${now.pagers}`,
    );
    // The model still answers: a step on, and back.
    await page.click('#step');
    expectEq(await stepNo(page), 50001, 'a step on');
    await page.click('#back');
    expectEq(await stepNo(page), 50000, 'and back');
  },
  PG,
);

await test(
  'a run file of 18 MB (90,000 script steps, 1,000 consumers) is announced, then read and built with no task of a second, and plays',
  async (page) => {
    const pkg = await import('../web/pkg/group_coordinator_wasm.js');
    pkg.initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
    const scenario = pkg.largeGroupScenario(1000, 100, 3_600_000);
    const narrate = {
      en: 'A short pause of the consumer for garbage collection, narrated at length so that the file is large.',
      zh: '短暂的停顿。',
    };
    scenario.script = Array.from({ length: 90_000 }, (_, i) => ({
      atMs: 1000 + i * 30,
      action: { type: 'pause', consumer: `c${i % 1000}`, kind: 'gc' },
      narrate,
    }));
    const body = JSON.stringify({ format: 'kafka-group-playground-run', version: 1, scenario, actions: [], step: 0 });
    expectEq(body.length > 18_000_000 && body.length < 20_000_000, true, `a file of ${body.length} characters`);
    // The file reaches the input from the page's own fetch (Playwright's setInputFiles decodes
    // it in the page: a task of its own of two seconds).
    await page.route('**/big-run.json', (route) => route.fulfill({ body, contentType: 'application/json' }));
    await page.evaluate(async () => {
      const blob = await (await fetch('big-run.json')).blob();
      window.bigFile = new File([blob], 'big-run.json', { type: 'application/json' });
    });
    await watchLongTasks(page);
    const from = await pageNow(page);
    await page.evaluate(() => {
      window.reachSaid = [];
      const bar = document.querySelector('#pg-reach');
      new MutationObserver(() => !bar.hidden && window.reachSaid.push(bar.textContent)).observe(bar, {
        attributes: true,
        childList: true,
        subtree: true,
        characterData: true,
      });
      const input = document.querySelector('#import');
      const files = new DataTransfer();
      files.items.add(window.bigFile);
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForSelector('#consumer-pages', { timeout: 30000 });
    await page.waitForTimeout(1500);
    const { ms: longest } = await longestTask(page, from);
    console.log(`  measure: an 18 MB run file: the longest task ${longest.toFixed(0)} ms`);
    if (longest >= 1000) throw new Error(`a task of ${longest.toFixed(0)} ms`);
    const said = await page.evaluate(() => window.reachSaid);
    expectEq(
      said.some((t) => t.includes('big-run.json')),
      true,
      `the reading announced: ${said.slice(0, 2)}`,
    );
    expectEq((await page.textContent('#scenario-title .title-text')).includes('1000 consumers'), true, "the imported run is the page's");
    await page.click('#step');
    expectEq(await stepNo(page), 1, 'it steps');
  },
  PG,
);

await test(
  'a fast live feed (4,000 lines a second, several a message) is followed in the playground and the console with no long task, every response checked',
  async (page) => {
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
  },
  PG,
);

await test(
  'the playground refuses a live address that is not a WebSocket, and keeps its scenario',
  async (page) => {
    await page.goto(`${server.url}?lang=en&live=${encodeURIComponent('http://example.invalid/')}`);
    await page.waitForSelector('body[data-wasm="ready"]');
    await page.waitForSelector('#pg-message:has-text("must be a ws:// or wss:// address")');
    expectEq(await page.isVisible('#pg-live'), false, 'no live bar');
    await page.click('#step');
    expectEq((await page.textContent('#step-no')).includes('1'), true, 'the default scenario steps');
  },
  PG,
);

await test('the console refuses a live address that is not a WebSocket, and keeps working', async (page) => {
  await page.goto(`${server.url}?mode=console&live=${encodeURIComponent('http://example.invalid/')}`);
  await page.waitForSelector('body[data-wasm="ready"]');
  expectEq((await page.textContent('#message')).includes('must be a ws:// or wss:// address'), true, 'the reason');
  expectEq(await page.isVisible('#send'), true, 'the console is usable');
  await page.click('#next-step');
  await page.waitForSelector('#log .exchange');
});

await test(
  'navigation to the first drawn scenario (measured)',
  async (page) => {
    const timing = await page.evaluate(() => performance.now());
    const sizes = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((r) => r.name.endsWith('.wasm') || r.name.endsWith('.js'))
        .map((r) => `${r.name.split('/').pop()} ${r.encodedBodySize} B`),
    );
    console.log(`  measure: first scenario drawn ${timing.toFixed(0)} ms after navigation; ${sizes.join(', ')}`);
    expectEq(await page.locator('#state-machine svg').count(), 1, 'the state machine is drawn');
  },
  PG,
);

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
