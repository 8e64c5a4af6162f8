// Browser tests of the pool dashboard and the state pages, in Debian's Chromium driven
// by playwright-core. The pages need no JavaScript and the CSP forbids scripts, so
// everything here is what a person sees and clicks: links, table cells, map fills.
//
// Run by e2e_test.go (go test ./...), which serves the real handler and sets
// SOLIDARITY_URL; by hand: SOLIDARITY_URL=http://127.0.0.1:8080 npm test.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const YEAR = '2026';
const POOL = `/pool/${YEAR}`;

// EU-27 without Denmark, which does not take part (Protocol No 22).
const PARTICIPATING = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];
// States whose obligation for 2026 is zero: full deductions (AT, CZ, HR, PL) and
// benefitting states (CY, EL, ES, IT).
const ZERO_OBLIGATION = ['AT', 'CZ', 'HR', 'PL', 'CY', 'EL', 'ES', 'IT'];

// The machine's closed network refuses Chromium's own background connections; these
// flags keep it from trying (see the machine notes). Chromium also gets a fresh, empty
// --user-data-dir, but from Playwright: launch() refuses that flag in args, creates a
// new temporary profile itself for every launch and deletes it on close.
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set: start the server and set it (go test ./e2e/ does both)');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: FLAGS,
    timeout: 20_000,
  });
});

after(async () => {
  await browser?.close();
});

