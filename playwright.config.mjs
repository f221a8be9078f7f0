// The browser tests (e2e/tests/*.mjs, one file per area) under Playwright's runner, in Debian's
// Chromium: `npx playwright test` runs them all, `npx playwright test embeds` one area,
// `npx playwright test -g "fit matrix"` the tests whose names match. The built page (web/dist)
// must exist: the test command builds it first.
import { defineConfig } from '@playwright/test';

const chromium = {
  // Debian's chromium (never a downloaded one: the machines have no internet).
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e/tests',
  testMatch: '*.mjs',
  outputDir: 'e2e/out/results',
  // A test drives a whole run of the model (up to a 300-consumer comparison): minutes, not seconds.
  timeout: 180_000,
  // A failure is a failure: no retries hide a flaky test.
  retries: 0,
  // One worker: several areas assert that the page has no long task (a fast live feed, a
  // million partitions, a large run file), and two workers on the two-core machines made one
  // fail (a 309 ms task where a lone run has none over 200); they took 2.9 min against 3.5.
  // E2E_WORKERS=2 runs two for a quicker look. The performance area runs last either way.
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 1,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromium,
    viewport: { width: 1400, height: 1000 },
    acceptDownloads: true,
    screenshot: 'only-on-failure',
    // A trace of every test costs more than the tests on two cores: `--trace retain-on-failure` asks for one.
    trace: 'off',
  },
  projects: [
    { name: 'page', testIgnore: 'performance.mjs' },
    { name: 'performance', testMatch: 'performance.mjs', dependencies: ['page'] },
  ],
});
