import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, listOf, useHarness, type ApiSchemas } from '../../helpers/console-components.ts';

/**
 * Two cards of the finding page alone in Chromium with a stub API (console/test/components.tsx):
 * "Seen by" (console/src/pages/finding-sources.tsx; docs/finding-lifecycle.md, "Sources") and
 * Tickets (console/src/pages/finding-tickets.tsx; docs/integrations.md, "Tickets").
 */

if (!hasChromium) console.warn('finding cards: skipped; /usr/bin/chromium is absent');

const integration = (
  id: string,
  type: ApiSchemas['IntegrationType'],
  name: string,
): ApiSchemas['Integration'] => ({
  id,
  type,
  name,
  config: {},
  secrets_set: [],
  receiver_url: null,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
});

/** The organization's integrations: the GitHub one already has the finding's ticket. */
const INTEGRATIONS = [
  integration('int_github00000000000000000', 'github', 'shop issues'),
  integration('int_jira0000000000000000000', 'jira', 'security board'),
  integration('int_slack000000000000000000', 'slack', 'alerts'),
];

describe.skipIf(!hasChromium)('the finding page cards', () => {
  const suite = useHarness();

  it('lists every source that saw the finding, marks the headline one and shows a resolved source as no longer reporting', async () => {
    const { page, calls, problems } = await suite.mountComponent('seen-by', {
      session: ADMIN_SESSION,
      api: {},
    });
    const card = page.getByRole('region', { name: 'Seen by' });
    const items = card.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);

    const scan = items.nth(0);
    const scanText = (await scan.textContent()) ?? '';
    expect(scanText).toContain('Scanward scan (scanward-probe)');
    expect(scanText).toContain('High');
    expect(scanText).toContain('CVSS 7.5');
    expect(scanText).toContain('proof');
    expect(scanText).toContain('(headline)');
    expect(scanText).not.toContain('no longer reported');
    expect(await scan.getByRole('link', { name: 'scan_harnesslast00000000000' }).getAttribute('href')).toBe(
      '/scans/scan_harnesslast00000000000',
    );

    const imported = items.nth(1);
    const importedText = (await imported.textContent()) ?? '';
    expect(importedText).toContain('nuclei import');
    expect(importedText).toContain('Medium');
    expect(importedText).toContain('version match');
    expect(importedText).not.toContain('CVSS');
    expect(importedText).not.toContain('(headline)');
    expect(importedText).toContain('no longer reported');
    expect(calls).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('lists the tickets with their links and opens one in a tracker that has none yet', async () => {
    const sent: unknown[] = [];
    const { page, calls } = await suite.mountComponent('finding-tickets', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/integrations': () => ({ status: 200, body: listOf(INTEGRATIONS) }),
        'POST /api/v1/findings/:finding_id/tickets': ({ body, params }) => {
          sent.push({ finding_id: params.finding_id, body });
          const answer: ApiSchemas['TicketQueued'] = {
            queued: false,
            delivery_id: null,
            tickets: [
              {
                integration_id: 'int_jira0000000000000000000',
                key: 'SEC-12',
                url: 'https://jira.example.test/browse/SEC-12',
                state: 'open',
              },
            ],
          };
          return { status: 201, body: answer };
        },
      },
    });
    const card = page.getByRole('region', { name: 'Tickets' });
    const link = card.getByRole('link', { name: 'acme/shop#42' });
    expect(await link.getAttribute('href')).toBe('https://github.com/acme/shop/issues/42');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await card.getByRole('listitem').first().textContent()).toContain('(open)');

    // Only trackers without a ticket for the finding are offered: Jira, not GitHub (has one) nor Slack.
    const tracker = card.getByLabel('Open a ticket in');
    await expect
      .poll(() => tracker.locator('option').allTextContents())
      .toEqual(['Choose…', 'security board (jira)']);
    await tracker.selectOption('int_jira0000000000000000000');
    await card.getByRole('button', { name: 'Open ticket' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('Ticket opened.');
    expect(sent).toEqual([
      {
        finding_id: 'finding_harnesstickets0000000',
        body: { integration_id: 'int_jira0000000000000000000' },
      },
    ]);
    expect(await page.getByTestId('changes').textContent()).toBe('1');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers['x-csrf-token']).toBe(ADMIN_SESSION.csrf_token);
  });

  it('says when the tracker did not answer and the ticket is queued', async () => {
    const { page } = await suite.mountComponent('finding-tickets', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/integrations': () => ({ status: 200, body: listOf(INTEGRATIONS) }),
        'POST /api/v1/findings/:finding_id/tickets': () => ({
          status: 202,
          body: { queued: true, delivery_id: 'ndl_queued000000000000000000', tickets: [] },
        }),
      },
    });
    const card = page.getByRole('region', { name: 'Tickets' });
    await card.getByLabel('Open a ticket in').selectOption('int_jira0000000000000000000');
    await card.getByRole('button', { name: 'Open ticket' }).click();
    await expect
      .poll(() => card.getByRole('status').textContent())
      .toBe('The tracker did not answer yet; the ticket is queued and retried.');
  });

  it('shows a viewer the tickets without asking for the integrations or offering to open one', async () => {
    const { page, calls, problems } = await suite.mountComponent('finding-tickets', {
      session: { ...ADMIN_SESSION, user: { ...ADMIN_SESSION.user, role: 'viewer' } },
      api: {},
    });
    const card = page.getByRole('region', { name: 'Tickets' });
    await card.getByRole('link', { name: 'acme/shop#42' }).waitFor();
    expect(await card.getByRole('button', { name: 'Open ticket' }).count()).toBe(0);
    expect(await card.locator('form').count()).toBe(0);
    expect(calls).toEqual([]);
    expect(problems).toEqual([]);
  });
});
