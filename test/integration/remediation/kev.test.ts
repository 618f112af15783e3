import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AiAnalysisResponse } from '../../../server/schemas/ai.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const KEV_FILE = fileURLToPath(new URL('../../../../shared/data/cisa-kev-2025-08-25.json', import.meta.url));
const haveKev = existsSync(KEV_FILE);
if (!haveKev) console.warn(`skipping the KEV analysis tests: ${KEV_FILE} is absent`);

describe.skipIf(!haveKev)(`AI analysis with CISA KEV context (${testEngine})`, () => {
  let app: TestApp;
  let auth: Record<string, string>;
  const ids: Record<'kev' | 'plain', string> = { kev: '', plain: '' };

  const suite = useTestApp({ env: { SCANWARD_KEV_FILE: KEV_FILE } });
  beforeAll(async () => {
    app = suite.app;
    const tenant = await factory.tenant(app, { plan: 'professional' });
    auth = { authorization: `Bearer ${await tenant.bearer()}` };
    const medium = { severity: 'medium' as const, category: 'known-vulnerability' };
    await runScan(app.services.db, tenant.orgId, [
      detection({ ...medium, check_id: 'kev-log4shell', cve_ids: ['CVE-2021-44228'] }),
      detection({ ...medium, check_id: 'kev-unlisted', cve_ids: ['CVE-2099-0001'] }),
    ]);
    for (const key of ['kev', 'plain'] as const) {
      const checkId = key === 'kev' ? 'kev-log4shell' : 'kev-unlisted';
      const row = (await app.services
        .db('findings')
        .where({ org_id: tenant.orgId, template_id: checkId })
        .first('id')) as { id: string };
      ids[key] = row.id;
    }
  });

  const analysis = async (findingId: string) => {
    const res = await app.request(`/api/v1/findings/${findingId}/ai-analysis`, { headers: auth });
    expect(res.status).toBe(200);
    return ((await res.json()) as AiAnalysisResponse).ai_analysis;
  };

  it('raises a CVE in the KEV catalogue to immediate and cites CISA', async () => {
    const kev = await analysis(ids.kev);
    expect(kev.remediation_priority).toBe('immediate');
    expect(kev.risk_assessment).toContain("CISA's Known Exploited Vulnerabilities catalogue");
    expect(kev.recommended_actions.some((a) => a.startsWith('For CVE-2021-44228, CISA requires:'))).toBe(
      true,
    );

    const plain = await analysis(ids.plain);
    expect(plain.remediation_priority).toBe('medium');
    expect(plain.risk_assessment).not.toContain('Known Exploited Vulnerabilities');
  });
});
