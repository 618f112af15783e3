import { describe, expect, it } from 'vitest';
import { dispatchWebhookEvents } from '../../../server/webhooks/outbox.ts';
import { countDeliveries, listDeliveries } from '../../../server/webhooks/webhook-deliveries.repository.ts';
import { recordScanFindings } from '../../../server/scans/recording.ts';
import { countFindings } from '../../../server/findings/findings-listing.repository.ts';
import { getFindingRoute, listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { listScanFindingsRoute } from '../../../server/routes/scans.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, insertScan, insertWebhook, runScan, scanRow } from '../../helpers/factory.ts';
import { selectHistoryOfFinding } from '../../../server/findings/finding-history.repository.ts';
import { testEngine } from '../../helpers/database.ts';
import { FINDING_LIST_FIELDS } from '../../fixtures/finding-fields.ts';

describe(`finding lifecycle (${testEngine})`, () => {
  const suite = useTestApp();

  /** The organization's findings as the list answers them (at most 100), ordered by check. */
  const findingsOf = async (api: ApiClient) =>
    okBody(await api.call(listFindingsRoute, { query: { per_page: 100 } }), 200).items.sort((a, b) =>
      a.template_id < b.template_id ? -1 : a.template_id > b.template_id ? 1 : 0,
    );
  const detailOf = async (api: ApiClient, findingId: string) =>
    okBody(await api.call(getFindingRoute, { params: { finding_id: findingId } }), 200);
  /** What the scan observed of each finding (severity then, change), as its findings list answers. */
  const observationsOf = async (api: ApiClient, scanId: string) =>
    okBody(
      await api.call(listScanFindingsRoute, { params: { scan_id: scanId }, query: { per_page: 100 } }),
      200,
    )
      .items.map((f) => ({ id: f.id, severity: f.severity, change: f.change }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  const resolvedAtOf = async (orgId: string, findingId: string) => {
    // eslint-disable-next-line no-restricted-syntax -- storage itself: `resolved_at` is on no answer (only the statistics' trends read it)
    const row = (await suite.db('findings').where({ org_id: orgId, id: findingId }).first('resolved_at')) as {
      resolved_at: Date | null;
    };
    return row.resolved_at;
  };
  const historyOf = (orgId: string, findingId: string) => selectHistoryOfFinding(suite.db, orgId, findingId);
  const scanOf = async (orgId: string, scanId: string): Promise<Record<string, unknown>> => ({
    ...(await scanRow(suite.app, orgId, scanId)),
  });

  it('creates an open finding owned by the scan, with a history entry by system', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const { scan, summary } = await runScan(suite.db, orgId, [detection({ severity: 'high' })]);
    const [finding] = await findingsOf(api);
    expect(finding).toMatchObject({ status: 'open', scan_id: scan.id, last_scan_id: scan.id, times_seen: 1 });
    expect(summary.new_finding_ids).toEqual([finding!.id]);
    expect(await historyOf(orgId, finding!.id)).toEqual([
      expect.objectContaining({ from_status: null, to_status: 'open', actor: 'system' }),
    ]);
  });

  it('updates the existing finding when the same detections are recorded again, never copying it', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const detections = [
      detection({ severity: 'critical' }),
      detection({ severity: 'high' }),
      detection({ severity: 'info' }),
    ];
    const first = await runScan(suite.db, orgId, detections);
    // Same checks, same places, different run-to-run output.
    const again = detections.map((d) => ({ ...d, evidence: { request: 'GET /', response: 'other body' } }));
    const second = await runScan(suite.db, orgId, again);

    const findings = await findingsOf(api);
    expect(findings).toHaveLength(3);
    for (const f of findings) {
      expect(f.times_seen).toBe(2);
      expect(f.scan_id).toBe(first.scan.id);
      expect(f.last_scan_id).toBe(second.scan.id);
      expect((await detailOf(api, f.id)).evidence.response).toBe('other body');
    }
    expect(second.summary.changes).toEqual({ new: 0, reopened: 0, resolved: 0, unchanged: 3 });
    expect(second.summary.counts).toEqual({
      critical: 1,
      high: 1,
      medium: 0,
      low: 0,
      info: 1,
      vulnerabilities_found: 2,
    });
    expect(first.summary.changes).toEqual({ new: 3, reopened: 0, resolved: 0, unchanged: 0 });
  });

  it('writes the per-severity counts and changes to the scan row, not counting informational findings', async () => {
    const { orgId } = await factory.tenant(suite.app);
    const { scan } = await runScan(suite.db, orgId, [
      detection({ severity: 'critical' }),
      detection({ severity: 'medium' }),
      detection({ severity: 'medium' }),
      detection({ severity: 'low' }),
      detection({ severity: 'info' }),
      detection({ severity: 'info' }),
    ]);
    expect(await scanOf(orgId, scan.id)).toMatchObject({
      vulnerabilities_found: 4,
      critical_count: 1,
      high_count: 0,
      medium_count: 2,
      low_count: 1,
      info_count: 2,
      changes: { new: 6, reopened: 0, resolved: 0, unchanged: 0 },
    });
  });

  it('counts one finding once when a scan reports the same fingerprint twice, keeping the more severe', async () => {
    const { orgId } = await factory.tenant(suite.app);
    const d = detection({ severity: 'low' });
    const { summary } = await runScan(suite.db, orgId, [d, { ...d, severity: 'high' }]);
    expect(summary.changes.new).toBe(1);
    expect(summary.counts).toMatchObject({ high: 1, low: 0 });
  });

  it('treats a detection under an upstream template id as the canonical check', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const canonical = detection({ check_id: 'redis-no-auth', upstream_ids: ['network/redis-unauth'] });
    await runScan(suite.db, orgId, [canonical]);
    const upstream = { ...canonical, check_id: 'network/redis-unauth', upstream_ids: [], tool: 'nuclei' };
    const { summary } = await runScan(suite.db, orgId, [canonical, upstream]);
    const findings = await findingsOf(api);
    expect(findings).toHaveLength(1);
    expect(summary.changes).toMatchObject({ new: 0, unchanged: 1 });
  });

  it('resolves, by system, a finding that a completed scan covering its target, check and port no longer detects', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const kept = detection();
    const gone = detection({ severity: 'high' });
    await runScan(suite.db, orgId, [kept, gone]);
    const { scan, summary } = await runScan(suite.db, orgId, [kept], {
      extraCoverage: [{ target: gone.target, check_id: gone.check_id, port: gone.port ?? null }],
    });

    const goneRow = (await findingsOf(api)).find((f) => f.status === 'resolved')!;
    expect(goneRow).toBeDefined();
    expect(await resolvedAtOf(orgId, goneRow.id)).toBeInstanceOf(Date);
    expect(summary.resolved_finding_ids).toEqual([goneRow.id]);
    expect(summary.changes).toEqual({ new: 0, reopened: 0, resolved: 1, unchanged: 1 });
    expect((await scanOf(orgId, scan.id)).changes).toEqual({
      new: 0,
      reopened: 0,
      resolved: 1,
      unchanged: 1,
    });
    expect((await historyOf(orgId, goneRow.id)).at(-1)).toMatchObject({
      from_status: 'open',
      to_status: 'resolved',
      actor: 'system',
    });
  });

  it('does not resolve a finding the scan did not cover, covered on another port, or while the scan is incomplete', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const a = detection();
    const b = detection();
    const c = detection();
    await runScan(suite.db, orgId, [a, b, c]);
    // a: not covered at all; b: covered on another port; c: covered, but the scan is not complete.
    await runScan(suite.db, orgId, [], {
      extraCoverage: [{ target: b.target, check_id: b.check_id, port: 8443 }],
    });
    const scan = await insertScan(suite.db, orgId, { status: 'running' });
    await recordScanFindings(suite.db, {
      scan,
      detections: [],
      coverage: [{ target: c.target, check_id: c.check_id, port: c.port ?? null }],
      completed: false,
    });
    expect((await findingsOf(api)).map((f) => f.status)).toEqual(['open', 'open', 'open']);
    expect((await scanOf(orgId, scan.id)).changes).toBeNull();
  });

  it('treats coverage without a port as covering every port, and matches targets ignoring case', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const d = detection({ target: 'app.example.test', affected_component: 'https://app.example.test:8443/' });
    await runScan(suite.db, orgId, [{ ...d, port: 8443 }]);
    await runScan(suite.db, orgId, [], {
      extraCoverage: [{ target: 'APP.example.test', check_id: d.check_id }],
    });
    expect((await findingsOf(api)).map((f) => f.status)).toEqual(['resolved']);
  });

  it('treats coverage by port ranges as covering exactly the ports inside them', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const on = (port: number) =>
      detection({ port, affected_component: `tcp://127.0.0.1:${port}`, check_id: 'open-service' });
    await runScan(suite.db, orgId, [on(22), on(80), on(443), on(8080)]);
    const ranges: [number, number][] = [
      [1, 79],
      [81, 443],
    ];
    await runScan(suite.db, orgId, [], {
      extraCoverage: [{ target: '127.0.0.1', check_id: 'open-service', port_ranges: ranges }],
    });
    const byComponent = Object.fromEntries(
      (await findingsOf(api)).map((f) => [f.affected_component, f.status]),
    );
    expect(byComponent).toEqual({
      'tcp://127.0.0.1:22': 'resolved',
      'tcp://127.0.0.1:80': 'open',
      'tcp://127.0.0.1:443': 'resolved',
      'tcp://127.0.0.1:8080': 'open',
    });
  });

  it('resolves per host when many hosts share the same swept port ranges', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const on = (target: string, port: number) =>
      detection({ target, port, affected_component: `tcp://${target}:${port}`, check_id: 'open-service' });
    await runScan(suite.db, orgId, [on('10.9.0.1', 22), on('10.9.0.2', 22), on('10.9.0.3', 22)]);
    const ranges: [number, number][] = [[1, 1024]];
    // Hosts .1 and .2 were swept (the same ranges); .2 still has its port open; .3 was not swept.
    await runScan(suite.db, orgId, [on('10.9.0.2', 22)], {
      extraCoverage: ['10.9.0.1', '10.9.0.2'].map((target) => ({
        target,
        check_id: 'open-service',
        port_ranges: ranges,
      })),
    });
    const byTarget = Object.fromEntries((await findingsOf(api)).map((f) => [f.target, f.status]));
    expect(byTarget).toEqual({ '10.9.0.1': 'resolved', '10.9.0.2': 'open', '10.9.0.3': 'open' });
  });

  it('reopens a resolved finding that is detected again, with a history entry by system', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const d = detection({ severity: 'critical' });
    await runScan(suite.db, orgId, [d]);
    await runScan(suite.db, orgId, [], {
      extraCoverage: [{ target: d.target, check_id: d.check_id, port: d.port ?? null }],
    });
    const { summary } = await runScan(suite.db, orgId, [d]);

    const [finding] = await findingsOf(api);
    expect(finding).toMatchObject({ status: 'open', times_seen: 2 });
    expect(await resolvedAtOf(orgId, finding!.id)).toBeNull();
    expect(summary.reopened_finding_ids).toEqual([finding!.id]);
    expect(summary.changes).toEqual({ new: 0, reopened: 1, resolved: 0, unchanged: 0 });
    expect((await historyOf(orgId, finding!.id)).map((h) => [h.from_status, h.to_status, h.actor])).toEqual([
      [null, 'open', 'system'],
      ['open', 'resolved', 'system'],
      ['resolved', 'open', 'system'],
    ]);
  });

  it('never changes false_positive or accepted findings, detected again or not', async () => {
    const { orgId, api, admin } = await factory.tenant(suite.app);
    const fp = detection();
    const acc = detection();
    await runScan(suite.db, orgId, [fp, acc]);
    const [fpRow, accRow] = await findingsOf(api);
    for (const [row, status] of [
      [fpRow!, 'false_positive'],
      [accRow!, 'accepted'],
    ] as const) {
      const body = { status, justification: 'decided by a person' };
      okBody(await api.call(updateFindingRoute, { params: { finding_id: row.id }, body }), 200);
    }

    await runScan(suite.db, orgId, [fp]); // covers acc? no: only what it detected
    await runScan(suite.db, orgId, [], {
      extraCoverage: [
        { target: fp.target, check_id: fp.check_id, port: 443 },
        { target: acc.target, check_id: acc.check_id, port: 443 },
      ],
    });
    await runScan(suite.db, orgId, [fp, acc]);

    const rows = await findingsOf(api);
    expect(rows.map((r) => r.status)).toEqual(['false_positive', 'accepted']);
    expect(rows.map((r) => r.times_seen)).toEqual([3, 2]);
    // Created by the system, then the person's decision: no scan changed it after that.
    for (const row of rows) {
      expect((await historyOf(orgId, row.id)).map((h) => [h.from_status, h.to_status, h.actor])).toEqual([
        [null, 'open', 'system'],
        ['open', row.status, admin.email],
      ]);
    }
  });

  it("keeps an old scan's observations, counts and changes when later scans run", async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const a = detection({ severity: 'high' });
    const b = detection({ severity: 'low' });
    const first = await runScan(suite.db, orgId, [a, b]);
    const before = await scanOf(orgId, first.scan.id);
    const observationsBefore = await observationsOf(api, first.scan.id);

    await runScan(suite.db, orgId, [{ ...a, severity: 'critical' }], {
      extraCoverage: [{ target: b.target, check_id: b.check_id, port: 443 }],
    });

    const after = await scanOf(orgId, first.scan.id);
    for (const column of ['vulnerabilities_found', 'critical_count', 'high_count', 'low_count', 'changes']) {
      expect(after[column]).toEqual(before[column]);
    }
    expect(await observationsOf(api, first.scan.id)).toEqual(observationsBefore);
    expect(observationsBefore.map((o) => o.severity).sort()).toEqual(['high', 'low']);
    expect(observationsBefore.map((o) => o.change)).toEqual(['new', 'new']);
  });

  it('does not count a finding twice when the same scan is recorded again', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const d = detection();
    const scan = await insertScan(suite.db, orgId);
    const input = { scan, detections: [d], coverage: [], completed: false };
    await recordScanFindings(suite.db, input);
    const summary = await recordScanFindings(suite.db, { ...input, completed: true });
    expect(summary.changes).toEqual({ new: 1, reopened: 0, resolved: 0, unchanged: 0 });
    expect((await findingsOf(api))[0]!.times_seen).toBe(1);
  });

  it('queues vulnerability.found for new and reopened findings only, and vulnerability.critical for critical ones', async () => {
    const { orgId } = await factory.tenant(suite.app);
    const webhookId = await insertWebhook(suite.db, orgId, ['vulnerability.found', 'vulnerability.critical']);
    const critical = detection({ severity: 'critical' });
    const medium = detection({ severity: 'medium' });
    const first = await runScan(suite.db, orgId, [critical, medium]);
    await runScan(suite.db, orgId, [critical], {
      extraCoverage: [{ target: medium.target, check_id: medium.check_id, port: 443 }],
    }); // critical unchanged, medium resolved: no events
    const third = await runScan(suite.db, orgId, [critical, medium]); // medium reopened

    // Webhooks read the domain-event outbox the lifecycle appended to.
    // Every event the suite's tests appended so far, in batches, until none is left.
    while ((await dispatchWebhookEvents(suite.db)) > 0);
    // The payload is not on the wire (the delivery log shows attempts): the outbox's repository.
    const deliveries = (
      await listDeliveries(suite.db, orgId, webhookId, { limit: 100, offset: 0 })
    ).reverse();
    const events = deliveries.map((d) => {
      const payload = JSON.parse(d.payload) as { type: string; data: Record<string, unknown> };
      return [d.event, payload.data.template_id, payload.data.scan_id];
    });
    expect(events).toEqual(
      expect.arrayContaining([
        ['vulnerability.found', critical.check_id, first.scan.id],
        ['vulnerability.critical', critical.check_id, first.scan.id],
        ['vulnerability.found', medium.check_id, first.scan.id],
        ['vulnerability.found', medium.check_id, third.scan.id],
      ]),
    );
    expect(events).toHaveLength(4);
    const payload = JSON.parse(deliveries[0]!.payload) as { type: string; timestamp: string; data: object };
    expect(Object.keys(payload.data).sort()).toEqual([...FINDING_LIST_FIELDS].sort());
  });

  it('queues nothing for an organization without a subscribed webhook', async () => {
    const { orgId } = await factory.tenant(suite.app);
    const webhookId = await insertWebhook(suite.db, orgId, ['scan.completed']);
    await runScan(suite.db, orgId, [detection({ severity: 'critical' })]);
    // Every event the suite's tests appended so far, in batches, until none is left.
    while ((await dispatchWebhookEvents(suite.db)) > 0);
    expect(await countDeliveries(suite.db, orgId, webhookId)).toBe(0);
  });

  it('computes the CVSS score from the vector and stores 0.0 without a valid one', async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    await runScan(suite.db, orgId, [
      detection({ check_id: 'a-scored', cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }),
      detection({ check_id: 'b-none', cvss_vector: null, severity: 'info' }),
      detection({ check_id: 'c-bad', cvss_vector: 'CVSS:3.1/AV:N' }),
    ]);
    const rows = await Promise.all((await findingsOf(api)).map((f) => detailOf(api, f.id)));
    expect(rows.map((r) => [r.cvss_score, r.cvss_vector])).toEqual([
      [9.8, 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
      [0, null],
      [0, null],
    ]);
  });

  it('records hundreds of detections in one call', async () => {
    const { orgId } = await factory.tenant(suite.app);
    const many = Array.from({ length: 700 }, (_, i) =>
      detection({
        severity: i % 7 === 0 ? 'critical' : 'low',
        target: `10.0.${Math.floor(i / 200)}.${i % 200}`,
      }),
    );
    const { summary } = await runScan(suite.db, orgId, many);
    expect(summary.changes.new).toBe(700);
    expect(summary.counts.critical).toBe(100);
    const again = await runScan(suite.db, orgId, many);
    expect(again.summary.changes.unchanged).toBe(700);
    expect(await countFindings(suite.db, orgId, {})).toBe(700);
  });

  it("writes in the caller's transaction, so a rollback by the caller leaves no trace", async () => {
    const { orgId, api } = await factory.tenant(suite.app);
    const scan = await insertScan(suite.db, orgId);
    await expect(
      suite.db.transaction(async (trx) => {
        await recordScanFindings(trx, { scan, detections: [detection()], coverage: [], completed: true });
        expect(await countFindings(trx, orgId, {})).toBe(1);
        throw new Error('the scan engine failed after recording');
      }),
    ).rejects.toThrow('the scan engine failed');
    expect(okBody(await api.call(listFindingsRoute), 200).total).toBe(0);
    expect(okBody(await api.call(listScanFindingsRoute, { params: { scan_id: scan.id } }), 200).total).toBe(
      0,
    );
    expect((await scanOf(orgId, scan.id)).vulnerabilities_found).toBe(0);
  });
});
