// Browser test of the matching engine on the Diciotti demo (issue 5, "done when": a
// proposal for the Diciotti demo's relocation candidates with an explanation for a
// chosen family). e2e_test.go seeds the demo (internal/app.SeedDiciotti), which leaves
// the candidates meant for Portugal's ten places cleared and unallocated, and sets
// SOLIDARITY_URL, SOLIDARITY_COORDINATOR_USER/_PASSWORD and SOLIDARITY_FAMILIES (how
// many candidate families the demo left).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, watchedPage, text } from './browser.mjs';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const COORD = { user: process.env.SOLIDARITY_COORDINATOR_USER, password: process.env.SOLIDARITY_COORDINATOR_PASSWORD };
const FAMILIES = Number(process.env.SOLIDARITY_FAMILIES || 0);
const DEMO_CYCLE = process.env.SOLIDARITY_DEMO_CYCLE || '9026'; // the demonstration's own cycle (app.DemoCycle)

let browser;

before(async () => {
  assert.ok(BASE && COORD.user && COORD.password && FAMILIES > 0, 'the environment is not set (go test ./e2e/ sets it)');
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test('a proposal for the Diciotti candidates, with an explanation', async (t) => {
  const { page, problems } = await watchedPage(t, browser, BASE);
  await page.goto('/login?next=/relocation');
  await page.locator('#login-form input[name="name"]').fill(COORD.user);
  await page.locator('#login-form input[name="password"]').fill(COORD.password);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation'),
    page.locator('#login-form button[type="submit"]').click(),
  ]);
  await page.locator('#proposal-form select[name="year"]').selectOption(DEMO_CYCLE);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/relocation/proposal'),
    page.locator('#propose').click(),
  ]);

  // Every candidate family is placed in Portugal, the only pledging state with room.
  const rows = page.locator('#placements tr[data-family]');
  assert.equal(await rows.count(), FAMILIES, 'not one row per candidate family of the demo');
  for (let i = 0; i < FAMILIES; i++) {
    assert.equal(await rows.nth(i).getAttribute('data-state'), 'PT', `family ${i} is not placed in Portugal`);
  }

  // The explanation of the first family: where, and the score by component.
  const first = rows.first();
  const family = await first.getAttribute('data-family');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/relocation/proposal') && r.request().method() === 'POST'),
    first.locator('button.explain').click(),
  ]);
  await page.locator('#explanation').waitFor();
  assert.equal(await page.locator('#explanation').getAttribute('data-family'), family);
  const why = await text(page, '#explanation-text');
  assert.match(why, new RegExp(`^Family ${family} \\(\\d+ persons?\\) is placed in PT`), why);
  assert.match(why, /links \S+ × weight 2 \+ preference \S+ × weight 1 \+ integration \S+ × weight 1/, 'the score is not broken down');
  assert.deepEqual(problems, [], 'the pages reported problems');
});
