import { describe, expect, it } from 'vitest';
import { localFindings } from '../../../server/local-scan/findings.ts';
import { normalizeDetections, scoreOf, type FindingDetection } from '../../../server/findings/normalize.ts';
import type { Detection } from '../../../server/scanner/types.ts';

const base = (overrides: Partial<FindingDetection> = {}): FindingDetection => ({
  check_id: 'redis-unauthenticated',
  title: 'Redis accepts commands without authentication',
  severity: 'critical',
  cvss_vector: null,
  target: '127.0.0.1',
  affected_component: 'redis://127.0.0.1:6379',
  port: 6379,
  tool: 'scanward-probe',
  cve_ids: [' cve-2021-0001 '],
  cwe_ids: ['CWE-306'],
  description: 'Redis answered PING.',
  impact: 'Anyone can read and write the data.',
  evidence: { request: 'PING', response: '+PONG' },
  ...overrides,
});

describe('normalizeDetections: the one normalisation of every source', () => {
  it('scores from the vector, else the stated score, else 0.0 (no score)', () => {
    expect(scoreOf({ cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', cvss_score: 1 })).toEqual({
      score: 9.8,
      vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    });
    expect(scoreOf({ cvss_vector: 'not a vector', cvss_score: 7.5 })).toEqual({ score: 7.5, vector: null });
    expect(scoreOf({ cvss_vector: null, cvss_score: 11 })).toEqual({ score: 0, vector: null });
    expect(scoreOf({})).toEqual({ score: 0, vector: null });
  });

  it('keys an upstream template id as its check, merges one fingerprint keeping the more severe, and tidies CVE ids', () => {
    const { byFingerprint } = normalizeDetections('org_1', [
      base({ check_id: 'exposed-redis', severity: 'high' }),
      base({ upstream_ids: ['exposed-redis'] }),
    ]);
    expect(byFingerprint.size).toBe(1);
    const [only] = [...byFingerprint.values()];
    expect(only).toMatchObject({ checkId: 'redis-unauthenticated', severity: 'critical' });
    expect(only!.detection.cve_ids).toEqual(['CVE-2021-0001']);
  });

  it('refuses a detection without a known severity or a check', () => {
    expect(() => normalizeDetections('org_1', [base({ severity: 'severe' as never })])).toThrow(/severity/);
    expect(() => normalizeDetections('org_1', [base({ check_id: ' ' })])).toThrow(/check_id/);
  });

  it('is the local engine’s rule too: a stated score without a vector is kept, as the service keeps it', () => {
    const stated = base({ cvss_score: 7.5 }) as Detection;
    const [local] = localFindings([stated]);
    const [service] = normalizeDetections('org_1', [stated]).byFingerprint.values();
    expect(local!.cvss_score).toBe(7.5);
    expect(local!.cvss_score).toBe(service!.cvssScore);
    expect(local!.template_id).toBe(service!.checkId);
  });
});
