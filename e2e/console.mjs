// End-to-end: the built console page in Debian's Chromium, driven as a user would.
// Prints "N passed, M failed" last and exits non-zero on failure.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const out = new URL('./out/', import.meta.url);
mkdirSync(out, { recursive: true });
const server = await serve(new URL('../web/dist/', import.meta.url).pathname);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
let passed = 0;
let failed = 0;

async function test(name, body) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(5000);
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-wasm="ready"]');
    await body(page);
    if (problems.length) throw new Error(problems.join('\n'));
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name}\n  ${String(e.stack ?? e).split('\n').join('\n  ')}`);
    await page.screenshot({ path: new URL(`failed-${name.replace(/\W+/g, '-')}.png`, out).pathname, fullPage: true });
  } finally {
    await page.close();
  }
}

function expectEq(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const state = (page) => page.locator('#group-state').getAttribute('data-state');

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
  expectEq(seen.join(','), ['PreparingRebalance', 'PreparingRebalance', 'PreparingRebalance',
    'CompletingRebalance', 'Stable', 'Stable', 'PreparingRebalance', 'PreparingRebalance',
    'CompletingRebalance'].join(','), 'states after each step');
  expectEq(await page.textContent('#generation'), '2', 'generation');
  await page.screenshot({ path: new URL('console-example.png', out).pathname, fullPage: true });
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

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
