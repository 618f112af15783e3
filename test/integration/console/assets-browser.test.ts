import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAssetsRoute } from '../../../server/routes/assets.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { detection, factory, runScan, type BuiltTenant } from '../../helpers/factory.ts';
import { hasChromium, overflowing, seriousViolations, useBrowser, visitAs } from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The assets pages and the findings list's grouping in Chromium against the real server
 * (issue 23, item 2): the list with its filters, an asset's services with end-of-life badges
 * and its open findings linking to the filtered findings list, the list grouped by asset,
 * CVE and check; axe and no sideways scrolling at 1280 and 390 px on each.
 */

if (!hasChromium) console.warn('assets-browser: skipped; /usr/bin/chromium is absent');

const T = 90_000;

describe.skipIf(!hasChromium)(`assets and grouping in the web console (${testEngine})`, () => {
  const suite = useTestApp();
  let app: TestApp;
  let tenant: BuiltTenant;
  let assetId: string;

  const web = useBrowser(() => app.url);
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise' });
    await runScan(
      app.services.db,
      tenant.orgId,
      [
        detection({
          check_id: 'software-end-of-life:redis',
          title: 'End-of-life software',
          severity: 'high',
          target: 'cache.internal.test',
          affected_component: 'redis://127.0.0.1:6379',
          port: 6379,
        }),
        detection({
          check_id: 'redis-unauthenticated',
          title: 'Redis without authentication',
          severity: 'critical',
          target: 'cache.internal.test',
          affected_component: 'redis://127.0.0.1:6379',
          port: 6379,
          cve_ids: ['CVE-2022-0543'],
        }),
        detection({ severity: 'low', target: '127.0.0.2', affected_component: 'https://127.0.0.2:443/' }),
      ],
      {
        target: 'cache.internal.test',
        hosts: [
          {
            address: '127.0.0.1',
            names: ['cache.internal.test', 'a-rather-long-host-name-for-narrow-screens.internal.test'],
            services: [
              {
                port: 6379,
                protocol: 'tcp',
                service: 'redis',
                product: 'Redis',
                version: '7.0.15',
                tls: false,
                eol: { status: 'end_of_life', product: 'Redis', cycle: '7.0', date: '2024-07-29' },
              },
              {
                port: 443,
                protocol: 'tcp',
                service: 'https',
                product: 'nginx',
                version: '1.27.3',
                tls: true,
              },
            ],
          },
          { address: '127.0.0.2', names: [], services: [] },
        ],
      },
    );
    const listed = okBody(await tenant.api.call(listAssetsRoute));
    assetId = listed.items.find((a) => a.address === '127.0.0.1')!.id;
  }, 60_000);

  const signedIn = async (width: number, path: string) => {
    const { page } = await web.open({ viewport: { width, height: 900 } });
    await visitAs(page, tenant.admin, path);
    return page;
  };
  const checkLayout = async (page: Page, what: string, width: number) => {
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page), `${what} at ${width} px`).toEqual([]);
    expect(await overflowing(page), `${what} at ${width} px: wider than the window`).toEqual([]);
  };

  it(
    'lists assets, filters them, and shows an asset with its services, EOL badges and open findings',
    async () => {
      const page = await signedIn(1280, '/findings');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assets' }).click();
      await page.getByRole('heading', { level: 1, name: 'Assets' }).waitFor();
      const table = page.getByRole('region', { name: 'Assets' });
      await table.getByRole('link', { name: '127.0.0.1' }).waitFor();
      await table.getByRole('link', { name: '127.0.0.2' }).waitFor();
      await checkLayout(page, 'assets', 1280);

      // Only assets running end-of-life software.
      await page.getByLabel('End of life').selectOption('true');
      await page.waitForURL((url) => url.searchParams.get('eol') === 'true');
      await expect.poll(() => table.getByRole('row').count()).toBe(2);
      await table.getByRole('link', { name: '127.0.0.1' }).click();

      await page.getByRole('heading', { level: 1, name: 'Asset 127.0.0.1' }).waitFor();
      expect(page.url()).toContain(`/inventory/${assetId}`);
      const services = page.getByRole('region', { name: 'Services' });
      const redis = services.getByRole('row').filter({ hasText: '6379/tcp' });
      await expect.poll(() => redis.textContent()).toContain('End of life');
      expect(await redis.textContent()).toContain('7.0.15');
      const https = services.getByRole('row').filter({ hasText: '443/tcp' });
      expect(await https.textContent()).toMatch(/Yes.*Not known/);
      await checkLayout(page, 'asset', 1280);

      // Its open critical findings, as the filtered findings list.
      await page.getByRole('link', { name: /Critical 1/ }).click();
      await page.waitForURL(
        (url) => url.pathname === '/findings' && url.searchParams.get('asset_id') === assetId,
      );
      await page.getByRole('link', { name: 'Redis without authentication' }).waitFor();
      expect(await page.getByRole('link', { name: 'End-of-life software' }).count()).toBe(0);
    },
    T,
  );

  it(
    'groups the findings list by asset, CVE and check, each group opening its findings',
    async () => {
      const page = await signedIn(1280, '/findings');
      await page.getByLabel('Group by').selectOption('asset');
      const byAsset = page.getByRole('region', { name: 'Findings by Asset' });
      await byAsset.getByRole('link', { name: '127.0.0.1' }).waitFor();
      const first = byAsset.getByRole('row').filter({ hasText: '127.0.0.1' });
      expect((await first.textContent())!.replace(/\s+/g, ' ')).toContain('cache.internal.test');
      await checkLayout(page, 'findings by asset', 1280);

      await page.getByLabel('Group by').selectOption('cve');
      await page
        .getByRole('region', { name: 'Findings by CVE' })
        .getByRole('link', { name: 'CVE-2022-0543' })
        .waitFor();

      await page.getByLabel('Group by').selectOption('check');
      const byCheck = page.getByRole('region', { name: 'Findings by Check' });
      await byCheck.getByRole('link', { name: 'redis-unauthenticated' }).click();
      await page.waitForURL((url) => url.searchParams.get('template_id') === 'redis-unauthenticated');
      await page.getByRole('link', { name: 'Redis without authentication' }).waitFor();
      expect(new URL(page.url()).searchParams.get('group')).toBeNull();
    },
    T,
  );

  it(
    'has no serious accessibility violation and no sideways scroll at 390 px',
    async () => {
      const page = await signedIn(390, '/inventory');
      await page.getByRole('heading', { level: 1, name: 'Assets' }).waitFor();
      await checkLayout(page, 'assets', 390);
      await page.goto(`/inventory/${assetId}`);
      await page.getByRole('heading', { level: 1, name: 'Asset 127.0.0.1' }).waitFor();
      await checkLayout(page, 'asset', 390);
      await page.goto('/findings?group=asset');
      await page.getByRole('region', { name: 'Findings by Asset' }).waitFor();
      await checkLayout(page, 'findings by asset', 390);
    },
    T,
  );
});
