// Browser test of the matching engine in the case flow (issue 5), in Debian's Chromium
// driven by playwright-core: the coordinator opens the relocation page, asks for a
// proposal for the relocation candidates against the current pledges, sees the
// table, opens the explanation of one family (its score by component and the
// next-best state with what choosing it would cost), accepts every placement, and
// finds the families allocated on the summary and on a case page. The pages need no
// JavaScript and the CSP forbids scripts: everything here is what a person clicks.
//
// Run by e2e_test.go (go test ./e2e/), which serves the real handler with a SQLite
// ledger and the case flow: relocation pledges of the current year by Germany (6) and
// France (4), three families of candidates cleared for relocation (two persons who
// want Germany and speak German, three who want France first and speak French, one
// who wants France), and sets SOLIDARITY_URL, SOLIDARITY_COORDINATOR_USER/_PASSWORD,
// SOLIDARITY_FAMILIES (3), SOLIDARITY_YEAR and SOLIDARITY_NAMES (the fictional names).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, watchedPage, text } from './browser.mjs';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const COORD = { user: process.env.SOLIDARITY_COORDINATOR_USER, password: process.env.SOLIDARITY_COORDINATOR_PASSWORD };
const FAMILIES = Number(process.env.SOLIDARITY_FAMILIES || 0);
const YEAR = process.env.SOLIDARITY_YEAR;
const NAMES = (process.env.SOLIDARITY_NAMES || '').split(';').filter(Boolean);

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  assert.ok(COORD.user && COORD.password, 'the coordinator\'s credentials are not set (go test ./e2e/ sets them)');
  assert.ok(FAMILIES > 0 && YEAR && NAMES.length > 0, 'SOLIDARITY_FAMILIES, _YEAR or _NAMES is not set');
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

// session logs the coordinator in through the form, in a browser context of its own,
// with a page that records console errors, page errors, CSP violations, failed
// requests and HTTP errors.
async function session(t, u) {
  const { page, problems } = await watchedPage(t, browser, BASE, { timeout: 10_000, navigation: 20_000 });
  const res = await page.goto('/login?next=/relocation');
  assert.equal(res.status(), 200);
  await page.locator('#login-form input[name="name"]').fill(u.user);
  await page.locator('#login-form input[name="password"]').fill(u.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/relocation'),
    page.locator('#login-form button[type="submit"]').click(),
  ]);
  assert.equal(await text(page, '#who-name'), u.user, 'the header does not show who is logged in');
  return { page, problems };
}

async function checkClean(page, problems) {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(problems, [], 'the page reported problems');
}

test('the coordinator proposes, reviews an explanation and accepts', async (t) => {
  const { page, problems } = await session(t, COORD);
  assert.equal(await page.locator('#nav-relocation').count(), 1, 'no link to the relocation page');
  assert.equal(await page.locator('#proposal-form select[name="year"]').inputValue(), YEAR, 'the year is not the current one');

  // The proposal: every family placed, within the pledges' room.
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation/proposal'),
    page.locator('#propose').click(),
  ]);
  const rows = page.locator('#placements tr[data-family]');
  assert.equal(await rows.count(), FAMILIES, 'not one row per family of candidates');
  assert.equal(await page.locator('#placements tr[data-family][data-state]').count(), FAMILIES, 'a family is not placed');
  assert.equal(await text(page, '#states tr[data-state="FR"] td.proposed'), '4', 'France\'s room is not used');
  assert.equal(await text(page, '#states tr[data-state="DE"] td.proposed'), '2');
  for (const n of NAMES) {
    assert.equal(await page.locator('body').getByText(n).count(), 0, 'the proposal shows a name');
  }

  // The family of three goes to France (its first preference, and it speaks French);
  // its explanation breaks the score down and names Germany as the next-best state.
  const three = page.locator('#placements tr[data-family]').filter({ has: page.locator('td.size', { hasText: /^3$/ }) });
  assert.equal(await three.count(), 1, 'no family of three');
  assert.equal(await three.getAttribute('data-state'), 'FR');
  const family = await three.getAttribute('data-family');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/relocation/proposal') && r.request().method() === 'POST'),
    three.locator('button.explain').click(),
  ]);
  await page.locator('#explanation').waitFor();
  assert.equal(await page.locator('#explanation').getAttribute('data-family'), family);
  const why = await text(page, '#explanation-text');
  assert.match(why, new RegExp(`^Family ${family} \\(3 persons\\) is placed in FR`));
  assert.match(why, /links 0 × weight 2 \+ preference 1 × weight 1 \+ integration 0\.5 × weight 1/, 'the score is not broken down by component');
  assert.match(why, /next-best place is DE \(score 0\.5/, 'the next-best place is not named');
  assert.match(why, /lower the total score by 1\b/, 'the cost of the next-best place is not given');
  assert.equal(await text(page, '#breakdown tr[data-component="preference"] td:nth-child(4)'), '1');
  assert.equal(await page.locator('#next-best').getAttribute('data-state'), 'DE');
  await checkClean(page, problems);

  // Accept every placement: each family is allocated.
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation' && u.searchParams.has('accepted')),
    page.locator('#accept').click(),
  ]);
  const done = page.locator('#accepted-table tr[data-family]');
  assert.equal(await done.count(), FAMILIES, 'not every family is in the summary');
  for (let i = 0; i < FAMILIES; i++) {
    assert.equal(await done.nth(i).locator('td.outcome').textContent(), 'allocated');
  }
  const row = page.locator(`#accepted-table tr[data-family="${family}"]`);
  assert.equal(await text(page, `#accepted-table tr[data-family="${family}"] td.state`), 'FR');

  // The case page shows the state of relocation.
  const casePath = await row.locator('a').first().getAttribute('href');
  const res = await page.goto(casePath);
  assert.equal(res.status(), 200);
  assert.equal(await text(page, '#allocated'), 'FR', 'the case is not allocated to France');
  assert.equal(await page.locator('#case-state').getAttribute('data-state'), 'RELOCATION_SECURITY_CLEARED');

  // Nothing is left to propose.
  await page.goto('/relocation');
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation/proposal'),
    page.locator('#propose').click(),
  ]);
  assert.equal(await page.locator('#no-candidates').count(), 1, 'allocated families are proposed again');
  await checkClean(page, problems);
});
