import { describe, expect, it } from 'vitest';
import { annotations } from '../../../../action/reports/annotations.ts';
import { renderComment } from '../../../../action/reports/comment.ts';
import { jsonReport } from '../../../../action/reports/json.ts';
import { renderJUnit } from '../../../../action/reports/junit.ts';
import { verdictOutputs } from '../../../../action/reports/outputs.ts';
import { sarifReport } from '../../../../action/reports/sarif.ts';
import { renderSummary } from '../../../../action/reports/summary.ts';
import { renderText } from '../../../../action/reports/text.ts';
import { completedVerdict, finding } from '../../../fixtures/action-verdicts.ts';

/**
 * Every report is built from the same verdict, so they cannot disagree: the findings that
 * failed the gate are the JUnit failures, the JSON's failing ids, the annotations and the
 * result lines; the new ones are the comment's list, the JSON's new ids and the output.
 */
describe('one verdict, every report', () => {
  const findings = [
    finding({ id: 'crit-known', severity: 'critical', change: 'unchanged', title: 'Known critical' }),
    finding({ id: 'high-new', severity: 'high', change: 'new', title: 'New high' }),
    finding({ id: 'med-reopened', severity: 'medium', change: 'reopened', title: 'Reopened medium' }),
    finding({
      id: 'high-accepted',
      severity: 'high',
      change: 'new',
      status: 'accepted',
      title: 'Accepted high',
    }),
    finding({ id: 'low-new', severity: 'low', change: 'new', title: 'New low' }),
    finding({ id: 'info-new', severity: 'info', change: 'new', title: 'New info' }),
  ];
  const verdict = completedVerdict(findings, { failOn: 'medium', mode: 'new', reportSeverity: 'low' });

  it('agree on which findings failed the gate', () => {
    const failing = ['high-new', 'med-reopened'];
    expect(verdict.gate.failing.map((f) => f.id)).toEqual(failing);

    const json = JSON.parse(jsonReport(verdict)) as { failing_finding_ids: string[] };
    expect(json.failing_finding_ids).toEqual(failing);

    const junit = renderJUnit(verdict);
    expect(junit.match(/<failure /g)).toHaveLength(failing.length);
    for (const id of failing) expect(junit).toMatch(new RegExp(`<failure [^>]*>Finding ${id}:`));

    const annotated = annotations(verdict).map((a) => /finding ([\w-]+)\)$/.exec(a.message)?.[1]);
    expect(annotated).toEqual(failing);

    const text = renderText(verdict);
    expect(text.split('\n').filter((l) => l.startsWith('  ')).length).toBe(failing.length);
  });

  it('agree on which findings are new, and what is reported at all', () => {
    const fresh = ['high-new', 'med-reopened', 'low-new'];
    const json = JSON.parse(jsonReport(verdict)) as {
      new_finding_ids: string[];
      findings: Array<{ id: string }>;
    };
    expect(json.new_finding_ids).toEqual(fresh);
    expect(verdictOutputs(verdict)['new-findings']).toBe(String(fresh.length));
    const comment = renderComment(verdict);
    for (const f of findings) {
      expect(comment.includes(f.title), f.id).toBe(fresh.includes(f.id));
    }

    const reported = ['crit-known', 'high-accepted', 'high-new', 'med-reopened', 'low-new'];
    expect(json.findings.map((f) => f.id)).toEqual(reported);
    const sarif = sarifReport(verdict).log.runs[0]!.results.map((r) => r.properties.findingId);
    expect(sarif).toEqual(reported.filter((id) => id !== 'high-accepted'));
    const summary = renderSummary(verdict);
    expect(summary).not.toContain('New info');
    expect(summary).not.toContain('Accepted high');
    expect(summary).toContain('Known critical');
  });
});
