import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../../action/core/scan.ts';
import {
  buildSarif,
  locationPath,
  ruleIdOf,
  sarifReport,
  securityScore,
  type SarifOptions,
} from '../../../../action/reports/sarif.ts';
import { LINKS, completedVerdict, finding as verdictFinding } from '../../../fixtures/action-verdicts.ts';

const OPTIONS: SarifOptions = {
  scanId: 'scan_abc',
  target: 'app.example.com',
  scanType: 'quick',
  toolVersion: '1.2.3',
  informationUri: 'https://scanward.example.com/docs',
};

let n = 0;
function finding(overrides: Partial<Finding> = {}): Finding {
  n += 1;
  return {
    id: `finding_${n}`,
    title: `Weakness ${n}`,
    severity: 'medium',
    cvss_score: 5.3,
    status: 'open',
    tool: 'nuclei',
    affected_component: 'https://app.example.com:443/',
    description: 'What is wrong',
    remediation: 'Fix it',
    cve_ids: [],
    template_id: `check-${n}`,
    cwe_ids: [],
    ...overrides,
  };
}

describe('SARIF from findings', () => {
  it('is SARIF 2.1.0 with one Scanward run categorised by target', () => {
    const { log } = buildSarif([], OPTIONS);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.tool.driver).toMatchObject({
      name: 'Scanward',
      version: '1.2.3',
      semanticVersion: '1.2.3',
    });
    expect(log.runs[0]!.automationDetails.id).toBe('scanward/app.example.com/scan_abc');
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('makes one rule per template id and one result per finding, most severe first', () => {
    const findings = [
      finding({ template_id: 'tls-weak', severity: 'low', cvss_score: 3.7 }),
      finding({
        template_id: 'tls-weak',
        severity: 'high',
        cvss_score: 7.4,
        affected_component: 'https://b.example.com:443/',
      }),
      finding({ template_id: 'redis-no-auth', severity: 'critical', cvss_score: 9.8 }),
    ];
    const { log } = buildSarif(findings, OPTIONS);
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['redis-no-auth', 'tls-weak']);
    expect(run.results.map((r) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ['redis-no-auth', 0, 'error'],
      ['tls-weak', 1, 'error'],
      ['tls-weak', 1, 'note'],
    ]);
    // The rule carries the highest score of its findings and its most severe level.
    const tls = run.tool.driver.rules[1]!;
    expect(tls.properties['security-severity']).toBe('7.4');
    expect(tls.defaultConfiguration.level).toBe('error');
    expect(tls.name).toBe('TlsWeak');
  });

  it('maps severity to SARIF levels', () => {
    const levels = (['critical', 'high', 'medium', 'low', 'info'] as const).map(
      (severity) => buildSarif([finding({ severity })], OPTIONS).log.runs[0]!.results[0]!.level,
    );
    expect(levels).toEqual(['error', 'error', 'warning', 'note', 'note']);
  });

  it('writes rule texts from the title, description and remediation, as sentences', () => {
    const { log } = buildSarif(
      [
        finding({
          title: 'Log4Shell',
          description: 'JNDI lookups run attacker code',
          remediation: 'Upgrade log4j-core to 2.17.1',
          cve_ids: ['CVE-2021-44228'],
          cwe_ids: ['CWE-502'],
        }),
      ],
      OPTIONS,
    );
    const rule = log.runs[0]!.tool.driver.rules[0]!;
    expect(rule.shortDescription.text).toBe('Log4Shell.');
    expect(rule.fullDescription.text).toBe('JNDI lookups run attacker code.');
    expect(rule.help.text).toBe(
      'Remediation: Upgrade log4j-core to 2.17.1.\nCVE: CVE-2021-44228.\nCWE: CWE-502.',
    );
    expect(rule.help.markdown).toContain('[CVE-2021-44228](https://nvd.nist.gov/vuln/detail/CVE-2021-44228)');
    expect(rule.help.markdown).toContain('[CWE-502](https://cwe.mitre.org/data/definitions/502.html)');
  });

  it('tags rules for filtering, within the ten tags GitHub shows', () => {
    const { log } = buildSarif(
      [finding({ cwe_ids: ['CWE-79', 'CWE-89'], frameworks: ['pci-dss', 'soc2'], tool: 'nuclei' })],
      OPTIONS,
    );
    expect(log.runs[0]!.tool.driver.rules[0]!.properties.tags).toEqual([
      'security',
      'scanward',
      'external/cwe/cwe-079',
      'external/cwe/cwe-089',
      'compliance/pci-dss',
      'compliance/soc2',
      'tool/nuclei',
    ]);
    const many = buildSarif(
      [finding({ cwe_ids: Array.from({ length: 20 }, (_, i) => `CWE-${i + 1}`) })],
      OPTIONS,
    );
    expect(many.log.runs[0]!.tool.driver.rules[0]!.properties.tags).toHaveLength(10);
  });

  it('gives GitHub a security severity inside the finding severity band when there is no CVSS score', () => {
    expect(securityScore(finding({ severity: 'high', cvss_score: 0 }))).toBe(8);
    expect(securityScore(finding({ severity: 'critical', cvss_score: null }))).toBe(9.5);
    expect(securityScore(finding({ severity: 'medium', cvss_score: 6.1 }))).toBe(6.1);
    const info = buildSarif([finding({ severity: 'info', cvss_score: 0 })], OPTIONS).log.runs[0]!.tool.driver
      .rules[0]!;
    expect(info.properties['security-severity']).toBeUndefined();
    expect(info.properties['problem.severity']).toBe('recommendation');
  });

  it('fingerprints results by finding id, so GitHub tracks the same finding across runs', () => {
    const first = buildSarif([finding({ id: 'finding_same', title: 'Old title' })], OPTIONS).log.runs[0]!
      .results[0]!;
    const later = buildSarif([finding({ id: 'finding_same', title: 'New title', cvss_score: 9 })], {
      ...OPTIONS,
      scanId: 'scan_later',
    }).log.runs[0]!.results[0]!;
    const other = buildSarif([finding({ id: 'finding_other' })], OPTIONS).log.runs[0]!.results[0]!;
    expect(first.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:1$/);
    expect(later.partialFingerprints.primaryLocationLineHash).toBe(
      first.partialFingerprints.primaryLocationLineHash,
    );
    expect(other.partialFingerprints.primaryLocationLineHash).not.toBe(
      first.partialFingerprints.primaryLocationLineHash,
    );
    expect(first.partialFingerprints['scanwardFindingId/v1']).toBe('finding_same');
  });

  it('places each result on a repository-relative path naming the component, never a URI with a scheme', () => {
    const { log } = buildSarif([finding({ affected_component: 'redis://10.0.0.5:6379' })], OPTIONS);
    const location = log.runs[0]!.results[0]!.locations[0]!;
    expect(location.physicalLocation.artifactLocation).toEqual({
      uri: 'scanward/10.0.0.5/redis-6379',
      uriBaseId: '%SRCROOT%',
    });
    expect(location.physicalLocation.region).toEqual({
      startLine: 1,
      startColumn: 1,
      endLine: 1,
      endColumn: 2,
    });
    expect(location.message.text).toBe('Network location redis://10.0.0.5:6379.');
  });

  it('leaves out findings triaged as false positive or accepted', () => {
    const { log, triaged } = buildSarif(
      [
        finding({ status: 'false_positive' }),
        finding({ status: 'accepted' }),
        finding({ status: 'in_progress' }),
      ],
      OPTIONS,
    );
    expect(log.runs[0]!.results).toHaveLength(1);
    expect(triaged).toBe(2);
  });

  it('says what a result is, where, and how bad, in its message', () => {
    const { log } = buildSarif(
      [finding({ title: 'Log4Shell.', severity: 'critical', cvss_score: 10, cve_ids: ['CVE-2021-44228'] })],
      OPTIONS,
    );
    expect(log.runs[0]!.results[0]!.message.text).toBe(
      'Log4Shell (CVE-2021-44228) on https://app.example.com:443/. Severity critical, CVSS 10.0.',
    );
  });

  it('names rules after the title when the template id is unknown', () => {
    expect(ruleIdOf(finding({ template_id: undefined, title: 'TLS 1.0 enabled!' }))).toBe(
      'scanward/tls-1-0-enabled',
    );
    expect(ruleIdOf(finding({ template_id: '  ', title: '***' }))).toBe('scanward/finding');
  });
});

