import { describe, expect, it } from 'vitest';
import { actionInputName, failureMessage, flagName } from '../../../../action/reports/messages.ts';
import { verdictOutputs } from '../../../../action/reports/outputs.ts';
import { renderText } from '../../../../action/reports/text.ts';
import { LINKS, completedVerdict, finding, unsuccessfulVerdict } from '../../../fixtures/action-verdicts.ts';

describe('the failure message', () => {
  it('is the gate message when the gate failed, and nothing when it passed', () => {
    const failed = completedVerdict([finding({ severity: 'critical' })]);
    expect(failureMessage(failed, actionInputName)).toBe(failed.gate.message);
    expect(failureMessage(completedVerdict([finding({ severity: 'low' })]), actionInputName)).toBeUndefined();
  });

  it('says how long a timed-out scan was given, naming the input as each front end spells it', () => {
    const verdict = unsuccessfulVerdict({ id: 'scan_slow', status: 'cancelled' }, true, 90_000);
    expect(failureMessage(verdict, actionInputName)).toBe(
      'Scanward scan scan_slow did not finish within timeout-minutes (1.5 min) and was cancelled. ' +
        'Raise timeout-minutes, or use a quicker scan-type (quick scans take 5-10 minutes, full scans 30-60).',
    );
    expect(failureMessage(verdict, flagName)).toContain('did not finish within --timeout-minutes (1.5 min)');
    expect(failureMessage(unsuccessfulVerdict({}, true, 30_000), flagName)).toContain('(30 s)');
  });

  it("gives a failed or cancelled scan's own reason", () => {
    expect(failureMessage(unsuccessfulVerdict({ status: 'failed', error: 'runner lost' }), flagName)).toBe(
      'Scanward scan scan_abc failed: runner lost.',
    );
    expect(
      failureMessage(unsuccessfulVerdict({ status: 'cancelled', message: 'Scan cancelled' }), flagName),
    ).toBe('Scanward scan scan_abc cancelled: Scan cancelled.');
  });
});

describe("scanward-ci's result lines", () => {
  it('give the scan, its counts, what is new, what failed (ten at most, with links) and the gate', () => {
    const findings = Array.from({ length: 12 }, (_, i) =>
      finding({
        id: `f${String(i).padStart(2, '0')}`,
        severity: 'high',
        title: `T${i}`,
        affected_component: `tcp://h:${i}`,
      }),
    );
    const text = renderText(completedVerdict(findings, { reportSeverity: 'medium' }));
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Scanward scan scan_abc of app.example.com: completed (0 critical, 12 high, 0 medium, 0 low, 0 info).',
    );
    expect(lines[1]).toBe('12 new finding(s) at or above medium.');
    expect(lines[2]).toBe(`  high: T0 on tcp://h:0 (${LINKS.findingUrl('f00')})`);
    expect(lines.filter((l) => l.startsWith('  high: '))).toHaveLength(10);
    expect(lines).toContain('  …and 2 more.');
    expect(lines.at(-2)).toContain('Scanward found 12 high finding(s)');
  });
});

describe("the Action's outputs", () => {
  it("are the scan's own counts and status, and how many findings are new", () => {
    const findings = [
      finding({ severity: 'critical', status: 'accepted' }),
      finding({ severity: 'low', change: 'unchanged' }),
      finding({ severity: 'info' }),
    ];
    expect(verdictOutputs(completedVerdict(findings))).toEqual({
      status: 'completed',
      'vulnerabilities-found': '2',
      'critical-count': '1',
      'high-count': '0',
      'medium-count': '0',
      'low-count': '1',
      'new-findings': '1',
    });
    expect(verdictOutputs(unsuccessfulVerdict({ status: 'failed' }))).not.toHaveProperty('new-findings');
  });
});
