import { beforeEach, describe, expect, it } from 'vitest';
import { setLimits } from '../../../server/identity/organizations.ts';
import { PLAN_LIMITS } from '../../../server/identity/plans.ts';
import { creditMonth } from '../../../server/remediation/credits.ts';
import { findAnalysis } from '../../../server/remediation/ai-analyses.repository.ts';
import {
  addCreditsWithinAllowance,
  findCreditsUsed,
} from '../../../server/remediation/ai-credit-usage.repository.ts';
import { getFindingAiAnalysisRoute } from '../../../server/routes/ai-analysis.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { getPlaybookRoute } from '../../../server/routes/playbooks.ts';
import type { Plan } from '../../../server/schemas/common.ts';
import type { FindingDetection } from '../../../server/findings/lifecycle.ts';
import { expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const redisDetection = (overrides: Partial<FindingDetection> = {}) =>
  detection({
    check_id: 'redis-no-auth',
    title: 'Redis accepts commands without authentication',
    severity: 'critical',
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    affected_component: 'redis://127.0.0.1:6379',
    port: 6379,
    tool: 'scanward-redis',
    category: 'unauthenticated-access',
    cwe_ids: ['CWE-306'],
    evidence: { request: 'PING', response: '+PONG' },
    ...overrides,
  });

describe(`AI analysis with the built-in analyser (${testEngine})`, () => {
  const suite = useTestApp();

  const analysis = (findingId: string, auth: ApiClient) =>
    auth.call(getFindingAiAnalysisRoute, { params: { finding_id: findingId } });

  /** A tenant with findings of the given detections; returns their ids in order. */
  const tenantWith = async (plan: Plan, detections: FindingDetection[]) => {
    const tenant = await factory.tenant(suite.app, { plan });
    await runScan(suite.db, tenant.orgId, detections);
    const ids: string[] = [];
    for (const d of detections) {
      const query = { template_id: d.check_id };
      const [finding] = okBody(await tenant.api.call(listFindingsRoute, { query }), 200).items;
      ids.push(finding!.id);
    }
    return { tenant, ids, auth: await tenant.client() };
  };

  const creditsUsed = (orgId: string) => findCreditsUsed(suite.db, orgId, creditMonth());
  /** Credits spent earlier in the month (or another month), as earlier analyses would have. */
  const spent = (orgId: string, credits: number, month = creditMonth()) =>
    addCreditsWithinAllowance(suite.db, orgId, month, credits, -1);

  describe('answers and caching', () => {
    let tenant: Tenant;
    let auth: ApiClient;
    let redisId: string;
    let webId: string;
    // A tenant per test: credits are counted per organization, and no test counts another's.
    beforeEach(async () => {
      const setup = await tenantWith('professional', [
        redisDetection(),
        detection({ check_id: 'web-misconfig' }),
      ]);
      ({ tenant, auth } = setup);
      [redisId, webId] = setup.ids as [string, string];
    });

    it('answers a fresh analysis in exactly the documented shape for 1 credit, with its playbook', async () => {
      const res = await analysis(redisId, auth);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['finding_id', 'ai_analysis', 'ai_credits_used', 'source']);
      expect(res.body).toMatchObject({ finding_id: redisId, ai_credits_used: 1, source: 'builtin' });
      const a = res.body.ai_analysis;
      expect(Object.keys(a).sort()).toEqual(
        [
          'ansible_playbook_id',
          'attack_scenarios',
          'automation_available',
          'recommended_actions',
          'remediation_priority',
          'risk_assessment',
        ].sort(),
      );
      expect(a.remediation_priority).toBe('immediate');
      expect(a.risk_assessment).toContain('127.0.0.1:6379');
      expect(a.attack_scenarios.length).toBeGreaterThan(0);
      expect(a.recommended_actions.length).toBeGreaterThan(0);
      expect(a).toMatchObject({ automation_available: true, ansible_playbook_id: 'pb_redis_requirepass' });
      expect(await creditsUsed(tenant.orgId)).toBe(1);

      const playbook = await auth.call(getPlaybookRoute, { params: { playbook_id: a.ansible_playbook_id! } });
      expect(playbook.status).toBe(200);
      expect(playbook.body.id).toBe('pb_redis_requirepass');
    });

    it('answers a repeated call from the cache for 0 credits', async () => {
      const first = await analysis(redisId, auth);
      const again = await analysis(redisId, auth);
      expect(again.status).toBe(200);
      expect(JSON.stringify(again.body)).toBe(JSON.stringify({ ...first.body, ai_credits_used: 0 }));
      expect(first.body.ai_credits_used).toBe(1);
      expect(await creditsUsed(tenant.orgId)).toBe(1);
      expect(await findAnalysis(suite.db, tenant.orgId, redisId)).toMatchObject({ source: 'builtin' });
    });

    it('leaves out ansible_playbook_id when no automation is available', async () => {
      const res = await analysis(webId, auth);
      expect(res.status).toBe(200);
      expect(res.body.ai_credits_used).toBe(1);
      expect(res.body.ai_analysis.automation_available).toBe(false);
      expect(res.body.ai_analysis).not.toHaveProperty('ansible_playbook_id');
      expect(await creditsUsed(tenant.orgId)).toBe(1);
    });

    it("answers 404 for a missing finding and for another organization's, charging nothing", async () => {
      const other = await tenantWith('professional', [redisDetection()]);
      const foreign = await analysis(redisId, other.auth);
      await expectError(foreign, 404, 'NOT_FOUND');
      const missing = await analysis('finding_doesnotexist000000000000', auth);
      await expectError(missing, 404, 'NOT_FOUND');
      expect(await creditsUsed(other.tenant.orgId)).toBe(0);
      expect(await creditsUsed(tenant.orgId)).toBe(0);
    });

    it('needs read:findings for API keys', async () => {
      const read = await tenant.keyClient(['read:findings']);
      expect((await analysis(redisId, read)).status).toBe(200);
      for (const permissions of [['read:grc', 'write:grc'], ['write:findings'], ['read:scans']] as const) {
        const key = await tenant.keyClient([...permissions]);
        const res = await analysis(redisId, key);
        await expectError(res, 403, 'INSUFFICIENT_PERMISSION');
      }
    });
  });

  describe('credits', () => {
    it('refuses a fresh analysis with AI_QUOTA_EXCEEDED once the allowance is used, still serving cached ones', async () => {
      const { tenant, ids, auth } = await tenantWith('professional', [
        detection({ check_id: 'quota-a' }),
        detection({ check_id: 'quota-b' }),
        detection({ check_id: 'quota-c' }),
      ]);
      await setLimits(suite.db, tenant.orgId, { aiCredits: 2 });
      expect((await analysis(ids[0]!, auth)).body.ai_credits_used).toBe(1);
      expect((await analysis(ids[1]!, auth)).body.ai_credits_used).toBe(1);

      const refused = await analysis(ids[2]!, auth);
      await expectError(refused, 403, 'AI_QUOTA_EXCEEDED');
      expect(await creditsUsed(tenant.orgId)).toBe(2);
      expect(await findAnalysis(suite.db, tenant.orgId, ids[2]!)).toBeUndefined();

      const cached = await analysis(ids[0]!, auth);
      expect(cached.status).toBe(200);
      expect(cached.body.ai_credits_used).toBe(0);

      await setLimits(suite.db, tenant.orgId, { aiCredits: 3 });
      expect((await analysis(ids[2]!, auth)).body.ai_credits_used).toBe(1);
      expect(await creditsUsed(tenant.orgId)).toBe(3);
    });

    it('refuses every fresh analysis with an allowance of 0', async () => {
      const { tenant, ids, auth } = await tenantWith('enterprise', [detection()]);
      await setLimits(suite.db, tenant.orgId, { aiCredits: 0 });
      const res = await analysis(ids[0]!, auth);
      await expectError(res, 403, 'AI_QUOTA_EXCEEDED');
      expect(await creditsUsed(tenant.orgId)).toBe(0);
    });

    it.each([
      ['startup', PLAN_LIMITS.startup.monthlyAiCredits],
      ['professional', PLAN_LIMITS.professional.monthlyAiCredits],
    ] as const)('applies the %s plan default allowance (%i credits)', async (plan, allowance) => {
      expect(allowance).toBe(plan === 'startup' ? 50 : 500);
      const { tenant, ids, auth } = await tenantWith(plan, [detection(), detection()]);
      await spent(tenant.orgId, allowance - 1);
      expect((await analysis(ids[0]!, auth)).body.ai_credits_used).toBe(1);
      const refused = await analysis(ids[1]!, auth);
      await expectError(refused, 403, 'AI_QUOTA_EXCEEDED');
      expect(await creditsUsed(tenant.orgId)).toBe(allowance);
    });

    it('never limits an unlimited allowance, and still counts usage', async () => {
      const { tenant, ids, auth } = await tenantWith('enterprise', [detection()]);
      await spent(tenant.orgId, 1_000_000);
      expect((await analysis(ids[0]!, auth)).body.ai_credits_used).toBe(1);
      expect(await creditsUsed(tenant.orgId)).toBe(1_000_001);
    });

    it('counts per UTC month: last month’s usage does not count against this month', async () => {
      const { tenant, ids, auth } = await tenantWith('startup', [detection()]);
      const now = new Date();
      const lastMonth = creditMonth(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)));
      await spent(tenant.orgId, 50, lastMonth);
      expect((await analysis(ids[0]!, auth)).body.ai_credits_used).toBe(1);
      expect(await creditsUsed(tenant.orgId)).toBe(1);
    });

    it('never spends more than the allowance under concurrent requests', async () => {
      const detections = Array.from({ length: 8 }, () => detection());
      const { tenant, ids, auth } = await tenantWith('professional', detections);
      await setLimits(suite.db, tenant.orgId, { aiCredits: 3 });
      const results = await Promise.all(ids.map((id) => analysis(id, auth)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
      expect(await creditsUsed(tenant.orgId)).toBe(3);
    });

    it('charges concurrent first calls for one finding a single credit and answers them alike', async () => {
      const { tenant, ids, auth } = await tenantWith('professional', [detection()]);
      const results = await Promise.all(Array.from({ length: 5 }, () => analysis(ids[0]!, auth)));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.reduce((sum, r) => sum + r.body.ai_credits_used, 0)).toBe(1);
      expect(new Set(results.map((r) => JSON.stringify(r.body.ai_analysis))).size).toBe(1);
      expect(await creditsUsed(tenant.orgId)).toBe(1);
    });
  });
});
