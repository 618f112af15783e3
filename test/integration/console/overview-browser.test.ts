import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { getOverviewRoute } from '../../../server/routes/overview.ts';
import { getSlaRoute, putSlaRoute } from '../../../server/routes/settings.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { detection, factory, insertScan, runScan, type Tenant } from '../../helpers/factory.ts';
import {
  hasChromium,
  overflowing,
  screenshot,
  seriousViolations,
  useBrowser,
  visitAs,
} from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The overview, SLAs and search in Chromium against the real server (issue 23): the overview's
 * figures are the API's, a click on a chart lands on the findings list that shows what it
 * counted; the SLA section saves the policy; due dates and "Overdue" show on the list, the
 * finding and the scan; the search filters live in the URL. axe at 1280 and 390 px on the
 * overview, and no sideways scrolling at 390 px. PGlite and PostgreSQL.
 */

if (!hasChromium) console.warn('overview-browser: skipped; /usr/bin/chromium is absent');

const T = 60_000;
const DAY = 86_400_000;

describe.skipIf(!hasChromium)(`overview, SLAs and search in the web console (${testEngine})`, () => {
  const suite = useTestApp();
  let app: TestApp;
  let tenant: Tenant;
  let api: ApiClient;
  let scanOfLate: string;

  const web = useBrowser(() => app.url);
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise', limits: false });
    api = await tenant.client();
    const db = app.services.db;
    const late = await runScan(
      db,
      tenant.orgId,
      [
        detection({
          title: 'Overview late critical',
          severity: 'critical',
          kev: true,
          cve_ids: ['CVE-2021-44228'],
          target: '127.0.0.2',
        }),
      ],
      { now: new Date(Date.now() - 40 * DAY), target: '127.0.0.2' },
    );
    scanOfLate = late.scan.id;
    await runScan(db, tenant.orgId, [
      detection({ title: 'Redis without a password', severity: 'high', target: '127.0.0.1' }),
      detection({
        title: 'Overview medium',
        severity: 'medium',
        cve_ids: ['CVE-2023-1111'],
        target: '127.0.0.1',
      }),
      detection({ title: 'Overview low', severity: 'low', target: 'redis.internal' }),
    ]);
    await insertScan(db, tenant.orgId, { status: 'running', target: '127.0.0.9' });
  }, 60_000);

  /** Opens `path` signed in as the tenant's admin; the console returns there (or, from `/`, opens the overview). */
  const visit = async (path: string, arrived?: (url: URL) => boolean) => {
    const { page } = await web.open();
    await visitAs(page, tenant.admin, path, arrived);
    return page;
  };
  const total = async (page: Page) => {
    const text = await page.getByRole('navigation', { name: 'Pages' }).textContent();
    return Number(/\((\d+) in all\)/.exec(text ?? '')?.[1]);
  };

  it(
    'opens on the overview, shows the API’s figures, and a click on a chart lands on the findings it counts',
    async () => {
      const o = okBody(await api.call(getOverviewRoute));
      const page = await visit('/', (url) => url.pathname === '/overview');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await page.getByRole('link', { name: `Open findings: ${o.open.total}` }).waitFor();
      await page.getByRole('link', { name: `Overdue: ${o.overdue.total}` }).waitFor();
      await page.getByRole('link', { name: `Known exploited (KEV): ${o.kev.total}` }).waitFor();
      await page.getByRole('link', { name: 'Scans running: 1' }).waitFor();
      for (const [severity, label] of [
        ['critical', 'Critical'],
        ['high', 'High'],
        ['medium', 'Medium'],
        ['low', 'Low'],
      ] as const) {
        await page.getByRole('link', { name: `${label}: ${o.open.by_severity[severity]} open` }).waitFor();
      }
      expect(o.top_cves[0]!.cve).toBe('CVE-2021-44228');
      await page
        .getByRole('link', { name: `CVE-2021-44228, known exploited: ${o.top_cves[0]!.open} open` })
        .waitFor();
      await page
        .getByRole('link', { name: /^Progress|127\.0\.0\.9/ })
        .first()
        .waitFor();

      // The overview's two widths: axe finds nothing serious, nothing scrolls sideways at 390 px.
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'overview-1280');
      await page.setViewportSize({ width: 390, height: 900 });
      expect(await seriousViolations(page)).toEqual([]);
      expect(await overflowing(page), 'overview at 390 px').toEqual([]);
      await screenshot(page, 'overview-390');
      await page.setViewportSize({ width: 1280, height: 900 });

      // A bar of the severity chart: the open highs.
      await page.getByRole('link', { name: `High: ${o.open.by_severity.high} open` }).click();
      await page.waitForURL(
        (url) => url.pathname === '/findings' && url.search === '?status=open&severity=high',
      );
      await page.getByRole('link', { name: 'Redis without a password' }).waitFor();
      expect(await total(page)).toBe(o.open.by_severity.high);

      // The current week's column of the trend: the findings detected this week.
      await page.goBack();
      const thisWeek = o.trend.at(-1)!;
      const week = page.getByRole('link', { name: new RegExp(`: ${thisWeek.new} new$`) }).last();
      await week.click();
      await page.waitForURL((url) => url.pathname === '/findings' && url.searchParams.has('from_date'));
      await page.getByRole('navigation', { name: 'Pages' }).waitFor();
      expect(await total(page)).toBe(thisWeek.new);

      // The overdue figure: the overdue list, every row saying so.
      await page.goto('/overview');
      await page.getByRole('link', { name: `Overdue: ${o.overdue.total}` }).click();
      await page.waitForURL((url) => url.search === '?overdue=true');
      await page.getByRole('link', { name: 'Overview late critical' }).waitFor();
      expect(await total(page)).toBe(o.overdue.total);
      expect(await page.getByLabel('Overdue only').isChecked()).toBe(true);
    },
    T * 2,
  );

  it(
    'edits the triage policy and shows due dates and Overdue on the list, the finding and the scan',
    async () => {
      const page = await visit('/settings');
      const sla = page.getByRole('region', { name: 'Triage policy' });
      await expect.poll(() => sla.getByLabel('Critical (days)').inputValue()).toBe('7');
      await sla.getByLabel('Critical (days)').fill('3');
      await sla.getByLabel('Require a justification to accept a risk or mark a false positive').check();
      await sla.getByRole('button', { name: 'Save triage policy' }).click();
      // Saving asks whether open findings take the new days too.
      const ask = sla.getByRole('group', { name: 'Apply the SLA policy to open findings?' });
      await ask.getByRole('button', { name: 'Save for new findings only' }).click();
      await sla.getByText('Triage policy saved; due dates apply to findings detected from now on.').waitFor();
      expect(okBody(await api.call(getSlaRoute))).toMatchObject({ critical: 3, require_justification: true });
      expect(await seriousViolations(page)).toEqual([]);

      // Asked again, the answer "update open findings" moves the open critical's due date.
      await sla.getByLabel('Critical (days)').fill('5');
      await sla.getByRole('button', { name: 'Save triage policy' }).click();
      await ask.getByRole('button', { name: 'Save and update open findings' }).click();
      await sla.getByText(/Triage policy saved; 1 open finding has a new due date\./).waitFor();
      expect(await ask.count()).toBe(0);
      okBody(
        await api.call(putSlaRoute, {
          body: {
            critical: 7,
            high: 30,
            medium: 90,
            low: 180,
            require_justification: false,
            apply_to_open: true,
          },
        }),
      );

      // The list: a Due column; "Overdue only" puts overdue=true in the URL.
      await page.goto('/findings');
      await page.getByRole('columnheader', { name: 'Due' }).waitFor();
      await page.getByLabel('Overdue only').check();
      await page.waitForURL((url) => url.searchParams.get('overdue') === 'true');
      const row = page.getByRole('row', { name: /Overview late critical/ });
      await row.getByText('Overdue').waitFor();
      expect(await total(page)).toBe(1);

      // The finding: its due date, overdue.
      await row.getByRole('link', { name: 'Overview late critical' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview late critical' }).waitFor();
      await page.getByTestId('finding-due').getByText('Overdue').waitFor();

      // The scan: the Due column of its findings.
      await page.goto(`/scans/${scanOfLate}`);
      await page
        .getByRole('row', { name: /Overview late critical/ })
        .getByText('Overdue')
        .waitFor();
    },
    T,
  );

  it(
    'assigns a finding, gives it a priority and a due date of its own on the finding page',
    async () => {
      const page = await visit('/findings?q=Overview%20low');
      await page.getByRole('link', { name: 'Overview low' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview low' }).waitFor();
      const form = page.getByRole('form', { name: 'Assignment' });
      await form.getByLabel('Assignee').fill('alice@example.test');
      await form.getByLabel('Priority').selectOption('p2');
      await form.getByLabel('Due date').fill('2099-12-31');
      await form.getByRole('button', { name: 'Save assignment' }).click();
      await page.getByTestId('finding-assignee').getByText('alice@example.test').waitFor();
      await page.getByTestId('finding-priority').getByText('P2').waitFor();

      const id = new URL(page.url()).pathname.split('/').at(-1)!;
      const detail = okBody(await api.call(getFindingRoute, { params: { finding_id: id } }));
      expect(detail).toMatchObject({
        assignee: 'alice@example.test',
        priority: 'p2',
        due_date: '2099-12-31T23:59:59.000Z',
      });
    },
    T,
  );

  it(
    'searches by free text, target prefix, KEV and dates, with every filter in the URL and kept on reload',
    async () => {
      const watched = await web.open();
      const { page } = watched;
      await visitAs(page, tenant.admin, '/findings');
      await page.getByLabel('Search').fill('redis');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((url) => url.searchParams.get('q') === 'redis');
      // Title "Redis without a password" and target redis.internal.
      expect(await total(page)).toBe(2);

      await page.getByLabel('Search').fill('');
      await page.getByLabel('Target').fill('127.0.0');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(
        (url) => url.searchParams.get('target') === '127.0.0' && !url.searchParams.has('q'),
      );
      expect(await total(page)).toBe(3);

      await page.getByLabel('Target').fill('127.0.0.0/31');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((url) => url.searchParams.get('target') === '127.0.0.0/31');
      expect(await total(page)).toBe(2);

      await page.getByLabel('Known exploited').selectOption('false');
      await page.waitForURL((url) => url.searchParams.get('kev') === 'false');
      expect(await total(page)).toBe(2);
      const today = new Date().toISOString().slice(0, 10);
      await page.getByLabel('Detected from').fill(today);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((url) => url.searchParams.get('from_date') === today);
      expect(await total(page)).toBe(2);

      // Reloaded, the view is the same: the URL holds it all.
      await page.reload();
      await page.getByRole('navigation', { name: 'Pages' }).waitFor();
      expect(await page.getByLabel('Target').inputValue()).toBe('127.0.0.0/31');
      expect(await page.getByLabel('Known exploited').inputValue()).toBe('false');
      expect(await page.getByLabel('Detected from').inputValue()).toBe(today);
      expect(await total(page)).toBe(2);

      // A malformed CVE is the API's 422 message, shown, not an empty list.
      watched.expect(422, '/api/v1/findings');
      await page.getByRole('textbox', { name: 'CVE' }).fill('log4shell');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .getByRole('alert')
        .getByText(/CVE id/)
        .waitFor();
    },
    T,
  );

  it(
    'opens the findings resolved in a week from that week’s resolved bar, not every resolved finding',
    async () => {
      const other = await factory.tenant(app, { plan: 'enterprise', limits: false });
      const otherApi = await other.client();
      await runScan(app.services.db, other.orgId, [
        detection({ title: 'Resolved this week', severity: 'high' }),
        detection({ title: 'Still open', severity: 'low' }),
      ]);
      const high = okBody(await otherApi.call(listFindingsRoute, { query: { severity: 'high' } })).items[0]!;
      okBody(
        await otherApi.call(updateFindingRoute, {
          params: { finding_id: high.id },
          body: { status: 'resolved' },
        }),
      );
      const thisWeek = okBody(await otherApi.call(getOverviewRoute)).trend.at(-1)!;
      expect(thisWeek.resolved).toBe(1);
      const { page } = await web.open();
      await visitAs(page, other.admin, '/overview');
      await page
        .getByRole('link', { name: new RegExp(`: ${thisWeek.resolved} resolved$`) })
        .last()
        .click();
      await page.waitForURL((url) => url.pathname === '/findings' && url.searchParams.has('resolved_from'));
      const url = new URL(page.url());
      expect(url.searchParams.get('status')).toBe('resolved');
      expect(url.searchParams.get('resolved_from')).toBe(thisWeek.week_start);
      expect(url.searchParams.get('resolved_to')).toBe(thisWeek.week_end);
      await page.getByRole('link', { name: 'Resolved this week' }).waitFor();
      expect(await total(page)).toBe(thisWeek.resolved);
    },
    T,
  );
});
