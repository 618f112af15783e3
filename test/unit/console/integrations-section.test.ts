import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import {
  ADMIN_SESSION,
  listOf,
  useHarness,
  type ApiSchemas,
  type StubRoutes,
} from '../../helpers/console-components.ts';

/**
 * Settings → Integrations (console/src/pages/settings/integrations.tsx, docs/integrations.md)
 * alone in Chromium with a stub API behaving as the API does: a secret setting is sent once
 * and never answered back (`secrets_set` names it), and "Send a test" posts the test and shows
 * how the delivery went.
 */

if (!hasChromium) console.warn('integrations section: skipped; /usr/bin/chromium is absent');

const created_at = '2026-11-20T09:00:00.000Z';
const WEBHOOK = 'https://hooks.slack.com/services/T0000/B0000/the-secret-part';

/** The integration routes over an in-memory list; `tests` answers each test by integration id. */
function integrationRoutes(
  integrations: ApiSchemas['Integration'][],
  tests: Record<string, Pick<ApiSchemas['NotificationDelivery'], 'status' | 'error' | 'status_code'>> = {},
): StubRoutes {
  return {
    'GET /api/v1/integrations': () => ({ status: 200, body: listOf(integrations) }),
    'GET /api/v1/notification-rules': () => ({ status: 200, body: listOf([]) }),
    'GET /api/v1/notification-deliveries': () => ({ status: 200, body: listOf([]) }),
    'POST /api/v1/integrations': ({ body }) => {
      const request = body as ApiSchemas['CreateIntegrationRequest'];
      // As the API: the secret goes in, only its name comes back.
      const { webhook_url: _secret, ...settings } = request.config;
      const made: ApiSchemas['Integration'] = {
        id: `int_${String(integrations.length + 1).padStart(23, 'n')}`,
        type: request.type,
        name: request.name,
        config: settings,
        secrets_set: ['webhook_url'],
        receiver_url: null,
        created_at,
        updated_at: created_at,
      };
      integrations.push(made);
      const answer: ApiSchemas['CreatedIntegration'] = { ...made, receiver_secret: null, secret: null };
      return { status: 201, body: answer };
    },
    'POST /api/v1/integrations/:integration_id/test': ({ params }) => {
      const outcome = tests[params.integration_id!] ?? { status: 'succeeded', error: null, status_code: 200 };
      const answer: ApiSchemas['NotificationDelivery'] = {
        id: 'ndl_test00000000000000000000',
        integration_id: params.integration_id!,
        kind: 'test',
        summary: 'Test message',
        attempts: 1,
        next_retry_at: null,
        created_at,
        updated_at: created_at,
        ...outcome,
      } as ApiSchemas['NotificationDelivery'];
      return { status: 200, body: answer };
    },
  };
}

describe.skipIf(!hasChromium)('the integrations settings section', () => {
  const suite = useHarness();

  it('creates a Slack integration from its type, name and webhook URL, and never shows the URL back', async () => {
    const integrations: ApiSchemas['Integration'][] = [];
    const { page, calls } = await suite.mountSettingsSection('integrations', {
      session: ADMIN_SESSION,
      api: integrationRoutes(integrations),
    });
    const section = page.getByRole('region', { name: 'Integrations' });
    await section.getByText('No integrations.').waitFor();
    expect(await section.getByLabel('Type').inputValue()).toBe('slack');
    const url = section.getByLabel('Incoming webhook URL');
    expect(await url.getAttribute('type')).toBe('password');
    await section.getByLabel('Name', { exact: true }).fill('  security alerts ');
    await url.fill(WEBHOOK);
    await section.getByRole('button', { name: 'Add integration' }).click();

    const row = section.getByRole('row').filter({ hasText: 'security alerts' });
    await row.waitFor();
    expect(await row.textContent()).toContain('slack');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/v1/integrations');
    expect(post?.body).toEqual({ type: 'slack', name: 'security alerts', config: { webhook_url: WEBHOOK } });
    // Sent once; afterwards neither the page nor the emptied form holds it, and no secret is shown.
    expect(await url.inputValue()).toBe('');
    expect(await page.content()).not.toContain('the-secret-part');
    expect(await section.getByTestId('secret').count()).toBe(0);
  });

  it('sends a test to an integration and says how it went', async () => {
    const integrations: ApiSchemas['Integration'][] = [
      {
        id: 'int_slack000000000000000000',
        type: 'slack',
        name: 'alerts',
        config: {},
        secrets_set: ['webhook_url'],
        receiver_url: null,
        created_at,
        updated_at: created_at,
      },
      {
        id: 'int_email000000000000000000',
        type: 'email',
        name: 'on-call',
        config: { to: ['oncall@example.test'] },
        secrets_set: [],
        receiver_url: null,
        created_at,
        updated_at: created_at,
      },
    ];
    const { page, calls } = await suite.mountSettingsSection('integrations', {
      session: ADMIN_SESSION,
      api: integrationRoutes(integrations, {
        int_email000000000000000000: { status: 'dead', error: 'SMTP server answered 550', status_code: null },
      }),
    });
    const section = page.getByRole('region', { name: 'Integrations' });
    const slack = section.getByRole('row').filter({ hasText: 'alerts' });
    const email = section.getByRole('row').filter({ hasText: 'on-call' });
    expect(await email.textContent()).toContain('to: oncall@example.test');

    await slack.getByRole('button', { name: 'Send a test' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Test succeeded');
    await email.getByRole('button', { name: 'Send a test' }).click();
    await expect
      .poll(() => section.getByRole('status').textContent())
      .toBe('Test dead: SMTP server answered 550');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/v1/integrations/int_slack000000000000000000/test',
      '/api/v1/integrations/int_email000000000000000000/test',
    ]);
  });

  it('is not on the Settings page of a viewer, whom the API would refuse', async () => {
    const unavailable = () => ({
      status: 503,
      body: { detail: 'not in this test', error_code: 'UNAVAILABLE' },
    });
    const { page, calls } = await suite.mountComponent('settings', {
      session: { ...ADMIN_SESSION, user: { ...ADMIN_SESSION.user, role: 'viewer' } },
      // The sections a viewer has; their contents are not this test's subject.
      api: {
        'GET /api/v1/scans/quota': unavailable,
        'GET /api/v1/settings/sla': unavailable,
        'GET /api/v1/scans/schedules': unavailable,
        'GET /api/v1/auth/sessions': unavailable,
        'GET /api/v1/auth/mfa': unavailable,
        'GET /api/v1/auth/notification-preferences': unavailable,
      },
    });
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Password' }).waitFor();
    expect(await page.getByRole('region', { name: 'Integrations' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add integration' }).count()).toBe(0);
    expect(calls.filter((c) => c.path.startsWith('/api/v1/integrations'))).toEqual([]);
  });
});
