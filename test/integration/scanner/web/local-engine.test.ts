import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalScanReport } from '../../../../server/schemas/local-scan.ts';
import { runLocalScan } from '../../../../server/local-scan/run-local-scan.ts';
import { LAB_PASSWORD, LAB_USER, startWebLab, type WebLab } from '../../../fixtures/web-lab.ts';

/**
 * The same lab through the local engine (server/local-scan/, what `scanward-ci scan --local`
 * and the Action's `mode: local` run): `web` in the request reaches the attack checks.
 */
describe('web testing through the local engine', () => {
  let lab: WebLab;
  let report: LocalScanReport;
  let logged: string[];

  beforeAll(async () => {
    lab = await startWebLab();
    logged = [];
    report = await runLocalScan({
      target: lab.url,
      scanType: 'full',
      log: (line) => logged.push(line),
      web: {
        active: true,
        authentication: {
          type: 'form',
          login_url: `${lab.url}/login`,
          username: LAB_USER,
          password: LAB_PASSWORD,
        },
        exclude_paths: ['/excluded', '/admin/*/delete-me'],
      },
    });
  }, 180_000);
  afterAll(async () => {
    await lab?.close();
  });

  it('reports each weakness class of the lab once, and nothing on the fixed variants', () => {
    const web = report.findings.filter((f) => f.template_id.startsWith('web-'));
    const vulnerable = web.filter((f) => f.affected_component.includes('/vuln'));
    expect(vulnerable.map((f) => f.template_id).sort()).toEqual(
      [
        'web-command-injection',
        'web-command-injection',
        'web-csrf',
        'web-open-redirect',
        'web-path-traversal',
        'web-sql-injection',
        'web-sql-injection',
        'web-template-injection',
        'web-xss-reflected',
        'web-xss-stored',
      ].sort(),
    );
    expect(web.filter((f) => f.affected_component.includes('/fixed'))).toEqual([]);
    for (const f of vulnerable) expect(f.evidence.request.length).toBeGreaterThan(0);
  });

  it('keeps the password and the session cookie out of the report and the log', () => {
    const text = JSON.stringify(report) + logged.join('\n');
    expect(text).not.toContain(LAB_PASSWORD);
    expect(text).not.toContain(encodeURIComponent(LAB_PASSWORD));
    expect(text).not.toMatch(/labsid=[a-f0-9]/);
    expect(lab.requests.filter((r) => r.path.startsWith('/logout'))).toEqual([]);
    expect(lab.elsewhere).toEqual([]);
  });

  it('runs no attack check without web.active', async () => {
    const passive = await runLocalScan({
      target: lab.url,
      scanType: 'full',
      web: { active: false, exclude_paths: [] },
    });
    expect(passive.findings.filter((f) => f.template_id.startsWith('web-'))).toEqual([]);
  }, 120_000);
});
