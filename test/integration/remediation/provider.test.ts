import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { creditMonth } from '../../../server/remediation/credits.ts';
import { findAnalysis } from '../../../server/remediation/ai-analyses.repository.ts';
import { findCreditsUsed } from '../../../server/remediation/ai-credit-usage.repository.ts';
import { getFindingAiAnalysisRoute } from '../../../server/routes/ai-analysis.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import {
  API_KEY,
  fakeProvider,
  MODEL,
  MODEL_ANSWER,
  type FakeProvider,
} from '../../fixtures/chat-provider.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

describe(`AI analysis through a language-model provider (${testEngine})`, () => {
  let provider: FakeProvider;

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
  afterAll(async () => {
    await provider?.close();
  });
  beforeEach(() => {
    provider.state.mode = 'valid';
    provider.state.requests = [];
  });

  /** A tenant of its own with one finding: its id, the tenant's client and its credits spent this month. */
  const newFinding = async (checkId?: string) => {
    const tenant = await factory.tenant(suite.app, { plan: 'professional' });
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
    await runScan(suite.db, tenant.orgId, [d]);
    const query = { template_id: d.check_id };
    const findingId = okBody(await tenant.api.call(listFindingsRoute, { query }), 200).items[0]!.id;
    const creditsUsed = () => findCreditsUsed(suite.db, tenant.orgId, creditMonth());
    return { findingId, api: tenant.api, orgId: tenant.orgId, creditsUsed };
  };
  const analysis = (api: ApiClient, findingId: string) =>
    api.call(getFindingAiAnalysisRoute, { params: { finding_id: findingId } });

  it("uses the model's valid structured answer, names the model as source, and caches it", async () => {
    const { findingId, api, creditsUsed } = await newFinding('redis-no-auth');
    expect(await creditsUsed()).toBe(0);
    const res = await analysis(api, findingId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ finding_id: findingId, source: MODEL, ai_credits_used: 1 });
    // Automation comes from the built-in knowledge, never from the model.
    expect(res.body.ai_analysis).toEqual({
      ...MODEL_ANSWER,
      automation_available: true,
      ansible_playbook_id: 'pb_redis_requirepass',
    });
    expect(await creditsUsed()).toBe(1);

    expect(provider.state.requests).toHaveLength(1);
    const request = provider.state.requests[0]!;
    expect(request.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body.model).toBe(MODEL);
    expect(request.body.messages?.at(-1)?.content).toContain('redis://127.0.0.1:6379');

    const again = await analysis(api, findingId);
    expect(again.body).toEqual({ ...res.body, ai_credits_used: 0 });
    expect(provider.state.requests).toHaveLength(1);
    expect(await creditsUsed()).toBe(1);
  });

  it.each(['not-json', 'wrong-shape', 'http-500'] as const)(
    'falls back to the built-in analysis for free and uncached when the provider answers %s',
    async (mode) => {
      const { findingId, api, orgId, creditsUsed } = await newFinding();
      provider.state.mode = mode;
      const res = await analysis(api, findingId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ finding_id: findingId, source: 'builtin', ai_credits_used: 0 });
      expect(res.body.ai_analysis.risk_assessment).not.toBe(MODEL_ANSWER.risk_assessment);
      expect(res.body.ai_analysis.remediation_priority).toBe('immediate');
      expect(provider.state.requests.length).toBeGreaterThan(0);
      expect(await creditsUsed()).toBe(0);
      expect(await findAnalysis(suite.db, orgId, findingId)).toBeUndefined();

      // The provider is asked again on the next call, and its answer is then charged and kept.
      provider.state.mode = 'valid';
      const retried = await analysis(api, findingId);
      expect(retried.body).toMatchObject({ source: MODEL, ai_credits_used: 1 });
      expect(retried.body.ai_analysis.risk_assessment).toBe(MODEL_ANSWER.risk_assessment);
      expect(await creditsUsed()).toBe(1);
    },
  );
});
