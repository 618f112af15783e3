import { describe, expect, it } from 'vitest';
import { renderJUnit, xml } from '../../../action/junit.ts';
import { commentMarker, renderComment } from '../../../action/pr-comment.ts';
import type { Finding } from '../../../action/responses.ts';
import { judge } from '../../../action/scan-flow.ts';
import { gateFindings } from '../../../action/threshold.ts';

function finding(id: string, severity: Finding['severity'], overrides: Partial<Finding> = {}): Finding {
  return {
    id,
    title: `Weakness ${id}`,
    severity,
    cvss_score: { critical: 9.8, high: 7.5, medium: 5, low: 3, info: 0 }[severity],
    status: 'open',
    tool: 'scanward',
    affected_component: `tcp://127.0.0.1:${id.length}`,
    description: 'What is wrong.',
    remediation: 'Fix it.',
    cve_ids: [],
    change: 'new',
    ...overrides,
  };
}

describe('the gate on what changed', () => {
  const findings = [
    finding('a', 'critical', { change: 'unchanged' }),
    finding('b', 'high', { change: 'reopened' }),
    finding('c', 'medium'),
    finding('d', 'critical', { status: 'accepted' }),
    finding('e', 'low'),
  ];

  it('counts only new and reopened open findings with gate: new, listing those that failed it', () => {
    const gate = gateFindings(findings, 'medium', 'new');
    expect(gate.counts).toEqual({ critical: 0, high: 1, medium: 1, low: 1, info: 0 });
    expect(gate.ignored).toBe(1);
    expect(gate.failing.map((f) => f.id)).toEqual(['b', 'c']);
    expect(gate.message).toContain('new finding(s) at or above the fail-on threshold (medium)');
  });

  it('counts every open finding with gate: all', () => {
    const gate = gateFindings(findings, 'critical', 'all');
    expect(gate.failing.map((f) => f.id)).toEqual(['a']);
  });

  it('passes gate: new when only known findings reach fail-on', () => {
    const gate = gateFindings([finding('a', 'critical', { change: 'unchanged' })], 'high', 'new');
    expect(gate).toMatchObject({ failed: false, failing: [] });
    expect(gate.message).toBe('No new findings at or above the fail-on threshold (high).');
  });

  it('reports from report-severity up, independently of fail-on', () => {
    const verdict = judge(findings, { failOn: 'critical', gate: 'all', reportSeverity: 'high' });
    expect(verdict.reported.map((f) => f.id)).toEqual(['a', 'd', 'b']);
    expect(verdict.newFindings.map((f) => f.id)).toEqual(['b']);
    expect(verdict.gate.failing.map((f) => f.id)).toEqual(['a']);
  });
});

describe('the JUnit report', () => {
  it('has one test case per finding: failed at the gate, skipped when triaged away, passed otherwise', () => {
    const findings = [
      finding('a', 'critical', { title: 'Bad <thing> & "quotes"' }),
      finding('b', 'high', { status: 'false_positive' }),
      finding('c', 'low'),
    ];
    const text = renderJUnit({
      scanId: 'scan_1',
      target: '127.0.0.1',
      scanUrl: 'http://127.0.0.1/api/v1/scans/scan_1',
      findings,
      gate: gateFindings(findings, 'high', 'all'),
      findingUrl: (id) => `http://127.0.0.1/api/v1/findings/${id}`,
    });
    expect(text).toContain('<testsuites name="Scanward" tests="3" failures="1" errors="0" skipped="1"');
    expect(text).toContain(
      'name="[critical] Bad &lt;thing&gt; &amp; &quot;quotes&quot; on tcp://127.0.0.1:1"',
    );
    expect(text).toContain('<skipped message="triaged as false_positive"/>');
    expect(text.match(/<failure /g)).toHaveLength(1);
  });

  it('drops characters XML cannot carry', () => {
    expect(xml('a\u0000b\u001bc\td')).toBe('abc\td');
  });
});

describe('the pull request comment', () => {
  const input = {
    target: 'app.example.com',
    scanId: 'scan_1',
    scanUrl: 'https://scanward.example.com/api/v1/scans/scan_1',
    gate: gateFindings([], 'high', 'new'),
    findingUrl: (id: string) => `https://scanward.example.com/api/v1/findings/${id}`,
  };

  it('starts with the marker of its target and lists new findings with links, escaped', () => {
    const body = renderComment({
      ...input,
      newFindings: [finding('a', 'high', { title: 'Pipe | and <b>', change: 'reopened' })],
    });
    expect(body.split('\n')[0]).toBe(commentMarker('app.example.com'));
    expect(body).toContain('Pipe \\| and &lt;b&gt; (reopened)');
    expect(body).toContain('[details](https://scanward.example.com/api/v1/findings/a)');
    expect(commentMarker('other.example.com')).not.toBe(commentMarker('app.example.com'));
  });

  it('says when there is nothing new, and cuts a long list', () => {
    expect(renderComment({ ...input, newFindings: [] })).toContain('No new findings in this scan.');
    const many = Array.from({ length: 30 }, (_, i) => finding(`f${i}`, 'low'));
    expect(renderComment({ ...input, newFindings: many })).toContain('…and 5 more.');
  });
});
