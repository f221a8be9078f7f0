// Screenshots to look at before a page change is called done (not a test): the page at desktop
// and phone sizes, a 360×300 embed, and each embed of the book's leaving chapter, in English
// and Chinese. Needs web/dist built (with the book for the chapter's shots).
//
//   node e2e/shots.mjs [OUT_DIR] [NAME_FILTER]      (default: e2e/out/shots)
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const dir = process.argv[2] ?? new URL('./out/shots/', import.meta.url).pathname;
const only = process.argv[3] ?? '';
mkdirSync(dir, { recursive: true });
const server = await serve(new URL('../web/dist/', import.meta.url).pathname);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--disable-gpu'] });

const embed = (lang, views) => `?embed=1&lang=${lang}&scenario=leave-while-stable&moment=key&views=${views}`;
const shots = [];
for (const lang of ['en', 'zh']) {
  shots.push(
    [`desktop-${lang}`, `?lang=${lang}`, { width: 1440, height: 900 }],
    [`phone-${lang}`, `?lang=${lang}&scenario=leave-while-stable&moment=key`, { width: 390, height: 844 }],
    [`phone-first-${lang}`, `?lang=${lang}`, { width: 390, height: 844 }],
    [`embed-360x300-${lang}`, embed(lang, 'sm,steps'), { width: 360, height: 300 }],
    [`embed-360-auto-${lang}`, `${embed(lang, 'sm,timeline,assignments,steps')}&height=auto`, { width: 360, height: 600 }, true],
  );
}
for (const [name, query, viewport, full = false] of shots) {
  if (!name.includes(only)) continue;
  const page = await browser.newPage({ viewport });
  await page.goto(server.url + query);
  await page.waitForSelector('body[data-wasm="ready"]');
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: full });
  await page.close();
}
for (const lang of ['', 'zh/']) {
  const name = `book-${lang ? 'zh' : 'en'}`;
  if (!name.includes(only)) continue;
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${server.url}book/${lang}leaving.html`);
  const frames = page.locator('kafka-group-playground iframe');
  const n = await frames.count();
  for (let i = 0; i < n; i++) {
    await frames.nth(i).scrollIntoViewIfNeeded();
    const frame = await (await frames.nth(i).elementHandle()).contentFrame();
    await frame.waitForSelector('body[data-wasm="ready"]', { timeout: 15000 });
    await page.waitForTimeout(300);
    await frames.nth(i).screenshot({ path: `${dir}/${name}-${i + 1}.png` });
  }
  await page.close();
}
await browser.close();
server.close();
console.log(`screenshots in ${dir}`);
