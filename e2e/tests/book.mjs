// The books: the chapters' embeds, the API pages, the npm package in a documentation site, a sub-path host.
// `npx playwright test book` runs these alone.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../serve.mjs';
import { expectEq, open, openEmbed, out, server, test } from '../support.mjs';

test('the book\'s "When a member leaves" chapter embeds the seed\'s cases, each at its key moment', async ({ page }) => {
  await open(page, 'book/leaving.html');
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
});

test("the book's API pages: the JavaScript reference and the crates' rustdoc are served with it", async ({ page }) => {
  await open(page, 'book/api/javascript.html');
  await page.locator('main h1', { hasText: 'JavaScript API reference' }).waitFor();
  await page.locator('#serverassign').waitFor({ state: 'attached' });
  await page.goto(`${server.url}book/using.html`);
  const link = page.locator('a[href="rustdoc/group_coordinator/index.html"]');
  expectEq(await link.count(), 1, 'the chapter links the rustdoc');
  // Fetched, not opened: rustdoc's own scripts are not this project's to test.
  const rustdoc = await page.request.get(new URL('rustdoc/group_coordinator/index.html', page.url()).toString());
  expectEq(rustdoc.status(), 200, 'the rustdoc is served');
  expectEq((await rustdoc.text()).includes('struct.Coordinator.html'), true, 'the Coordinator is documented');
});

test('the npm package, installed into a documentation site, embeds a live run and gives the JavaScript API, and a site built with Vite bundles it', async ({
  page,
}) => {
  await open(page, 'index.html?mode=console');
  // scripts/package.sh packs it into target/npm/ (the test command runs it before this).
  const packs = new URL('../../target/npm/', import.meta.url);
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
  const vite = new URL('../../node_modules/vite/bin/vite.js', import.meta.url).pathname;
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
});

test('the built site works under a sub-path of a static host: the page, the book, and an embed stepped in each language', async ({
  page,
}) => {
  await open(page);
  const sub = await serve(new URL('../../web/dist/', import.meta.url).pathname, '/docs/kafka/');
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

test('the book embeds the assign widget', async ({ page }) => {
  await open(page, 'book/trying-assignors.html');
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
});

test('the Chinese book embeds the assign widget on the same groups, in Chinese', async ({ page }) => {
  await open(page, 'book/zh/trying-assignors.html');
  const second = await openEmbed(page, 'kafka-group-playground[strategy="roundrobin"]');
  expectEq(await second.locator('html').getAttribute('lang'), 'zh-CN', 'the widget in Chinese');
  expectEq(await second.locator('#assign-error').count(), 0, 'the group reads without an error');
  expectEq(
    await second.locator('#assign-result tr[data-member="c1"] td.assigned').textContent(),
    'orders 0,3; payments 1,3',
    "the element's group, one member a line",
  );
  expectEq(await second.locator('#assign-result tr[data-member="c2"] td.assigned').textContent(), 'orders 1', 'c2 reads only orders');
});
