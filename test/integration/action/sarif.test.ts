import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../../action/core/scan.ts';
import { sarifReport } from '../../../action/reports/sarif.ts';
import { completedVerdict } from '../../fixtures/action-verdicts.ts';
import { multitool, validateSarif } from '../../helpers/sarif-multitool.ts';

/**
 * The SARIF the Action uploads (built from a verdict, as the Action and scanward-ci build it), checked by Microsoft's SARIF Multitool with the
 * GitHub ingestion rules and the SARIF rules (`validate --rule-kind "Gh;Sarif"`),
 * the validator GitHub's documentation points to. The tool is a .NET binary
 * shipped in the npm package @microsoft/sarif-multitool; it is not a project
 * dependency. Point SARIF_MULTITOOL at it, e.g.
 *   SARIF_MULTITOOL=/tmp/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
 * (docs/github-action.md says how to install it). Without it the test skips.
 */

if (!multitool) {
  console.warn(
    'action-sarif: SARIF_MULTITOOL is not set (or does not exist); skipping the SARIF Multitool validation. ' +
      'See docs/github-action.md, "Validating the SARIF".',
  );
}

function finding(overrides: Partial<Finding> & Pick<Finding, 'id' | 'severity'>): Finding {
  return {
    title: 'A weakness',
    cvss_score: 5,
    status: 'open',
    tool: 'nuclei',
    affected_component: 'https://app.example.com:443/',
    description: 'What is wrong.',
    remediation: 'How to fix it.',
    cve_ids: [],
    cwe_ids: [],
    template_id: 'a-check',
    ...overrides,
  };
}

/** Findings that exercise every branch of the mapping: kinds of component, missing data, long text. */
const FINDINGS: Finding[] = [
  finding({
    id: 'finding_log4j',
    severity: 'critical',
    title: 'Apache Log4j RCE',
    cvss_score: 10,
    cve_ids: ['CVE-2021-44228'],
    cwe_ids: ['CWE-502', 'CWE-917'],
    template_id: 'CVE-2021-44228',
    affected_component: 'https://app.example.com:8443/api/v1/login?user=admin#frag',
    frameworks: ['pci-dss', 'soc2'],
  }),
  finding({
    id: 'finding_redis',
    severity: 'high',
    title: 'Redis without authentication',
    cvss_score: 0,
    template_id: 'redis-no-auth',
    affected_component: 'redis://[2001:db8::5]:6379',
    remediation: null,
    description: 'x'.repeat(3000),
  }),
  finding({
    id: 'finding_tls',
    severity: 'medium',
    title: 'TLS 1.0 enabled <script>alert(1)</script>',
    template_id: undefined,
    affected_component: 'not a url | with pipes',
  }),
  finding({
    id: 'finding_port',
    severity: 'info',
    title: 'Open port',
    cvss_score: 0,
    affected_component: 'tcp://app.example.com:22',
  }),
  finding({
    id: 'finding_hsts',
    severity: 'low',
    title: 'Missing HSTS.',
    cvss_score: 3.1,
    template_id: 'http-missing-hsts',
  }),
];

describe.skipIf(!multitool)('SARIF validation with the SARIF Multitool', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanward-sarif-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const validate = (name: string, sarif: unknown) => validateSarif(dir, name, JSON.stringify(sarif, null, 2));

  it('raises no error or warning, GitHub rules included, for a scan with findings', async () => {
    const verdict = completedVerdict(
      FINDINGS,
      { failOn: 'none' },
      {
        id: 'scan_0123456789abcdef',
        target: 'app.example.com',
        scan_type: 'full',
        started_at: '2026-01-01T00:00:00.000Z',
        completed_at: '2026-01-01T00:40:00.000Z',
      },
    );
    const { log } = sarifReport(verdict, {
      repository: {
        uri: 'https://github.com/octo/shop',
        revisionId: 'a'.repeat(40),
        branch: 'refs/heads/main',
      },
    });
    expect(log.runs[0]!.results).toHaveLength(FINDINGS.length);
    const { problems, stdout } = await validate('findings', log);
    expect(problems, stdout).toEqual([]);
  });

  it('raises no error or warning for a scan without findings', async () => {
    const { log } = sarifReport(
      completedVerdict([], {}, { id: 'scan_empty', target: '192.0.2.0/28', scan_type: 'quick' }),
    );
    const { problems, stdout } = await validate('empty', log);
    expect(problems, stdout).toEqual([]);
  });

  it('does report a SARIF file that breaks a GitHub rule (the check can fail)', async () => {
    const { log } = sarifReport(completedVerdict(FINDINGS.slice(0, 1), {}, { id: 'scan_bad' }));
    log.runs[0]!.tool.driver.rules[0]!.shortDescription.text = '';
    const { problems } = await validate('broken', log);
    expect(problems.some((p) => p.startsWith('GH'))).toBe(true);
  });
});
