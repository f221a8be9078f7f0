import { expectEq, open, out, server, state, test } from '../support.mjs';

test('the console can be typed into: its time follows the clock, its group follows the request, timers read as durations, errors as sentences', async ({
  page,
}) => {
  await open(page);
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

test('a JoinGroup composed in the console gets MEMBER_ID_REQUIRED, then joins', async ({ page }) => {
  await open(page);
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

test('the default example (leave while PreparingRebalance) runs to generation 2', async ({ page }) => {
  await open(page);
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

test("the console keeps the user's own request, and the example stops once the user sends one", async ({ page }) => {
  await open(page);
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

test('the console in Chinese: lang set, every label translated, and a switch that keeps the session', async ({ page }) => {
  await open(page);
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

test('group configs by hand in the console: IncrementalAlterConfigs sets the session, a bad value is refused by name, DescribeConfigs reads it back', async ({
  page,
}) => {
  await open(page);
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

test('a KIP-848 consumer group by hand in the console: the example, then a member composed with Fill defaults', async ({ page }) => {
  await open(page);
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

test('a malformed request shows an error and the page keeps working', async ({ page }) => {
  await open(page);
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

test('switching examples and restarting with Kafka 3.x settings', async ({ page }) => {
  await open(page);
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

test('the console refuses a live address that is not a WebSocket, and keeps working', async ({ page }) => {
  await open(page);
  await page.goto(`${server.url}?mode=console&live=${encodeURIComponent('http://example.invalid/')}`);
  await page.waitForSelector('body[data-wasm="ready"]');
  expectEq((await page.textContent('#message')).includes('must be a ws:// or wss:// address'), true, 'the reason');
  expectEq(await page.isVisible('#send'), true, 'the console is usable');
  await page.click('#next-step');
  await page.waitForSelector('#log .exchange');
});
