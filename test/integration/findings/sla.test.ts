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
    // A policy without every severity breaks the contract on purpose.
    const missing = await tenant.api.call(putSlaRoute, {
      body: { critical: 7, high: 30, medium: 90 } as never,
    });
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

  it('moves open findings’ due dates to a new policy with apply_to_open (after an earlier change too), keeping people’s dates and closed findings', async () => {
    const tenant = await factory.tenant(suite.app);
    const detectedAt = new Date('2026-11-01T10:00:00.000Z');
    const due = (days: number) => new Date(detectedAt.getTime() + days * DAY).toISOString();
    const { summary } = await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({ severity: 'critical' }),
        detection({ severity: 'high' }),
        detection({ severity: 'high' }),
        detection({ severity: 'medium' }),
        detection({ severity: 'info' }),
      ],
      { now: detectedAt },
    );
    const details = await Promise.all(
      summary.new_finding_ids.map(async (id) => okBody(await tenant.api.call(getFindingRoute, finding(id)))),
    );
    const critical = details.find((d) => d.severity === 'critical')!;
    const [personal, resolved] = details.filter((d) => d.severity === 'high');
    const medium = details.find((d) => d.severity === 'medium')!;
    const info = details.find((d) => d.severity === 'info')!;
    expect(critical.due_date).toBe(due(7)); // the default policy
    const dueOf = async (id: string) => okBody(await tenant.api.call(getFindingRoute, finding(id))).due_date;
    const mine = '2027-02-01T00:00:00.000Z';
    okBody(await tenant.api.call(updateFindingRoute, { ...finding(personal!.id), body: { due_date: mine } }));
    okBody(
      await tenant.api.call(updateFindingRoute, { ...finding(resolved!.id), body: { status: 'resolved' } }),
    );
    okBody(
      await tenant.api.call(updateFindingRoute, { ...finding(medium.id), body: { status: 'in_progress' } }),
    );

    // Without apply_to_open nothing existing moves, and the answer says nothing about it.
    const quiet = okBody(
      await tenant.api.call(putSlaRoute, { body: { critical: 3, high: 14, medium: 60, low: 120 } }),
    );
    expect(quiet).not.toHaveProperty('open_findings_updated');
    expect(await dueOf(critical.id)).toBe(due(7));

    const changed = okBody(
      await tenant.api.call(putSlaRoute, {
        body: { critical: 2, high: 10, medium: 45, low: 100, apply_to_open: true },
      }),
    );
    expect(changed).toEqual({
      critical: 2,
      high: 10,
      medium: 45,
      low: 100,
      require_justification: false,
      open_findings_updated: 2,
    });
    expect(await dueOf(critical.id)).toBe(due(2));
    expect(await dueOf(medium.id)).toBe(due(45)); // in progress counts as open
    expect(await dueOf(personal!.id)).toBe(mine); // a person's date stays
    expect(await dueOf(resolved!.id)).toBe(due(30)); // closed findings keep theirs
    expect(await dueOf(info.id)).toBeNull();

    // Applying the same policy again moves nothing.
    const again = okBody(
      await tenant.api.call(putSlaRoute, {
        body: { critical: 2, high: 10, medium: 45, low: 100, apply_to_open: true },
      }),
    );
    expect(again.open_findings_updated).toBe(0);
  });

  it('refuses an apply_to_open that is not a boolean, and touches no other organization', async () => {
    const tenant = await factory.tenant(suite.app);
    const other = await factory.tenant(suite.app);
    const { summary } = await runScan(suite.db, other.orgId, [detection({ severity: 'critical' })]);
    const bad = await tenant.api.call(putSlaRoute, {
      body: {
        critical: 1,
        high: 2,
        medium: 3,
        low: 4,
        apply_to_open: 'yes' as never,
      },
    });
    await expectError(bad, 422, 'VALIDATION_ERROR', 'apply_to_open');
    const applied = okBody(
      await tenant.api.call(putSlaRoute, {
        body: { critical: 1, high: 2, medium: 3, low: 4, apply_to_open: true },
      }),
    );
    expect(applied.open_findings_updated).toBe(0);
    const theirs = okBody(await other.api.call(getFindingRoute, finding(summary.new_finding_ids[0]!)));
    expect(new Date(theirs.due_date!).getTime() - new Date(theirs.detected_at).getTime()).toBe(7 * DAY);
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

    // A value the contract does not allow (the typed query takes any string).
    await expectError(
      await tenant.api.call(listFindingsRoute, { query: { overdue: 'yes' } }),
      422,
      'VALIDATION_ERROR',
      'overdue',
    );
  });
});
