import { describe, expect, it } from 'vitest';
import {
  bulkUpdateFindingsRoute,
  getFindingRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { createScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, logIn, loopbackScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { putSlaRoute } from '../../../server/routes/settings.ts';
import { postApiKey } from '../../../server/routes/api-keys.ts';

/**
 * A JSON body with a field the contract does not declare is refused, 422 VALIDATION_ERROR
 * naming the field by its path (issue 31, item 7): a caller who misspells an option learns it
 * instead of getting a scan without what they asked for. The form-encoded log-in keeps
 * ignoring the OAuth2 fields (`grant_type`, `scope`, `client_id`) clients send with it.
 */
describe(`unknown body fields (${testEngine})`, () => {
  const suite = useTestApp();

  it('refuses an undeclared option on POST /api/v1/scans, naming it, and queues nothing', async () => {
    const t = await factory.tenant(suite.app, { plan: 'enterprise' });
    const res = await t.api.call(createScanRoute, {
      body: loopbackScan({ web_application: { active: true } }) as never,
    });
    const error = await expectError(res, 422, 'VALIDATION_ERROR', 'web_application');
    expect(error.detail).toMatch(/^web_application: /);
    const misspelt = await t.api.call(createScanRoute, {
      body: loopbackScan({ credential_check: 'none' }) as never,
    });
    await expectError(misspelt, 422, 'VALIDATION_ERROR', 'credential_check');
    const scans = okBody(await t.api.call(listScansRoute));
    expect(scans.total).toBe(0);
    // The declared spelling is taken.
    expect(
      (await t.api.call(createScanRoute, { body: loopbackScan({ credential_checks: 'none' }) as never }))
        .status,
    ).toBe(201);
  });

  it('names a nested unknown field by its path', async () => {
    const t = await factory.tenant(suite.app, { findings: [detection()] });
    const id = t.summary!.new_finding_ids[0]!;
    const res = await t.api.call(bulkUpdateFindingsRoute, {
      body: {
        finding_ids: [id],
        update: { status: 'in_progress', note: 'singular by mistake' },
      } as never,
    });
    await expectError(res, 422, 'VALIDATION_ERROR', 'update.note');
    const patch = await t.api.call(updateFindingRoute, {
      params: { finding_id: id },
      body: { status: 'resolved', resolution: 'fixed' } as never,
    });
    await expectError(patch, 422, 'VALIDATION_ERROR', 'resolution');
    const detail = okBody(await t.api.call(getFindingRoute, { params: { finding_id: id } }));
    expect(detail.status).toBe('open');
  });

  it('refuses unknown fields on settings and API keys too', async () => {
    const t = await factory.tenant(suite.app);
    const sla = await t.api.call(putSlaRoute, {
      body: {
        critical: 7,
        high: 30,
        medium: 90,
        low: 180,
        require_justifications: true,
      } as never,
    });
    await expectError(sla, 422, 'VALIDATION_ERROR', 'require_justifications');
    const key = await t.api.call(postApiKey, {
      body: {
        name: 'ci',
        permissions: ['read:scans'],
        scopes: ['x'],
      } as never,
    });
    await expectError(key, 422, 'VALIDATION_ERROR', 'scopes');
  });

  it('keeps the form-encoded log-in open to the OAuth2 password grant fields', async () => {
    const t = await factory.tenant(suite.app);
    const res = await logIn(suite.app, t.admin, {
      grant_type: 'password',
      scope: 'read:scans',
      client_id: 'some-client',
    });
    expect(okBody(res).token_type).toBe('bearer');
  });
});
