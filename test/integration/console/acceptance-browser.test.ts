import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ObservedHost } from '../../../server/assets/inventory.ts';
import { reopenExpiredAcceptances } from '../../../server/findings/acceptance-expiry.ts';
import { listAssetsRoute } from '../../../server/routes/assets.ts';
import { getFindingRoute } from '../../../server/routes/findings.ts';
import { okBody } from '../../helpers/api-client.ts';
import { hasChromium, seriousViolations, useBrowser, visitAs } from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The finding page in Chromium against the real server (issue 23): a person accepts a finding
 * with a justification and an expiry; when the expiry passes, the acceptance-expiry timer
 * reopens it and the page, left open, shows it open again with the `system` history entry,
 * from the event stream and without a reload. And the asset the finding is on, linked to its
 * inventory page. At 1280 px, with axe-core; each test fails on a console error, a failed
 * request or an error answer. PGlite and PostgreSQL.
 *
 * The expiry is driven, not waited for: the test runs the timer's pass
 * (`reopenExpiredAcceptances`, what the `api` role runs every minute) with its clock at the
 * acceptance's `acceptance_expires_at`, and waits on the page's state.
 */

if (!hasChromium) console.warn('acceptance-browser: skipped; /usr/bin/chromium is absent');

const T = 60_000;
const DAY = 86_400_000;

const redisHost = (address: string, names: string[]): ObservedHost => ({
  address,
  names,
  services: [
    { port: 6379, protocol: 'tcp', service: 'redis', product: 'Redis', version: '7.4.1', tls: false },
  ],
});

