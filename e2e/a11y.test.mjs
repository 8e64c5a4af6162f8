// Accessibility of every page, as every role, in Debian's Chromium: axe-core's WCAG 2.1
// A and AA rules (EN 301 549 clause 9, which Directive (EU) 2016/2102 makes the
// standard of public-sector websites) must find no violation on any page, and the
// dashboard and state pages must not scroll sideways on a 390 px phone.
//
// Run by e2e_test.go (TestAccessibilityInBrowser), which serves the real handler with
// the demonstration (the Diciotti replay, one user per role) and sets SOLIDARITY_URL
// and SOLIDARITY_<USER>_USER/_PASSWORD for coordinator, auditor, officer-it and
// officer-de. By hand: start `solidarity serve` and export the same variables.
//
// The pages forbid scripts by CSP; axe is injected into a context that bypasses it
// (it reads the page, it changes nothing).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';
import { BASE, who, ROLES, logIn, poolPath, arrivalAndCase, runAxe, describe } from './pages.mjs';

const DEMO_CYCLE = process.env.SOLIDARITY_DEMO_CYCLE || '9026';
// The What-if page with both scenarios and their charts (issue 15).
const WHATIF = '/whatif?base=cycle-2026&choice.FR=pay&choice.NL=pay&choice.SE=pay&choice.RO=pay&runs=100';

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  for (const r of ROLES) {
    const u = who(r);
    assert.ok(u.user && u.password, `the credentials of ${r} are not set (go test ./e2e/ sets them)`);
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

async function context(t, opts = {}) {
  const ctx = await browser.newContext({ baseURL: BASE, bypassCSP: true, viewport: { width: 1366, height: 900 }, ...opts });
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(20_000);
  return page;
}

// scan visits each page and returns axe's violations, described; a page the role
// reaches with an unexpected status is a failure of its own.
async function scan(page, views) {
  const found = [];
  for (const v of views) {
    const res = await page.goto(v.path);
    // An error page is any 4xx (which one is the page's business, not this test's).
    const want = v.status ?? 200;
    const ok = want === 'error' ? res.status() >= 400 && res.status() < 500 : res.status() === want;
    if (!ok) {
      found.push(`${v.label} (${v.path}): HTTP ${res.status()}, want ${want}`);
      continue;
    }
    found.push(...describe(`${v.label} (${v.path})`, await runAxe(page)));
  }
  return found;
}

// views are the pages a user sees: the public pages always; the case-flow pages when
// the header links to them.
async function views(page, role) {
  const pool = await poolPath(page);
  const out = [];
  for (const mode of ['share', 'coverage', 'pledge']) out.push({ label: `dashboard, ${mode} map`, path: `${pool}?mode=${mode}` });
  out.push({ label: 'state page IT (benefitting)', path: `${pool}/states/IT` });
  out.push({ label: 'state page DE (contributing)', path: `${pool}/states/DE` });
  out.push({ label: 'accessibility statement', path: '/accessibility' });
  out.push({ label: 'error page', path: '/pool/1900', status: 'error' });
  out.push({ label: 'dashboard in German', path: `/language?lang=de&next=${encodeURIComponent(pool)}` });
  out.push({ label: 'dashboard back in English', path: `/language?lang=en&next=${encodeURIComponent(pool)}` });
  if (role === 'public') {
    out.push({ label: 'login', path: '/login' });
    // The What-if page is the same for every role but its header: scanned once.
    out.push({ label: 'what-if form', path: '/whatif' });
    out.push({ label: 'what-if, four states pay', path: WHATIF });
    out.push({ label: 'what-if, a field out of bounds', path: '/whatif?runs=5000', status: 400 });
    return out;
  }
  out.push({ label: 'error page: no such case', path: '/cases/C-NONE', status: 'error' });
  out.push({ label: 'ledger', path: '/ledger' }, { label: 'account', path: '/account' }, { label: 'login (logged in)', path: '/login' });
  const nav = async (id) => (await page.locator(`#${id}`).count()) > 0;
  await page.goto('/account');
  if (await nav('nav-users')) out.push({ label: 'users', path: '/users' });
  else out.push({ label: 'error page: not allowed', path: '/users', status: 'error' });
  if (await nav('nav-deadlines')) out.push({ label: 'deadlines', path: '/deadlines' });
  if (await nav('nav-access-log')) out.push({ label: 'access log', path: '/access-log' });
  if (await nav('nav-relocation')) out.push({ label: 'relocation', path: '/relocation' });
  if (await nav('nav-arrivals')) {
    out.push({ label: 'arrivals', path: '/arrivals' });
    const { arrival, kase } = await arrivalAndCase(page);
    if (arrival) out.push({ label: 'an arrival', path: arrival });
    if (kase) out.push({ label: 'a case', path: kase });
  }
  return out;
}

test('no WCAG 2.1 A/AA violation for the public', async (t) => {
  const page = await context(t);
  const found = await scan(page, await views(page, 'public'));
  if (found.length) assert.fail(`axe-core found ${found.length} violations:\n${found.join('\n')}`);
});

for (const role of ROLES) {
  test(`no WCAG 2.1 A/AA violation for ${role}`, async (t) => {
    const page = await context(t);
    await logIn(page, who(role));
    const vs = await views(page, role);
    const found = await scan(page, vs);
    if (role === 'coordinator') {
      // The relocation proposal exists only as the answer to the form: ask for one
      // on the demonstration's pledges, and for one family's explanation.
      await page.goto('/relocation');
      const form = page.locator('form#proposal-form');
      if ((await form.count()) > 0) {
        const year = form.locator('select[name="year"]');
        if ((await year.locator(`option[value="${DEMO_CYCLE}"]`).count()) > 0) await year.selectOption(DEMO_CYCLE);
        await Promise.all([page.waitForEvent('load'), form.locator('#propose, button[type="submit"]').first().click()]);
        found.push(...describe('relocation proposal', await runAxe(page)));
        const explain = page.locator('button[name="explain"]').first();
        if ((await explain.count()) > 0) {
          await Promise.all([page.waitForEvent('load'), explain.click()]);
          found.push(...describe('relocation proposal with an explanation', await runAxe(page)));
        }
      } else {
        found.push('relocation: no proposal form (form#proposal-form)');
      }
    }
    assert.ok(vs.some((v) => v.label === 'ledger'), 'no ledger page in the views');
    if (found.length) assert.fail(`axe-core found ${found.length} violations:\n${found.join('\n')}`);
  });
}

test('at 390 px the dashboard and state pages do not scroll sideways, and axe finds nothing', async (t) => {
  const page = await context(t, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await logIn(page, who('officer-de'));
  const pool = await poolPath(page);
  const wide = [];
  for (const lang of ['en', 'de']) {
    for (const path of [pool, `${pool}?mode=coverage`, `${pool}/states/IT`, `${pool}/states/DE`, '/accessibility', '/whatif', WHATIF]) {
      await page.goto(`/language?lang=${lang}&next=${encodeURIComponent(path)}`);
      const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth }));
      if (scroll > inner) {
        const culprits = await page.evaluate(() => [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.tablewrap, [data-scroll]'))
          .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''}`));
        wide.push(`${path} (${lang}): scrollWidth ${scroll} > innerWidth ${inner}; wide: ${culprits.join(', ')}`);
      }
    }
  }
  // On a phone, tables scroll inside their frames: axe checks that each such frame
  // is reachable by keyboard (scrollable-region-focusable), among the rest.
  await page.goto('/language?lang=en&next=/');
  const found = [];
  for (const path of [pool, `${pool}/states/DE`, '/ledger', '/account', WHATIF]) {
    await page.goto(path);
    found.push(...describe(`${path} at 390 px`, await runAxe(page)));
  }
  if (wide.length) assert.fail(`pages scroll sideways at 390 px:\n${wide.join('\n')}`);
  if (found.length) assert.fail(`axe-core found ${found.length} violations at 390 px:\n${found.join('\n')}`);
});
