import { describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { getSlaRoute, putSlaRoute } from '../../../server/routes/settings.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** SLAs: the due-date policy, due dates at detection, the overdue filter. PGlite and PostgreSQL. */
describe('SLA due dates', () => {
  const suite = useTestApp();
  const DAY = 86_400_000;
  const finding = (finding_id: string) => ({ params: { finding_id } });

  it('answers the default policy until an admin changes it, for that organization only', async () => {
    const mine = await factory.tenant(suite.app);
    const other = await factory.tenant(suite.app);
    expect(okBody(await mine.api.call(getSlaRoute))).toEqual({
      critical: 7,
      high: 30,
      medium: 90,
      low: 180,
      require_justification: false,
    });
    const policy = { critical: 3, high: 14, medium: 60, low: 120 };
    const answer = { ...policy, require_justification: false };
    expect(okBody(await mine.api.call(putSlaRoute, { body: policy }))).toEqual(answer);
    expect(okBody(await mine.api.call(getSlaRoute))).toEqual(answer);
    expect(okBody(await other.api.call(getSlaRoute))).toMatchObject({ critical: 7 });
  });

  it('lets only admins change it, and refuses a bad policy (422 naming the field)', async () => {
    const tenant = await factory.tenant(suite.app);
    const member = await tenant.addUser('member');
    const memberApi = await tenant.client(member);
    const refused = await memberApi.call(putSlaRoute, { body: { critical: 1, high: 2, medium: 3, low: 4 } });
    expect(refused.status).toBe(403);
    expect(okBody(await memberApi.call(getSlaRoute))).toMatchObject({ critical: 7 });
    const zero = await tenant.api.call(putSlaRoute, {
      body: { critical: 0, high: 30, medium: 90, low: 180 },
    });
    await expectError(zero, 422, 'VALIDATION_ERROR', 'critical');
    // A policy without every severity is not of the contract's type: sent raw.
    const missing = await tenant.api.put('/api/v1/settings/sla', { critical: 7, high: 30, medium: 90 });
    await expectError(missing, 422, 'VALIDATION_ERROR', 'low');
  });

  it('sets due_date at detection from the policy, none for informational findings, and keeps a person’s', async () => {
    const tenant = await factory.tenant(suite.app);
    okBody(await tenant.api.call(putSlaRoute, { body: { critical: 3, high: 14, medium: 60, low: 120 } }));
    const detectedAt = new Date('2026-11-01T10:00:00.000Z');
    const critical = detection({ severity: 'critical' });
    const info = detection({ severity: 'info' });
    const { summary } = await runScan(suite.db, tenant.orgId, [critical, info], { now: detectedAt });
    const details = await Promise.all(
      summary.new_finding_ids.map(async (id) => okBody(await tenant.api.call(getFindingRoute, finding(id)))),
    );
    const bySeverity = Object.fromEntries(details.map((d) => [d.severity, d]));
    expect(bySeverity.critical!.due_date).toBe(new Date(detectedAt.getTime() + 3 * DAY).toISOString());
    expect(bySeverity.info!.due_date).toBeNull();

    const mine = '2027-01-15T00:00:00.000Z';
    okBody(
      await tenant.api.call(updateFindingRoute, {
        ...finding(bySeverity.critical!.id),
        body: { due_date: mine },
      }),
    );
    // Seen again by a later scan: the person's date stays.
    await runScan(suite.db, tenant.orgId, [critical]);
    const after = okBody(await tenant.api.call(getFindingRoute, finding(bySeverity.critical!.id)));
    expect(after.due_date).toBe(mine);
  });

  it('lists only open and in-progress findings past their due date with overdue=true', async () => {
    const tenant = await factory.tenant(suite.app);
    const longAgo = new Date(Date.now() - 40 * DAY);
    const old = await runScan(suite.db, tenant.orgId, [detection({ severity: 'high' })], { now: longAgo });
    const oldResolved = await runScan(suite.db, tenant.orgId, [detection({ severity: 'high' })], {
      now: longAgo,
    });
    const fresh = await runScan(suite.db, tenant.orgId, [detection({ severity: 'high' })]);
    const overdueId = old.summary.new_finding_ids[0]!;
    const resolvedId = oldResolved.summary.new_finding_ids[0]!;
    const freshId = fresh.summary.new_finding_ids[0]!;
    okBody(
      await tenant.api.call(updateFindingRoute, { ...finding(resolvedId), body: { status: 'resolved' } }),
    );

    const list = okBody(await tenant.api.call(listFindingsRoute, { query: { overdue: 'true' } }));
    expect(list.items.map((f) => f.id)).toEqual([overdueId]);
    expect(list.total).toBe(1);
    const all = okBody(await tenant.api.call(listFindingsRoute, { query: { overdue: 'false' } }));
    expect(all.total).toBe(3);

    // A person's past due date makes a fresh finding overdue too.
    okBody(
      await tenant.api.call(updateFindingRoute, {
        ...finding(freshId),
        body: { due_date: new Date(Date.now() - DAY).toISOString() },
      }),
    );
    const now = okBody(await tenant.api.call(listFindingsRoute, { query: { overdue: 'true' } }));
    expect(now.items.map((f) => f.id).sort()).toEqual([overdueId, freshId].sort());

    // A value the contract does not allow, sent as a raw query.
    await expectError(
      await tenant.api.get('/api/v1/findings?overdue=yes'),
      422,
      'VALIDATION_ERROR',
      'overdue',
    );
  });
});
