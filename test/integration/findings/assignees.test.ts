import { describe, expect, it } from 'vitest';
import { assigneeSuggestionsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { okBody } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { updateUserRoute } from '../../../server/routes/users.ts';

/**
 * GET /api/v1/findings/assignees: the organization's people, which the console suggests as a
 * finding's assignee (docs/console.md). Suggestions only: PATCH still takes any address.
 */
describe(`assignee suggestions (${testEngine})`, () => {
  const suite = useTestApp();

  it('lists the organization’s enabled people to any reader of findings, and no one else’s', async () => {
    const tenant = await factory.tenant(suite.app);
    const member = await tenant.addUser('member');
    const viewer = await tenant.addUser('viewer');
    const gone = await tenant.addUser('member');
    okBody(
      await tenant.api.call(updateUserRoute, { params: { user_id: gone.id }, body: { disabled: true } }),
    );
    const other = await factory.tenant(suite.app);

    const asViewer = await tenant.client(viewer);
    const emails = okBody(await asViewer.call(assigneeSuggestionsRoute)).items.map((i) => i.email);
    expect(emails.sort()).toEqual([tenant.admin.email, member.email, viewer.email].sort());
    const theirs = okBody(await other.api.call(assigneeSuggestionsRoute)).items.map((i) => i.email);
    expect(theirs).toEqual([other.admin.email]);

    // A key without read:findings is refused.
    const key = await tenant.apiKey(['read:scans']);
    const refused = await suite.app.request('/api/v1/findings/assignees', { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(403);
  });

  it('only suggests: an address outside the organization is still accepted as assignee', async () => {
    const tenant = await factory.tenant(suite.app);
    const { summary } = await runScan(suite.db, tenant.orgId, [detection({ severity: 'high' })]);
    const updated = okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: summary.new_finding_ids[0]! },
        body: { assignee: 'contractor@elsewhere.example' },
      }),
    );
    expect(updated.assignee).toBe('contractor@elsewhere.example');
  });
});
