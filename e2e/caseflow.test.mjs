// Browser test of the case flow in Debian's Chromium driven by playwright-core: Italy's
// officer imports a small ship's list and takes a family through screening,
// application, registration and the relocation steps; the coordinator allocates it to
// Germany; Germany's officer confirms and sees a member's personal record; France's
// officer cannot open the case; Italy's officer records the transfer, and Germany's
// relocations delivered go up by two. The pages need no JavaScript and the CSP forbids
// scripts: everything here is what a person types and clicks.
//
// Run by e2e_test.go (go test ./e2e/), which serves the real handler with a SQLite
// ledger and the case flow, Germany's relocation pledge of 10, and sets SOLIDARITY_URL,
// SOLIDARITY_<USER>_USER/_PASSWORD for coordinator, officer-it, officer-de and
// officer-fr, SOLIDARITY_LANDED (the landing, four days ago), SOLIDARITY_YEAR (its
// cycle), SOLIDARITY_NAMES (the people's fictional names) and SOLIDARITY_TMP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, watchedPage, text } from './browser.mjs';

const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');
const who = (name) => {
  const key = name.toUpperCase().replace(/-/g, '_');
  return { name, user: process.env[`SOLIDARITY_${key}_USER`], password: process.env[`SOLIDARITY_${key}_PASSWORD`] };
};
const COORD = who('coordinator');
const IT = who('officer-it');
const DE = who('officer-de');
const FR = who('officer-fr');
const LANDED = new Date(process.env.SOLIDARITY_LANDED || '');
const YEAR = process.env.SOLIDARITY_YEAR;
const NAMES = (process.env.SOLIDARITY_NAMES || '').split(';');

let browser;

