import { beforeAll, describe, expect, it } from 'vitest';
import { createScanRoute, getScanQuotaRoute, listScansRoute } from '../../../server/routes/scans.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { scanRequest } from './requests.ts';

describe(`scans API: Idempotency-Key on scan creation (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat with the same key and body exactly like the first, creating nothing', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'create-1' } };
      const first = await k.api.call(createScanRoute, { body: scanRequest({ scan_type: 'quick' }) }, headers);
      expect(first.status).toBe(201);
      // Same body in another key order and with the default spelled out.
      const again = await k.api.call(
        createScanRoute,
        { body: { authorized: true, scan_type: 'quick', target: '127.0.0.1' } },
        headers,
      );
      expect(again.status).toBe(201);
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
      expect((await k.api.call(listScansRoute)).body.total).toBe(1);
      expect((await k.api.call(getScanQuotaRoute)).body.used_this_month).toBe(1);
    });

    it('refuses the same key with a different body, naming the header', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'create-2' } };
      expect((await k.api.call(createScanRoute, { body: scanRequest() }, headers)).status).toBe(201);
      const res = await k.api.call(createScanRoute, { body: scanRequest({ target: '127.0.0.2' }) }, headers);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
      expect((await k.api.call(listScansRoute)).body.total).toBe(1);
    });

    it('scopes keys to the organization', async () => {
      const a = await factory.tenant(app, { plan: 'professional' });
      const b = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'shared-key' } };
      const fromA = await a.api.call(createScanRoute, { body: scanRequest() }, headers);
      const fromB = await b.api.call(createScanRoute, { body: scanRequest() }, headers);
      expect(fromB.status).toBe(201);
      expect(fromB.body.id).not.toBe(fromA.body.id);
    });

    it('forgets a key after 24 hours', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'old-key' } };
      const first = await k.api.call(createScanRoute, { body: scanRequest() }, headers);
      // eslint-disable-next-line no-restricted-syntax -- no route ages a key: its row is moved 24 hours back in place
      await app.services
        .db('idempotency_keys')
        .where({ org_id: k.orgId, key: 'old-key' })
        .update({ created_at: new Date(Date.now() - 24 * 3600 * 1000 - 1000) });
      const later = await k.api.call(
        createScanRoute,
        { body: scanRequest({ target: '127.0.0.3' }) },
        headers,
      );
      expect(later.status).toBe(201);
      expect(later.body.id).not.toBe(first.body.id);
      const replay = await k.api.call(
        createScanRoute,
        { body: scanRequest({ target: '127.0.0.3' }) },
        headers,
      );
      expect(replay.body.id).toBe(later.body.id);
    });

    it('creates one scan for simultaneous requests with one key', async () => {
      const k = await factory.tenant(app, { plan: 'professional', limits: { concurrent: -1 } });
      const headers = { headers: { 'Idempotency-Key': 'burst' } };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => k.api.call(createScanRoute, { body: scanRequest() }, headers)),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect((await k.api.call(listScansRoute)).body.total).toBe(1);
    });

    it.each(['', 'has space', 'x'.repeat(256), 'tab\there'])('refuses the malformed key %j', async (key) => {
      const res = await t.api.call(
        createScanRoute,
        { body: scanRequest() },
        { headers: { 'Idempotency-Key': key } },
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
    });
  });
});
