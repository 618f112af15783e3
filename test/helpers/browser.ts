import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Debian's Chromium driven by playwright-core (no browser download), for the
 * console's browser tests: `useBrowser` for a describe block, pages that record what goes
 * wrong in them (`openPage`), signing in to the console (`signIn`, `visitAs`), and the
 * layout checks (`seriousViolations`, `overflowing`). Chromium may reach loopback only:
 * every other host resolves to nothing and goes to a dead proxy.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/**
 * The switches every Chromium of the tests starts with: no first-run work, no background
 * traffic, and loopback only (every other host resolves to nothing and goes to a dead proxy).
 */
export const CHROMIUM_SWITCHES = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:9',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_SWITCHES });
}

/** A page that records every console error, page error, failed request and 4xx/5xx answer. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** What went wrong in the page so far (each entry says what and where). */
  problems: string[];
  /** Every request the page made, in order (the network log). */
  requests: Array<{ method: string; url: URL }>;
  /** Answers the test expects (a 401 after revoking the session), left out of `problems`. */
  expect(status: number, pathPart: string): void;
  /** Closes the page's browser context (again is a no-op). */
  close(): Promise<void>;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** For a site with a test certificate (an identity provider over HTTPS). */
  ignoreHTTPSErrors?: boolean;
  /**
   * Judge only what the page does at `baseURL`'s origin (page errors count anywhere): for a
   * test that passes through another site's pages, which may load what they like.
   */
  ignoreOtherSites?: boolean;
}

export async function openPage(
  browser: Browser,
  baseURL: string,
  options: PageOptions = {},
): Promise<WatchedPage> {
  const viewport = options.viewport ?? { width: 1280, height: 900 };
  const context = await browser.newContext({
    baseURL,
    viewport,
    acceptDownloads: true,
    ignoreHTTPSErrors: options.ignoreHTTPSErrors,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: WatchedPage['requests'] = [];
  const expected: Array<{ status: number; pathPart: string }> = [];
  const origin = new URL(baseURL).origin;
  const judged = (url: string) => !options.ignoreOtherSites || url.startsWith(origin);
  const isExpected = (status: number, url: string) =>
    expected.some((e) => e.status === status && url.includes(e.pathPart));
  page.on('request', (request) => requests.push({ method: request.method(), url: new URL(request.url()) }));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs an expected 4xx as "Failed to load resource"; those are judged below by URL.
    const url = message.location().url;
    if (!judged(url)) return;
    if (/Failed to load resource/.test(message.text()) && expected.some((e) => url.includes(e.pathPart)))
      return;
    problems.push(`console error: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A download ends its request in the page, and leaving a page aborts its pending
    // requests (a poll): neither is a failure.
    const error = request.failure()?.errorText ?? '';
    if (request.url().includes('/api/v1/findings/export') || error === 'net::ERR_ABORTED') return;
    if (!judged(request.url())) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (!judged(response.url())) return;
    if (response.status() >= 400 && !isExpected(response.status(), response.url())) {
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    }
  });
  let closed: Promise<void> | undefined;
  return {
    page,
    context,
    problems,
    requests,
    expect: (status, pathPart) => expected.push({ status, pathPart }),
    close: () => (closed ??= context.close()),
  };
}

/** Chromium for the tests of one describe block, as `useTestApp` gives its app. */
export interface SuiteBrowser {
  /**
   * A new watched page (a browser context of its own) on the app; whatever went wrong in it
   * fails the test that opened it, once that test ends.
   */
  open(options?: PageOptions): Promise<WatchedPage>;
}

/**
 * Launches Chromium before the tests of the calling describe block and closes it after them.
 * After each test it closes the pages the test opened and fails the test on their problems
 * (console errors, page errors, failed requests, unexpected error answers). `baseURL` is read
 * when a page opens, so it may name an app a hook starts; `defaults` go to every page.
 */
export function useBrowser(baseURL: () => string, defaults: PageOptions = {}): SuiteBrowser {
  let browser: Browser | undefined;
  const pages: WatchedPage[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    const problems = pages.flatMap((p) => p.problems);
    await Promise.all(pages.splice(0).map((p) => p.close()));
    expect(problems, 'console errors, failed requests and error answers').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    open: async (options) => {
      if (!browser) throw new Error('Chromium has not started: open pages inside a test');
      const watched = await openPage(browser, baseURL(), { ...defaults, ...options });
      pages.push(watched);
      return watched;
    },
  };
}

/** Whoever signs in to the console: a test user (`tenant.admin`, `addUser`) or an e-mail and a password. */
export interface Credentials {
  email: string;
  password: string;
}

/** Fills the console's sign-in form (the page must show it) with `user`'s e-mail and password and sends it. */
export async function signIn(page: Page, user: Credentials): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Opens `path` of the console as `user`: the console asks to sign in first and then returns.
 * Waits until the page is at `arrived` (by default `path` itself, its query included).
 */
export async function visitAs(
  page: Page,
  user: Credentials,
  path: string,
  arrived: (url: URL) => boolean = (url) => url.pathname + url.search === path,
): Promise<void> {
  await page.goto(path);
  await signIn(page, user);
  await page.waitForURL(arrived);
}

/**
 * What makes the page scroll sideways: the elements sticking out of the window outside the
 * tables' own scrolling boxes, or the page width if only that tells.
 */
export function overflowing(page: Page): Promise<string[]> {
  // Runs in the page (a string: the test code has no DOM types).
  return page.evaluate(`(() => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((e) => !e.parentElement?.closest('.table-wrap'))
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ' (' + e.textContent.slice(0, 40) + ')');
    const extra = document.documentElement.scrollWidth - window.innerWidth;
    return wide.length || extra <= 0 ? wide : ['the page is ' + extra + ' px wider than the window'];
  })()`);
}

/** Serious and critical accessibility violations of the page as it is now (axe-core). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Saves a screenshot into the directory named by SCANWARD_SCREENSHOTS (docs/console
 * for the documentation), when set; tests never write into the tree otherwise.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCANWARD_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
