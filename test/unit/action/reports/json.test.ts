import { describe, expect, it } from 'vitest';
import { jsonReport } from '../../../../action/reports/json.ts';
import { completedVerdict, finding, unsuccessfulVerdict } from '../../../fixtures/action-verdicts.ts';

describe('the JSON report', () => {
  it('holds the scan, the gate, the reported findings and which are new or failing', () => {
    const findings = [
      finding({ id: 'a', severity: 'critical', change: 'unchanged' }),
      finding({ id: 'b', severity: 'high', change: 'new' }),
      finding({ id: 'c', severity: 'low', change: 'reopened' }),
      finding({ id: 'd', severity: 'info', change: 'new' }),
    ];
    const verdict = completedVerdict(findings, { failOn: 'high', mode: 'all', reportSeverity: 'low' });
    const report = JSON.parse(jsonReport(verdict)) as Record<string, unknown>;
    expect(report).toEqual({
      scan: verdict.scan,
      gate: {
        mode: 'all',
        fail_on: 'high',
        failed: true,
        counts: { critical: 1, high: 1, medium: 0, low: 1, info: 1 },
        message: verdict.gate.message,
      },
      new_finding_ids: ['b', 'c'],
      failing_finding_ids: ['a', 'b'],
      findings: JSON.parse(JSON.stringify(verdict.reported)),
    });
    expect((report.findings as Array<{ id: string }>).map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('holds the scan and whether it timed out when it did not complete', () => {
    const verdict = unsuccessfulVerdict({ status: 'cancelled' }, true);
    expect(JSON.parse(jsonReport(verdict))).toEqual({ scan: verdict.scan, timed_out: true });
  });
});
