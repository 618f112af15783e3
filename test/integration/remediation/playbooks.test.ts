import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPlaybook, PLAYBOOK_IDS } from '../../../server/remediation/playbooks/index.ts';
import type { Playbook } from '../../../server/schemas/ai.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createTenant, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

describe(`playbooks API (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTenant(app, 'professional');
    auth = { authorization: `Bearer ${await tenant.bearer()}` };
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = async <T>(id: string, headers: Record<string, string> = auth) => {
    const res = await app.request(`/api/v1/playbooks/${id}`, { headers });
    return { status: res.status, body: (await res.json()) as T };
  };

  it('returns every playbook with its YAML content', async () => {
    expect(PLAYBOOK_IDS.length).toBeGreaterThan(0);
    for (const id of PLAYBOOK_IDS) {
      const res = await get<Playbook>(id);
      expect(res.status, id).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'title', 'description', 'content']);
      expect(res.body).toEqual(getPlaybook(id));
      expect(res.body.content).toMatch(/^\s*-?\s*(name|hosts):/m);
    }
  });

  it('answers 404 NOT_FOUND for an unknown playbook', async () => {
    for (const id of ['pb_does_not_exist', 'constructor', '__proto__']) {
      const res = await get<{ error_code: string }>(id);
      expect(res.status, id).toBe(404);
      expect(res.body.error_code).toBe('NOT_FOUND');
    }
  });

  it('needs read:findings for API keys, and credentials', async () => {
    const id = PLAYBOOK_IDS[0]!;
    const reader = await tenant.apiKey(['read:findings']);
    expect((await get(id, { 'x-api-key': reader })).status).toBe(200);
    const grc = await tenant.apiKey(['read:grc', 'read:scans']);
    const refused = await get<{ error_code: string }>(id, { 'x-api-key': grc });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('INSUFFICIENT_PERMISSION');
    const anonymous = await get<{ error_code: string }>(id, {});
    expect(anonymous.status).toBe(401);
  });
});
