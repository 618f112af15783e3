import { describe, expect, it } from 'vitest';
import { MAX_ANNOTATIONS, annotations } from '../../../../action/reports/annotations.ts';
import { completedVerdict, finding, unsuccessfulVerdict } from '../../../fixtures/action-verdicts.ts';

describe('the annotations', () => {
  it('annotate each finding that failed the gate: errors for critical and high, warnings below', () => {
    const findings = [
      finding({
        id: 'h',
        severity: 'high',
        title: 'High one',
        affected_component: 'tcp://h:1',
        change: 'new',
      }),
      finding({
        id: 'm',
        severity: 'medium',
        title: 'Medium one',
        affected_component: 'tcp://h:2',
        change: 'reopened',
      }),
      finding({ id: 'l', severity: 'low', title: 'Below fail-on' }),
      finding({ id: 'k', severity: 'critical', title: 'Known', change: 'unchanged' }),
    ];
    expect(annotations(completedVerdict(findings, { failOn: 'medium', mode: 'new' }))).toEqual([
      {
        level: 'error',
        message: 'High one on tcp://h:1 (high, new, finding h)',
        title: 'Scanward: high finding',
      },
      {
        level: 'warning',
        message: 'Medium one on tcp://h:2 (medium, reopened, finding m)',
        title: 'Scanward: medium finding',
      },
    ]);
  });

  it('stop at ten, then say how many more', () => {
    const findings = Array.from({ length: 13 }, () => finding({ severity: 'high' }));
    const list = annotations(completedVerdict(findings));
    expect(list).toHaveLength(MAX_ANNOTATIONS + 1);
    expect(list[MAX_ANNOTATIONS]).toEqual({
      level: 'error',
      message: '…and 3 more finding(s) failed the gate; see the job summary.',
      title: 'Scanward',
    });
  });

  it('are none when the gate passed or the scan did not complete', () => {
    expect(annotations(completedVerdict([finding({ severity: 'critical' })], { failOn: 'none' }))).toEqual(
      [],
    );
    expect(annotations(unsuccessfulVerdict({ status: 'failed' }))).toEqual([]);
  });
});
