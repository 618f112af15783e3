import { describe, expect, it } from 'vitest';
import { renderJUnit, xml } from '../../../../action/reports/junit.ts';
import { LINKS, completedVerdict, finding } from '../../../fixtures/action-verdicts.ts';

describe('the JUnit report', () => {
  it('has one test case per reported finding: failed at the gate, skipped when triaged away, passed otherwise', () => {
    const findings = [
      finding({
        id: 'a',
        severity: 'critical',
        title: 'Bad <thing> & "quotes"',
        affected_component: 'tcp://h:1',
      }),
      finding({ id: 'b', severity: 'high', status: 'false_positive' }),
      finding({ id: 'c', severity: 'low' }),
      finding({ id: 'd', severity: 'info' }),
    ];
    const text = renderJUnit(completedVerdict(findings, { failOn: 'high', reportSeverity: 'low' }));
    expect(text).toContain(
      '<testsuites name="Scanward" tests="3" failures="1" errors="0" skipped="1" time="2525.000">',
    );
    expect(text).toContain(
      '<testsuite name="Scanward scan of app.example.com" tests="3" failures="1" errors="0" skipped="1" time="2525.000" timestamp="2026-01-01T10:00:00.000Z">',
    );
    expect(text).toContain('name="[critical] Bad &lt;thing&gt; &amp; &quot;quotes&quot; on tcp://h:1"');
    expect(text).toContain('<failure message="critical finding at or above fail-on (high)" type="critical">');
    expect(text).toContain('<skipped message="triaged as false_positive"/>');
    expect(text.match(/<failure /g)).toHaveLength(1);
    expect(text).toContain(`Finding a: ${LINKS.findingUrl('a')}`);
  });

  it('carries the scan and the gate as suite properties', () => {
    const text = renderJUnit(completedVerdict([], { failOn: 'medium', mode: 'new' }));
    expect(text).toContain('<property name="scan_id" value="scan_abc"/>');
    expect(text).toContain(`<property name="scan_url" value="${LINKS.scanUrl}"/>`);
    expect(text).toContain('<property name="gate" value="new"/>');
    expect(text).toContain('<property name="fail_on" value="medium"/>');
    expect(text).toContain('tests="0" failures="0"');
  });

  it('fails only what the gate counted: with gate: new, a known critical passes', () => {
    const findings = [
      finding({ id: 'known', severity: 'critical', change: 'unchanged' }),
      finding({ id: 'fresh', severity: 'high', change: 'new' }),
    ];
    const text = renderJUnit(completedVerdict(findings, { mode: 'new' }));
    expect(text.match(/<failure /g)).toHaveLength(1);
    expect(text).toMatch(/<failure [^>]*>Finding fresh:/);
    expect(text).toMatch(/<system-out>Finding known:/);
  });

  it('drops characters XML cannot carry', () => {
    expect(xml('a\u0000b\u001bc\td')).toBe('abc\td');
  });
});
