import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, useHarness, type ApiSchemas } from '../../helpers/console-components.ts';

/**
 * The finding page's assignment form (console/src/pages/finding/assignment-card.tsx) alone in Chromium
 * with a stub API: the assignee box suggests the organization's people as you type (a datalist
 * over GET /findings/assignees) and still sends any address the API accepts.
 */

if (!hasChromium) console.warn('assignment: skipped; /usr/bin/chromium is absent');

const PEOPLE = ['ada@example.test', 'grace@example.test', 'linus@example.test'];

describe.skipIf(!hasChromium)('the assignment form of a finding', () => {
  const suite = useHarness();

  it('suggests the organization’s people for the assignee, and sends any address typed', async () => {
    const sent: unknown[] = [];
    const { page, calls } = await suite.mountComponent('assignment', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/findings/assignees': () => ({
          status: 200,
          body: { items: PEOPLE.map((email) => ({ email })) } satisfies ApiSchemas['AssigneeSuggestions'],
        }),
        'PATCH /api/v1/findings/:finding_id': ({ body, params }) => {
          sent.push(body);
          return {
            status: 200,
            body: {
              id: params.finding_id,
              status: 'open',
              assignee: (body as { assignee: string }).assignee,
            },
          };
        },
      },
    });
    const form = page.getByRole('form', { name: 'Assignment' });
    const box = form.getByLabel('Assignee');
    // The box offers the people: its datalist holds their addresses.
    await expect
      .poll(() =>
        box.evaluate((input) =>
          Array.from(
            (input as unknown as { list: { options: ArrayLike<{ value: string }> } | null }).list?.options ??
              [],
          ).map((o) => o.value),
        ),
      )
      .toEqual(PEOPLE);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/v1/findings/assignees');

    // One of them, picked as typed.
    await box.fill('grace@example.test');
    await form.getByRole('button', { name: 'Save assignment' }).click();
    await form.getByText('Assignment saved.').waitFor();
    // Someone outside the organization: still sent as typed.
    await box.fill('contractor@elsewhere.example');
    await form.getByRole('button', { name: 'Save assignment' }).click();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent.map((b) => (b as { assignee: string }).assignee)).toEqual([
      'grace@example.test',
      'contractor@elsewhere.example',
    ]);
  });
});
