import { describe, expect, it } from 'vitest';
import { FINDING_EVENTS, organizationEventsAfter, sequenceEvents } from '../../../server/events/outbox.ts';
import { reopenExpiredAcceptances } from '../../../server/findings/acceptance-expiry.ts';
import {
  bulkUpdateFindingsRoute,
  exportFindingsRoute,
  getFindingRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { detection, factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Risk acceptance and false positives with a reason (docs/finding-lifecycle.md,
 * "Accepting a risk"). Runs on PGlite and, with DATABASE_URL, PostgreSQL.
 */
describe('risk acceptance', () => {
  const suite = useTestApp();

  const tenantWithFinding = async (severity: 'critical' | 'high' = 'high') => {
    const tenant = await factory.tenant(suite.app, { findings: [detection({ severity })] });
    return { tenant, findingId: tenant.summary!.new_finding_ids[0]! };
  };

  const finding = (finding_id: string) => ({ params: { finding_id } });

  it('refuses a blank justification and one given with another status (422 naming it), in PATCH and the bulk update', async () => {
    const { tenant, findingId } = await tenantWithFinding();
    for (const status of ['accepted', 'false_positive'] as const) {
      const blank = await tenant.api.call(updateFindingRoute, {
        ...finding(findingId),
        body: { status, justification: '  ' },
      });
      await expectError(blank, 422, 'VALIDATION_ERROR', 'justification');
    }
    const misplaced = await tenant.api.call(updateFindingRoute, {
      ...finding(findingId),
      body: { status: 'in_progress', justification: 'not a risk decision' },
    });
    await expectError(misplaced, 422, 'VALIDATION_ERROR', 'justification');
    const bulk = await tenant.api.call(bulkUpdateFindingsRoute, {
      body: { finding_ids: [findingId], update: { status: 'resolved', justification: 'fixed' } },
    });
    await expectError(bulk, 422, 'VALIDATION_ERROR', 'update.justification');
    const detail = okBody(await tenant.api.call(getFindingRoute, finding(findingId)));
    expect(detail.status).toBe('open');
  });

  it('refuses expires_at with another status than accepted, or in the past (422 naming it)', async () => {
    const { tenant, findingId } = await tenantWithFinding();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const fp = await tenant.api.call(updateFindingRoute, {
      ...finding(findingId),
      body: { status: 'false_positive', justification: 'scanner misread the banner', expires_at: future },
    });
    await expectError(fp, 422, 'VALIDATION_ERROR', 'expires_at');
    const past = await tenant.api.call(updateFindingRoute, {
      ...finding(findingId),
      body: {
        status: 'accepted',
        justification: 'accepted until last year',
        expires_at: new Date(Date.now() - 1000).toISOString(),
      },
    });
    await expectError(past, 422, 'VALIDATION_ERROR', 'expires_at');
  });

  it('keeps the justification, who and when on the finding, in its history and in both exports', async () => {
    const { tenant, findingId } = await tenantWithFinding();
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const updated = okBody(
      await tenant.api.call(updateFindingRoute, {
        ...finding(findingId),
        body: { status: 'accepted', justification: 'behind the VPN; fix planned in Q1', expires_at: expires },
      }),
    );
    expect(updated).toMatchObject({
      status: 'accepted',
      justification: 'behind the VPN; fix planned in Q1',
      justified_by: tenant.admin.email,
      acceptance_expires_at: expires,
    });
    expect(updated.justified_at).not.toBeNull();

    const detail = okBody(await tenant.api.call(getFindingRoute, finding(findingId)));
    expect(detail).toMatchObject({
      justification: 'behind the VPN; fix planned in Q1',
      justified_by: tenant.admin.email,
      justified_at: updated.justified_at,
      acceptance_expires_at: expires,
    });
    expect(detail.history.at(-1)).toMatchObject({
      from: 'open',
      to: 'accepted',
      user: tenant.admin.email,
      justification: 'behind the VPN; fix planned in Q1',
    });

    const json = okBody(await tenant.api.call(exportFindingsRoute, { query: { format: 'json' } }));
    expect(json[0]).toMatchObject({
      justification: 'behind the VPN; fix planned in Q1',
      justified_by: tenant.admin.email,
      acceptance_expires_at: expires,
    });
    const csv = await tenant.api.call(exportFindingsRoute, { query: { format: 'csv' } });
    expect(csv.status).toBe(200);
    const [header, row] = csv.text.split('\r\n');
    const columns = header!.split(',');
    for (const name of ['justification', 'justified_by', 'justified_at', 'acceptance_expires_at']) {
      expect(columns).toContain(name);
    }
    expect(row).toContain('behind the VPN; fix planned in Q1');
    expect(row).toContain(tenant.admin.email);
    expect(row).toContain(expires);
  });

  it('clears the decision when the finding moves to another status, and sets it for every finding of a bulk update', async () => {
    const tenant = await factory.tenant(suite.app, { findings: [detection(), detection()] });
    const [a, b] = tenant.summary!.new_finding_ids;
    const bulk = okBody(
      await tenant.api.call(bulkUpdateFindingsRoute, {
        body: {
          finding_ids: [a!, b!],
          update: { status: 'false_positive', justification: 'test fixture, not a real service' },
        },
      }),
    );
    expect(bulk).toMatchObject({ updated: 2 });
    for (const id of [a, b]) {
      const detail = okBody(await tenant.api.call(getFindingRoute, finding(id!)));
      expect(detail).toMatchObject({
        status: 'false_positive',
        justification: 'test fixture, not a real service',
        justified_by: tenant.admin.email,
        acceptance_expires_at: null,
      });
    }
    const reopened = okBody(
      await tenant.api.call(updateFindingRoute, { ...finding(a!), body: { status: 'in_progress' } }),
    );
    expect(reopened).toMatchObject({
      status: 'in_progress',
      justification: null,
      justified_by: null,
      justified_at: null,
      acceptance_expires_at: null,
    });
  });

  it('reopens an expired acceptance by itself: open, a system history entry and a vulnerability.found event', async () => {
    const { tenant, findingId } = await tenantWithFinding('critical');
    const accepted = Date.now();
    const expires = new Date(accepted + 60_000);
    okBody(
      await tenant.api.call(updateFindingRoute, {
        ...finding(findingId),
        body: {
          status: 'accepted',
          justification: 'short-lived exception',
          expires_at: expires.toISOString(),
        },
      }),
    );
    await sequenceEvents(suite.db);
    const [before] = await organizationEventsAfter(suite.db, tenant.orgId, 0, FINDING_EVENTS, 1000).then(
      (events) => events.slice(-1),
    );

    // Before the expiry nothing happens; at it, the timer reopens the finding.
    expect(await reopenExpiredAcceptances(suite.db, new Date(expires.getTime() - 1))).not.toContain(
      findingId,
    );
    expect(okBody(await tenant.api.call(getFindingRoute, finding(findingId))).status).toBe('accepted');
    expect(await reopenExpiredAcceptances(suite.db, expires)).toContain(findingId);

    const detail = okBody(await tenant.api.call(getFindingRoute, finding(findingId)));
    expect(detail).toMatchObject({
      status: 'open',
      justification: null,
      justified_by: null,
      acceptance_expires_at: null,
    });
    expect(detail.history.at(-1)).toMatchObject({ from: 'accepted', to: 'open', user: 'system' });
    // The justification stays in the history entry of the acceptance.
    expect(detail.history.at(-2)).toMatchObject({ to: 'accepted', justification: 'short-lived exception' });

    await sequenceEvents(suite.db);
    const events = await organizationEventsAfter(suite.db, tenant.orgId, before!.seq, FINDING_EVENTS, 100);
    expect(events.map((e) => [e.type, e.subject_id])).toEqual([
      ['vulnerability.found', findingId],
      ['vulnerability.critical', findingId],
      ['finding.updated', findingId],
    ]);
    expect(events[0]!.data).toMatchObject({ id: findingId, status: 'open' });

    // Once reopened, a later pass has nothing to do.
    expect(await reopenExpiredAcceptances(suite.db, new Date(expires.getTime() + 60_000))).not.toContain(
      findingId,
    );
  });
});
