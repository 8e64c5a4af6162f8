// The findings of issue 14, each shown in Debian's Chromium as its reader meets it:
// the dashboard's table fits and sorts, offers CSV beside JSON and an as-of control,
// and reads in German with German numbers; the ledger pages newest first with page N
// of M and finds a case by its ID; the access log pages with its total; an arrival
// draws its case funnel with a table; a benefitting state shows what it receives; the
// public can verify the ledger.
//
// Run by e2e_test.go (TestFindingsInBrowser) on the demonstration server, like
// a11y.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';
import { BASE, who, logIn, poolPath, arrivalAndCase } from './pages.mjs';

let browser;
before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function context(t, opts = {}) {
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width: 1366, height: 900 }, ...opts });
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(20_000);
  return page;
}

const num = (s) => Number(s.replace(/[^\d.-]/g, ''));

test('the dashboard fits, sorts, offers CSV and an as-of control', async (t) => {
  for (const width of [1366, 1920]) {
    const page = await context(t, { viewport: { width, height: 900 } });
    const pool = await poolPath(page);
    const fit = await page.evaluate(() => {
      const table = document.querySelector('#pool-table');
      return { table: table.scrollWidth, column: table.parentElement.clientWidth, page: document.scrollingElement.scrollWidth, vw: innerWidth };
    });
    assert.ok(fit.table <= fit.column, `${width} px: the table is ${fit.table} px in a ${fit.column} px column`);
    assert.ok(fit.page <= fit.vw, `${width} px: the page scrolls sideways (${fit.page} > ${fit.vw})`);
    if (width !== 1366) continue;

    // Sort by the fair share, largest first, by its header's link.
    await Promise.all([page.waitForURL(/sort=fair/), page.locator('#pool-table th.col-fair a').click()]);
    let url = new URL(page.url());
    if (url.searchParams.get('dir') !== 'desc') {
      await Promise.all([page.waitForURL(/dir=desc/), page.locator('#pool-table th.col-fair a').click()]);
      url = new URL(page.url());
    }
    assert.equal(url.searchParams.get('sort'), 'fair');
    assert.equal(await page.locator('#pool-table th.col-fair').getAttribute('aria-sort'), 'descending');
    const shares = await page.locator('#pool-table tbody tr td.fair').allTextContents();
    assert.ok(shares.length >= 26, `${shares.length} rows`);
    for (let i = 1; i < shares.length; i++) {
      assert.ok(num(shares[i - 1]) >= num(shares[i]), `not largest first: ${shares[i - 1]} before ${shares[i]}`);
    }

    // The CSV beside the JSON gives the same table.
    const csv = await page.request.get(await page.locator('#csv-link').getAttribute('href'));
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()['content-type'], /text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    assert.ok(lines.length >= 27 && /state/.test(lines[0]), `CSV: ${lines[0]}`);
    assert.equal((await page.request.get(await page.locator('#json-link').getAttribute('href'))).status(), 200);

    // The as-of control: a day chosen on the page is the figures' day.
    await page.goto(pool);
    await page.locator('#as-of').fill('2026-09-01');
    await Promise.all([page.waitForURL(/as_of=2026-09-01/), page.locator('#as-of-form button[type="submit"]').click()]);
    assert.equal(await page.locator('#as-of').inputValue(), '2026-09-01');
  }
});

test('Accept-Language: de gives the dashboard in German, numbers the German way', async (t) => {
  const page = await context(t, { locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } });
  await poolPath(page);
  assert.equal(await page.locator('html').getAttribute('lang'), 'de');
  assert.match(await page.locator('#fair-total').textContent(), /^\s*21\.0\d\d\s*$/, 'the fair shares total is not written 21.0xx');
  assert.equal(await page.locator('#unreviewed').count(), 1, 'the German page does not say its translation is unreviewed');
  // The switcher takes the reader back to English on the same page.
  await page.locator('#language-select').selectOption('en');
  await Promise.all([page.waitForURL(/\/pool\//), page.locator('form.language button[type="submit"]').click()]);
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
});

test('the ledger: newest first, page N of M, a case found by its ID, downloads', async (t) => {
  const page = await context(t);
  await logIn(page, who('coordinator'), '/ledger');
  await page.goto('/ledger');
  const count = await page.locator('#ledger-count').textContent();
  const m = count.match(/([\d,]+) entries, page 1 of (\d+)/);
  assert.ok(m, `#ledger-count: ${count}`);
  const seqs = (await page.locator('#entries tbody tr[data-seq]').evaluateAll((rs) => rs.map((r) => Number(r.dataset.seq))));
  assert.ok(seqs.length > 1 && seqs[0] > seqs[1], `not newest first: ${seqs.slice(0, 3)}`);
  await Promise.all([page.waitForURL(/last=1/), page.locator('#last-page').click()]);
  assert.match(await page.locator('#ledger-count').textContent(), new RegExp(`page ${m[2]} of ${m[2]}`));
  await Promise.all([page.waitForURL(/after=/), page.locator('#prev-page').click()]);
  assert.match(await page.locator('#ledger-count').textContent(), new RegExp(`page ${Number(m[2]) - 1} of ${m[2]}`));

  // Search by a case's ID: every line found is about that case.
  const { kase } = await arrivalAndCase(page);
  assert.ok(kase, 'no case in the demonstration');
  const id = kase.split('/').pop();
  await page.goto('/ledger');
  await page.locator('#ledger-filter input[name="ref"]').fill(id);
  await Promise.all([page.waitForURL(/ref=/), page.locator('#ledger-filter button[type="submit"]').click()]);
  const found = await page.locator('#entries tbody tr[data-seq] .summary').allTextContents();
  assert.ok(found.length >= 1, `no entry found for ${id}`);
  for (const line of found) assert.ok(line.includes(id), `"${line}" is not about ${id}`);
  for (const sel of ['#ledger-csv', '#ledger-jsonl']) {
    const res = await page.request.get(await page.locator(sel).getAttribute('href'));
    assert.equal(res.status(), 200, sel);
    assert.ok((await res.text()).includes(id), `${sel} does not hold ${id}`);
  }
});

test('the access log pages with its total and filters by role', async (t) => {
  const page = await context(t);
  await logIn(page, who('coordinator'), '/access-log');
  await page.goto('/access-log');
  assert.match(await page.locator('#access-count').textContent(), /page 1 of \d+/);
  await page.locator('#access-filter select[name="role"]').selectOption('coordinator');
  await Promise.all([page.waitForURL(/role=coordinator/), page.locator('#access-filter button[type="submit"]').click()]);
  const roles = await page.locator('#access-log tbody tr td:nth-child(4)').allTextContents();
  for (const r of roles) assert.equal(r.trim(), 'coordinator');
});

test('an arrival draws its case funnel with a table; a benefitting state shows what it receives', async (t) => {
  const page = await context(t);
  await logIn(page, who('coordinator'));
  const { arrival } = await arrivalAndCase(page);
  await page.goto(arrival);
  assert.equal(await page.locator('#funnel svg[role="img"]').count(), 1, 'no funnel chart');
  const stages = await page.locator('#funnel-table tbody tr').count();
  assert.ok(stages >= 5, `the funnel's table has ${stages} stages`);
  await page.goto('/pool/2026/states/IT');
  assert.equal(await page.locator('#receipts').count(), 1, 'IT\'s page does not say what it receives');
});

test('anyone can verify the ledger', async (t) => {
  const page = await context(t);
  const res = await page.request.get('/api/v1/ledger/verify');
  assert.equal(res.status(), 200);
  const v = await res.json();
  assert.ok(v.entries > 0, JSON.stringify(v));
});
