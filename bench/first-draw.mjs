// How long a reader waits for the playground, from navigation to the first drawn scenario, in
// Chromium: the page and an embed, over loopback and over a 10 Mbit/s link with 40 ms of
// round trip (Chromium's network emulation; the site served gzip, as static hosts serve it).
// Each figure is the median of fresh browser contexts (an empty cache each), after one warm-up;
// both open the same scenario at its key moment. An embed draws from the scenario's recording
// (web/src/playground/recorded.ts); `handover` is how long it then takes to load the module and
// go on with the model when the reader asks for what no recording holds (an action).
// `node bench/first-draw.mjs [runs]`, after `npm run build` (reads web/dist).
import { chromium } from 'playwright-core';
import { serve } from '../e2e/serve.mjs';

const runs = Number(process.argv[2] ?? 7);
const server = await serve('web/dist', '/', { gzip: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const pages = {
  page: '?scenario=leave-while-stable&moment=key',
  embed: '?embed=1&scenario=leave-while-stable&views=sm,steps&moment=key',
};
const links = {
  loopback: null,
  '10mbit': { offline: false, latency: 40, downloadThroughput: (10e6 / 8) | 0, uploadThroughput: (5e6 / 8) | 0 },
};

/** Milliseconds from navigation to the state machine drawn, and the bytes that crossed. */
async function once(search, link) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (link) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', link);
  }
  await page.goto(server.url + search);
  await page.waitForSelector('body[data-wasm="ready"] #state-machine svg', { timeout: 60_000 });
  const result = await page.evaluate(() => ({
    ms: performance.now(),
    // When the module's last byte arrived: the rest is compiling it, running to the step, drawing.
    wasm: performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'))?.responseEnd ?? Number.NaN,
    bytes:
      performance.getEntriesByType('resource').reduce((a, r) => a + r.transferSize, 0) +
      performance.getEntriesByType('navigation')[0].transferSize,
  }));
  let handover = Number.NaN;
  if (search.includes('embed=1')) {
    const t0 = Date.now();
    // An action: no recording holds it, so the model is needed.
    await page.evaluate(() => window.playgroundTest.act({ type: 'crash', consumer: 'A' }));
    await page.waitForSelector('body[data-model="module"]', { timeout: 60_000 });
    handover = Date.now() - t0;
  }
  await context.close();
  return { ...result, handover };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [linkName, link] of Object.entries(links)) {
  for (const [what, search] of Object.entries(pages)) {
    await once(search, link);
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await once(search, link));
    const ms = median(results.map((r) => r.ms));
    const kb = median(results.map((r) => r.bytes)) / 1024;
    const wasm = median(results.map((r) => r.wasm));
    const handover = median(results.map((r) => r.handover));
    const module = Number.isNaN(wasm) ? 'no module' : `module in at ${wasm.toFixed(0)} ms`;
    console.log(`BENCH first_draw ${what} ${linkName} ${ms.toFixed(0)} ms (${module}; ${kb.toFixed(0)} KB transferred)`);
    if (!Number.isNaN(handover)) console.log(`BENCH first_draw ${what} ${linkName} handover to the module ${handover.toFixed(0)} ms`);
  }
}
await browser.close();
server.close();
