// The main tasks with the keyboard alone (WCAG 2.1.1 Keyboard, 2.4.3 Focus Order,
// 2.4.7 Focus Visible), in Debian's Chromium: log in, pledge on the state page, open a
// case, record an event, propose and accept a relocation. Every action is a key press
// (Tab, Shift+Tab, Enter, Space, arrows, typed text) on the element that has the
// focus; the test reads the page to know where the focus is, never clicks or fills.
// Each focused control must show a visible focus indicator. Also: the skip link comes
// first, and the language switcher works.
//
// Run by e2e_test.go (TestKeyboardInBrowser), which serves the demonstration (the
// Diciotti replay, one user per role) and sets SOLIDARITY_URL and
// SOLIDARITY_<USER>_USER/_PASSWORD.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';
import { BASE, who, poolPath } from './pages.mjs';

const DEMO_CYCLE = process.env.SOLIDARITY_DEMO_CYCLE || '9026';

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  for (const r of ['coordinator', 'officer-it', 'officer-de']) {
    const u = who(r);
    assert.ok(u.user && u.password, `the credentials of ${r} are not set (go test ./e2e/ sets them)`);
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

async function open(t) {
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width: 1366, height: 900 } });
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(20_000);
  return page;
}

// focused describes the focused element, and whether it shows a focus indicator (an
// outline or a box shadow that :focus-visible gives it).
function focused(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const cs = getComputedStyle(e);
    const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
    return { tag: e.tagName.toLowerCase(), id: e.id, name: e.getAttribute('name'), href: e.getAttribute('href'),
      text: (e.textContent || '').trim().slice(0, 40), visible: outline || cs.boxShadow !== 'none' };
  });
}

// tabTo presses Tab (or Shift+Tab) until the focused element matches selector (a CSS
// selector, or a function of the element run in the page), and asserts that it shows
// its focus. It fails after max presses.
async function tabTo(page, selector, { back = false, max = 400 } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const hit = await page.evaluate((s) => {
      const e = document.activeElement;
      return !!e && e !== document.body && e.matches(s);
    }, selector);
    if (hit) {
      const f = await focused(page);
      assert.ok(f.visible, `the focused ${f.tag}${f.id ? '#' + f.id : ''}${f.name ? `[name=${f.name}]` : ''} shows no focus indicator`);
      return f;
    }
  }
  assert.fail(`no element matching ${selector} within ${max} presses of ${back ? 'Shift+Tab' : 'Tab'} on ${page.url()}`);
}

// navigate presses key, waits for the page it loads and asserts that its URL is as
// until wants.
async function navigate(page, key, until) {
  await Promise.all([page.waitForEvent('load'), page.keyboard.press(key)]);
  assert.ok(until(new URL(page.url())), `${key} led to ${page.url()}`);
}

// choose moves a focused select's choice with the arrow keys until its value is want
// (down to the last option, then up).
async function choose(page, want, max = 80) {
  for (const key of ['ArrowDown', 'ArrowUp']) {
    for (let i = 0; i < max; i++) {
      if ((await page.evaluate(() => document.activeElement.value)) === want) return;
      const last = await page.evaluate((k) => {
        const s = document.activeElement;
        return k === 'ArrowDown' ? s.selectedIndex === s.options.length - 1 : s.selectedIndex <= 0;
      }, key);
      if (last) break;
      await page.keyboard.press(key);
    }
  }
  assert.fail(`the focused select never reached the option ${want}`);
}

async function logIn(page, u, next) {
  await page.goto(next);
  // From the page's header: the login link, then the form (a page the public may not
  // see sends to the form at once).
  if (new URL(page.url()).pathname !== '/login') {
    await tabTo(page, '#login-link');
    await navigate(page, 'Enter', (url) => url.pathname === '/login');
  }
  const f = await focused(page);
  // The name field has autofocus; if the browser did not focus it, tab to it.
  if (f?.name !== 'name') await tabTo(page, 'form#login-form input[name="name"]');
  await page.keyboard.type(u.user);
  await tabTo(page, 'form#login-form input[name="password"]');
  await page.keyboard.type(u.password);
  await navigate(page, 'Enter', (url) => url.pathname !== '/login');
  assert.equal(new URL(page.url()).pathname, next.split('?')[0], 'login did not go back to the page');
  assert.ok((await page.locator('#who-name').textContent()).includes(u.user), 'the header does not show the user');
}

test('the skip link is the first stop and leads to the content', async (t) => {
  const page = await open(t);
  await page.goto('/accessibility');
  await page.keyboard.press('Tab');
  const f = await focused(page);
  assert.equal(f?.href, '#main', 'the first Tab does not reach the skip link');
  assert.ok(f.visible, 'the skip link shows no focus');
  const box = await page.locator('a.skip').boundingBox();
  assert.ok(box && box.width > 0 && box.y >= 0 && box.x >= 0, 'the focused skip link is not on screen');
  await page.keyboard.press('Enter');
  assert.equal(new URL(page.url()).hash, '#main');
});

