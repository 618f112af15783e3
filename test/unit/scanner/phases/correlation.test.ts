import { describe, expect, it } from 'vitest';
import { completeDetection, correlate } from '../../../../server/scanner/phases/correlation.ts';
import type { Detection } from '../../../../server/scanner/types.ts';

const SERVICE = 'http://127.0.0.1:8080';

function detection(overrides: Partial<Detection>): Detection {
  return {
    check_id: 'x',
    title: 'x',
    severity: 'medium',
    target: '127.0.0.1',
    affected_component: SERVICE,
    port: 8080,
    tool: 'nuclei-template',
    cve_ids: [],
    cwe_ids: [],
    description: '',
    impact: '',
    evidence: { request: 'GET /', response: '200' },
    ...overrides,
  };
}

const proof = (cve = 'CVE-2021-41773') =>
  detection({
    check_id: cve,
    upstream_ids: [cve],
    title: 'Apache 2.4.49 - Path Traversal',
    severity: 'high',
    cve_ids: [cve],
    cwe_ids: ['CWE-22'],
    affected_component: `${SERVICE}/cgi-bin/.%2e/etc/passwd`,
    evidence: { request: 'GET /cgi-bin/.%2e/etc/passwd', response: 'root:x:0:0:' },
  });
const kev = () =>
  detection({
    check_id: 'CVE-2021-41773',
    upstream_ids: ['CVE-2021-41773'],
    title: 'CVE-2021-41773 (known exploited) in Apache HTTP Server 2.4.49',
    severity: 'high',
    tool: 'scanward-versions',
    cve_ids: ['CVE-2021-41773'],
    kev: true,
    evidence: { request: 'service identification (enumeration)', response: 'Server: Apache/2.4.49' },
  });
const vendor = () =>
  detection({
    check_id: 'CVE-2021-41773',
    upstream_ids: ['CVE-2021-41773'],
    title: 'CVE-2021-41773 in Apache HTTP Server 2.4.49: Path traversal',
    severity: 'critical',
    tool: 'scanward-versions',
    cve_ids: ['CVE-2021-41773'],
    cwe_ids: ['CWE-1395'],
    remediation: { summary: 'Upgrade to 2.4.50', steps: [], code_example: '', references: [] },
    evidence: {
      request: 'service identification (enumeration)',
      response: 'Server: Apache/2.4.49',
      established: 'inferred from version',
    },
  });

describe('correlate: one weakness, one finding', () => {
  it('folds a proof, a KEV match and a vendor match of one CVE into one confirmed finding on the service', () => {
    for (const order of [
      [proof(), kev(), vendor()],
      [vendor(), kev(), proof()],
    ]) {
      const [one, ...more] = correlate(order);
      expect(more).toEqual([]);
      expect(one).toMatchObject({
        check_id: 'CVE-2021-41773',
        affected_component: SERVICE,
        title: 'Apache 2.4.49 - Path Traversal',
        tool: 'nuclei-template',
        severity: 'critical',
        kev: true,
        cve_ids: ['CVE-2021-41773'],
        evidence: { request: 'GET /cgi-bin/.%2e/etc/passwd', established: 'confirmed' },
        remediation: { summary: 'Upgrade to 2.4.50' },
      });
      expect(one!.cwe_ids.sort()).toEqual(['CWE-1395', 'CWE-22']);
    }
  });

  it('version matches alone are inferred; the KEV match leads', () => {
    const [one, ...more] = correlate([vendor(), kev()]);
    expect(more).toEqual([]);
    expect(one).toMatchObject({ kev: true, evidence: { established: 'inferred from version' } });
    expect(one!.title).toContain('known exploited');
    expect(completeDetection(one!).epss_score).toBeGreaterThan(0.5);
  });

  it('keys a template naming a CVE by the CVE, and one folded into a built-in check by the check', () => {
    const knowledge = proof();
    knowledge.check_id = 'apache-path-traversal';
    const [byCve] = correlate([knowledge]);
    expect(byCve).toMatchObject({ check_id: 'CVE-2021-41773', affected_component: SERVICE });
    expect(byCve!.upstream_ids).toContain('apache-path-traversal');

    const builtIn = detection({ check_id: 'directory-listing', cve_ids: ['CVE-2000-0001'] });
    expect(correlate([builtIn])[0]).toMatchObject({ check_id: 'directory-listing' });
  });

  it('keeps different CVEs, services and targets apart', () => {
    const other = proof('CVE-2021-42013');
    const elsewhere = { ...kev(), affected_component: 'http://127.0.0.1:9090', port: 9090 };
    expect(correlate([proof(), other, elsewhere, kev()])).toHaveLength(3);
  });

  it('gives a finding without a CVE no EPSS score and every finding how it is established', () => {
    const done = completeDetection(correlate([detection({ check_id: 'directory-listing' })])[0]!);
    expect(done.epss_score).toBeNull();
    expect(done.evidence.established).toBe('confirmed');
  });
});
