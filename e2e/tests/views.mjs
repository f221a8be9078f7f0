import { expectEq, open, out, PG, server, stepNo, stepUntil, stepUntilText, test } from '../support.mjs';

test('the state machine: no trigger label under a state box, and the fired transition says why it fired', async ({ page }) => {
  await open(page, PG);
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
});

test('crashing a consumer: the session timeout removes it', async ({ page }) => {
  await open(page, PG);
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
});

test('switching to Chinese translates the interface and the narration', async ({ page }) => {
  await open(page, PG);
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
});

test('a refused action shows an error and the page keeps working', async ({ page }) => {
  await open(page, PG);
  await page.click('#step');
  await page.click('#consumer-table button[data-action="cut"][data-consumer="B"]');
  await page.click('#consumer-table button[data-action="heal"][data-consumer="B"]');
  await page.evaluate(() => window.playgroundTest.act({ type: 'crash', consumer: 'nobody' }));
  await page.waitForSelector('#pg-message.error');
  expectEq((await page.textContent('#pg-message')).includes('nobody'), true, 'the error names the consumer');
  await page.click('#step');
  expectEq(await page.textContent('#pg-message'), '', 'cleared by the next step');
});

test('play stops at the end and says why; after a crash there it plays on until the group is at rest', async ({ page }) => {
  await open(page, PG);
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
});

test("the user's actions are listed and can be removed or undone; a scenario note after them is marked", async ({ page }) => {
  await open(page, PG);
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
});

test('the assignment table: partition ranges, lists that wrap only between partitions, and generations where nothing moved a click away', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('the timeline: zoom, pan back and follow now again, drag to pan, a look-ahead after now, and it fits a phone', async ({ page }) => {
  await open(page, PG);
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
});

test('what happens next: the user makes a later request arrive first, or drops one, as actions', async ({ page }) => {
  await open(page, PG);
  await page.selectOption('#scenario', 'leave-while-preparing-rebalance');
  // Step until two consumers' requests are both on their way to the coordinator.
  let choice = null;
  for (let i = 0; i < 400 && !choice; i++) {
    await page.click('#step');
    choice = await page.evaluate(() => {
      const items = [...document.querySelectorAll('#upcoming li')].filter(
        (li) => li.querySelector('button[data-action="deliverNow"]:not([disabled])') && li.textContent.includes('reaches the coordinator'),
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
});

test('keys: shortcuts leave native controls alone, and focus survives a redraw', async ({ page }) => {
  await open(page, PG);
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
});

test('a page opened in Chinese says so in <html lang>', async ({ page }) => {
  await open(page, '?lang=zh');
  expectEq(await page.getAttribute('html', 'lang'), 'zh-CN', 'lang at load');
});

test("partition ownership over time shows the zombie's overlap", async ({ page }) => {
  await open(page, PG);
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
});

test('adding a partition from the consumers panel: the consumer group gives it out at its next heartbeat', async ({ page }) => {
  await open(page, '?lang=en&scenario=consumer-protocol-partition-count-change&moment=key');
  // The key moment (orders grows to 9); one more from the panel makes 10.
  await page.click('#add-partitions button[data-topic="orders"]');
  expectEq((await page.locator('#add-partitions').textContent()).includes('(10)'), true, 'the count moved on');
  await stepUntil(page, 'added [orders-9]', 200);
  expectEq((await page.locator('#sm-members').textContent()).includes('9'), true, "the new partition is in a member's assignment");
  expectEq(await page.locator('#sm-generation').textContent(), '4', 'one new group epoch: the next heartbeat finds 10 partitions at once');
});

test('keyboard and screen readers: a skip link to Play, buttons named for what they do and to whom, case rows as groups', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('a first screen that says what this is: one sentence, the four cases, the other rows folded, and Play in the first screen of a phone', async ({
  page,
}) => {
  await open(page, PG);
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
});

test("a topic created later joins a pattern subscription: one click to each protocol's case, the resolved patterns shown, and Create topic as an action", async ({
  page,
}) => {
  await open(page, PG);
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
});

test('the Chinese page is Chinese throughout: its book link opens the Chinese book, and the timeline is labelled in Chinese', async ({
  page,
}) => {
  await open(page, PG);
  await page.goto(`${server.url}?lang=zh&scenario=leave-while-stable&moment=key`);
  await page.waitForSelector('body[data-wasm="ready"]');
  expectEq((await page.getAttribute('#mode-book', 'href')).endsWith('book/zh/leaving.html'), true, 'the Chinese book');
  const label = await page.getAttribute('#tl-canvas', 'aria-label');
  expectEq(/requests|consumers/.test(label) || !label.includes('个请求'), false, `the timeline's label: ${label}`);
});

test('the ownership chart is drawn at the width it is shown at when first opened (not stretched)', async ({ page }) => {
  await open(page, PG);
  await page.goto(`${server.url}?lang=en&scenario=leave-while-stable&step=68`);
  await page.waitForSelector('body[data-wasm="ready"]');
  await page.click('#ownership summary');
  const [drawn, shown] = await page
    .locator('#own-canvas')
    .evaluate((c) => [c.width / Math.min(2, devicePixelRatio || 1), c.getBoundingClientRect().width]);
  expectEq(Math.abs(drawn - shown) <= 1, true, `drawn ${drawn} px wide, shown ${shown} px`);
});

test('a run that has recorded what the page can keep stops and says so in each language; what was recorded stays and a fork goes on', async ({
  page,
}) => {
  for (const lang of ['en', 'zh']) {
    await page.goto(`${server.url}?lang=${lang}&scenario=large-group-50`);
    await page.waitForSelector('body[data-wasm="ready"]');
    // The model's budget is about 2 GB (hours of 1,000 consumers); a few MB is reached in a few
    // thousand steps of 50.
    await page.evaluate(() => window.playgroundTest.setRecordBudget(4_000_000));
    await page.locator('#speed').evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('#play');
    await page.waitForFunction(() => !window.playgroundTest.playing, null, { timeout: 20_000 });
    const said = lang === 'en' ? 'recorded as much as the page can keep' : '已达到页面能保存的上限';
    expectEq((await page.textContent('#pg-message')).includes(said), true, `${lang}: the stop says why`);
    const full = await stepNo(page);
    expectEq(full > 100, true, `${lang}: played ${full} steps first`);
    // Step: no step further, and the reason again.
    await page.click('#step');
    expectEq(await stepNo(page), full, `${lang}: Step takes no step past a full record`);
    expectEq((await page.textContent('#pg-message')).includes(said), true, `${lang}: Step says why`);
    // What was recorded stays: back, and forward again over the known steps.
    await page.evaluate((step) => window.playgroundTest.goto(step), Math.floor(full / 2));
    expectEq(await stepNo(page), Math.floor(full / 2), `${lang}: back to the middle`);
    await page.click('#step');
    expectEq(await stepNo(page), Math.floor(full / 2) + 1, `${lang}: a known step is taken again`);
    // Acting in the past forks the run and gives back its future's room: playing goes on.
    await page.evaluate(() => window.playgroundTest.act({ type: 'crash', consumer: 'c0' }));
    await page.click('#step');
    expectEq(await stepNo(page), Math.floor(full / 2) + 2, `${lang}: the fork steps on`);
  }
});
