// Browser test of the ledger in Debian's Chromium driven by playwright-core: an
// officer logs in, pledges and delivers for its own state and sees the figures change;
// another state's officer gets no form on that state's page and a direct post to it is
// refused. The pages need no JavaScript and the CSP forbids scripts: everything here
// is what a person types and clicks.
//
// Run by e2e_test.go (go test ./e2e/), which serves the real handler with a SQLite
// ledger seeded with the shipped 2026 cycle and two officers, and sets SOLIDARITY_URL,
// SOLIDARITY_DE_USER/_PASSWORD and SOLIDARITY_FR_USER/_PASSWORD.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const DE = { state: 'DE', user: process.env.SOLIDARITY_DE_USER, password: process.env.SOLIDARITY_DE_PASSWORD };
const FR = { state: 'FR', user: process.env.SOLIDARITY_FR_USER, password: process.env.SOLIDARITY_FR_PASSWORD };
const POOL = '/pool/2026';
const DE_PAGE = `${POOL}/states/DE`;

// See dashboard.test.mjs for why these flags.
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  for (const o of [DE, FR]) {
    assert.ok(o.user && o.password, `SOLIDARITY_${o.state}_USER and _PASSWORD are not set (go test ./e2e/ sets them)`);
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: FLAGS,
    timeout: 20_000,
  });
});

after(async () => {
  await browser?.close();
});

// open gives the test its own browser context (its own cookies) and a page that
// records console errors, page errors, CSP violations, failed requests and HTTP
// errors of the page and its resources.
async function open(t) {
  const context = await browser.newContext({ baseURL: BASE });
  t.after(() => context.close());
  const problems = [];
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
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()}: ${why}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  return { page, problems };
}

async function checkClean(page, problems) {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(problems, [], 'the page reported problems');
}

async function text(page, selector) {
  return (await page.locator(selector).textContent()).replace(/\s+/g, ' ').trim();
}

async function goto(page, path) {
  const res = await page.goto(path);
  assert.equal(res.status(), 200, `GET ${path}`);
}

// login fills in the login form and lands on the dashboard, logged in.
async function login(page, who) {
  await goto(page, '/login');
  await page.locator('#login-form input[name="name"]').fill(who.user);
  await page.locator('#login-form input[name="password"]').fill(who.password);
  await Promise.all([
    page.waitForURL((u) => u.pathname === POOL),
    page.locator('#login-form button[type="submit"]').click(),
  ]);
  assert.equal(await text(page, '#who-name'), who.user, 'the header does not show who is logged in');
  assert.match(await text(page, '#who'), new RegExp(`officer · ${who.state}`));
}

async function logout(page) {
  await Promise.all([
    page.waitForURL((u) => u.pathname === POOL),
    page.locator('#who form.logout button').click(),
  ]);
  assert.equal(await page.locator('#who-name').count(), 0, 'still logged in after logging out');
  assert.equal(await page.locator('#login-link').count(), 1, 'no login link after logging out');
}

// submit fills a form of the state page and posts it; the answer is a redirect back
// to the page (post/redirect/get).
async function submit(page, form, fields, path = DE_PAGE) {
  for (const [name, value] of Object.entries(fields)) {
    const el = page.locator(`#${form} [name="${name}"]`);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
    else await el.fill(value);
  }
  await Promise.all([
    page.waitForURL((u) => u.pathname === path && u.hash === '#ledger'),
    page.locator(`#${form} button[type="submit"]`).click(),
  ]);
  assert.equal(await page.locator('#form-error').count(), 0, 'the form was refused');
}

