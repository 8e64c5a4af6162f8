// Shared by a11y.test.mjs, keyboard.test.mjs and screenshots.mjs: who the demo users
// are, how one logs in, and how the pages that need an ID (an arrival, a case, the
// current cycle) are found. Selectors are the page's stable ids and form field
// names, so that a redesign of a page's layout does not break them.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const BASE = (process.env.SOLIDARITY_URL || '').replace(/\/+$/, '');

// who reads a user's credentials from SOLIDARITY_<NAME>_USER/_PASSWORD
// (officer-it → SOLIDARITY_OFFICER_IT_USER), or else from the file named by
// SOLIDARITY_CREDENTIALS: what `solidarity serve` printed on its first start
// ("  officer-it   officer     IT  password XXXX").
export function who(name) {
  const key = name.toUpperCase().replace(/-/g, '_');
  const user = process.env[`SOLIDARITY_${key}_USER`];
  const password = process.env[`SOLIDARITY_${key}_PASSWORD`];
  if (user && password) return { name, user, password };
  const printed = credentialsFile()[name];
  return printed ? { name, user: name, password: printed } : { name, user, password };
}

let printedCredentials;
function credentialsFile() {
  if (printedCredentials) return printedCredentials;
  printedCredentials = {};
  const f = process.env.SOLIDARITY_CREDENTIALS;
  if (!f) return printedCredentials;
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    const m = line.match(/^\s+(\S+)\s+\S+\s+(?:[A-Z]{2}\s+)?password\s+(\S+)\s*$/);
    if (m) printedCredentials[m[1]] = m[2];
  }
  return printedCredentials;
}

export const ROLES = ['coordinator', 'auditor', 'officer-it', 'officer-de'];

// axePath is axe-core's browser bundle, injected into a page with addScriptTag.
export const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// WCAG 2.1 A and AA: what EN 301 549 (clause 9) asks of a web page.
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// logIn logs u in through the login form (mouse-free fills: this is the set-up, not
// the keyboard test) and waits to be sent on to next.
export async function logIn(page, u, next = '/') {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.locator('form#login-form input[name="name"]').fill(u.user);
  await page.locator('form#login-form input[name="password"]').fill(u.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== '/login'),
    page.locator('form#login-form button[type="submit"]').click(),
  ]);
}

// firstHref is the first link on the page whose path starts with prefix, or null.
export async function firstHref(page, prefix) {
  return page.evaluate((p) => {
    const a = [...document.querySelectorAll('main a[href]')].find((x) => new URL(x.href).pathname.startsWith(p));
    return a ? new URL(a.href).pathname : null;
  }, prefix);
}

// poolPath is the dashboard's path of the current cycle (where / sends you).
export async function poolPath(page) {
  await page.goto('/');
  return new URL(page.url()).pathname;
}

// caseIDs finds an arrival and a case in it from the arrivals list.
export async function arrivalAndCase(page) {
  await page.goto('/arrivals');
  const arrival = await firstHref(page, '/arrivals/');
  if (!arrival) return {};
  await page.goto(arrival);
  return { arrival, kase: await firstHref(page, '/cases/') };
}

// runAxe injects axe-core into the page and returns its WCAG 2.1 A/AA violations.
export async function runAxe(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: axePath });
  }
  return page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, WCAG);
}

// describe formats violations for a failure message: page, rule, impact, targets.
export function describe(label, violations) {
  return violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help}\n    ${v.targets.slice(0, 8).join('\n    ')}${v.targets.length > 8 ? `\n    … and ${v.targets.length - 8} more` : ''}`);
}
