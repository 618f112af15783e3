import { beforeAll, describe, expect, it } from 'vitest';
import { getPlaybook, PLAYBOOK_IDS } from '../../../server/remediation/playbooks/index.ts';
import { getPlaybookRoute } from '../../../server/routes/playbooks.ts';
import { apiClient, expectError, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

describe(`playbooks API (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let api: ApiClient;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
    api = await tenant.client();
  });

  const playbook = (id: string, caller: ApiClient = api) =>
    caller.call(getPlaybookRoute, { params: { playbook_id: id } });

  it('returns every playbook with its YAML content', async () => {
    expect(PLAYBOOK_IDS.length).toBeGreaterThan(0);
    for (const id of PLAYBOOK_IDS) {
      const res = await playbook(id);
      expect(res.status, id).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'title', 'description', 'content']);
      expect(res.body).toEqual(getPlaybook(id));
      expect(res.body.content).toMatch(/^\s*-?\s*(name|hosts):/m);
    }
  });

  it('answers 404 NOT_FOUND for an unknown playbook', async () => {
    for (const id of ['pb_does_not_exist', 'constructor', '__proto__']) {
      await expectError(await playbook(id), 404, 'NOT_FOUND');
    }
  });

  it('needs read:findings for API keys, and credentials', async () => {
    const id = PLAYBOOK_IDS[0]!;
    const reader = await tenant.apiKey(['read:findings']);
    expect((await playbook(id, apiClient(app, { apiKey: reader }))).status).toBe(200);
    const grc = await tenant.apiKey(['read:grc', 'read:scans']);
    const refused = await playbook(id, apiClient(app, { apiKey: grc }));
    await expectError(refused, 403, 'INSUFFICIENT_PERMISSION');
    const anonymous = await playbook(id, apiClient(app));
    expect(anonymous.status).toBe(401);
  });
});
