import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download), for the
 * console's browser tests. Chromium may reach loopback only: every other host
 * resolves to nothing and goes to a dead proxy.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--proxy-server=http://127.0.0.1:9',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
}

/** A page that records every console error, page error, failed request and 4xx/5xx answer. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** What went wrong in the page so far (each entry says what and where). */
  problems: string[];
  /** Answers the test expects (a 401 after revoking the session), left out of `problems`. */
  expect(status: number, pathPart: string): void;
  close(): Promise<void>;
}

export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 900 },
): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  const expected: Array<{ status: number; pathPart: string }> = [];
  const isExpected = (status: number, url: string) =>
    expected.some((e) => e.status === status && url.includes(e.pathPart));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs an expected 4xx as "Failed to load resource"; those are judged below by URL.
    const url = message.location().url;
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
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !isExpected(response.status(), response.url())) {
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    }
  });
  return {
    page,
    context,
    problems,
    expect: (status, pathPart) => expected.push({ status, pathPart }),
    close: () => context.close(),
  };
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
