// Shared by the browser tests: how Chromium is launched, and a page that records
// every problem a user would not see (console errors, page errors, CSP violations,
// failed requests, HTTP errors), so that a test can assert there were none.

import { chromium } from 'playwright-core';

// See dashboard.test.mjs for why these flags.
export const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS, timeout: 20_000 });
}

// watchedPage opens a page in a browser context of its own (its own cookies), closed
// when the test t ends, and returns it with the list its problems are recorded in.
export async function watchedPage(t, browser, baseURL, { timeout = 10_000, navigation = 20_000 } = {}) {
  const context = await browser.newContext({ baseURL });
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
  page.setDefaultTimeout(timeout);
  page.setDefaultNavigationTimeout(navigation);
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

// text is an element's text with white space collapsed.
export async function text(page, selector) {
  return (await page.locator(selector).first().textContent()).replace(/\s+/g, ' ').trim();
}