before(async () => {
  assert.ok(BASE, 'SOLIDARITY_URL is not set (go test ./e2e/ sets it)');
  for (const u of [COORD, IT, DE, FR]) {
    assert.ok(u.user && u.password, `the credentials of ${u.name} are not set (go test ./e2e/ sets them)`);
  }
  assert.ok(!Number.isNaN(LANDED.getTime()) && YEAR && NAMES.length === 3, 'SOLIDARITY_LANDED, _YEAR or _NAMES is not set');
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

// session gives one user a browser context of their own (their own cookies), logged
// in, and a page that records console errors, page errors, CSP violations, failed
// requests and HTTP errors.
async function session(t, u) {
  const { page, problems } = await watchedPage(t, browser, BASE, { timeout: 5_000, navigation: 10_000 });
  // Log in through the form, coming back to the arrivals.
  await goto(page, '/login?next=/arrivals');
  await page.locator('#login-form input[name="name"]').fill(u.user);
  await page.locator('#login-form input[name="password"]').fill(u.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/arrivals'),
    page.locator('#login-form button[type="submit"]').click(),
  ]);
  assert.equal(await text(page, '#who-name'), u.user, 'the header does not show who is logged in');
  assert.equal(await page.locator('#nav-arrivals').count(), 1, 'no link to the arrivals');
  return { page, problems };
}

async function checkClean(page, problems) {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(problems, [], 'the page reported problems');
}

async function goto(page, path) {
  const res = await page.goto(path);
  assert.equal(res.status(), 200, `GET ${path}`);
}

// when is the landing plus some hours, as the datetime-local field wants it (UTC).
function when(hours) {
  return new Date(LANDED.getTime() + hours * 3600_000).toISOString().slice(0, 16);
}

async function caseState(page) {
  return page.locator('#case-state').getAttribute('data-state');
}

// record fills the event form of the case page and posts it; the answer is a
// redirect back to the case (post/redirect/get) saying what was recorded.
async function record(page, event, hours, { family = false } = {}) {
  const form = page.locator('#event-form');
  assert.equal(await form.count(), 1, `no event form for ${event}`);
  await form.locator('select[name="event"]').selectOption(event);
  await form.locator('input[name="at"]').fill(when(hours));
  if (family) await form.locator('input[name="family"]').check();
  await Promise.all([
    page.waitForURL((u) => u.searchParams.get('recorded') === event),
    form.locator('button[type="submit"]').click(),
  ]);
  assert.equal(await page.locator('#form-error').count(), 0, `the event ${event} was refused`);
  assert.match(await text(page, '#flash'), /^Recorded: /);
  assert.equal(await page.locator(`#history tr[data-event="${event}"]`).count(), 1, `${event} is not in the flow`);
}

// deliveredTo reads a state's relocations delivered in the landing's cycle.
async function deliveredTo(page, state) {
  const res = await page.request.get(`/api/v1/ledger/cycles/${YEAR}/balances`);
  assert.equal(res.status(), 200);
  const b = await res.json();
  return b.states.find((s) => s.state === state).delivered.relocations;
}

test('a family lands in Italy and is relocated to Germany', async (t) => {
  // The ship's list: a family of two and one person alone (fictional people).
  const csv = join(process.env.SOLIDARITY_TMP || '.', 'landing.csv');
  writeFileSync(csv, [
    '# vessel: Browser Star (fictional)',
    '# port: Pozzallo',
    `# at: ${LANDED.toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '# sar: true',
    '# benefitting_state: IT',
    'ref,family,name,birth_date,assessed_age,sex,nationality,languages,preferences',
    `P1,K1,${NAMES[0]},1991-05-02,,F,ER,ti;en,DE`,
    `P2,K1,${NAMES[1]},1989-10-11,,M,ER,ti,DE`,
    `P3,,${NAMES[2]},,25,F,SY,ar,`,
    '',
  ].join('\n'));

  // Italy's officer imports the list.
  const it = await session(t, IT);
  const deliveredBefore = await deliveredTo(it.page, 'DE');
  assert.equal(await it.page.locator('#import-form').count(), 1, 'no import form for Italy\'s officer');
  await it.page.locator('#import-form input[name="list"]').setInputFiles(csv);
  await Promise.all([
    it.page.waitForURL((u) => /^\/arrivals\/ARR-/.test(u.pathname)),
    it.page.locator('#import-form button[type="submit"]').click(),
  ]);
  const arrivalPath = new URL(it.page.url()).pathname;
  assert.match(await text(it.page, '#flash'), /Imported: 3 persons in 2 families/);
  assert.equal(await it.page.locator('tr[data-case]').count(), 3, 'not one case per person');
  assert.equal(await text(it.page, '#counts tr[data-state="ARRIVED_SAR"] td.n'), '3');
  assert.equal(await it.page.locator('body').getByText(NAMES[0]).count(), 0, 'the arrival page shows a name');

  // ... and opens the case of one member of the family of two.
  const family = it.page.locator('#cases tbody.family').filter({ has: it.page.locator('tr[data-case] + tr[data-case]') });
  assert.equal(await family.count(), 1, 'no family of two on the arrival page');
  const casePath = await family.locator('tr[data-case] a').first().getAttribute('href');
  await goto(it.page, casePath);
  assert.equal(await caseState(it.page), 'ARRIVED_SAR');
  assert.equal(await it.page.locator('#allocation-form').count(), 0, 'an officer is offered the allocation');

  // Screening, application and registration, for the family; then the relocation steps
  // (which always move the family).
  await record(it.page, 'screening-started', 1, { family: true });
  assert.equal(await caseState(it.page), 'SCREENING');
  await record(it.page, 'application-made', 2, { family: true });
  await record(it.page, 'registered', 3, { family: true });
  assert.equal(await caseState(it.page), 'REGISTERED');
  await record(it.page, 'relocation-candidate', 4);
  await record(it.page, 'relocation-security-cleared', 5);
  assert.equal(await caseState(it.page), 'RELOCATION_SECURITY_CLEARED');
  // Both members moved.
  await goto(it.page, arrivalPath);
  assert.equal(await text(it.page, '#counts tr[data-state="RELOCATION_SECURITY_CLEARED"] td.n'), '2');
  // Sending the information before an allocation is refused, with the reason.
  await goto(it.page, casePath);
  await it.page.locator('#event-form select[name="event"]').selectOption('relocation-info-sent');
  await it.page.locator('#event-form input[name="at"]').fill(when(6));
  await Promise.all([
    it.page.waitForResponse((r) => r.url().endsWith('/events') && r.request().method() === 'POST'),
    it.page.locator('#event-form button[type="submit"]').click(),
  ]);
  assert.match(await text(it.page, '#form-error'), /not allocated to a Member State of relocation yet/);
  it.problems.length = 0; // the 409 of the refused form was expected
  await checkClean(it.page, it.problems);

  // The coordinator allocates the family to Germany.
  const coord = await session(t, COORD);
  await goto(coord.page, casePath);
  assert.equal(await coord.page.locator('#allocation-form').count(), 1, 'the coordinator has no allocation form');
  await coord.page.locator('#allocation-form select[name="state"]').selectOption('DE');
  await Promise.all([
    coord.page.waitForURL((u) => u.searchParams.get('allocated') === 'DE'),
    coord.page.locator('#allocation-form button[type="submit"]').click(),
  ]);
  assert.equal(await text(coord.page, '#allocated'), 'DE');
  await checkClean(coord.page, coord.problems);

  // Italy's officer sends the information; the confirmation time limit runs, tagged R.
  await goto(it.page, casePath);
  await record(it.page, 'relocation-info-sent', 6);
  assert.equal(await caseState(it.page), 'RELOCATION_INFO_SENT');
  assert.match(await text(it.page, '#dues'), /R — recalled, not read: verify/, 'the R tag is not spelt out');
  assert.equal(await it.page.locator('#event-form option[value="relocation-confirmed"]').count(), 0,
    'Italy\'s officer is offered Germany\'s act');

  // Germany's officer confirms and reads a member's personal record (the read is logged).
  const de = await session(t, DE);
  await goto(de.page, casePath);
  await record(de.page, 'relocation-confirmed', 7);
  assert.equal(await caseState(de.page), 'RELOCATION_CONFIRMED');
  await Promise.all([
    de.page.waitForURL((u) => u.pathname.endsWith('/person')),
    de.page.locator('#person-form button[type="submit"]').click(),
  ]);
  assert.ok(NAMES.slice(0, 2).includes(await text(de.page, '#person-name')), 'the personal record is not shown');
  assert.match(await text(de.page, '#person-recorded'), /This read is recorded/);
  await checkClean(de.page, de.problems);

  // France's officer cannot open the case.
  const fr = await session(t, FR);
  const res = await fr.page.goto(casePath);
  assert.equal(res.status(), 404, 'France\'s officer opens a case of Italy allocated to Germany');
  assert.equal(await fr.page.locator('body').getByText(NAMES[0]).count(), 0);
  assert.equal(await fr.page.locator('body').getByText(NAMES[1]).count(), 0);

  // Italy's officer notifies the transfer decision and records the transfer.
  await goto(it.page, casePath);
  await record(it.page, 'transfer-decision-notified', 8);
  await record(it.page, 'transferred', 9);
  assert.equal(await caseState(it.page), 'RELOCATED_OUT');

  // The transfer is Germany's delivery: two relocations more.
  assert.equal(await deliveredTo(it.page, 'DE'), deliveredBefore + 2, 'Germany\'s relocations delivered did not go up by 2');
  await goto(it.page, arrivalPath);
  assert.equal(await text(it.page, '#relocation tr[data-state="DE"] td.allocated'), '2');
  assert.equal(await text(it.page, '#relocation tr[data-state="DE"] td.transferred'), '2');
  await checkClean(it.page, it.problems);

  // The coordinator sees Germany's read in the access log.
  await goto(coord.page, '/access-log');
  const reads = await coord.page.$$eval('#access-log tbody tr', (trs) => trs.map((tr) =>
    [...tr.querySelectorAll('td')].slice(2, 7).map((td) => td.textContent.trim()).join(' ')));
  const caseID = casePath.split('/').pop();
  assert.ok(reads.includes(`officer-de officer DE ${caseID} view`),
    `Germany's read is not in the access log: ${reads.join(' | ')}`);
  await checkClean(coord.page, coord.problems);

  // The next time limit on the arrival page is the first of the case's own.
  await goto(it.page, arrivalPath);
  const rowID = await it.page.$$eval('tr[data-case]', (trs) =>
    trs.find((tr) => tr.querySelector('td.next-due').textContent.trim() !== '—')?.dataset.case);
  assert.ok(rowID, 'no case of the landing has a running time limit');
  const singlePath = `/cases/${rowID}`;
  const next = (await text(it.page, `tr[data-case="${rowID}"] td.next-due`)).replace(/ (overdue|due soon)$/, '');
  await goto(it.page, singlePath);
  const first = (await text(it.page, '#dues td.due')).replace(/ (overdue|due soon)$/, '');
  assert.equal(next, first, 'the arrival page and the case page give the next time limit different dates');

  // The same list again is refused, naming the arrival; confirmed as a new landing it
  // is registered.
  await goto(it.page, '/arrivals');
  await it.page.locator('#import-form input[name="list"]').setInputFiles(csv);
  await Promise.all([
    it.page.waitForResponse((r) => r.url().endsWith('/arrivals') && r.request().method() === 'POST'),
    it.page.locator('#import-form button[type="submit"]').click(),
  ]);
  assert.match(await text(it.page, '#import-error'), new RegExp(arrivalPath.split('/').pop()));
  assert.equal(await it.page.locator('#new-landing').count(), 1, 'no confirmation of a new landing offered');
  it.problems.length = 0; // the 409 of the refused list was expected
  await it.page.locator('#import-form input[name="list"]').setInputFiles(csv);
  await it.page.locator('#new-landing input[name="new_landing"]').check();
  await Promise.all([
    it.page.waitForURL((u) => /^\/arrivals\/ARR-/.test(u.pathname) && u.pathname !== arrivalPath),
    it.page.locator('#import-form button[type="submit"]').click(),
  ]);
  await checkClean(it.page, it.problems);

  // Applying the consequences of missed time limits shows them first.
  await goto(coord.page, '/deadlines');
  await Promise.all([
    coord.page.waitForResponse((r) => r.url().endsWith('/deadlines/apply')),
    coord.page.locator('#apply-form button[type="submit"]').click(),
  ]);
  assert.equal(await coord.page.locator('#preview').count(), 1, 'no preview of the consequences');
  assert.equal(await coord.page.locator('#applied').count(), 0, 'consequences applied in one click');
  if (await coord.page.locator('#confirm-form').count() === 1) {
    await Promise.all([
      coord.page.waitForResponse((r) => r.url().endsWith('/deadlines/apply')),
      coord.page.locator('#confirm-form button[type="submit"]').click(),
    ]);
    assert.equal(await coord.page.locator('#applied').count(), 1, 'the confirmation applied nothing');
  }
  await checkClean(coord.page, coord.problems);
});
