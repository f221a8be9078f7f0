// The browser tests' support: the `test` each area registers its tests with (Playwright's, with
// the built page served by each worker and a watched `page`), `open` to open the page ready,
// and the helpers the areas share. The areas are e2e/tests/*.mjs; playwright.config.mjs runs
// them in Debian's Chromium.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { test as playwrightTest } from '@playwright/test';
import { serve } from './serve.mjs';

export const out = new URL('./out/', import.meta.url);
mkdirSync(out, { recursive: true });

/** The built page, served by this worker (`test` starts it). */
export let server;

/** Collects a page's console errors and warnings and its uncaught errors. */
export function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

/** Playwright's test, with its `page` watched: the page's console errors and warnings, and its
 * uncaught errors, fail the test; actions wait 5 s at most. */
export const test = playwrightTest.extend({
  served: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter.
    async ({}, use) => {
      server = await serve(new URL('../web/dist/', import.meta.url).pathname);
      await use(server);
      server.close();
    },
    { scope: 'worker', auto: true },
  ],
  page: async ({ page }, use) => {
    page.setDefaultTimeout(5000);
    const problems = watch(page);
    await use(page);
    if (problems.length) throw new Error(problems.join('\n'));
  },
});

/** Opens the built page at `query` (the console by default) and waits for the model's module. */
export async function open(page, query = '?mode=console') {
  await page.goto(server.url + query);
  if (!query.startsWith('example') && !query.startsWith('book/')) await page.waitForSelector('body[data-wasm="ready"]');
}

/** Opens a link (a share link, an exported file) in a new page of `browser`, watched, once the
 * page is ready; `offline`: any request to a server is a problem too. */
export async function openLink(browser, url, { timeout = 5000, offline = false } = {}) {
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

export function expectEq(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export const state = (page) => page.locator('#group-state').getAttribute('data-state');

/** Records the page's long tasks (over 50 ms): on every page it loads from now on (`onLoad`, the
 * tasks of loading included), or on the page as it is, from now. */
export async function watchLongTasks(page, { onLoad = false } = {}) {
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
export const pageNow = (page) => page.evaluate(() => performance.now());

/** The longest task recorded (`watchLongTasks`) that began at `since` or later, in ms, and how
 * many there were. */
export const longestTask = (page, since = 0) =>
  page.evaluate((from) => {
    const ms = window.longTasks.filter((t) => t.start >= from).map((t) => t.ms);
    return { ms: Math.max(0, ...ms), count: ms.length };
  }, since);

/** An embed on a docs page: scrolled to (its frame loads lazily), then its page, once the module is ready. */
export async function openEmbed(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const frame = page.frameLocator(`${selector} iframe`);
  await frame.locator('body[data-wasm="ready"]').waitFor({ timeout: 15000 });
  return frame;
}

// ---- the playground ------------------------------------------------------------------------

export const PG = '?lang=en';
export const pgState = (page) => page.locator('#group-state').getAttribute('data-state');
export const stepNo = async (page) => Number((await page.textContent('#step-no')).match(/\d+/)[0]);

/** Steps until the current step's lines contain `text`; returns the step number. */
export async function stepUntil(page, text, limit = 400) {
  for (let i = 0; i < limit; i++) {
    await page.click('#step');
    const lines = await page.locator('#step-table tr.current').textContent();
    if (lines.includes(text)) return stepNo(page);
  }
  throw new Error(`no step with "${text}" within ${limit} steps`);
}

export { describeMembers } from './describe-members.mjs';

/** The model's package, loaded in Node (to make what the page would read, as the page's
 * export would write it). */
export async function modelPackage() {
  const pkg = await import('../web/pkg/group_coordinator_wasm.js');
  pkg.initSync({ module: readFileSync(new URL('../web/pkg/group_coordinator_wasm_bg.wasm', import.meta.url)) });
  return pkg;
}

/** Text that breaks naive HTML: it closes a script, opens a comment and a script (the HTML
 * parser's "script data escaped" states), and injects markup. */
export const HOSTILE = '</script><!--<script><img src=x onerror="window.__pwned=1">\u2028';

/** What breaks a view's fit in the page it is in: elements of `selector` outside the window's
 * width, text under 9 px (an SVG's text as drawn, at its scale), and with `noScroll`, any
 * element that scrolls vertically inside the page. */
export const misfits = (page, selector, noScroll) =>
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
        // A state's name is broken only between its words ("Preparing|Rebalance"), never inside
        // one ("PreparingR|ebalance"): each Latin word of its text on one line.
        if (e.classList.contains('state')) {
          for (const n of e.childNodes) {
            if (n.nodeType !== 3) continue;
            for (const word of n.textContent.matchAll(/[A-Za-z_]+/g)) {
              const range = document.createRange();
              range.setStart(n, word.index);
              range.setEnd(n, word.index + word[0].length);
              const lines = new Set([...range.getClientRects()].filter((q) => q.width).map((q) => Math.round(q.top)));
              if (lines.size > 1) out.push(`${name(e)} breaks the word "${word[0]}" over ${lines.size} lines`);
            }
          }
        }
        if (noScroll && /auto|scroll/.test(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1)
          out.push(`${name(e)} scrolls (${e.scrollHeight} in ${e.clientHeight})`);
      }
      return out.slice(0, 8);
    },
    [selector, noScroll],
  );

export const FIT_VIEWS = { sm: '#state-machine', timeline: '#timeline', assignments: '#assignments', steps: '#steps-panel' };
export const BOOK_CASES = [
  'leave-while-preparing-rebalance',
  'leave-while-completing-rebalance',
  'leave-while-stable',
  'last-member-leaves',
];

/** Steps the playground (up to `limit` steps) until `selector`'s text passes `ok`; the text. */
export async function stepUntilText(page, selector, ok, limit = 600) {
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

/** group-broker (the wire front end), with its live feed, on free loopback ports: `{ proc,
 * bootstrap, live }`. Built by the test command's live step; built here if it is missing. */
export async function startBroker() {
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
