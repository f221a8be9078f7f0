// End-to-end: the built page (the playground, the protocol console, the embeds, the books) in
// Debian's Chromium, driven as a user would. One file per area in e2e/tests/, run in this order;
// e2e/support.mjs has the runner and the shared helpers.
//
//   node e2e/page.mjs                  every area
//   node e2e/page.mjs --area embeds    one area (console, seed, views, share, settings, embeds,
//                                      book, assign, live, performance)
//   node e2e/page.mjs "fit matrix"     only the tests whose names contain the text
//
// Prints "N passed, M failed" last and exits non-zero on failure.
import { finish } from './support.mjs';

const AREAS = ['console', 'seed', 'views', 'share', 'settings', 'embeds', 'book', 'assign', 'live', 'performance'];
const at = process.argv.indexOf('--area');
const area = at > 0 ? process.argv[at + 1] : null;
if (area !== null && !AREAS.includes(area)) {
  console.error(`--area must be one of ${AREAS.join(', ')}; got ${area}`);
  process.exit(2);
}
for (const a of area ? [area] : AREAS) await import(`./tests/${a}.mjs`);
await finish();
