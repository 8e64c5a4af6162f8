// Browser test of the proposal with potentials (issue 16, item 6), in Debian's
// Chromium driven by playwright-core: the coordinator asks for a first (static)
// proposal, accepts the placements of three families only (so that something is
// allocated this year) and leaves the others as candidates; then chooses "With
// potentials (Ahani et al.)", asks again, and reads the potentials per Member State,
// the year so far against its hindsight optimum and, for one family, the potentials
// of its state and of its next-best state. No JavaScript on the pages: everything
// here is what a person clicks.
//
// Run by potentials_test.go (go test ./e2e/), which serves the real handler on a
// SQLite ledger with the case flow, a service clock from 1 June, pledges by DE (8),
// FR (6) and ES (5), seven families cleared for relocation, and sets SOLIDARITY_URL,
// SOLIDARITY_COORDINATOR_USER/_PASSWORD, SOLIDARITY_FAMILIES (7), SOLIDARITY_YEAR,
// SOLIDARITY_NAMES and SOLIDARITY_SCREENSHOTS (where the screenshot goes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { launch, watchedPage, text } from './browser.mjs';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const COORD = { user: process.env.SOLIDARITY_COORDINATOR_USER, password: process.env.SOLIDARITY_COORDINATOR_PASSWORD };
const FAMILIES = Number(process.env.SOLIDARITY_FAMILIES || 0);
const NAMES = (process.env.SOLIDARITY_NAMES || '').split(';').filter(Boolean);
const SHOTS = process.env.SOLIDARITY_SCREENSHOTS || '.';
const ACCEPTED = 3;

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  assert.ok(COORD.user && COORD.password, 'the coordinator\'s credentials are not set');
  assert.ok(FAMILIES > ACCEPTED && NAMES.length > 0, 'SOLIDARITY_FAMILIES or _NAMES is not set');
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

async function checkClean(page, problems) {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(problems, [], 'the page reported problems');
}

// number reads a figure the page printed in English (1,234.5).
const number = (s) => Number(s.replace(/[^0-9.\-]/g, ''));

test('the coordinator proposes with potentials and reads the year so far', async (t) => {
  const { page, problems } = await watchedPage(t, browser, BASE, { timeout: 10_000, navigation: 30_000 });
  assert.equal((await page.goto('/login?next=/relocation')).status(), 200);
  await page.locator('#login-form input[name="name"]').fill(COORD.user);
  await page.locator('#login-form input[name="password"]').fill(COORD.password);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation'),
    page.locator('#login-form button[type="submit"]').click(),
  ]);

  // The method is a choice of two, the static optimum by default.
  assert.equal(await page.getByLabel('Static optimum').isChecked(), true, 'the static optimum is not the default');
  assert.equal(await page.getByLabel('With potentials (Ahani et al.)').isChecked(), false);

  // A first proposal: nothing allocated yet, so the year so far says so.
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation/proposal'),
    page.locator('#propose').click(),
  ]);
  assert.equal(await page.locator('#placements tr[data-family][data-state]').count(), FAMILIES, 'a family is not placed');
  assert.match(await text(page, '#hindsight-ratio'), /^Nothing was allocated this year yet/);
  assert.equal(await page.locator('#potentials').count(), 0, 'a static proposal shows potentials');

  // Accept the first three placements only.
  const boxes = page.locator('#placements input[name="accept"]');
  for (let i = ACCEPTED; i < FAMILIES; i++) {
    await boxes.nth(i).uncheck();
  }
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation' && u.searchParams.has('accepted')),
    page.locator('#accept').click(),
  ]);
  assert.equal(await page.locator('#accepted-table tr[data-family]').count(), ACCEPTED);

  // The proposal with potentials for the families left.
  await page.getByLabel('With potentials (Ahani et al.)').check();
  const t0 = performance.now();
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation/proposal'),
    page.locator('#propose').click(),
  ]);
  const ms = performance.now() - t0;
  console.log(`# the proposal with potentials took ${ms.toFixed(0)} ms (page round trip)`);
  assert.equal(await page.getByLabel('With potentials (Ahani et al.)').isChecked(), true, 'the method chosen is not kept');
  const left = FAMILIES - ACCEPTED;
  assert.equal(await page.locator('#placements tr[data-family][data-state]').count(), left, 'a family left is not placed');

  // The potentials per state: one row per pledging state, none negative.
  const rows = page.locator('#potentials tbody tr[data-state]');
  assert.equal(await rows.count(), 3, 'not one row per pledging state');
  let priced = 0;
  for (let i = 0; i < 3; i++) {
    const v = number(await rows.nth(i).locator('td.potential').textContent());
    assert.ok(Number.isFinite(v) && v >= 0, `a potential is ${v}`);
    if (v > 0) priced++;
  }
  // The future (families like those allocated) wants more than some state's room
  // left: at least one place is worth something for the rest of the year.
  assert.ok(priced > 0, 'every potential is zero');
  assert.match(await text(page, '#potentials-section p.note'), /averaged over 20 sampled futures of \d+ families each, drawn from the 3 families allocated this year/);

  // The year so far: the three families allocated against their hindsight optimum.
  const ratio = await text(page, '#hindsight-ratio');
  assert.match(ratio, /^Year so far: \d+(\.\d)?\s% of the hindsight optimum \((proven optimal|not proven optimal; bound [\d.]+)\)\.$/);
  const pct = Number(ratio.match(/^Year so far: ([\d.]+)/)[1]);
  assert.ok(pct > 0 && pct <= 100, `the ratio is not in (0, 100]: ${ratio}`);
  assert.match(await text(page, '#hindsight-detail'), /^3 families allocated this year \(\d+ persons\)/);

  // One family's explanation names its state's potential and the next-best one's.
  const first = page.locator('#placements tr[data-family][data-state]').first();
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/relocation/proposal') && r.request().method() === 'POST'),
    first.locator('button.explain').click(),
  ]);
  await page.locator('#explanation').waitFor();
  assert.match(await text(page, '#explained-potential'), /^Potential of [A-Z]{2}: [\d.]+ per person(; of the next-best state [A-Z]{2}: [\d.]+ per person)?\.$/);
  assert.equal(await page.getByLabel('With potentials (Ahani et al.)').isChecked(), true, 'explaining drops the method');

  for (const n of NAMES) {
    assert.equal(await page.locator('body').getByText(n).count(), 0, 'the page shows a name');
  }
  await checkClean(page, problems);

  await page.locator('#hindsight').scrollIntoViewIfNeeded();
  const shot = join(SHOTS, 'relocation-potentials.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 10_000, 'the screenshot is empty');
  console.log(`# screenshot: ${shot}`);
});
