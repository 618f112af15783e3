import { describe, expect, it } from 'vitest';
import { qrCodeImage } from '../../../console/src/qr-code.ts';
import { hasChromium } from '../../helpers/browser.ts';
import {
  ADMIN_SESSION,
  listOf,
  useHarness,
  type ApiSchemas,
  type StubRoutes,
} from '../../helpers/console-components.ts';

/**
 * Settings sections rendered alone in Chromium, with the console's API client over a stub
 * `fetch` handed in through the API context (console/test/harness.tsx): no server, no
 * database. The stub routes below stand in for the API; every call the section makes is
 * recorded, and a call they do not answer fails the test.
 */

if (!hasChromium)
  console.warn('console components: skipped; /usr/bin/chromium is absent (apt-get install -y chromium)');

const session = ADMIN_SESSION;

const created_at = '2026-11-20T09:00:00.000Z';

function apiKey(
  id: string,
  name: string,
  permissions: ApiSchemas['ApiKey']['permissions'],
): ApiSchemas['ApiKey'] {
  return {
    id,
    name,
    prefix: `sw_${id.slice(4, 11)}`,
    permissions,
    created_at,
    expires_at: null,
    last_used_at: null,
  };
}

/** The API-key routes over an in-memory list, as the API behaves (a duplicate name is a 409). */
function apiKeyRoutes(keys: ApiSchemas['ApiKey'][]): StubRoutes {
  return {
    'GET /api/v1/api-keys': () => ({ status: 200, body: listOf(keys) }),
    'POST /api/v1/api-keys': ({ body }) => {
      const request = body as ApiSchemas['ApiKeyCreate'];
      if (keys.some((k) => k.name === request.name)) {
        return { status: 409, body: { detail: 'an API key with this name exists', error_code: 'CONFLICT' } };
      }
      const key = apiKey(
        `key_${String(keys.length + 1).padStart(24, 'n')}`,
        request.name,
        request.permissions,
      );
      keys.push(key);
      const answer: ApiSchemas['ApiKeyCreated'] = { ...key, key: 'sw_the-secret-shown-once' };
      return { status: 201, body: answer };
    },
    'DELETE /api/v1/api-keys/:key_id': ({ params }) => {
      const at = keys.findIndex((k) => k.id === params.key_id);
      if (at < 0) return { status: 404, body: { detail: 'API key not found', error_code: 'NOT_FOUND' } };
      keys.splice(at, 1);
      const answer: ApiSchemas['Revoked'] = { id: params.key_id!, revoked: true };
      return { status: 200, body: answer };
    },
  };
}

