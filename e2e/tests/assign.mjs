// The assign widget: groups written as text, groups of real size, in Chinese.
// `npx playwright test assign` runs these alone.
import { expectEq, longestTask, open, out, test, watchLongTasks } from '../support.mjs';

test('the assign widget runs the assignors on a group written as text, and names the line it cannot read', async ({ page }) => {
  await open(page, `?mode=assign&lang=en&strategy=range&group=${encodeURIComponent('topics: orders=5\na: orders\nb: orders')}`);
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
});

test('the assign widget on groups of real size: a million partitions, 2,000 members; the table lists the first and counts the rest', async ({
  page,
}) => {
  await open(page, '?mode=assign&lang=en&strategy=range');
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
});

test('the assign widget in Chinese: the line it cannot read, and its notes, in Chinese', async ({ page }) => {
  await open(page, `?mode=assign&lang=zh&strategy=range&group=${encodeURIComponent('topics: orders=2\na: orders\ntopics: orders=3')}`);
  expectEq(await page.textContent('#assign-error'), '第 3 行：主题 orders 列出了两次', 'the line and why, in Chinese');
  await page.fill('#assign-group', 'topics: orders=2\na: orders | owns orders-5');
  expectEq(await page.textContent('#assign-notes'), '第 2 行：a 拥有 orders-5，但 orders 只有 2 个分区', 'a note, in Chinese');
  expectEq(await page.textContent('#assign-moved'), '1 个分区被交出，2 个分区对其成员来说是新的', 'the summary, in Chinese');
  expectEq(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'the document says Chinese');
});
