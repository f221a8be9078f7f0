import { BOOK_CASES, expectEq, open, out, PG, pgState, server, stepNo, stepUntil, test } from '../support.mjs';

test('the playground opens on the first seed scenario and plays it to a Stable group', async ({ page }) => {
  await open(page, PG);
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
});

test('seed: a leave while PreparingRebalance lets the delayed join complete at once', async ({ page }) => {
  await open(page, PG);
  await page.selectOption('#scenario', 'leave-while-preparing-rebalance');
  await stepUntil(page, 'the coordinator receives JoinGroup #24 from D');
  expectEq(await pgState(page), 'PreparingRebalance', 'D joined: PreparingRebalance');
  await stepUntil(page, 'the coordinator receives LeaveGroup');
  expectEq(await pgState(page), 'CompletingRebalance', 'after C leaves, the join completed');
  expectEq(await page.textContent('#sm-generation'), '2', 'generation 2');
  expectEq((await page.textContent('#sm-members')).replace(/\s/g, ''), 'A,B,D', 'members after the leave');
  await page.screenshot({ path: new URL('seed-leave-preparing.png', out).pathname, fullPage: true });
});

test('consumer protocol: B leaves while A still revokes; the consumer group machine, epochs and member states follow, in both languages', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('seed: a leave while CompletingRebalance starts a new rebalance; step back and forward', async ({ page }) => {
  await open(page, PG);
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
});

test('the scrubber moves the run both ways, its span stays, and the tables follow', async ({ page }) => {
  await open(page, PG);
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
});

test("the book's four LeaveGroup cases open at the leave: from a link's moment=key, the button and K", async ({ page }) => {
  await open(page, PG);
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
});

test("one click from the picker to each of the book's cases at the leave; moments as labelled chapters, walked with buttons and [ ]", async ({
  page,
}) => {
  await open(page, PG);
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
});

test("who got what: from each of the book's cases one click reaches the moment the new assignment reaches the last member, the new generation beside the old", async ({
  page,
}) => {
  await open(page, PG);
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
});
