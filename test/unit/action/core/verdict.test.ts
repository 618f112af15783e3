import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../../action/core/errors.ts';
import {
  countOpenFindings,
  evaluateGate,
  gateFindings,
  severitiesAtOrAbove,
} from '../../../../action/core/gate.ts';
import { judge } from '../../../../action/core/verdict.ts';
import {
  LINKS,
  POLICY,
  TOOL,
  completedVerdict,
  finding,
  scanRecord,
} from '../../../fixtures/action-verdicts.ts';

describe('the severity gate', () => {
  const counts = { critical: 0, high: 2, medium: 1, low: 0, info: 4 };

  it('fails on findings at or above fail-on and names them', () => {
    const gate = evaluateGate(counts, 'medium');
    expect(gate.failed).toBe(true);
    expect(gate.message).toBe(
      'Scanward found 2 high, 1 medium finding(s) at or above the fail-on threshold (medium). ' +
        'All findings: 0 critical, 2 high, 1 medium, 0 low, 4 info.',
    );
  });

  it('passes when everything is below fail-on, and never fails with none', () => {
    expect(evaluateGate(counts, 'critical').failed).toBe(false);
    expect(evaluateGate(counts, 'none').failed).toBe(false);
    expect(evaluateGate(counts, 'info').failed).toBe(true);
    expect(severitiesAtOrAbove('high')).toEqual(['critical', 'high']);
    expect(severitiesAtOrAbove('none')).toEqual([]);
  });

  it('does not count findings triaged as false positive or accepted', () => {
    const { counts: open, ignored } = countOpenFindings([
      finding({ severity: 'critical', status: 'accepted' }),
      finding({ severity: 'critical', status: 'false_positive' }),
      finding({ severity: 'critical', status: 'in_progress' }),
      finding({ severity: 'high', status: 'resolved' }),
    ]);
    expect(open).toEqual({ critical: 1, high: 1, medium: 0, low: 0, info: 0 });
    expect(ignored).toBe(2);
  });
});

describe('the gate on what changed', () => {
  const findings = [
    finding({ id: 'a', severity: 'critical', change: 'unchanged' }),
    finding({ id: 'b', severity: 'high', change: 'reopened' }),
    finding({ id: 'c', severity: 'medium' }),
    finding({ id: 'd', severity: 'critical', status: 'accepted' }),
    finding({ id: 'e', severity: 'low' }),
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
    const gate = gateFindings(
      [finding({ id: 'a', severity: 'critical', change: 'unchanged' })],
      'high',
      'new',
    );
    expect(gate).toMatchObject({ failed: false, failing: [] });
    expect(gate.message).toBe('No new findings at or above the fail-on threshold (high).');
  });
});

describe('the verdict', () => {
  const findings = [
    finding({ id: 'a', severity: 'critical', change: 'unchanged' }),
    finding({ id: 'b', severity: 'high', change: 'reopened' }),
    finding({ id: 'c', severity: 'medium' }),
    finding({ id: 'd', severity: 'critical', status: 'accepted' }),
    finding({ id: 'e', severity: 'low' }),
  ];

  it('reports from report-severity up, most severe first, independently of fail-on', () => {
    const verdict = completedVerdict(findings, { failOn: 'critical', reportSeverity: 'high' });
    expect(verdict.reported.map((f) => f.id)).toEqual(['a', 'd', 'b']);
    expect(verdict.newFindings.map((f) => f.id)).toEqual(['b']);
    expect(verdict.gate.failing.map((f) => f.id)).toEqual(['a']);
    expect(verdict.passed).toBe(false);
  });

  it('passes when the gate passes, and carries the scan, its links and the tool along', () => {
    const verdict = completedVerdict(findings, { failOn: 'critical', mode: 'new' });
    expect(verdict).toMatchObject({ kind: 'completed', passed: true, links: LINKS, tool: TOOL });
    expect(verdict.scan.id).toBe('scan_abc');
    expect(verdict.policy).toEqual({ ...POLICY, failOn: 'critical', mode: 'new' });
  });

  it('refuses gate: new when the service does not say which findings are new', () => {
    const old = [finding({ severity: 'high', change: undefined })];
    const finished = {
      kind: 'completed' as const,
      scan: scanRecord(old),
      links: LINKS,
      tool: TOOL,
      findings: old,
    };
    expect(() => judge(finished, { ...POLICY, mode: 'new' })).toThrow(ConfigurationError);
    expect(() => judge(finished, { ...POLICY, mode: 'new' })).toThrow(/does not say which findings are new/);
    expect(judge(finished, POLICY).kind).toBe('completed');
  });

  it('never passes a scan that did not complete, and keeps how long it was given', () => {
    const verdict = judge(
      {
        kind: 'unsuccessful',
        scan: scanRecord([], { status: 'cancelled' }),
        links: LINKS,
        timedOut: true,
        timeoutMs: 60_000,
      },
      { ...POLICY, failOn: 'none' },
    );
    expect(verdict).toMatchObject({ kind: 'unsuccessful', passed: false, timedOut: true, timeoutMs: 60_000 });
  });
});
