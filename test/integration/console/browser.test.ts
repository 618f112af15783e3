import { readFileSync } from 'node:fs';
import { TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSession, listMySessions } from '../../../server/routes/auth.ts';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { getScanRoute } from '../../../server/routes/scans.ts';
import { startRunner, type Runner } from '../../../server/scanner/runner.ts';
import {
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan, TEST_USER_AGENT, type Tenant } from '../../helpers/factory.ts';
import {
  hasChromium,
  overflowing,
  screenshot,
  seriousViolations,
  signIn,
  useBrowser,
  visitAs,
} from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';

/**
 * The web console in Debian's Chromium against the real server: sign-in (with
 * MFA), a live scan of a loopback fixture, findings triage, compliance and
 * settings, and an axe-core pass over every page at 1280 and 390 px. Every test
 * fails on a console error, a failed request or an unexpected error answer.
 */

if (!hasChromium)
  console.warn('console-browser: skipped; /usr/bin/chromium is absent (apt-get install -y chromium)');

const T = 30_000;

describe.skipIf(!hasChromium)(`web console in a browser (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let runner: Runner;
  let fixture: FixtureListener;
  let api: ApiClient;
  let scanId: string;
  /** The scan the browser started, once it has (the screenshots show its phases). */
  let liveScanId: string | undefined;
  const titles = {
    critical: 'Console critical weakness',
    high: ['Console high weakness A', 'Console high weakness B', 'Console high weakness C'],
    medium: 'Console medium weakness',
  };

  const suite = useTestApp();
  const web = useBrowser(() => suite.app.url);
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise' });
    api = await tenant.client();
    runner = startRunner(app.services, { pollIntervalMs: 100 });
    fixture = await startListener({ host: randomLoopbackAddress(), serve: fakeRedis });
    const { scan } = await runScan(app.services.db, tenant.orgId, [
      detection({ title: titles.critical, severity: 'critical', cve_ids: ['CVE-2024-0001'] }),
      ...titles.high.map((title) => detection({ title, severity: 'high' })),
      detection({ title: titles.medium, severity: 'medium', epss_score: 0.9731 }),
    ]);
    scanId = scan.id;
  }, 60_000);
  afterAll(async () => {
    await runner?.stop();
    await fixture?.close();
  });

  /** Opens a page of the console as the tenant's admin. */
  const visit = async (path: string) => {
    const { page } = await web.open();
    await visitAs(page, tenant.admin, path);
    return page;
  };

  it(
    'signs in with the MFA step and returns to the page the user asked for',
    async () => {
      const user = await tenant.addUser('member');
      const bearer = await tenant.bearer(user);
      const setup = await app.request('/api/v1/auth/mfa/setup', {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}` },
      });
      const totp = URI.parse(((await setup.json()) as { otpauth_uri: string }).otpauth_uri) as TOTP;
      const step = Math.floor(Date.now() / 30_000);
      const verify = await app.request('/api/v1/auth/mfa/verify', {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: totp.generate({ timestamp: step * 30_000 }) }),
      });
      expect(verify.status).toBe(200);
      const { recovery_codes } = (await verify.json()) as { recovery_codes: string[] };

      const watched = await web.open();
      const { page } = watched;
      // The API asks for the code with 401 MFA_REQUIRED once the password is right.
      watched.expect(401, '/api/v1/auth/console/session');
      await page.goto('/findings?severity=high');
      await page.waitForURL(/\/sign-in\?next=/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'sign-in');
      await signIn(page, user);
      // A code is accepted once and one step early: the next step's code is still good.
      const code = page.getByLabel('Authentication code');
      await code.fill(totp.generate({ timestamp: (step + 1) * 30_000 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => url.pathname === '/findings' && url.search === '?severity=high');

      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const name of ['Scans', 'Findings', 'Compliance', 'Settings']) {
        await nav.getByRole('link', { name }).waitFor();
      }
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();

      // A recovery code is taken in the same box, in place of the app's code.
      await signIn(page, user);
      await page.getByLabel('Authentication code').fill(recovery_codes[0]!.toUpperCase());
      await page.getByRole('button', { name: 'Verify' }).click();
      await nav.getByRole('link', { name: 'Findings' }).waitFor();
    },
    T * 2,
  );

  it('starts a scan of a loopback fixture and shows it reach completed without reloading', async () => {
    const page = await visit('/scans');
    await page.getByLabel('Target', { exact: true }).fill(fixture.host);
    await page.getByLabel('Ports (optional)').fill(String(fixture.port));
    await page.getByLabel('I am authorized to scan this target').check();
    await page.getByRole('button', { name: 'Start scan' }).click();
    await page.waitForURL(/\/scans\/scan_/);
    await page.evaluate('window.stayed = true');
    await page.getByTestId('scan-status').getByText('Completed').waitFor({ timeout: 60_000 });
    expect(await page.evaluate('window.stayed')).toBe(true);
    const id = page.url().split('/').pop()!;
    const scan = okBody(await api.call(getScanRoute, { params: { scan_id: id } }), 200);
    expect(scan.status).toBe('completed');
    liveScanId = id;
  }, 90_000);

  it(
    'filters findings by severity, keeps the filter across a reload and exports that view as CSV',
    async () => {
      const page = await visit('/findings');
      await page.getByLabel('Severity').selectOption('high');
      await page.waitForURL(/severity=high/);
      await page.reload();
      await page.getByRole('link', { name: titles.high[0] }).waitFor();
      expect(await page.getByLabel('Severity').inputValue()).toBe('high');
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await page.locator('tbody .sev').allTextContents()).toEqual(['High', 'High', 'High']);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'CSV' }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      expect(lines).toHaveLength(4);
      for (const title of titles.high) expect(csv).toContain(title);
      expect(csv).not.toContain(titles.critical);
    },
    T,
  );

  it(
    'marks a finding false positive with a note, and changes several in one go',
    async () => {
      const page = await visit('/findings?severity=medium');
      await page.getByRole('link', { name: titles.medium }).click();
      await page.waitForURL(/\/findings\/finding_/);
      const id = page.url().split('/').pop()!;
      // The EPSS score with the date of the snapshot behind it, as the API gives them.
      const { epss_snapshot_date } = okBody(
        await api.call(getFindingRoute, { params: { finding_id: id } }),
        200,
      );
      expect(epss_snapshot_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await page.getByTestId('finding-epss').textContent()).toBe(
        `97.3% probability of exploitation in the next 30 days (FIRST EPSS, ${epss_snapshot_date})`,
      );
      await page.getByRole('combobox', { name: /^Status/ }).selectOption('false_positive');
      await page.getByLabel('Note (optional)').fill('Only reachable from the build network');
      // A false positive needs its reason: the browser will not send the form without one.
      await page.getByRole('button', { name: 'Save status' }).click();
      await page.getByLabel('Justification (required)').fill('The banner is a decoy on a honeypot');
      await page.getByRole('button', { name: 'Save status' }).click();
      await page.getByText('Status is now False positive.').waitFor();
      await page
        .getByTestId('finding-justification')
        .getByText('The banner is a decoy on a honeypot', { exact: false })
        .waitFor();
      const finding = okBody(await api.call(getFindingRoute, { params: { finding_id: id } }), 200);
      expect(finding.status).toBe('false_positive');
      expect(finding.notes).toBe('Only reachable from the build network');
      await page
        .getByText('by ' + tenant.admin.email, { exact: false })
        .first()
        .waitFor();

      await page.goto('/findings?severity=high');
      await page.getByLabel('Select all on this page').check();
      await page.getByLabel('New status').selectOption('accepted');
      await page.getByLabel('Justification (required)').fill('Compensating control: WAF rule 12');
      await page.getByLabel('Accepted until (optional)').fill('2099-12-31');
      await page.getByRole('button', { name: 'Change status of selected' }).click();
      await page.getByText('3 findings set to Accepted.').waitFor();
      const high = okBody(await api.call(listFindingsRoute, { query: { severity: 'high' } }), 200);
      expect(high.items.map((f) => f.status)).toEqual(['accepted', 'accepted', 'accepted']);
      const accepted = okBody(
        await api.call(getFindingRoute, { params: { finding_id: high.items[0]!.id } }),
        200,
      );
      expect(accepted).toMatchObject({
        justification: 'Compensating control: WAF rule 12',
        acceptance_expires_at: '2099-12-31T23:59:59.000Z',
      });
    },
    T,
  );

  it(
    'opens a control and shows its failing findings, and adds evidence to it',
    async () => {
      const page = await visit('/compliance');
      await page.getByRole('link', { name: 'CC7.1', exact: true }).click();
      await page.waitForURL(/\/compliance\/ctrl_soc2_cc7_1/);
      await page.getByRole('heading', { name: /Failing findings/ }).waitFor();
      await page.getByRole('link', { name: titles.critical }).waitFor();
      await page.getByLabel('Title').fill('Quarterly access review');
      await page.getByLabel('Description').fill('Signed off by the security lead.');
      await page.getByRole('button', { name: 'Add evidence' }).click();
      await page.getByText('Evidence “Quarterly access review” added.').waitFor();
      await page.getByText('Quarterly access review', { exact: true }).waitFor();
    },
    T,
  );

  it(
    'creates an API key and shows its secret once; an ended session signs in again and returns',
    async () => {
      const watched = await web.open();
      const { page } = watched;
      await visitAs(page, tenant.admin, '/settings');
      await page.getByLabel('Key name').fill('console-ci');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const secret = (await page.getByTestId('secret').textContent())!;
      expect(secret).toMatch(/^sw_/);
      const withKey = await app.request('/api/v1/scans', { headers: { 'x-api-key': secret } });
      expect(withKey.status).toBe(200);
      await page.reload();
      await page.getByRole('cell', { name: 'console-ci', exact: true }).waitFor();
      expect(await page.content()).not.toContain(secret);

      // The browser's session ends (revoked elsewhere): the next page asks to sign in and then comes back.
      const sessions = okBody(await api.call(listMySessions, { query: { per_page: 100 } })).items;
      const browsers = sessions.filter((session) => session.user_agent !== TEST_USER_AGENT);
      expect(browsers.length).toBeGreaterThan(0);
      // The open page may notice first (its event stream ends, a reload answers 401, and it asks
      // to sign in for /settings); otherwise the next page it opens does (for /findings). Either
      // way the console's own 401 sends it to sign in, and signing in returns where it was going.
      watched.expect(401, '/api/v1/');
      for (const session of browsers) {
        okBody(await api.call(deleteSession, { params: { session_id: session.id } }));
      }
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Findings' })
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await page.waitForURL(/\/sign-in\?next=%2F(findings|settings)$/);
      const next = new URL(page.url()).searchParams.get('next')!;
      await signIn(page, tenant.admin);
      await page.waitForURL((url) => url.pathname === next);
      if (next === '/settings') await page.goto('/findings');
      await page.getByRole('link', { name: titles.critical }).waitFor();
    },
    T,
  );

  it('has no serious accessibility violation on any page, at 1280 and at 390 px wide', async () => {
    const critical = okBody(await api.call(listFindingsRoute, { query: { severity: 'critical' } }), 200);
    const finding = critical.items.find((f) => f.title === titles.critical)!;
    // Every page of the console (console/src/routes.tsx), and its page for an unknown path.
    const pages = [
      ['scans', '/scans', 'Scans'],
      ['scan', `/scans/${liveScanId ?? scanId}`, 'Scan of'],
      ['findings', '/findings', 'Findings'],
      ['finding', `/findings/${finding.id}`, titles.critical],
      ['compliance', '/compliance', 'Compliance'],
      ['control', '/compliance/ctrl_soc2_cc7_1', 'CC7.1'],
      ['settings', '/settings', 'Settings'],
      ['people', '/settings/people', 'People'],
      ['not-found', '/no-such-page', 'Page not found'],
    ] as const;
    for (const width of [1280, 390]) {
      const watched = await web.open({ viewport: { width, height: 900 } });
      const { page } = watched;
      watched.expect(404, '/no-such-page');
      await visitAs(page, tenant.admin, '/scans');
      for (const [name, path, heading] of pages) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page), `${path} at ${width} px`).toEqual([]);
        expect(await overflowing(page), `${path} at ${width} px: wider than the window`).toEqual([]);
        await screenshot(page, `${name}-${width}`);
      }
      const problems = watched.problems.splice(0);
      expect(problems).toEqual([]);
      await watched.close();
    }
  }, 150_000);
});
