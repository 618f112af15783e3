import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFindingAiAnalysisRoute } from '../../../server/routes/ai-analysis.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const KEV_FILE = fileURLToPath(new URL('../../../../shared/data/cisa-kev-2025-08-25.json', import.meta.url));
const haveKev = existsSync(KEV_FILE);
if (!haveKev) console.warn(`skipping the KEV analysis tests: ${KEV_FILE} is absent`);

describe.skipIf(!haveKev)(`AI analysis with CISA KEV context (${testEngine})`, () => {
  let api: ApiClient;
  const ids: Record<'kev' | 'plain', string> = { kev: '', plain: '' };

  const suite = useTestApp({ env: { SCANWARD_KEV_FILE: KEV_FILE } });
  beforeAll(async () => {
    const tenant = await factory.tenant(suite.app, { plan: 'professional' });
    api = tenant.api;
    const medium = { severity: 'medium' as const, category: 'known-vulnerability' };
    await runScan(suite.db, tenant.orgId, [
      detection({ ...medium, check_id: 'kev-log4shell', cve_ids: ['CVE-2021-44228'] }),
      detection({ ...medium, check_id: 'kev-unlisted', cve_ids: ['CVE-2099-0001'] }),
    ]);
    for (const key of ['kev', 'plain'] as const) {
      const checkId = key === 'kev' ? 'kev-log4shell' : 'kev-unlisted';
      const query = { template_id: checkId };
      ids[key] = okBody(await api.call(listFindingsRoute, { query }), 200).items[0]!.id;
    }
  });

  const analysis = async (findingId: string) =>
    okBody(await api.call(getFindingAiAnalysisRoute, { params: { finding_id: findingId } }), 200).ai_analysis;

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