describe.skipIf(!hasChromium)(`risk acceptance and the asset on the finding page (${testEngine})`, () => {
  const suite = useTestApp();
  const web = useBrowser(() => suite.app.url, { viewport: { width: 1280, height: 900 } });

  /** A page at 1280 px recording the event-stream requests it makes. */
  const open = async () => {
    const { page } = await web.open();
    const streams: string[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).pathname === '/api/v1/events') streams.push(request.url());
    });
    return { page, streams };
  };

  /** Resolves when the console's event stream has answered 200 (EventSource's open). */
  const streamOpen = (page: Page) =>
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/events' && r.status() === 200);

  it(
    'reopens an accepted finding when its acceptance lapses, shown on the open page from the event stream',
    async () => {
      const tenant = await factory.tenant(suite.app, {
        plan: 'enterprise',
        findings: [detection({ title: 'Redis reachable without a password', severity: 'high' })],
      });
      const findingId = tenant.summary!.new_finding_ids[0]!;
      const { page, streams } = await open();
      const opened = streamOpen(page);
      await visitAs(page, tenant.admin, `/findings/${findingId}`);
      await page.getByRole('heading', { level: 1, name: 'Redis reachable without a password' }).waitFor();
      await opened;
      const status = page.getByTestId('finding-status');
      await status.getByText('Open', { exact: true }).waitFor();

      // The person accepts the risk until the end of tomorrow (UTC), with a reason.
      const lastDay = new Date(Date.now() + DAY).toISOString().slice(0, 10);
      const statusBox = page.getByRole('combobox', { name: /^Status/ });
      await statusBox.selectOption('accepted');
      await page.getByLabel('Justification (required)').fill('Behind the VPN until the vendor patch ships');
      await page.getByLabel('Accepted until (optional)').fill(lastDay);
      await page.getByRole('button', { name: 'Save status' }).click();
      await page.getByText('Status is now Accepted.').waitFor();
      await status.getByText('Accepted', { exact: true }).waitFor();
      await page
        .getByTestId('finding-justification')
        .getByText('Behind the VPN until the vendor patch ships', { exact: false })
        .waitFor();

      const accepted = okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: findingId } }));
      expect(accepted).toMatchObject({
        status: 'accepted',
        justification: 'Behind the VPN until the vendor patch ships',
        justified_by: tenant.admin.email,
        acceptance_expires_at: `${lastDay}T23:59:59.000Z`,
      });
      const expiresAt = new Date(accepted.acceptance_expires_at!);
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), 'the accepted finding at 1280 px').toEqual([]);

      // From here on the page must not load again: a mark on its window survives only without a
      // reload. What it shows next comes from reading the finding again, once an event says so.
      await page.evaluate('window.__sameDocument = true');
      const rereadOpen = page.waitForResponse(
        async (r) =>
          new URL(r.url()).pathname === `/api/v1/findings/${findingId}` &&
          r.request().method() === 'GET' &&
          ((await r.json()) as { status: string }).status === 'open',
      );
      rereadOpen.catch(() => undefined); // awaited below; a failure before then is not unhandled

      // A pass of the timer just before the expiry leaves the finding accepted; the pass at
      // the expiry reopens it.
      expect(
        await reopenExpiredAcceptances(suite.app.services.db, new Date(expiresAt.getTime() - 1)),
      ).not.toContain(findingId);
      expect(await reopenExpiredAcceptances(suite.app.services.db, expiresAt)).toContain(findingId);

      // The open page follows: status Open, the decision gone, the system's history entry.
      await status.getByText('Open', { exact: true }).waitFor();
      const history = page.getByRole('region', { name: 'History' });
      const reopened = history.getByRole('listitem').filter({ hasText: 'Status changed: Accepted → Open' });
      await reopened.waitFor();
      expect(await reopened.textContent()).toContain('by system');
      // The acceptance's own entry keeps its justification.
      expect(
        await history
          .getByRole('listitem')
          .filter({ hasText: 'Status changed: Open → Accepted' })
          .textContent(),
      ).toContain('Justification: Behind the VPN until the vendor patch ships');
      expect(await page.getByTestId('finding-justification').count()).toBe(0);
      // The status form follows the finding: it offers Open again and no longer says "Accepted".
      expect(await statusBox.inputValue()).toBe('open');
      expect(await page.getByText('Status is now Accepted.').count()).toBe(0);
      expect(await page.getByLabel('Justification (required)').count()).toBe(0);

      // Through the stream, without a reload: the same document, the one stream it opened (never
      // down, so the slow fallback poll never ran), and the finding read again by the page.
      await rereadOpen;
      expect(await page.evaluate('window.__sameDocument')).toBe(true);
      expect(streams).toHaveLength(1);
      const after = okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: findingId } }));
      expect(after).toMatchObject({ status: 'open', justification: null, acceptance_expires_at: null });
      expect(after.history.at(-1)).toMatchObject({ from: 'accepted', to: 'open', user: 'system' });

      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), 'the reopened finding at 1280 px').toEqual([]);
    },
    T,
  );

  it(
    "shows the asset a finding is on, linked to the asset's inventory page; none for a host with no asset",
    async () => {
      const tenant = await factory.tenant(suite.app, { plan: 'enterprise' });
      const { summary } = await runScan(
        suite.app.services.db,
        tenant.orgId,
        [
          detection({
            title: 'Redis on a known host',
            target: 'cache.internal.test',
            affected_component: 'redis://127.0.0.1:6379',
            port: 6379,
          }),
          detection({ title: 'Weakness on an unknown host', target: 'elsewhere.internal.test' }),
        ],
        { target: 'cache.internal.test', hosts: [redisHost('127.0.0.1', ['cache.internal.test'])] },
      );
      const assets = okBody(await tenant.api.call(listAssetsRoute));
      expect(assets.items.map((a) => a.address)).toEqual(['127.0.0.1']);
      const assetId = assets.items[0]!.id;
      const findings = await Promise.all(
        summary.new_finding_ids.map(async (id) =>
          okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: id } })),
        ),
      );
      const onAsset = findings.find((f) => f.title === 'Redis on a known host')!;
      const onNone = findings.find((f) => f.title === 'Weakness on an unknown host')!;
      expect([onAsset.asset_id, onNone.asset_id]).toEqual([assetId, null]);

      const { page } = await open();
      await visitAs(page, tenant.admin, `/findings/${onNone.id}`);
      await page.getByRole('heading', { level: 1, name: 'Weakness on an unknown host' }).waitFor();
      await page.getByTestId('finding-asset').getByText('None known yet').waitFor();

      await page.goto(`/findings/${onAsset.id}`);
      await page.getByRole('heading', { level: 1, name: 'Redis on a known host' }).waitFor();
      const asset = page.getByTestId('finding-asset');
      // Named by its address once read, with its names beside it.
      const link = asset.getByRole('link', { name: '127.0.0.1' });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`/inventory/${assetId}`);
      expect(await asset.textContent()).toContain('cache.internal.test');
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), 'the finding with its asset at 1280 px').toEqual([]);

      await link.click();
      await page.waitForURL((url) => url.pathname === `/inventory/${assetId}`);
      await page.getByRole('heading', { level: 1, name: 'Asset 127.0.0.1' }).waitFor();
      await page.getByRole('region', { name: 'Services' }).getByText('6379/tcp').waitFor();
    },
    T,
  );
});
