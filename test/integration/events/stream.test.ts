import { describe, expect, it } from 'vitest';
import { deleteApiKey, postApiKey } from '../../../server/routes/api-keys.ts';
import { cancelScanRoute, createScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { okBody } from '../../helpers/api-client.ts';
import { openStream, type EventStreamClient } from '../../helpers/event-stream.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { updateFindingRoute } from '../../../server/routes/findings.ts';
import { updateUserRoute } from '../../../server/routes/users.ts';

/**
 * GET /api/v1/events: the organization's domain events as server-sent events, read
 * from the outbox (docs/events.md). Runs on PGlite and, with DATABASE_URL, PostgreSQL.
 */
describe('the event stream', () => {
  const suite = useTestApp({ env: { SCANWARD_EVENTS_HEARTBEAT_SECONDS: '1' } });

  const bearerHeaders = async (tenant: { bearer(): Promise<string> }) => ({
    authorization: `Bearer ${await tenant.bearer()}`,
  });

  const streams: EventStreamClient[] = [];
  const open = async (headers: Record<string, string>) => {
    const stream = await openStream(suite.app, headers);
    streams.push(stream);
    return stream;
  };
  const closeAll = () => {
    for (const s of streams.splice(0)) s.close();
  };

  async function queueScan(api: Awaited<ReturnType<typeof factory.tenant>>['api']): Promise<string> {
    const res = await api.call(createScanRoute, {
      body: { target: '127.0.0.1', authorized: true, scan_type: 'quick' },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  it('answers text/event-stream and sends the events of the organization in the order they happened', async () => {
    try {
      const tenant = await factory.tenant(suite.app, { limits: { concurrent: -1 } });
      const stream = await open(await bearerHeaders(tenant));
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);

      const first = await queueScan(tenant.api);
      const second = await queueScan(tenant.api);
      expect((await tenant.api.call(cancelScanRoute, { params: { scan_id: first } })).status).toBe(200);

      const events = await stream.next(3);
      expect(events.map((e) => [e.event, e.data.data.id])).toEqual([
        ['scan.queued', first],
        ['scan.queued', second],
        ['scan.cancelled', first],
      ]);
      expect(events.map((e) => e.data.type)).toEqual(events.map((e) => e.event));
      const ids = events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(3);
    } finally {
      closeAll();
    }
  });

  it('sends vulnerability events of recorded findings and finding.updated for a triage change', async () => {
    try {
      const tenant = await factory.tenant(suite.app);
      const stream = await open(await bearerHeaders(tenant));
      const { summary } = await runScan(suite.db, tenant.orgId, [detection({ severity: 'critical' })]);
      const findingId = summary.new_finding_ids[0]!;
      const found = await stream.next(2);
      expect(found.map((e) => [e.event, e.data.data.id])).toEqual([
        ['vulnerability.found', findingId],
        ['vulnerability.critical', findingId],
      ]);

      const patched = await tenant.api.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { status: 'in_progress' },
      });
      expect(patched.status).toBe(200);
      const [updated] = await stream.next(1);
      expect(updated!.event).toBe('finding.updated');
      expect(updated!.data.data).toMatchObject({
        id: findingId,
        status: 'in_progress',
        previous_status: 'open',
        by: tenant.admin.email,
      });
    } finally {
      closeAll();
    }
  });

  it('resumes after Last-Event-ID with every event missed while disconnected, and none twice', async () => {
    try {
      const tenant = await factory.tenant(suite.app, { limits: { concurrent: -1 } });
      const headers = await bearerHeaders(tenant);
      const stream = await open(headers);
      const a = await queueScan(tenant.api);
      const b = await queueScan(tenant.api);
      const [seenA] = await stream.next(1);
      expect(seenA!.data.data.id).toBe(a);
      stream.close();

      // Missed while away.
      const c = await queueScan(tenant.api);
      const resumed = await open({ ...headers, 'last-event-id': seenA!.id! });
      expect(resumed.status).toBe(200);
      const d = await queueScan(tenant.api);
      const events = await resumed.next(3);
      expect(events.map((e) => e.data.data.id)).toEqual([b, c, d]);
      expect(events.every((e) => Number(e.id) > Number(seenA!.id))).toBe(true);
    } finally {
      closeAll();
    }
  });

  it('never sends another organization an event, even from its position 0', async () => {
    try {
      const mine = await factory.tenant(suite.app, { limits: { concurrent: -1 } });
      const other = await factory.tenant(suite.app, { limits: { concurrent: -1 } });
      const fromStart = await open({ ...(await bearerHeaders(mine)), 'last-event-id': '0' });
      const live = await open(await bearerHeaders(mine));

      await queueScan(other.api);
      await runScan(suite.db, other.orgId, [detection({ severity: 'critical' })]);
      // The organization's own event comes after the other's: once it arrives, the others would have too.
      const own = await queueScan(mine.api);

      for (const stream of [fromStart, live]) {
        const [event] = await stream.next(1);
        expect(event!.data.data.id).toBe(own);
      }
    } finally {
      closeAll();
    }
  });

  it('counts an open stream as one request, however many events and heartbeats it carries', async () => {
    try {
      const tenant = await factory.tenant(suite.app, { limits: { hourly: 50, daily: -1 } });
      const headers = await bearerHeaders(tenant);
      const stream = await open(headers);
      expect(stream.status).toBe(200);
      const afterOpen = Number(stream.headers.get('x-ratelimit-remaining'));
      expect(afterOpen).toBe(49);

      await runScan(suite.db, tenant.orgId, [detection(), detection(), detection()]);
      await stream.next(3);
      expect(await stream.comment()).toBe('heartbeat');

      const res = await tenant.api.call(listScansRoute);
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(afterOpen - 1);
    } finally {
      closeAll();
    }
  });

  it('ends an open stream within a heartbeat once its credentials are revoked: a disabled user, a deleted key', async () => {
    try {
      const tenant = await factory.tenant(suite.app);
      const member = await tenant.addUser('member');
      const memberStream = await open({ authorization: `Bearer ${await tenant.bearer(member)}` });
      const keyId = okBody(
        await tenant.api.call(postApiKey, { body: { name: 'stream reader', permissions: ['read:scans'] } }),
        201,
      );
      const keyStream = await open({ 'x-api-key': keyId.key });
      const adminStream = await open(await bearerHeaders(tenant));
      expect([memberStream.status, keyStream.status, adminStream.status]).toEqual([200, 200, 200]);

      okBody(
        await tenant.api.call(updateUserRoute, { params: { user_id: member.id }, body: { disabled: true } }),
      );
      okBody(await tenant.api.call(deleteApiKey, { params: { key_id: keyId.id } }));
      await memberStream.ended();
      await keyStream.ended();
      // The admin, whose credentials hold, keeps the stream: it still beats.
      expect(await adminStream.comment()).toBe('heartbeat');
    } finally {
      closeAll();
    }
  });

  it('lets an API key read only the events its permissions cover, and refuses a key with neither', async () => {
    try {
      const tenant = await factory.tenant(suite.app);
      const scansOnly = await tenant.apiKey(['read:scans']);
      const stream = await open({ 'x-api-key': scansOnly });
      expect(stream.status).toBe(200);
      await runScan(suite.db, tenant.orgId, [detection({ severity: 'critical' })]);
      const scan = await queueScan(tenant.api);
      const [event] = await stream.next(1);
      expect([event!.event, event!.data.data.id]).toEqual(['scan.queued', scan]);

      const refused = await open({ 'x-api-key': await tenant.apiKey(['read:grc']) });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSION' });
    } finally {
      closeAll();
    }
  });

  it('refuses a caller without credentials (401) and a malformed Last-Event-ID (422 naming it)', async () => {
    try {
      const anonymous = await open({});
      expect(anonymous.status).toBe(401);
      const tenant = await factory.tenant(suite.app);
      const malformed = await open({ ...(await bearerHeaders(tenant)), 'last-event-id': 'abc' });
      expect(malformed.status).toBe(422);
      expect(JSON.parse(malformed.text)).toMatchObject({
        error_code: 'VALIDATION_ERROR',
        field: 'Last-Event-Id',
      });
    } finally {
      closeAll();
    }
  });
});
