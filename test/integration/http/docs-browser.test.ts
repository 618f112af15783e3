import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../../server/routes/index.ts';
import { CHROMIUM, CHROMIUM_SWITCHES, hasChromium } from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Loads /docs and /redoc in headless Chromium and checks the rendered DOM: the
 * pages really render from the assets this server serves. Chromium may reach
 * loopback only (the switches every browser test starts it with).
 */

const run = promisify(execFile);

if (!hasChromium) {
  console.warn(`platform-docs-browser: skipped; ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

async function renderedDom(url: string): Promise<string> {
  const profile = mkdtempSync(path.join(tmpdir(), 'scanward-chromium-'));
  try {
    const { stdout } = await run(
      CHROMIUM,
      [
        '--headless',
        ...CHROMIUM_SWITCHES,
        `--user-data-dir=${profile}`,
        // Lets the page's scripts run (fetch the document, render) before the DOM is dumped.
        '--virtual-time-budget=15000',
        '--dump-dom',
        url,
      ],
      { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe.skipIf(!hasChromium)(`documentation pages in a browser (${testEngine})`, () => {
  let app: TestApp;
  const suite = useTestApp({ env: { SCANWARD_DOCS_PUBLIC: 'true' } });
  beforeAll(() => {
    app = suite.app;
  });

  /** Summaries as they appear in serialised HTML text. */
  const summaries = allRoutes.map((r) =>
    r.summary.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );

  it('renders Swagger UI with the operations of this API', async () => {
    const dom = await renderedDom(`${app.url}/docs`);
    expect(dom).toContain('class="swagger-ui');
    expect(dom).toContain('data-path="/api/health"');
    const shown = summaries.filter((s) => dom.includes(s));
    expect(shown.length, 'operation summaries in the rendered page').toBe(summaries.length);
  }, 120_000);

  it('renders ReDoc with the operations of this API', async () => {
    const dom = await renderedDom(`${app.url}/redoc`);
    expect(dom).toContain('Scanward API');
    const shown = summaries.filter((s) => dom.includes(s));
    expect(shown.length, 'operation summaries in the rendered page').toBe(summaries.length);
  }, 120_000);
});
