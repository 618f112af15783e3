import { beforeAll, describe, expect, it } from 'vitest';
import { createScanRoute } from '../../../server/routes/scans.ts';
import { createWebhookRoute } from '../../../server/routes/webhooks.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { METADATA_FORMS } from '../../fixtures/address-forms.ts';

/**
 * Issue 31 item 5: with private webhooks allowed, 169.254.170.2, 100.100.100.200 and
 * 169.254.169.254 inside `[64:ff9b::…]`, `[::a9fe:a9fe]` and `[2002:a9fe:a9fe::]` were
 * accepted as webhook receivers, and the scan scope shared the same two-literal list. One
 * address policy now refuses every form, for webhooks and for scans, whatever else is
 * allowed; nothing here connects anywhere (the refusals come before any connection).
 */
describe(`metadata and link-local addresses, in every form (${testEngine})`, () => {
  const suite = useTestApp({
    env: {
      SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      // Everything, as an operator who allows too much would write it: still not these.
      SCANWARD_SCAN_ALLOW: '0.0.0.0/0,::/0,localhost',
    },
  });
  let t: BuiltTenant;
  beforeAll(async () => {
    t = await factory.tenant(suite.app, { plan: 'enterprise' });
  });

  const literal = (address: string) => (address.includes(':') ? `[${address}]` : address);

  it.each([...METADATA_FORMS, '169.254.1.1', 'fe80::1'])(
    'refuses %s as a webhook receiver, private receivers allowed',
    async (address) => {
      const res = await t.api.call(createWebhookRoute, {
        body: { url: `http://${literal(address)}/hook`, events: ['scan.completed'] },
      });
      expect((await expectError(res, 422, 'VALIDATION_ERROR', 'url')).detail).toMatch(
        /may not receive webhooks \((a cloud metadata|a link-local) address/,
      );
    },
  );

  it.each([...METADATA_FORMS, '169.254.1.1', 'fe80::1'])(
    'refuses %s as a scan target, the allow list covering everything',
    async (address) => {
      const res = await t.api.call(createScanRoute, { body: { target: address, authorized: true } });
      await expectError(res, 422, 'TARGET_NOT_ALLOWED', 'target');
    },
  );

  it('still takes a private receiver that is neither', async () => {
    const res = await t.api.call(createWebhookRoute, {
      body: { url: 'http://127.0.0.1:9/hook', events: ['scan.completed'] },
    });
    okBody(res, 201);
  });
});
