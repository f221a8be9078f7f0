import { BOOK_CASES, expectEq, FIT_VIEWS, misfits, open, openEmbed, out, PG, server, stepNo, test } from '../support.mjs';

test('the embed URL shows a chrome-less view of a named scenario', async ({ page, browser }) => {
  await open(page, PG);
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
});

test('a recorded embed whose module fails to load says so, keeps its step, and loads it on the next try; a page that cannot load it says so in its language', async ({
  browser,
}) => {
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
});

test('an embed fits its frame: at 360×300 the controls take one row and stay in view, and the views scroll beneath them', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('an embed of each view at 480×360, classic and consumer protocol: the view shows under the controls, fits the width, and follows a step', async ({
  page,
}) => {
  await open(page, PG);
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
});

test('a narration-only embed (views=narration) at 360×300: no view, the step told in full, and it follows a step', async ({ page }) => {
  await open(page, PG);
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
});

test('the example documentation page embeds live scenarios with <kafka-group-playground>', async ({ page }) => {
  await open(page, 'example-docs.html');
  const frame = await openEmbed(page, 'kafka-group-playground#preparing');
  expectEq(await frame.locator('#group-state').getAttribute('data-state'), 'PreparingRebalance', 'the embed opened at its key moment');
  await frame.locator('#next-moment').click();
  expectEq(await frame.locator('#group-state').getAttribute('data-state'), 'CompletingRebalance', "C's LeaveGroup completes the join");
  const second = await openEmbed(page, 'kafka-group-playground#stable');
  await second.locator('#play').click();
  await second.locator('#group-state[data-state="Stable"]').waitFor({ timeout: 15000 });
  await page.screenshot({ path: new URL('example-docs.png', out).pathname, fullPage: true });
});

test("the fit matrix: the book's four cases at their key moment, every view, in frames of 360×300 to 1440×900 and a 390 px phone page, in English and Chinese", async ({
  page,
}) => {
  await open(page, PG);
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
});

test('every embed in both books takes the height of its content and shows every view it asks for, with nothing scrolling inside it', async ({
  page,
}) => {
  await open(page, 'book/leaving.html');
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
});

test('an embed says what is wrong with its link: unknown views are named, and an unknown scenario is named with nothing running beneath it', async ({
  page,
  browser,
}) => {
  await open(page, PG);
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
});

test('an embed without a height takes the height of what it shows, and nothing scrolls inside it', async ({ page }) => {
  await open(page, 'book/embedding.html');
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
});
