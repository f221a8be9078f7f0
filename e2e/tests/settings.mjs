import {
  describeMembers,
  expectEq,
  longestTask,
  open,
  openLink,
  out,
  PG,
  pageNow,
  server,
  stepNo,
  stepUntil,
  test,
  watchLongTasks,
} from '../support.mjs';

test('compare: the rolling restart five ways (classic eager, cooperative, static; consumer protocol, dynamic and static), and two settings of the current scenario', async ({
  page,
  browser,
}) => {
  await open(page, PG);
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
});

test('your group: a describe output read (a bad line named and selected), compared five ways off the main thread, a 300-consumer group read and cancelled, and opened in the playground', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('settings by Kafka name: a bad one is named, a good one restarts the run and travels in the share link', async ({ page, browser }) => {
  await open(page, PG);
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
  const { page: other } = await openLink(browser, link);
  expectEq(await stepNo(other), first, 'same step');
  expectEq(await other.locator('#step-table tr.current td.at').textContent(), String(at), 'same time');
  await other.click('#settings summary');
  expectEq(await other.inputValue('input[name="broker:group.initial.rebalance.delay.ms"]'), '0', 'the setting is shown');
  await other.close();
});

test("the group's own configs (KIP-848): a consumer-protocol group's heartbeat interval set for the group paces its members, a value outside the broker's bounds is named at its field, and both travel in the link", async ({
  page,
  browser,
}) => {
  await open(page, PG);
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
  const { page: other } = await openLink(browser, link);
  await other.click('#settings summary');
  expectEq(await other.inputValue('input[name="group:consumer.heartbeat.interval.ms"]'), '12000', 'the link carries it');
  await other.close();
});

test('a setting that makes every consumer fail is explained at the top, naming the error and the broker setting', async ({ page }) => {
  await open(page, PG);
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
});

test('settings: every Kafka name clear of its field and every field inside the panel, at 1440 px and on a phone, in both languages', async ({
  page,
}) => {
  await open(page, PG);
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
});

test("one consumer's settings and static membership, from its row, travel in the share link", async ({ page, browser }) => {
  await open(page, PG);
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
  const { page: other } = await openLink(browser, link);
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
});

test('the rolling upgrade: its key moment follows the conversion, the members are drawn by protocol, and Compare sets the upgrade beside the cooperative restart', async ({
  page,
}) => {
  await open(page, '?lang=en&scenario=rolling-upgrade-to-consumer-protocol&moment=key');
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
});