describe('SARIF from a verdict', () => {
  it('describes the scan, the tool and the repository, and holds the reported findings not triaged away', () => {
    const findings = [
      verdictFinding({ severity: 'high' }),
      verdictFinding({ severity: 'low', status: 'accepted' }),
      verdictFinding({ severity: 'info' }),
    ];
    const verdict = completedVerdict(findings, { reportSeverity: 'low' });
    const report = sarifReport(verdict, {
      repository: {
        uri: 'https://github.com/octo/shop',
        revisionId: 'a'.repeat(40),
        branch: 'refs/heads/main',
      },
    });
    const run = report.log.runs[0]!;
    expect(run.tool.driver).toMatchObject({
      version: '1.2.3',
      informationUri: 'https://scanward.example.com/docs',
    });
    expect(run.properties).toEqual({
      scanId: 'scan_abc',
      target: 'app.example.com',
      scanType: 'full',
      scanUrl: LINKS.scanUrl,
    });
    expect(run.invocations[0]).toMatchObject({
      startTimeUtc: '2026-01-01T10:00:00.000Z',
      endTimeUtc: '2026-01-01T10:42:05.000Z',
    });
    expect(run.versionControlProvenance?.[0]).toMatchObject({
      repositoryUri: 'https://github.com/octo/shop',
      branch: 'refs/heads/main',
    });
    // report-severity low: the info finding is not reported; the accepted one is left out.
    expect(run.results.map((r) => r.properties.findingId)).toEqual([findings[0]!.id]);
    expect(report.triaged).toBe(1);
    expect(JSON.parse(report.text)).toEqual(report.log);
    expect(report.warnings).toEqual([]);
  });

  it('says how many findings GitHub would not take', () => {
    const many = Array.from({ length: 25_002 }, (_, i) =>
      verdictFinding({ id: `f${i}`, severity: 'info', template_id: 'same' }),
    );
    const report = sarifReport(completedVerdict(many, { failOn: 'none' }));
    expect(report.log.runs[0]!.results).toHaveLength(25_000);
    expect(report.warnings).toEqual([
      '2 finding(s) left out of the SARIF file: GitHub accepts at most 25,000 results.',
    ]);
  });
});

