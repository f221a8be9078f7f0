// The assignor grid (bench/assignor-grid.mjs) in headless Chromium (Debian's, driven by
// playwright-core): the same module and calls as under Node, in the engine the page and the
// embeds run in. `node bench/chromium-assignors.mjs [filter...]`; prints `CHROMIUM key,ms` lines
// (assignCompact, the form a page with a large group uses).
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../e2e/serve.mjs';

const filter = process.argv.slice(2);
const server = await serve(fileURLToPath(new URL('..', import.meta.url)));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  await page.goto(`${server.url}bench/out/`);
  console.log(`wasm (${await browser.version()} headless)`);
  // The grid runs in one synchronous call in the page (as the page's own calls are); its lines
  // come back at the end.
  const lines = await page.evaluate(async (filter) => {
    const wasm = await import('/web/pkg/group_coordinator_wasm.js');
    await wasm.default();
    const { runGrid } = await import('/bench/assignor-grid.mjs');
    const lines = [];
    runGrid(wasm, filter, (line) => lines.push(line), { json: null, compact: 'CHROMIUM' });
    return lines;
  }, filter);
  for (const line of lines) console.log(line);
} finally {
  await browser.close();
  server.close();
}
