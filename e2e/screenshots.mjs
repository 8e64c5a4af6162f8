// Screenshots of the main pages for the README (docs/screenshots/), from a running
// server with the demonstration:
//
//   node e2e/screenshots.mjs http://127.0.0.1:8080 docs/screenshots
//
// The users' credentials come from SOLIDARITY_<USER>_USER/_PASSWORD (coordinator,
// officer-de), or from SOLIDARITY_CREDENTIALS, a file holding what `solidarity serve`
// printed on its first start. Each page is taken at 1366 px wide, full height; the dashboard also in
// German at 390 px. A page that cannot be reached is reported and the others are
// still taken; the exit status is 1 if any failed.

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from './browser.mjs';
import { who, logIn, firstHref } from './pages.mjs';

const [base, outArg] = process.argv.slice(2);
if (!base || !outArg) {
  console.error('usage: node e2e/screenshots.mjs BASE_URL OUTDIR');
  process.exit(2);
}
const BASE = base.replace(/\/+$/, '');
const OUT = resolve(outArg);
const DEMO_CYCLE = process.env.SOLIDARITY_DEMO_CYCLE || '9026';
mkdirSync(OUT, { recursive: true });

const browser = await launch();
let failed = 0;

async function open(width, height = 900) {
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.setDefaultNavigationTimeout(30_000);
  return { ctx, page };
}

// shot goes to path (unless it is null: the page is already there) and writes name.png.
async function shot(page, name, path) {
  try {
    if (path) {
      const res = await page.goto(path);
      if (!res || res.status() !== 200) throw new Error(`HTTP ${res?.status()} for ${path}`);
    }
    const file = join(OUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${file}  ${page.url()}`);
  } catch (err) {
    failed++;
    console.error(`${name}: ${err.message}`);
  }
}

async function as(role) {
  const u = who(role);
  if (!u.user || !u.password) throw new Error(`SOLIDARITY_${role.toUpperCase().replace(/-/g, '_')}_USER/_PASSWORD are not set`);
  const s = await open(1366);
  await logIn(s.page, u);
  return s;
}

try {
  // The public.
  const pub = await open(1366);
  await pub.page.goto('/');
  const pool = new URL(pub.page.url()).pathname;
  await shot(pub.page, 'dashboard', pool);
  await shot(pub.page, 'dashboard-coverage', `${pool}?mode=coverage`);
  await shot(pub.page, 'state-de', `${pool}/states/DE`);
  await shot(pub.page, 'state-it', `${pool}/states/IT`);
  await shot(pub.page, 'accessibility', '/accessibility');
  // The What-if page: four states pay instead of relocating in the 2026 pool.
  await shot(pub.page, 'whatif', '/whatif?base=cycle-2026&choice.FR=pay&choice.NL=pay&choice.SE=pay&choice.RO=pay&runs=1000&seed=1');
  await pub.ctx.close();

  // The dashboard in German on a phone.
  const phone = await open(390, 844);
  await shot(phone.page, 'dashboard-de-390', `/language?lang=de&next=${encodeURIComponent(pool)}`);
  await phone.ctx.close();

  // The coordinator: ledger, case flow, access log, the proposal.
  const coord = await as('coordinator');
  const p = coord.page;
  await shot(p, 'ledger', '/ledger');
  await shot(p, 'arrivals', '/arrivals');
  await p.goto('/arrivals');
  const arrival = await firstHref(p, '/arrivals/');
  if (arrival) {
    await shot(p, 'arrival', arrival);
    const kase = await firstHref(p, '/cases/');
    if (kase) await shot(p, 'case', kase);
  }
  await shot(p, 'deadlines', '/deadlines');
  await shot(p, 'access-log', '/access-log');
  try {
    await p.goto('/relocation');
    const year = p.locator('form#proposal-form select[name="year"]');
    if ((await year.locator(`option[value="${DEMO_CYCLE}"]`).count()) > 0) await year.selectOption(DEMO_CYCLE);
    await Promise.all([p.waitForEvent('load'), p.locator('form#proposal-form button[type="submit"]').first().click()]);
    await shot(p, 'relocation-proposal', null);
  } catch (err) {
    failed++;
    console.error(`relocation-proposal: ${err.message}`);
  }
  await coord.ctx.close();

  // Germany's officer on its own state page (with its forms).
  const de = await as('officer-de');
  await shot(de.page, 'state-de-officer', `${pool}/states/DE`);
  await de.ctx.close();
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