describe('SARIF locations of network findings', () => {
  it.each([
    ['https://app.example.com:443/admin/login?x=1#top', 'scanward/app.example.com/https-443/admin/login'],
    ['https://app.example.com/', 'scanward/app.example.com/https-443'],
    ['http://app.example.com:8080/a%20b/../c', 'scanward/app.example.com/http-8080/c'],
    ['redis://[2001:db8::1]:6379', 'scanward/2001_db8__1/redis-6379'],
    ['tcp://10.0.0.5:22', 'scanward/10.0.0.5/tcp-22'],
    ['postgresql://db.internal.example:5432', 'scanward/db.internal.example/postgresql-5432'],
    ['not a url', 'scanward/app.example.com/not_a_url'],
  ])('%s → %s', (component, path) => {
    expect(locationPath(component, 'app.example.com')).toBe(path);
  });

  it('keeps paths short and free of traversal segments', () => {
    const long = `https://h.example.com/${Array.from({ length: 20 }, () => 'x'.repeat(100)).join('/')}`;
    const path = locationPath(long, 'h.example.com');
    expect(path.split('/')).toHaveLength(3 + 8);
    expect(path.split('/').every((s) => s.length <= 64)).toBe(true);
    expect(locationPath('https://h.example.com/%2e%2e/%2e/etc', 'h')).toBe(
      'scanward/h.example.com/https-443/etc',
    );
  });
});