// open gives each test its own browser context (no shared cookies or cache) and a page
// that records every console error, uncaught page error, CSP violation, failed request
// and HTTP error status of the page or its resources. Call checkClean at the end.
async function open(t, path) {
  const context = await browser.newContext({ baseURL: BASE });
  t.after(() => context.close());
  const problems = [];
  // CSP violations reach the console as errors too; the event says which directive.
  // Both the binding and the init script are installed over CDP, so the page's own
  // CSP (no scripts at all) does not block them.
  await context.exposeBinding('__solidarityCSP', (_source, v) => {
    problems.push(`CSP violation: ${v.directive} blocked ${v.blocked} on ${v.url}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__solidarityCSP({ directive: e.effectiveDirective, blocked: e.blockedURI, url: e.documentURI });
    });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(5_000);
  page.setDefaultNavigationTimeout(10_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // ERR_ABORTED is a load cut short by the test's own next navigation, not the page's.
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()}: ${why}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  if (path !== undefined) {
    const res = await page.goto(path);
    assert.equal(res.status(), 200, `GET ${path}`);
  }
  return { page, problems };
}

// Problems to tolerate: none. (The layout declares an empty icon, so Chromium does not
// ask for /favicon.ico; a 404 there would be reported.)
const KNOWN = [];

async function checkClean(page, problems) {
  // Let late console messages and violation reports arrive.
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  const real = problems.filter((p) => !KNOWN.some((re) => re.test(p)));
  assert.deepEqual(real, [], 'the page reported problems');
}

// stateOf returns the two-letter code at the end of a /pool/YYYY/states/XX link.
function stateOf(href) {
  const m = /\/pool\/\d+\/states\/([A-Z]{2})(?:[?#]|$)/.exec(href);
  return m ? m[1] : null;
}

// tableRows reads the pool table as the user sees it.
async function tableRows(page) {
  return page.$$eval('table#pool-table tbody tr', (trs) => trs.map((tr) => {
    const a = tr.querySelector('th a, td a');
    return {
      state: tr.dataset.state,
      href: a?.getAttribute('href') ?? '',
      name: a?.textContent.trim() ?? '',
      fair: tr.querySelector('td.fair')?.textContent.trim() ?? '',
      obligation: tr.querySelector('td.obligation')?.textContent.trim() ?? '',
    };
  }));
}

// mapRegions reads every region of the map: class, state, fill attribute, computed
// fill, and the link around it (if any).
async function mapRegions(page) {
  return page.$$eval('svg#map path.region', (paths) => paths.map((p) => {
    const a = p.closest('a');
    return {
      cls: p.getAttribute('class'),
      state: p.getAttribute('data-state'),
      fill: p.getAttribute('fill') ?? '',
      computed: getComputedStyle(p).fill,
      href: a ? a.getAttribute('href') : null,
    };
  }));
}

function shaded(regions) {
  return regions.filter((r) => r.cls.split(/\s+/).includes('shaded'));
}

test('/ lands on the 2026 dashboard', async (t) => {
  const { page, problems } = await open(t);
  const res = await page.goto('/');
  assert.equal(res.status(), 200);
  assert.equal(new URL(page.url()).pathname, POOL);
  await page.locator('table#pool-table').waitFor();
  await page.locator('svg#map').waitFor();
  // The stylesheet applied (CSP style-src 'self'): the current map mode is highlighted.
  const bg = await page.locator('nav#map-modes a[aria-current="page"]').evaluate((a) => getComputedStyle(a).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'style.css not applied to the map mode switch');
  assert.ok(await page.locator('.banner').count() >= 1, 'no banner (data caveat / unknown pledges)');
  await checkClean(page, problems);
});

test('table: one row per participating state, DK absent, zero obligations', async (t) => {
  const { page, problems } = await open(t, POOL);
  const rows = await tableRows(page);
  assert.equal(rows.length, 26, `rows: ${rows.map((r) => r.state).join(' ')}`);
  assert.deepEqual(rows.map((r) => r.state).sort(), [...PARTICIPATING].sort());
  assert.equal(await page.locator('table#pool-table tr[data-state="DK"]').count(), 0, 'DK has a row');
  for (const r of rows) {
    assert.ok(r.href.startsWith(`${POOL}/states/${r.state}`), `${r.state}: first link ${r.href}`);
    assert.equal(stateOf(r.href), r.state, `${r.state}: link ${r.href}`);
    assert.ok(r.name, `${r.state}: link has no text`);
    assert.match(r.fair, /^\d{1,3}(,\d{3})*$/, `${r.state}: fair share ${r.fair}`);
  }
  for (const s of ZERO_OBLIGATION) {
    const r = rows.find((x) => x.state === s);
    assert.equal(r.obligation, '0', `${s}: obligation`);
  }
  // The footer total is the sum of the fair shares shown above it.
  const total = (await page.locator('tfoot #fair-total').textContent()).trim();
  const sum = rows.reduce((acc, r) => acc + Number(r.fair.replaceAll(',', '')), 0);
  assert.equal(Number(total.replaceAll(',', '')), sum, `#fair-total ${total} vs sum of rows ${sum}`);
  await checkClean(page, problems);
});

test('map: exactly the participating states are shaded, each with a fill and a link', async (t) => {
  const { page, problems } = await open(t, POOL);
  assert.equal(await page.locator('svg#map').getAttribute('data-mode'), 'share');
  const regions = await mapRegions(page);
  const sh = shaded(regions);
  const tableStates = (await tableRows(page)).map((r) => r.state).sort();
  assert.equal(sh.length, 26, `shaded: ${sh.map((r) => r.state).join(' ')}`);
  assert.deepEqual(sh.map((r) => r.state).sort(), tableStates, 'shaded regions vs table rows');
  for (const r of sh) {
    assert.match(r.cls, /\bparticipating\b/, `${r.state}: class ${r.cls}`);
    assert.ok(r.fill.trim(), `${r.state}: empty fill attribute`);
    assert.notEqual(r.computed, 'none', `${r.state}: computed fill is none`);
    assert.ok(r.href?.startsWith(`${POOL}/states/${r.state}`), `${r.state}: link ${r.href}`);
  }
  const dk = regions.filter((r) => r.state === 'DK');
  assert.equal(dk.length, 1, 'DK region count');
  assert.equal(dk[0].cls.split(/\s+/).sort().join(' '), 'member nonparticipating region', `DK class ${dk[0].cls}`);
  assert.equal(dk[0].href, null, 'DK is linked');
  assert.ok(regions.some((r) => /\bneighbour\b/.test(r.cls)), 'no neighbour regions');
  for (const r of regions.filter((x) => /\bneighbour\b/.test(x.cls))) {
    assert.equal(r.href, null, `neighbour ${r.state} is linked`);
    assert.ok(!/\bshaded\b/.test(r.cls), `neighbour ${r.state} is shaded`);
  }
  await checkClean(page, problems);
});

test('map mode switch: share → coverage → pledge by plain links', async (t) => {
  const { page, problems } = await open(t, POOL);
  const svg = page.locator('svg#map');
  const current = page.locator('nav#map-modes a[aria-current="page"]');
  const fills = async () => Object.fromEntries(shaded(await mapRegions(page)).map((r) => [r.state, r.fill]));

  assert.equal(await svg.getAttribute('data-mode'), 'share');
  assert.equal(await current.count(), 1);
  assert.equal(await current.getAttribute('data-mode'), 'share');
  const share = await fills();

  await Promise.all([page.waitForURL(/[?&]mode=coverage\b/), page.locator('nav#map-modes a[data-mode="coverage"]').click()]);
  assert.equal(await svg.getAttribute('data-mode'), 'coverage');
  assert.equal(await current.count(), 1);
  assert.equal(await current.getAttribute('data-mode'), 'coverage');
  const coverage = await fills();
  assert.equal(Object.keys(coverage).length, 26);
  for (const [s, f] of Object.entries(coverage)) assert.ok(f.trim(), `${s}: empty fill in coverage mode`);
  assert.notEqual(coverage.DE, share.DE, 'DE has the same fill in share and coverage mode');

  await Promise.all([page.waitForURL(/[?&]mode=pledge\b/), page.locator('nav#map-modes a[data-mode="pledge"]').click()]);
  assert.equal(await svg.getAttribute('data-mode'), 'pledge');
  assert.equal(await current.count(), 1);
  assert.equal(await current.getAttribute('data-mode'), 'pledge');
  const pledge = await fills();
  assert.equal(Object.keys(pledge).length, 26);
  for (const [s, f] of Object.entries(pledge)) assert.ok(f.trim(), `${s}: empty fill in pledge mode`);
  assert.ok(Object.keys(pledge).some((s) => pledge[s] !== coverage[s]), 'no region changed fill from coverage to pledge');

  await Promise.all([page.waitForURL(/[?&]mode=share\b/), page.locator('nav#map-modes a[data-mode="share"]').click()]);
  assert.equal(await svg.getAttribute('data-mode'), 'share');
  assert.deepEqual(await fills(), share, 'share fills differ after switching back');
  await checkClean(page, problems);
});

test('clicking Germany on the map opens its state page', async (t) => {
  const { page, problems } = await open(t, POOL);
  const name = (await page.locator('table#pool-table tr[data-state="DE"] a').first().textContent()).trim();
  const link = page.locator('svg#map a:has(path.region.shaded[data-state="DE"])');
  assert.equal(await link.count(), 1);
  await Promise.all([page.waitForURL(new RegExp(`${POOL}/states/DE(\\?|$)`)), link.click()]);
  await checkStatePage(page, 'DE', name);
  await checkClean(page, problems);
});

test('clicking a table row link opens that state page', async (t) => {
  const { page, problems } = await open(t, POOL);
  for (const s of ['FR', 'PL']) {
    const a = page.locator(`table#pool-table tbody tr[data-state="${s}"] a[href^="${POOL}/states/${s}"]`).first();
    const name = (await a.textContent()).trim();
    await Promise.all([page.waitForURL(new RegExp(`${POOL}/states/${s}(\\?|$)`)), a.click()]);
    await checkStatePage(page, s, name);
    await Promise.all([page.waitForURL(new RegExp(`${POOL}(\\?|$)`)), page.goBack()]);
  }
  await checkClean(page, problems);
});

test('every state page answers with its name and figures', async (t) => {
  const { page, problems } = await open(t, POOL);
  const rows = await tableRows(page);
  for (const r of rows) {
    const res = await page.goto(r.href);
    assert.equal(res.status(), 200, r.href);
    await checkStatePage(page, r.state, r.name);
    if (ZERO_OBLIGATION.includes(r.state)) {
      assert.match((await page.locator('#obligation').textContent()).trim(), /^0(?![.,\d])/, `${r.state}: #obligation`);
    }
  }
  await checkClean(page, problems);
});

test('DK and an unknown year have no dashboard page', async (t) => {
  const { page } = await open(t);
  const dk = await page.goto(`${POOL}/states/DK`);
  assert.equal(dk.status(), 404);
  const y = await page.goto('/pool/1999');
  assert.equal(y.status(), 404);
  const m = await page.goto(`${POOL}?mode=bogus`);
  assert.equal(m.status(), 400);
});

test('the problem listener catches a CSP violation and a console error', async (t) => {
  // A self-test: a page under the server's own CSP that breaks it must be reported,
  // else checkClean would pass on anything.
  const { page, problems } = await open(t, POOL);
  const csp = (await page.request.get(POOL)).headers()['content-security-policy'];
  assert.match(csp ?? '', /default-src 'none'/, 'the pool page has no strict CSP');
  await page.route('**/csp-probe', (route) => route.fulfill({
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp },
    body: '<!doctype html><title>probe</title><script>console.error("ran")</script><p style="color:red">x</p>',
  }));
  await page.goto('/csp-probe');
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.ok(problems.some((p) => p.startsWith('CSP violation: script-src')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('console error:')), problems.join('\n'));
  assert.ok(!problems.some((p) => p.includes('console error: ran')), 'an inline script ran under the CSP');
});

test('coverage map shows states without an obligation as "no obligation"', async (t) => {
  const { page, problems } = await open(t, `${POOL}?mode=coverage`);
  const legend = await page.locator('.legend li').filter({ hasText: 'no obligation' }).locator('rect').getAttribute('fill');
  for (const s of ZERO_OBLIGATION) {
    const fill = await page.locator(`svg#map path.region.shaded[data-state="${s}"]`).getAttribute('fill');
    assert.equal(fill, legend, `${s} (obligation 0.00): fill ${fill}, legend "no obligation" is ${legend}`);
  }
  await checkClean(page, problems);
});

test('a state page links back to the same method and map mode', async (t) => {
  const { page, problems } = await open(t, `${POOL}?method=webster&mode=coverage`);
  await page.locator('svg#map a:has(path[data-state="FR"])').click();
  await page.locator('#state-detail').waitFor();
  await page.locator('a#back').click();
  await page.locator('svg#map').waitFor();
  const u = new URL(page.url());
  assert.equal(u.searchParams.get('method'), 'webster', page.url());
  assert.equal(u.searchParams.get('mode'), 'coverage', page.url());
  assert.equal(await page.locator('svg#map').getAttribute('data-mode'), 'coverage');
  assert.equal(await page.locator('nav.methods a[aria-current="page"]').textContent(), 'webster');
  await checkClean(page, problems);
});

async function checkStatePage(page, state, name) {
  await page.locator('#state-detail').waitFor();
  const h1 = (await page.locator('h1').textContent()).replace(/\s+/g, ' ').trim();
  assert.ok(h1.startsWith(name), `${state}: h1 "${h1}" does not start with "${name}"`);
  assert.ok(h1.endsWith(state), `${state}: h1 "${h1}" does not end with the code`);
  assert.match((await page.locator('#fair-share').textContent()).trim(), /^\d/, `${state}: #fair-share`);
  assert.ok((await page.locator('#obligation').textContent()).trim(), `${state}: empty #obligation`);
}
