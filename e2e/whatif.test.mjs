// The What-if page in Debian's Chromium (issue 15): a reader opens it, switches four
// states from relocation to payment, compares, and sees the coverage and the frontier
// change; the CSV of the states and the scenario file of B download with what the
// page showed; a field out of bounds gets the form again naming it. The page needs no
// JavaScript (the CSP forbids it): every step is a select, a button or a link.
//
// Run by whatif_test.go (TestWhatIfInBrowser), which serves the real handler and sets
// SOLIDARITY_URL and SOLIDARITY_TMP; the screenshot goes to SOLIDARITY_SCREENSHOTS
// when set (docs/screenshots, say), else to SOLIDARITY_TMP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launch, watchedPage, text } from './browser.mjs';
import { BASE } from './pages.mjs';

const SHOTS = process.env.SOLIDARITY_SCREENSHOTS || process.env.SOLIDARITY_TMP || '.';

let browser;
before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
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

// submit clicks the form's button and waits for the answer.
async function submit(page) {
  const [res] = await Promise.all([page.waitForNavigation(), page.locator('#compare').click()]);
  return res;
}

// download clicks a link and returns the file's name and text.
async function download(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return { name: dl.suggestedFilename(), body: readFileSync(await dl.path(), 'utf8') };
}

// csvRows splits a CSV without quoted commas (the states table has none) into rows.
function csvRows(body) {
  const [head, ...rows] = body.trim().split('\n').map((l) => l.split(','));
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

test('four states pay instead of relocating: coverage and the frontier change, and the downloads say so', async (t) => {
  const { page, problems } = await watchedPage(t, browser, BASE);
  const res = await page.goto('/whatif');
  assert.equal(res.status(), 200);
  assert.equal(await page.locator('#base-select').inputValue(), 'cycle-2026', 'the page opens on the first cycle');
  const selects = await page.locator('#choices-table select').count();
  assert.ok(selects >= 26, `${selects} choices: want one for every state`);
  assert.equal(await page.locator('#results').count(), 0, 'results before the form was sent');

  // B unchanged first: A and B are the same.
  assert.equal((await submit(page)).status(), 200);
  const before = {
    places: await text(page, '#coverage-places-b'),
    delivered: await text(page, '#coverage-delivered-b'),
    frontier: await page.locator('#whatif-frontier-chart').innerHTML(),
  };
  assert.equal(before.places, await text(page, '#coverage-places-a'), 'B unchanged is not A');

  // Four states that relocate their obligation in the scenario, from its table.
  const rows = await page.$$eval('#states-table tbody tr', (trs) => trs.map((tr) => ({
    state: tr.dataset.state,
    form: tr.querySelector('td.form-b').textContent.trim(),
    obligation: Number(tr.querySelectorAll('td')[2].textContent.replace(/[^\d.]/g, '')),
  })));
  const four = rows.filter((r) => r.form === 'Relocation' && r.obligation > 0).slice(0, 4).map((r) => r.state);
  assert.equal(four.length, 4, `relocating states: ${JSON.stringify(rows)}`);
  for (const s of four) await page.locator(`#choice-${s}`).selectOption('pay');
  assert.equal((await submit(page)).status(), 200);

  const url = new URL(page.url());
  for (const s of four) assert.equal(url.searchParams.get(`choice.${s}`), 'pay', `the address does not keep ${s}'s choice`);
  for (const s of four) {
    assert.equal(await text(page, `#states-table tr[data-state="${s}"] td.form-b`), 'Financial contribution');
    assert.equal(await page.locator(`#choice-${s}`).inputValue(), 'pay', 'the form does not show the choice made');
  }
  const after = {
    places: await text(page, '#coverage-places-b'),
    delivered: await text(page, '#coverage-delivered-b'),
    frontier: await page.locator('#whatif-frontier-chart').innerHTML(),
  };
  assert.notEqual(after.places, before.places, 'the places coverage of B did not change');
  assert.notEqual(after.delivered, before.delivered, 'the coverage delivered by B did not change');
  assert.equal(await text(page, '#coverage-places-a'), before.places, 'A changed with B');
  assert.notEqual(after.frontier, before.frontier, 'the frontier chart did not change');
  assert.match(await text(page, '#title-b'), /Financial contribution instead of Relocation/);
  // The charts are pictures of tables the page gives: each has its name and description.
  for (const id of ['whatif-states-chart', 'whatif-coverage-chart', 'whatif-frontier-chart']) {
    assert.ok((await text(page, `#${id}-title`)).length > 0, `${id} has no title`);
    assert.ok((await text(page, `#${id}-desc`)).length > 0, `${id} has no description`);
  }
  assert.equal(await page.locator('#frontier-table tbody tr').count(), 5, 'the frontier table: the Union and the four states');

  // The states' CSV of B: one row per state, the four paying.
  const csv = await download(page, '#states-csv-b');
  assert.equal(csv.name, 'whatif-cycle-2026-b-states.csv');
  const byState = Object.fromEntries(csvRows(csv.body).map((r) => [r.state, r]));
  for (const s of four) {
    assert.equal(byState[s]?.form, 'pay', `${s} in the CSV: ${JSON.stringify(byState[s])}`);
    assert.ok(Number(byState[s].payment_eur) > 0, `${s} pays nothing in the CSV`);
  }

  // The scenario file of B: the base and the four choices, nothing else changed.
  const toml = await download(page, '#toml-link');
  assert.equal(toml.name, 'whatif-cycle-2026.toml');
  assert.match(toml.body, /^base = "cycle-2026"$/m);
  for (const s of four) assert.ok(toml.body.includes(`[choice.${s}]\nform = "pay"`), `the file lacks ${s}'s choice:\n${toml.body}`);
  assert.doesNotMatch(toml.body, /^\[operations\]|^\[parameters\]/m, 'the file changes what the form left alone');

  const shot = join(SHOTS, 'whatif.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 10_000, 'the screenshot is empty');
  await checkClean(page, problems);
});

test('a field out of bounds gets the form again, naming it, and nothing computed', async (t) => {
  const { page } = await watchedPage(t, browser, BASE);
  for (const [query, field] of [['runs=5000', 'runs'], ['arrivals_scale=-3', 'arrivals_scale'], ['choice.XX=pay', 'choice.XX'], ['base=nope', 'base']]) {
    const res = await page.goto(`/whatif?${query}`);
    assert.equal(res.status(), 400, query);
    assert.equal(await page.locator('#form-error').getAttribute('data-error-field'), field, query);
    assert.equal(await page.locator('#results').count(), 0, `${query}: results shown`);
    assert.equal(await page.locator('#whatif-form').count(), 1, `${query}: no form`);
  }
  // The reader corrects the field and compares.
  await page.goto('/whatif?runs=5000');
  assert.equal(await page.locator('#runs').getAttribute('aria-invalid'), 'true');
  await page.locator('#runs').fill('100');
  assert.equal((await submit(page)).status(), 200);
  assert.equal(await page.locator('#results').count(), 1);
});
