import { describe, expect, it } from 'vitest';
import { analyzeFinding } from '../../../server/remediation/analysis.ts';
import type { FindingFacts } from '../../../server/remediation/finding-facts.ts';

const redis = (target: string, response: string): FindingFacts => ({
  title: 'Redis accepts commands without authentication',
  severity: 'critical',
  template_id: 'redis-unauthenticated',
  category: 'unauthenticated-access',
  cve_ids: [],
  cwe_ids: ['CWE-306'],
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  target,
  affected_component: `redis://${target}:6379`,
  tool: 'scanward-probe',
  evidence: { request: 'PING', response },
});

/** Any C0 control byte but tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- the test looks for control bytes
const CONTROL = new RegExp('[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]');

describe('the built-in analysis words', () => {
  it('calls a loopback target this host, never an internal network', () => {
    const text = analyzeFinding(redis('127.0.0.1', '+PONG')).risk_assessment;
    expect(text).toContain('on this host');
    expect(text).not.toMatch(/internal network/i);
    expect(analyzeFinding(redis('10.0.0.5', '+PONG')).risk_assessment).toMatch(/internal network/);
  });

  it('escapes control bytes of the evidence and summarises a binary answer instead of quoting it', () => {
    const escaped = analyzeFinding(
      redis('127.0.0.1', '+PONG redis_version:7.0.15\u0000\u0007'),
    ).risk_assessment;
    expect(escaped).toContain('redis_version:7.0.15\\x00\\x07');
    expect(escaped).not.toMatch(CONTROL);
    const binary = analyzeFinding(
      redis('127.0.0.1', '\u0000\u0001\u0002\u0003\u0004\u0005ab'),
    ).risk_assessment;
    expect(binary).toContain('a binary answer of 8 bytes');
    expect(binary).not.toMatch(CONTROL);
  });
});
