// Share links and files: links that reopen a run, tampered links, far steps, exported JSON and HTML, the address as the run.
// `npx playwright test share` runs these alone.
import { readFileSync } from 'node:fs';
import {
  expectEq,
  HOSTILE,
  longestTask,
  open,
  openLink,
  out,
  PG,
  pageNow,
  pgState,
  server,
  stepNo,
  test,
  watchLongTasks,
} from '../support.mjs';

test("a share link reopens the same run at the same step, with the user's actions", async ({ page, browser }) => {
  await open(page, PG);
  await page.selectOption('#scenario', 'leave-while-stable');
  for (let i = 0; i < 40; i++) await page.click('#step');
  await page.click('#consumer-table button[data-action="crash"][data-consumer="B"]');
  for (let i = 0; i < 25; i++) await page.click('#step');
  const narration = await page.textContent('#narration');
  const state = await pgState(page);
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  expectEq(link.includes('scenario=leave-while-stable') && link.includes('actions=') && link.includes('step=65'), true, `link ${link}`);
  const { page: other, problems } = await openLink(browser, link);
  expectEq(await stepNo(other), 65, 'same step');
  expectEq(await pgState(other), state, 'same state');
  expectEq(await other.textContent('#narration'), narration, 'same narration');
  expectEq((await other.textContent('#consumer-table tr[data-consumer="B"]')).includes('crashed'), true, 'the crash replayed');
  expectEq(problems.join('\n'), '', 'no console errors in the shared page');
  await other.close();
});

test('a tampered or malformed link shows a clear error and the page keeps working', async ({ page }) => {
  await open(page, PG);
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
});

test('a link with an out-of-range step keeps its scenario and actions, opens clamped, and says so', async ({ page }) => {
  await open(page, PG);
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
});

test('a run exported as JSON imports back at the same step; a bad file is refused', async ({ page }) => {
  await open(page, PG);
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
});

test('a run exported as one self-contained HTML file opens offline at the same step', async ({ page, browser }) => {
  await open(page, PG);
  await page.selectOption('#scenario', 'leave-while-stable');
  for (let i = 0; i < 50; i++) await page.click('#step');
  const state = await pgState(page);
  const narration = await page.textContent('#narration');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
  const path = new URL('standalone.html', out).pathname;
  await download.saveAs(path);
  const { page: other, problems } = await openLink(browser, `file://${path}`, { timeout: 15000, offline: true });
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
});

test('hostile names and titles reach the real sinks as text, and an export of them still opens', async ({ page, browser }) => {
  await open(page, PG);
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
  const { page: other, problems } = await openLink(browser, `file://${path}`, { timeout: 15000, offline: true });
  expectEq(await stepNo(other), 40, 'the export opens (not stuck on "Loading…") at the same step');
  expectEq(await other.locator('img').count(), 0, 'nothing inserted as HTML in the export');
  expectEq(await other.evaluate(() => window.__pwned), undefined, 'no injected script ran');
  await other.click('#step');
  expectEq(await stepNo(other), 41, 'the export steps');
  expectEq(problems.join('\n'), '', 'no errors, nothing fetched from a server');
  await other.close();
});

test("a link or embed asking for a far step opens at once at the run's reach and says so", async ({ page }) => {
  await open(page, PG);
  for (const query of ['?lang=en&scenario=normal-join&step=1000000', '?embed=1&lang=en&scenario=normal-join&views=sm,steps&step=999999']) {
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
});

test('a link to a far step of a large group is reached in slices: progress shown, no long task meanwhile, and it can be stopped', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('the address is the run: stepping replaces it, a new scenario pushes it, Back returns, a reload opens the same step, and Share link says it copied', async ({
  page,
}) => {
  await open(page, PG);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${server.url}?lang=en&scenario=leave-while-stable`);
  await page.waitForSelector('body[data-wasm="ready"]');
  const param = async (name) => new URL(page.url()).searchParams.get(name);
  const settled = async (name, value) => page.waitForFunction(([n, v]) => new URL(location.href).searchParams.get(n) === v, [name, value]);
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
  expectEq(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue('#share-link'), 'the link is on the clipboard');
});

test('linking always shows its result: a selection made outside the step table pages it to its step; "first" is offered only where it changes the order', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('a link, a live address and an embed attribute of any size: at most 100 characters quoted, and the frame bounded', async ({
  page,
}) => {
  await open(page, PG);
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
});