test('an officer logs in and pledges with the keyboard', async (t) => {
  const page = await open(t);
  const pool = await poolPath(page);
  const de = `${pool}/states/DE`;
  await logIn(page, who('officer-de'), de);
  await tabTo(page, 'form#pledge-form select[name="type"]');
  await choose(page, 'relocation-applicants');
  await tabTo(page, 'form#pledge-form input[name="amount"]');
  await page.keyboard.type('7');
  await tabTo(page, 'form#pledge-form button[type="submit"]');
  await navigate(page, 'Enter', (u) => u.pathname === de);
  assert.equal(await page.locator('#form-error, [role="alert"]').count(), 0, 'the pledge was refused');
});

test('an officer opens a case and records an event with the keyboard', async (t) => {
  const page = await open(t);
  await logIn(page, who('officer-it'), '/arrivals');
  // Which case has an event form that offers "detained": read, then walk to it.
  // (The pages' CSP forbids fetch in the page: read them through the context's
  // requests, which share its cookies.)
  const read = async (path) => (await page.context().request.get(path)).text();
  const links = (html, prefix) => [...new Set([...html.matchAll(/href="([^"#?]+)/g)].map((m) => m[1]).filter((h) => h.startsWith(prefix)))];
  let target = null;
  for (const arr of links(await page.content(), '/arrivals/')) {
    for (const c of links(await read(arr), '/cases/').slice(0, 30)) {
      if (/<form id="event-form"[\s\S]*?value="detained"/.test(await read(c))) {
        target = { arr, c };
        break;
      }
    }
    if (target) break;
  }
  assert.ok(target, 'no case of Italy offers an event to record');
  await tabTo(page, `main a[href="${target.arr}"]`);
  await navigate(page, 'Enter', (u) => u.pathname === target.arr);
  await tabTo(page, `main a[href="${target.c}"]`);
  await navigate(page, 'Enter', (u) => u.pathname === target.c);
  await tabTo(page, 'form#event-form select[name="event"]');
  await choose(page, 'detained');
  await tabTo(page, 'form#event-form input[name="note"]');
  await page.keyboard.type('recorded with the keyboard');
  await tabTo(page, 'form#event-form button[type="submit"]');
  await navigate(page, 'Enter', (u) => u.pathname === target.c);
  assert.equal(await page.locator('#form-error, [role="alert"]').count(), 0, 'the event was refused');
  const recorded = new URL(page.url()).searchParams.get('recorded') === 'detained' ||
    (await page.locator('[data-event="detained"]').count()) > 0;
  assert.ok(recorded, 'the event is neither confirmed nor in the case history');
});

test('the coordinator proposes and accepts a relocation with the keyboard', async (t) => {
  const page = await open(t);
  const pool = await poolPath(page);
  await logIn(page, who('coordinator'), pool);
  await tabTo(page, '#nav-relocation');
  await navigate(page, 'Enter', (u) => u.pathname === '/relocation');
  // The demonstration's candidates are placed against the pledges of its own cycle.
  await tabTo(page, 'form#proposal-form select[name="year"]');
  await choose(page, DEMO_CYCLE);
  await tabTo(page, '#propose');
  await navigate(page, 'Space', (u) => u.pathname.startsWith('/relocation'));
  await page.waitForSelector('#accept');
  // An accept checkbox can be unticked and ticked again with Space.
  const box = await tabTo(page, 'input[type="checkbox"][name="accept"]');
  const checked = () => page.evaluate(() => document.activeElement.checked);
  const before = await checked();
  await page.keyboard.press('Space');
  assert.notEqual(await checked(), before, 'Space does not toggle the checkbox');
  await page.keyboard.press('Space');
  assert.equal(await checked(), before);
  assert.ok(box);
  await tabTo(page, '#accept');
  await navigate(page, 'Enter', (u) => u.pathname.startsWith('/relocation'));
  assert.equal(await page.locator('#form-error, [role="alert"]').count(), 0, 'the acceptance was refused');
  const accepted = new URL(page.url()).searchParams.has('accepted') || (await page.locator('#accepted-table tr[data-family]').count()) > 0;
  assert.ok(accepted, 'no placement was accepted');
});

test('the language switcher works with the keyboard', async (t) => {
  const page = await open(t);
  await page.goto('/accessibility');
  await tabTo(page, 'select[name="lang"]');
  await choose(page, 'de');
  await tabTo(page, 'form.language button[type="submit"], form[action="/language"] button[type="submit"]');
  await navigate(page, 'Enter', (u) => u.pathname === '/accessibility');
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  // And back, walking backwards from the end of the page.
  await page.keyboard.press('End');
  await tabTo(page, 'select[name="lang"]', { back: true });
  await choose(page, 'en');
  await tabTo(page, 'form[action="/language"] button[type="submit"]');
  await navigate(page, 'Enter', (u) => u.pathname === '/accessibility');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
});