test('an officer pledges and delivers for its own state; another state\'s officer cannot', async (t) => {
  const { page, problems } = await open(t);

  // The public sees the published figures and no form.
  await goto(page, DE_PAGE);
  assert.equal(await page.locator('#pledge-form').count(), 0, 'the public sees the pledge form');
  assert.equal(await page.locator('#login-link').count(), 1, 'no login link for the public');

  // DE's officer logs in and pledges.
  await login(page, DE);
  const rowPledged = () => text(page, 'table#pool-table tr[data-state="DE"] td.pledged');
  const rowDelivered = () => text(page, 'table#pool-table tr[data-state="DE"] td.delivered');
  const dashboardBefore = await rowPledged();
  assert.equal(await rowDelivered(), '0');

  await goto(page, DE_PAGE);
  assert.equal(await page.locator('#pledge-form').count(), 1, 'DE\'s officer has no pledge form on DE\'s page');
  assert.equal(await page.locator('#delivery-form').count(), 1, 'DE\'s officer has no delivery form on DE\'s page');
  const pledgedBefore = await text(page, '#pledged');
  const outstandingBefore = await text(page, '#outstanding');

  await submit(page, 'pledge-form', { type: 'financial', amount: '2,000,000' });
  const pledgedAfter = await text(page, '#pledged');
  assert.notEqual(pledgedAfter, pledgedBefore, 'the pledged figure did not change');
  assert.match(pledgedAfter, /^100 relocation-equivalents/, pledgedAfter);
  assert.match(pledgedAfter, /EUR 2,000,000\.00 financial/, pledgedAfter);
  assert.match(await text(page, '#state-entries'), /pledge\.made/, 'the pledge is not in the state\'s entries');

  // ... and delivers part of it: the balance changes.
  await submit(page, 'delivery-form', { type: 'payment.made', amount: '500000', reference: 'TR-2026-0001' });
  assert.match(await text(page, '#delivered'), /EUR 500,000\.00 paid.*: 25 relocation-equivalents/);
  const outstandingAfter = await text(page, '#outstanding');
  assert.notEqual(outstandingAfter, outstandingBefore, 'the outstanding balance did not change');
  assert.equal(Number(outstandingBefore.replaceAll(',', '')) - Number(outstandingAfter.replaceAll(',', '')), 25, `outstanding ${outstandingBefore} → ${outstandingAfter}`);
  assert.equal(await page.locator('svg#pace-chart').count(), 1, 'no pace chart');

  // The dashboard shows it too.
  await goto(page, POOL);
  assert.notEqual(await rowPledged(), dashboardBefore, 'the dashboard\'s pledged figure did not change');
  assert.equal(await rowPledged(), '100');
  assert.equal(await rowDelivered(), '25');
  await checkClean(page, problems);

  await logout(page);

  // FR's officer: forms on its own page, none on DE's, and a direct post is refused.
  await login(page, FR);
  await goto(page, `${POOL}/states/FR`);
  assert.equal(await page.locator('#pledge-form').count(), 1, 'FR\'s officer has no form on FR\'s page');
  await submit(page, 'pledge-form', { type: 'relocation-applicants', amount: '1500' }, `${POOL}/states/FR`);
  assert.match(await text(page, '#pledged'), /1,500 relocations of applicants/);
  await goto(page, DE_PAGE);
  assert.equal(await page.locator('#pledge-form').count(), 0, 'FR\'s officer sees DE\'s pledge form');
  assert.equal(await page.locator('#delivery-form').count(), 0, 'FR\'s officer sees DE\'s delivery form');
  assert.equal(await text(page, '#pledged'), pledgedAfter, 'the published pledge is not shown to FR');
  await checkClean(page, problems);

  for (const form of ['pledges', 'deliveries']) {
    const res = await page.request.post(`${DE_PAGE}/${form}`, {
      form: { type: form === 'pledges' ? 'financial' : 'payment.made', amount: '1', idempotency_key: `fr-${form}` },
      maxRedirects: 0,
    });
    assert.equal(res.status(), 403, `FR's officer posting to DE's ${form}: ${res.status()}`);
    assert.match(await res.text(), /not allowed: write\.(pledge|delivery) for DE/);
  }
  // Nothing was written.
  await goto(page, DE_PAGE);
  assert.equal(await text(page, '#pledged'), pledgedAfter, 'the refused post changed the pledge');
  assert.match(await text(page, '#delivered'), /EUR 500,000\.00 paid/);

  // FR's officer sees FR's entries in the ledger view, not DE's.
  await goto(page, '/ledger');
  const states = await page.$$eval('table#entries tbody tr[data-seq] td:nth-child(5)', (tds) => tds.map((td) => td.textContent.trim()));
  assert.ok(states.length > 0 && states.every((s) => s === 'FR'), `FR's officer sees entries of [${states.join(' ')}]`);
  await checkClean(page, problems);
});

test('a wrong password is refused and the page says so', async (t) => {
  const { page } = await open(t);
  await goto(page, '/login');
  await page.locator('#login-form input[name="name"]').fill(DE.user);
  await page.locator('#login-form input[name="password"]').fill('not the password');
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'),
    page.locator('#login-form button[type="submit"]').click(),
  ]);
  assert.equal(res.status(), 401);
  assert.match(await text(page, '#login-error'), /Wrong user name or password/);
  assert.equal(await page.locator('#who-name').count(), 0);
  // The ledger view sends the public to the login page, and back after.
  await page.goto('/ledger');
  assert.equal(new URL(page.url()).pathname, '/login');
  assert.equal(await page.locator('#login-form input[name="next"]').getAttribute('value'), '/ledger');
});
