import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, listOf, useHarness, type ApiSchemas } from '../../helpers/console-components.ts';

/**
 * The audit trail and the triage policy in the console, rendered alone in Chromium over a stub
 * API client (console/test/harness.tsx): the trail's filters become the optional query
 * parameters of `GET /api/v1/audit-events` (action, actor, target), an event on an object
 * names it by its id, and the triage policy's justification switch is sent with the days.
 */

if (!hasChromium)
  console.warn('console components: skipped; /usr/bin/chromium is absent (apt-get install -y chromium)');

const created_at = '2026-11-28T03:00:00.000Z';
const ADA = { id: 'user_1', email: 'ada@example.test' };

const EVENTS: ApiSchemas['AuditEvent'][] = [
  {
    id: 'audit_2',
    action: 'risk.accepted',
    actor: ADA,
    target: { id: 'finding_000000000000000000001', email: null },
    ip: null,
    details: { from: 'open', justification: 'behind the VPN', expires_at: 'never' },
    created_at,
  },
  {
    id: 'audit_1',
    action: 'api_key.created',
    actor: ADA,
    target: { id: 'key_00000000000000000000001', email: null },
    ip: null,
    details: { name: 'ci', prefix: 'sw_abcdefg', permissions: 'read:scans', expires_at: 'never' },
    created_at,
  },
];

describe.skipIf(!hasChromium)('the audit trail and the triage policy with a stub API client', () => {
  const suite = useHarness();

  it('filters the audit trail by action, actor and target through the API, and names objects by their id', async () => {
    const { page, calls } = await suite.mountComponent('audit-events', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/audit-events': ({ query }) => {
          const params = new URLSearchParams(query);
          const items = EVENTS.filter(
            (e) =>
              (!params.get('action') || e.action === params.get('action')) &&
              (!params.get('target') || e.target?.id === params.get('target')),
          );
          return { status: 200, body: listOf(items) };
        },
      },
    });
    const section = page.getByRole('region', { name: 'Audit events' });
    const riskRow = section.getByRole('row').filter({ hasText: 'Risk accepted' });
    await riskRow.waitFor();
    expect(await riskRow.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      'Risk accepted',
      'ada@example.test',
      'finding_000000000000000000001',
      'from: open, justification: behind the VPN, expires_at: never',
    ]);

    await section.getByLabel('Action').selectOption({ label: 'API key created' });
    await riskRow.waitFor({ state: 'detached' });
    await section.getByLabel('Actor').fill('ada@example.test');
    await section.getByLabel('Target').fill('key_00000000000000000000001');
    await section.getByRole('cell', { name: 'key_00000000000000000000001' }).waitFor();
    await expect
      .poll(() => new URLSearchParams(calls.at(-1)!.query).toString())
      .toBe(
        new URLSearchParams({
          per_page: '50',
          action: 'api_key.created',
          actor: 'ada@example.test',
          target: 'key_00000000000000000000001',
        }).toString(),
      );
    expect(calls.every((c) => c.method === 'GET' && c.path === '/api/v1/audit-events')).toBe(true);

    await section.getByLabel('Target').fill('key_nothing');
    await section.getByText('No events.').waitFor();
  });

  it('sends the justification switch of the triage policy with the days', async () => {
    let policy: ApiSchemas['SlaPolicy'] = {
      critical: 7,
      high: 30,
      medium: 90,
      low: 180,
      require_justification: false,
    };
    const { page, calls } = await suite.mountSettingsSection('sla', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/settings/sla': () => ({ status: 200, body: policy }),
        'PUT /api/v1/settings/sla': ({ body }) => {
          const { apply_to_open: _applyToOpen, ...change } = body as ApiSchemas['SlaPolicyChange'];
          policy = { ...policy, ...change };
          return { status: 200, body: policy };
        },
      },
    });
    const section = page.getByRole('region', { name: 'Triage policy' });
    const box = section.getByLabel('Require a justification to accept a risk or mark a false positive');
    await expect.poll(() => box.isChecked()).toBe(false);
    await box.check();
    await section.getByRole('button', { name: 'Save triage policy' }).click();
    await section
      .getByRole('group', { name: 'Apply the SLA policy to open findings?' })
      .getByRole('button', { name: 'Save for new findings only' })
      .click();
    await section.getByText('Triage policy saved').waitFor();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      critical: 7,
      high: 30,
      medium: 90,
      low: 180,
      require_justification: true,
    });
  });
});