describe.skipIf(!hasChromium)('settings sections with a stub API client', () => {
  const suite = useHarness();
  const mount = (id: string, api: StubRoutes) => suite.mountSettingsSection(id, { session, api });

  it('lists API keys, creates one and shows its secret once, and revokes one, all through the client it was given', async () => {
    const keys = [apiKey('key_deploy00000000000000000', 'deploy', ['read:scans', 'write:scans'])];
    const { page, calls } = await mount('api-keys', apiKeyRoutes(keys));

    const section = page.getByRole('region', { name: 'API keys' });
    const deployRow = section.getByRole('row').filter({ hasText: 'deploy' });
    await deployRow.waitFor();
    expect(await deployRow.getByRole('cell').allTextContents()).toEqual([
      'deploy',
      'sw_deploy0…',
      'read:scans, write:scans',
      '—',
      'Revoke deploy',
    ]);

    await section.getByLabel('Key name').fill('ci');
    await section.getByLabel('write:findings').check();
    await section.getByLabel('read:scans').uncheck();
    await section.getByRole('button', { name: 'Create API key' }).click();
    await section.getByTestId('secret').getByText('sw_the-secret-shown-once').waitFor();
    await section.getByRole('cell', { name: 'ci', exact: true }).waitFor();
    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.path).toBe('/api/v1/api-keys');
    expect(create.body).toEqual({ name: 'ci', permissions: ['read:findings', 'write:findings'] });
    // The console's own client: a change carries the session's CSRF token.
    expect(create.headers['x-csrf-token']).toBe(session.csrf_token);
    expect(await section.getByLabel('Key name').inputValue()).toBe('');

    // Revoking asks first: declined, nothing is sent.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await section.getByRole('button', { name: 'Revoke deploy' }).click();
    expect(asked).toEqual(['Revoke the API key deploy? Whatever uses it stops working at once.']);
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    page.once('dialog', (dialog) => void dialog.accept());
    await section.getByRole('button', { name: 'Revoke deploy' }).click();
    await deployRow.waitFor({ state: 'detached' });
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/api/v1/api-keys/key_deploy00000000000000000',
    ]);
    // Revoking hides the secret of the key made before, and the list is read again after each change.
    expect(await section.getByTestId('secret').count()).toBe(0);
    expect(calls.map((c) => `${c.method} ${c.path}`).slice(-4)).toEqual([
      'POST /api/v1/api-keys',
      'GET /api/v1/api-keys',
      'DELETE /api/v1/api-keys/key_deploy00000000000000000',
      'GET /api/v1/api-keys',
    ]);
    expect(keys.map((k) => k.name)).toEqual(['ci']);
    // Nothing went past the stub: the harness server saw the page and its assets only.
    expect(suite.harness.served.filter((p) => p.startsWith('/api/'))).toEqual([]);
  });

  it('lists trust policies for keyless CI sign-in, adds one with only the conditions filled in, and deletes one', async () => {
    const policies: ApiSchemas['CiTrustPolicy'][] = [
      {
        id: 'citp_main000000000000000000',
        name: 'main of acme/*',
        issuer: 'https://token.actions.githubusercontent.com',
        audience: 'https://scanward.example.test/ci/org_acme',
        conditions: { repository: 'acme/*', ref: 'refs/heads/main' },
        permissions: ['read:scans', 'write:scans'],
        allow_forks: false,
        created_by: { id: 'user_1', email: 'ada@example.test' },
        created_at,
      },
    ];
    const { page, calls } = await mount('ci-trust', {
      'GET /api/v1/ci-trust': () => ({ status: 200, body: listOf(policies) }),
      'GET /api/v1/ci-trust/audience': () => ({
        status: 200,
        body: { audience: 'https://scanward.example.test/ci/org_acme' },
      }),
      'POST /api/v1/ci-trust': ({ body }) => {
        const request = body as ApiSchemas['CiTrustPolicyCreate'];
        const policy: ApiSchemas['CiTrustPolicy'] = {
          ...policies[0]!,
          id: 'citp_prs0000000000000000000',
          name: request.name,
          conditions: request.conditions as Record<string, string>,
          permissions: request.permissions,
          allow_forks: request.allow_forks ?? false,
        };
        policies.push(policy);
        return { status: 201, body: policy };
      },
      'DELETE /api/v1/ci-trust/:policy_id': ({ params }) => {
        policies.splice(
          policies.findIndex((p) => p.id === params.policy_id),
          1,
        );
        const answer: ApiSchemas['Revoked'] = { id: params.policy_id!, revoked: true };
        return { status: 200, body: answer };
      },
    });
    const section = page.getByRole('region', { name: 'CI sign-in without keys' });
    const mainRow = section.getByRole('row').filter({ hasText: 'main of acme/*' });
    await mainRow.waitFor();
    expect(await mainRow.getByRole('cell').allTextContents()).toEqual([
      'main of acme/*',
      'repository = acme/*, ref = refs/heads/main',
      'https://scanward.example.test/ci/org_acme',
      'read:scans, write:scans',
      'refused',
      'Delete main of acme/*',
    ]);

    // The organization's own audience, and what a workflow names.
    await section.getByText('organization: org_acme').waitFor();
    await section.getByLabel('Policy name').fill('pull requests of acme/web');
    await section.getByLabel('Repository', { exact: true }).fill('acme/web');
    await section.getByLabel('Event').fill('pull_request');
    await section.getByLabel('read:findings').uncheck();
    await section.getByRole('button', { name: 'Add trust policy' }).click();
    await section.getByRole('cell', { name: 'pull requests of acme/web', exact: true }).waitFor();
    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.body).toEqual({
      name: 'pull requests of acme/web',
      conditions: { repository: 'acme/web', event_name: 'pull_request' },
      permissions: ['read:scans', 'write:scans'],
      allow_forks: false,
    });

    await section.getByRole('button', { name: 'Delete main of acme/*' }).click();
    await mainRow.waitFor({ state: 'detached' });
    expect(policies.map((p) => p.name)).toEqual(['pull requests of acme/web']);
  });

  it("shows the API's error for a refused change and clears it when the next change succeeds", async () => {
    const keys = [apiKey('key_deploy00000000000000000', 'deploy', ['read:scans'])];
    const { page } = await mount('api-keys', apiKeyRoutes(keys));
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByRole('cell', { name: 'deploy', exact: true }).waitFor();

    await section.getByLabel('Key name').fill('deploy');
    await section.getByRole('button', { name: 'Create API key' }).click();
    await section.getByRole('alert').getByText('an API key with this name exists').waitFor();
    expect(await section.getByTestId('secret').count()).toBe(0);
    // The form keeps what was typed, to be corrected.
    expect(await section.getByLabel('Key name').inputValue()).toBe('deploy');

    await section.getByLabel('Key name').fill('deploy-2');
    await section.getByRole('button', { name: 'Create API key' }).click();
    await section.getByTestId('secret').waitFor();
    expect(await section.getByRole('alert').count()).toBe(0);
  });

  it('shows a failed list load as an error, with no table', async () => {
    const { page } = await mount('api-keys', {
      'GET /api/v1/api-keys': () => ({
        status: 403,
        body: { detail: 'this key lacks read:keys', error_code: 'INSUFFICIENT_PERMISSION' },
      }),
    });
    // A 403 the stub answered is not a failed request: it never reached the network.
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByRole('alert').getByText('this key lacks read:keys').waitFor();
    expect(await section.getByRole('table').count()).toBe(0);
  });

  it('shows a viewer the schedules without the form to add one or the button to delete one', async () => {
    const schedule: ApiSchemas['Schedule'] = {
      id: 'sched_viewer0000000000000000',
      target: 'viewer.example.test',
      scan_type: 'quick',
      frequency: 'daily',
      day_of_week: null,
      day_of_month: null,
      hour: 4,
      timezone: 'UTC',
      frameworks: [],
      ports: null,
      credential_checks: 'defaults',
      authorized: true,
      enabled: true,
      next_run_at: created_at,
      last_run_at: null,
      last_scan_id: null,
      last_error: null,
      created_at,
    };
    const mounted = await suite.mountSettingsSection('schedules', {
      session: { ...session, user: { ...session.user, role: 'viewer' } },
      api: { 'GET /api/v1/scans/schedules': () => ({ status: 200, body: listOf([schedule]) }) },
    });
    const section = mounted.page.getByRole('region', { name: 'Scheduled scans' });
    await section.getByRole('row').filter({ hasText: 'viewer.example.test' }).waitFor();
    expect(await section.getByRole('button').count()).toBe(0);
    expect(await section.getByLabel('Schedule target').count()).toBe(0);
  });

  it('lists schedules in words, adds one with every scan option, sends none without the authorization box, and deletes one after asking', async () => {
    const schedules: ApiSchemas['Schedule'][] = [
      {
        id: 'sched_nightly000000000000000',
        target: 'app.example.test',
        scan_type: 'full',
        frequency: 'weekly',
        day_of_week: 1,
        day_of_month: null,
        hour: 3,
        timezone: 'UTC',
        frameworks: [],
        ports: null,
        credential_checks: 'defaults',
        authorized: true,
        enabled: true,
        next_run_at: created_at,
        last_run_at: null,
        last_scan_id: null,
        last_error: null,
        created_at,
      },
    ];
    const { page, calls } = await mount('schedules', {
      'GET /api/v1/scans/schedules': () => ({ status: 200, body: listOf(schedules) }),
      'DELETE /api/v1/scans/schedules/:schedule_id': ({ params }) => {
        schedules.splice(
          schedules.findIndex((s) => s.id === params.schedule_id),
          1,
        );
        const answer: ApiSchemas['ScheduleDeleted'] = { id: params.schedule_id!, deleted: true };
        return { status: 200, body: answer };
      },
      'POST /api/v1/scans/schedules': ({ body }) => {
        const request = body as ApiSchemas['CreateScheduleRequest'];
        const schedule: ApiSchemas['Schedule'] = {
          ...schedules[0]!,
          id: 'sched_added0000000000000000',
          target: request.target,
          scan_type: request.scan_type ?? 'quick',
          ports: request.ports ?? null,
          frameworks: request.frameworks ?? [],
        };
        schedules.push(schedule);
        return { status: 201, body: schedule };
      },
    });
    const section = page.getByRole('region', { name: 'Scheduled scans' });
    const row = section.getByRole('row').filter({ hasText: 'app.example.test' });
    await row.waitFor();
    expect((await row.getByRole('cell').allTextContents()).slice(0, 3)).toEqual([
      'app.example.test',
      'Full, default ports',
      'Weekly at 3:00 UTC',
    ]);
    // The frequency choices are the schema's values with the form's words.
    expect(await section.getByLabel('Frequency').locator('option').allTextContents()).toEqual([
      'Daily',
      'Weekly (Mondays)',
      'Monthly (the 1st)',
    ]);

    await section.getByLabel('Schedule target').fill('other.example.test');
    await section.getByRole('button', { name: 'Add schedule' }).click();
    await section
      .getByRole('alert')
      .getByText('Confirm that you are authorized to scan this target.')
      .waitFor();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);

    // Every option of a scan: type, ports, frameworks. The error before is gone once it is sent.
    await section.getByLabel('Scan type').selectOption('compliance');
    await section.getByLabel('Ports (optional)').fill('22,443');
    await section.getByLabel('PCI DSS 4.0').check();
    await section.getByLabel('I am authorized to scan this target').check();
    await section.getByRole('button', { name: 'Add schedule' }).click();
    await section.getByRole('status').getByText('Schedule of other.example.test added.').waitFor();
    expect(await section.getByRole('alert').count()).toBe(0);
    const added = calls.find((c) => c.method === 'POST')!;
    expect(added.body).toMatchObject({
      target: 'other.example.test',
      scan_type: 'compliance',
      ports: '22,443',
      frameworks: ['pci-dss'],
    });
    const addedRow = section.getByRole('row').filter({ hasText: 'other.example.test' });
    expect((await addedRow.getByRole('cell').allTextContents())[1]).toBe(
      'Compliance, ports 22,443, PCI DSS 4.0',
    );

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await section.getByRole('button', { name: 'Delete schedule of app.example.test' }).click();
    await row.waitFor({ state: 'detached' });
    expect(asked).toEqual(['Delete the schedule of app.example.test? Scans it already ran are kept.']);
    // The notice of the change before is replaced by this one's.
    await section.getByRole('status').getByText('Schedule of app.example.test deleted.').waitFor();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/api/v1/scans/schedules/sched_nightly000000000000000',
    ]);
    // A successful change clears the error shown before it.
    expect(await section.getByRole('alert').count()).toBe(0);
  });
  it('hands out the recovery codes once when MFA goes on, counts them, and replaces them with a recovery code', async () => {
    const codes = (n: number) =>
      Array.from({ length: 10 }, (_, i) => `${n}abc-defg-hjkm-np${String(i).padStart(2, '0')}`);
    let user = { ...session.user };
    let remaining = 0;
    const { page, calls } = await mount('mfa', {
      'GET /api/v1/auth/mfa': () => ({
        status: 200,
        body: {
          mfa_enabled: user.mfa_enabled,
          recovery_codes_remaining: remaining,
        } satisfies ApiSchemas['MfaState'],
      }),
      'POST /api/v1/auth/mfa/setup': () => ({
        status: 200,
        body: {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauth_uri: 'otpauth://totp/Scanward:ada',
        } satisfies ApiSchemas['MfaSetup'],
      }),
      'POST /api/v1/auth/mfa/verify': () => {
        user = { ...user, mfa_enabled: true };
        remaining = 10;
        return {
          status: 200,
          body: { mfa_enabled: true, recovery_codes: codes(1) } satisfies ApiSchemas['MfaEnrolled'],
        };
      },
      'GET /api/v1/auth/console/session': () => ({ status: 200, body: { session: { ...session, user } } }),
      'POST /api/v1/auth/mfa/recovery-codes': () => {
        remaining = 10;
        return { status: 200, body: { recovery_codes: codes(2) } satisfies ApiSchemas['MfaRecoveryCodes'] };
      },
    });
    const section = page.getByRole('region', { name: 'Two-factor authentication (MFA)' });
    await section.getByRole('button', { name: 'Set up MFA' }).click();
    await section.getByRole('img', { name: /QR code/ }).waitFor();
    await section.getByLabel('Code from the app').fill('123456');
    await section.getByRole('button', { name: 'Turn MFA on' }).click();

    const shown = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await section.getByText('Recovery codes left: 10 of 10.', { exact: false }).waitFor();
    expect(await shown.allTextContents()).toEqual(codes(1));

    // A recovery code is taken where a current code is asked for: the box does not insist on digits.
    await section.getByLabel('Current code').fill(' 1abc-defg-hjkm-np00 ');
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    await section.getByText('the earlier ones no longer work', { exact: false }).waitFor();
    expect(await shown.allTextContents()).toEqual(codes(2));
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/v1/auth/mfa/setup', undefined],
      ['/api/v1/auth/mfa/verify', { code: '123456' }],
      ['/api/v1/auth/mfa/recovery-codes', { code: '1abc-defg-hjkm-np00' }],
    ]);
  });

  it('enrols with a QR code of the otpauth URI, hands out whole recovery codes to copy or download, and says MFA is on once', async () => {
    const uri = 'otpauth://totp/Scanward:ada%40example.test?secret=JBSWY3DPEHPK3PXP&issuer=Scanward';
    const recovery = Array.from({ length: 10 }, (_, i) => `wxyz-2345-abcd-ef${String(i).padStart(2, '0')}`);
    let user = { ...session.user };
    const { page } = await mount('mfa', {
      'GET /api/v1/auth/mfa': () => ({
        status: 200,
        body: { mfa_enabled: user.mfa_enabled, recovery_codes_remaining: user.mfa_enabled ? 10 : 0 },
      }),
      'POST /api/v1/auth/mfa/setup': () => ({
        status: 200,
        body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: uri } satisfies ApiSchemas['MfaSetup'],
      }),
      'POST /api/v1/auth/mfa/verify': () => {
        user = { ...user, mfa_enabled: true };
        return { status: 200, body: { mfa_enabled: true, recovery_codes: recovery } };
      },
      'GET /api/v1/auth/console/session': () => ({ status: 200, body: { session: { ...session, user } } }),
    });
    const section = page.getByRole('region', { name: 'Two-factor authentication (MFA)' });
    await section.getByRole('button', { name: 'Set up MFA' }).click();

    // The QR code is the otpauth URI's: the same image the QR library draws for it.
    const qr = section.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toBe(await qrCodeImage(uri));
    expect(
      await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    // The secret stays at hand for typing, behind a disclosure.
    await section.getByText('Cannot scan it? Enter the secret by hand').click();
    await section.getByTestId('mfa-secret').getByText('JBSWY3DPEHPK3PXP').waitFor();

    await section.getByLabel('Code from the app').fill('123456');
    await section.getByRole('button', { name: 'Turn MFA on' }).click();
    const grid = section.getByRole('list', { name: 'Recovery codes' });
    await grid.waitFor();
    expect(await grid.getByRole('listitem').allTextContents()).toEqual(recovery);
    await section.getByText('Recovery codes left: 10 of 10.', { exact: false }).waitFor();
    const text = (await section.textContent()) ?? '';
    expect(text.match(/MFA is on/g)).toHaveLength(1);

    // Each code on one line, in a monospace face, several to a row.
    const cells = await grid.locator('code').evaluateAll((codes) =>
      codes.map((c) => {
        const el = c as unknown as {
          getClientRects(): ArrayLike<unknown>;
          getBoundingClientRect(): { top: number };
        };
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }
        ).getComputedStyle(c);
        return {
          lines: el.getClientRects().length,
          top: el.getBoundingClientRect().top,
          font: style.fontFamily,
        };
      }),
    );
    for (const cell of cells) {
      expect(cell.lines).toBe(1);
      expect(cell.font).toMatch(/monospace/);
    }
    expect(new Set(cells.map((c) => c.top)).size).toBeLessThan(cells.length);

    // Copy puts every code on the clipboard, one a line.
    await page.evaluate(`Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (t) => { window.copiedText = t; } },
    })`);
    await section.getByRole('button', { name: 'Copy codes' }).click();
    await section.getByText('Copied the recovery codes.').waitFor();
    expect(await page.evaluate('window.copiedText')).toBe(recovery.join('\n'));

    // Download is a .txt file of the codes.
    const link = section.getByRole('link', { name: 'Download (.txt)' });
    expect(await link.getAttribute('download')).toBe('scanward-recovery-codes.txt');
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    const file = decodeURIComponent(href.slice('data:text/plain;charset=utf-8,'.length));
    for (const code of recovery) expect(file.split('\n')).toContain(code);
  });
});
