import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { creditMonth } from '../../../server/remediation/credits.ts';
import type { AiAnalysisResponse } from '../../../server/schemas/ai.ts';
import {
  API_KEY,
  fakeProvider,
  MODEL,
  MODEL_ANSWER,
  type FakeProvider,
} from '../../fixtures/chat-provider.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

describe(`AI analysis through a language-model provider (${testEngine})`, () => {
  let provider: FakeProvider;
  let app: TestApp;
  let db: Knex;
  let tenant: Tenant;
  let auth: Record<string, string>;

  const suite = useTestApp(async () => {
    provider = await fakeProvider();
    return {
      env: {
        SCANWARD_AI_URL: provider.url,
        SCANWARD_AI_MODEL: MODEL,
        SCANWARD_AI_KEY: API_KEY,
      },
    };
  });
  beforeAll(async () => {
    app = suite.app;
    db = app.services.db;
    tenant = await factory.tenant(app, { plan: 'professional' });
    auth = { authorization: `Bearer ${await tenant.bearer()}` };
  });
  afterAll(async () => {
    await provider?.close();
  });
  beforeEach(() => {
    provider.state.mode = 'valid';
    provider.state.requests = [];
  });

  const newFinding = async (checkId?: string) => {
    const d = detection({
      ...(checkId ? { check_id: checkId } : {}),
      title: 'Redis accepts commands without authentication',
      severity: 'critical',
      affected_component: 'redis://127.0.0.1:6379',
      port: 6379,
      tool: 'scanward-redis',
      category: 'unauthenticated-access',
      cwe_ids: ['CWE-306'],
    });
    await runScan(db, tenant.orgId, [d]);
    const row = (await db('findings')
      .where({ org_id: tenant.orgId, template_id: d.check_id })
      .first('id')) as {
      id: string;
    };
    return row.id;
  };
  const analysis = async (findingId: string) => {
    const res = await app.request(`/api/v1/findings/${findingId}/ai-analysis`, { headers: auth });
    return { status: res.status, body: (await res.json()) as AiAnalysisResponse };
  };
  const creditsUsed = async () => {
    const row = (await db('ai_credit_usage')
      .where({ org_id: tenant.orgId, month: creditMonth() })
      .first('credits')) as { credits: number } | undefined;
    return row?.credits ?? 0;
  };

  it("uses the model's valid structured answer, names the model as source, and caches it", async () => {
    const findingId = await newFinding('redis-no-auth');
    const before = await creditsUsed();
    const res = await analysis(findingId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ finding_id: findingId, source: MODEL, ai_credits_used: 1 });
    // Automation comes from the built-in knowledge, never from the model.
    expect(res.body.ai_analysis).toEqual({
      ...MODEL_ANSWER,
      automation_available: true,
      ansible_playbook_id: 'pb_redis_requirepass',
    });
    expect(await creditsUsed()).toBe(before + 1);

    expect(provider.state.requests).toHaveLength(1);
    const request = provider.state.requests[0]!;
    expect(request.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body.model).toBe(MODEL);
    expect(request.body.messages?.at(-1)?.content).toContain('redis://127.0.0.1:6379');

    const again = await analysis(findingId);
    expect(again.body).toEqual({ ...res.body, ai_credits_used: 0 });
    expect(provider.state.requests).toHaveLength(1);
    expect(await creditsUsed()).toBe(before + 1);
  });

  it.each(['not-json', 'wrong-shape', 'http-500'] as const)(
    'falls back to the built-in analysis for free and uncached when the provider answers %s',
    async (mode) => {
      const findingId = await newFinding();
      const before = await creditsUsed();
      provider.state.mode = mode;
      const res = await analysis(findingId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ finding_id: findingId, source: 'builtin', ai_credits_used: 0 });
      expect(res.body.ai_analysis.risk_assessment).not.toBe(MODEL_ANSWER.risk_assessment);
      expect(res.body.ai_analysis.remediation_priority).toBe('immediate');
      expect(provider.state.requests.length).toBeGreaterThan(0);
      expect(await creditsUsed()).toBe(before);
      expect(await db('ai_analyses').where({ finding_id: findingId })).toHaveLength(0);

      // The provider is asked again on the next call, and its answer is then charged and kept.
      provider.state.mode = 'valid';
      const retried = await analysis(findingId);
      expect(retried.body).toMatchObject({ source: MODEL, ai_credits_used: 1 });
      expect(retried.body.ai_analysis.risk_assessment).toBe(MODEL_ANSWER.risk_assessment);
      expect(await creditsUsed()).toBe(before + 1);
    },
  );
});
