import { describe, expect, it } from 'vitest';
import type { FindingDetail } from '../../../server/schemas/findings.ts';
import { okBody } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** SLAs: the due-date policy, due dates at detection, the overdue filter. PGlite and PostgreSQL. */
describe('SLA due dates', () => {
  const suite = useTestApp();
  const DAY = 86_400_000;

  it('answers the default policy until an admin changes it, for that organization only', async () => {
    const mine = await factory.tenant(suite.app);
    const other = await factory.tenant(suite.app);
    expect(okBody(await mine.api.get('/api/v1/settings/sla'))).toEqual({
      critical: 7,
      high: 30,
      medium: 90,
      low: 180,
    });
    const policy = { critical: 3, high: 14, medium: 60, low: 120 };
    expect(okBody(await mine.api.put('/api/v1/settings/sla', policy))).toEqual(policy);
    expect(okBody(await mine.api.get('/api/v1/settings/sla'))).toEqual(policy);
    expect(okBody(await other.api.get('/api/v1/settings/sla'))).toMatchObject({ critical: 7 });
  });

  it('lets only admins change it, and refuses a bad policy (422 naming the field)', async () => {
    const tenant = await factory.tenant(suite.app);
    const member = await tenant.addUser('member');
    const memberApi = await tenant.client(member);
    const refused = await memberApi.put('/api/v1/settings/sla', { critical: 1, high: 2, medium: 3, low: 4 });
    expect(refused.status).toBe(403);
    expect(okBody(await memberApi.get('/api/v1/settings/sla'))).toMatchObject({ critical: 7 });
    const zero = await tenant.api.put('/api/v1/settings/sla', {
      critical: 0,
      high: 30,
      medium: 90,
      low: 180,
    });
    expect(zero.status).toBe(422);
    expect(zero.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'critical' });
    const missing = await tenant.api.put('/api/v1/settings/sla', { critical: 7, high: 30, medium: 90 });
    expect(missing.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'low' });
  });

  it('sets due_date at detection from the policy, none for informational findings, and keeps a person’s', async () => {
    const tenant = await factory.tenant(suite.app);
    okBody(await tenant.api.put('/api/v1/settings/sla', { critical: 3, high: 14, medium: 60, low: 120 }));
    const detectedAt = new Date('2026-11-01T10:00:00.000Z');
    const critical = detection({ severity: 'critical' });
    const info = detection({ severity: 'info' });
    const { summary } = await runScan(suite.db, tenant.orgId, [critical, info], { now: detectedAt });
    const details = await Promise.all(
      summary.new_finding_ids.map(async (id) =>
        okBody(await tenant.api.get<FindingDetail>(`/api/v1/findings/${id}`)),
      ),
    );
    const bySeverity = Object.fromEntries(details.map((d) => [d.severity, d]));
    expect(bySeverity.critical!.due_date).toBe(new Date(detectedAt.getTime() + 3 * DAY).toISOString());
    expect(bySeverity.info!.due_date).toBeNull();

    const mine = '2027-01-15T00:00:00.000Z';
    okBody(await tenant.api.patch(`/api/v1/findings/${bySeverity.critical!.id}`, { due_date: mine }));
    // Seen again by a later scan: the person's date stays.
    await runScan(suite.db, tenant.orgId, [critical]);
    const after = okBody(await tenant.api.get<FindingDetail>(`/api/v1/findings/${bySeverity.critical!.id}`));
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
    okBody(await tenant.api.patch(`/api/v1/findings/${resolvedId}`, { status: 'resolved' }));

    const list = okBody(
      await tenant.api.get<{ items: { id: string }[]; total: number }>('/api/v1/findings?overdue=true'),
    );
    expect(list.items.map((f) => f.id)).toEqual([overdueId]);
    expect(list.total).toBe(1);
    const all = okBody(await tenant.api.get<{ total: number }>('/api/v1/findings?overdue=false'));
    expect(all.total).toBe(3);

    // A person's past due date makes a fresh finding overdue too.
    okBody(
      await tenant.api.patch(`/api/v1/findings/${freshId}`, {
        due_date: new Date(Date.now() - DAY).toISOString(),
      }),
    );
    const now = okBody(await tenant.api.get<{ items: { id: string }[] }>('/api/v1/findings?overdue=true'));
    expect(now.items.map((f) => f.id).sort()).toEqual([overdueId, freshId].sort());

    const bad = await tenant.api.get('/api/v1/findings?overdue=yes');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'overdue' });
  });
});
