import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import { updateFindingRoute } from '../../../server/routes/findings.ts';
import { createScheduleRoute } from '../../../server/routes/schedules.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  hasChromium,
  overflowing,
  screenshot,
  seriousViolations,
  useBrowser,
  visitAs,
} from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, runScan, type Tenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * What a newcomer met at 390 px and on long pages (issue 36): the scan's findings and the
 * schedules stack instead of scrolling sideways, Settings has jump links to its sections, an
 * empty overview says how to start, and an asset's open counts open the list they count.
 * Chromium against the real server; PGlite and PostgreSQL.
 */

if (!hasChromium) console.warn('small-screens-browser: skipped; /usr/bin/chromium is absent');

const T = 60_000;
const PHONE = { width: 390, height: 844 };

/** Every `.table-wrap` that scrolls sideways inside itself, by its first header. */
function sidewaysTables(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('.table-wrap')]
    .filter((w) => w.scrollWidth > w.clientWidth + 1)
    .map((w) => (w.querySelector('th') || w).textContent.slice(0, 40))`);
}

describe.skipIf(!hasChromium)(`small screens and long pages in the web console (${testEngine})`, () => {
  const suite = useTestApp();
  let app: TestApp;
  let tenant: Tenant;
  let api: ApiClient;
  let scanId: string;

  const web = useBrowser(() => app.url);
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise', limits: false });
    api = await tenant.client();
    const { scan } = await runScan(app.services.db, tenant.orgId, [
      detection({
        severity: 'high',
        title: 'A finding with a rather long title that would widen a table on a phone',
        affected_component:
          'https://127.0.0.1:8443/a/very/long/path/that/keeps/on/going/and/going?with=query',
      }),
      detection({ severity: 'medium', title: 'Another finding' }),
    ]);
    scanId = scan.id;
    okBody(
      await api.call(createScheduleRoute, {
        body: { target: '127.0.0.1', frequency: 'daily', authorized: true },
      }),
    );
  }, T);

  const visit = async (user: Tenant['admin'], path: string, viewport = PHONE) => {
    const { page } = await web.open({ viewport });
    await visitAs(page, user, path);
    return page;
  };

  it(
    'stacks the scan’s findings and the schedules at 390 px instead of scrolling sideways',
    async () => {
      const scanPage = await visit(tenant.admin, `/scans/${scanId}`);
      const findings = scanPage.getByRole('table', { name: 'Findings of this scan' });
      await findings.getByText('Another finding').waitFor();
      expect(await sidewaysTables(scanPage)).toEqual([]);
      expect(await overflowing(scanPage), 'scan at 390 px').toEqual([]);
      // Each value says what it is.
      expect(await findings.locator('td[data-label="Component"]').first().isVisible()).toBe(true);
      await screenshot(scanPage, 'scan-390');

      const settings = await visit(tenant.admin, '/settings');
      const schedules = settings.getByRole('region', { name: 'Scheduled scans' });
      await schedules.getByText('127.0.0.1').first().waitFor();
      expect(await sidewaysTables(settings)).toEqual([]);
      expect(await overflowing(settings), 'settings at 390 px').toEqual([]);
      expect(await seriousViolations(settings)).toEqual([]);
    },
    T * 2,
  );

  it(
    'gives Settings jump links to every section it shows',
    async () => {
      const page = await visit(tenant.admin, '/settings', { width: 1280, height: 900 });
      const nav = page.getByRole('navigation', { name: 'Settings sections' });
      await nav.getByRole('link', { name: 'Triage policy' }).waitFor();
      const headings = await page.locator('.settings-section > h2').allTextContents();
      expect(await nav.getByRole('link').allTextContents()).toEqual(headings);
      expect(headings.length).toBeGreaterThan(5);

      await nav.getByRole('link', { name: 'Two-factor authentication (MFA)' }).click();
      await page.waitForURL((url) => url.hash === '#mfa');
      // The page scrolled to the section: its heading is in view.
      await expect.poll(() => page.evaluate('window.scrollY')).toBeGreaterThan(0);
      const mfa = page.getByRole('heading', { name: 'Two-factor authentication (MFA)' });
      const top = await mfa.evaluate((h) => h.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(900);
    },
    T,
  );

  it(
    'says on an empty overview how to start a first scan, and not once there are findings',
    async () => {
      const fresh = await factory.tenant(app);
      const empty = await visit(fresh.admin, '/overview', { width: 1280, height: 900 });
      const start = empty.getByRole('region', { name: 'Start with a first scan' });
      await start.waitFor();
      await start.getByRole('link', { name: 'Scans' }).click();
      await empty.waitForURL((url) => url.pathname === '/scans');
      await empty.getByRole('heading', { name: 'Start a scan' }).waitFor();

      const busy = await visit(tenant.admin, '/overview', { width: 1280, height: 900 });
      await busy.getByRole('region', { name: 'Open findings by severity' }).waitFor();
      expect(await busy.getByRole('region', { name: 'Start with a first scan' }).count()).toBe(0);
    },
    T,
  );

  it(
    'links an asset’s open counts to the list of exactly those findings (open or in progress)',
    async () => {
      const { summary } = await runScan(
        app.services.db,
        tenant.orgId,
        [
          detection({ severity: 'high', target: '127.0.0.5', title: 'Asset high one' }),
          detection({ severity: 'high', target: '127.0.0.5', title: 'Asset high two' }),
          detection({ severity: 'high', target: '127.0.0.5', title: 'Asset high three' }),
        ],
        { target: '127.0.0.5', hosts: [{ address: '127.0.0.5', names: [], services: [] }] },
      );
      const [working, fixed] = summary.new_finding_ids;
      const triage = async (id: string, status: 'in_progress' | 'resolved') =>
        okBody(await api.call(updateFindingRoute, { params: { finding_id: id }, body: { status } }));
      await triage(working!, 'in_progress');
      await triage(fixed!, 'resolved');
      const asset = okBody(await api.call(listAssetsRoute)).items.find((a) => a.address === '127.0.0.5')!;
      const detail = okBody(await api.call(getAssetRoute, { params: { asset_id: asset.id } }));
      const page = await visit(tenant.admin, `/inventory/${asset.id}`, { width: 1280, height: 900 });
      await page
        .getByRole('link', { name: /open high findings/ })
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === '/findings');
      const url = new URL(page.url());
      expect(url.searchParams.get('status')).toBe('open,in_progress');
      const pages = page.getByRole('navigation', { name: 'Pages' });
      await pages.waitFor();
      const total = Number(/\((\d+) in all\)/.exec((await pages.textContent()) ?? '')?.[1]);
      expect(detail.open_findings.high).toBe(2); // open and in progress; the resolved one is not open
      expect(total).toBe(detail.open_findings.high);
    },
    T,
  );
});
