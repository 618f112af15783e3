import { describe, expect, it } from 'vitest';
import { cell } from '../../../../action/reports/markdown.ts';
import { renderSummary } from '../../../../action/reports/summary.ts';
import { LINKS, completedVerdict, finding, unsuccessfulVerdict } from '../../../fixtures/action-verdicts.ts';

describe('the job summary', () => {
  it('shows the scan, its status and duration, the scan counts and the gate', () => {
    const findings = [
      finding({ severity: 'critical', cvss_score: 9.8 }),
      finding({ severity: 'high' }),
      finding({ severity: 'medium' }),
      finding({ severity: 'info' }),
      finding({ severity: 'info' }),
    ];
    const md = renderSummary(completedVerdict(findings, { failOn: 'high' }));

    expect(md).toContain('## Scanward scan of `app.example.com`');
    expect(md).toContain(`| Scan | [\`scan_abc\`](${LINKS.scanUrl}) |`);
    expect(md).toContain('| Type | full |');
    expect(md).toContain('| Status | completed |');
    expect(md).toContain('| Duration | 42m 5s |');
    expect(md).toContain('| Result | ❌ failed: 1 critical, 1 high at or above high |');
    expect(md).toContain(
      '| Critical | High | Medium | Low | Info |\n|---:|---:|---:|---:|---:|\n| 1 | 1 | 1 | 0 | 2 |',
    );
    expect(md).toContain(`[PDF report](${LINKS.reportUrl})`);
  });

  it('lists the most severe open findings first, at most `top`, and says how many more', () => {
    const findings = [
      finding({ severity: 'low', title: 'Low one' }),
      finding({
        severity: 'critical',
        title: 'Critical one',
        cvss_score: 9.1,
        affected_component: 'redis://h:6379',
        change: 'unchanged',
      }),
      finding({ severity: 'high', title: 'Accepted high', status: 'accepted' }),
      finding({
        severity: 'medium',
        title: 'Medium one',
        cvss_score: 5,
        affected_component: 'https://h:443/m',
      }),
    ];
    const md = renderSummary(completedVerdict(findings), { top: 2 });
    const rows = md.split('\n').filter((l) => /^\| (Critical|High|Medium|Low|Info) \| `/.test(l));
    expect(rows).toEqual([
      '| Critical | `redis://h:6379` | Critical one | 9.1 |',
      '| Medium | `https://h:443/m` | Medium one **(new)** | 5.0 |',
    ]);
    expect(md).toContain('…and 1 more.');
    expect(md).not.toContain('Accepted high');
  });

  it('lists only findings at or above report-severity', () => {
    const findings = [
      finding({ severity: 'high', title: 'Kept' }),
      finding({ severity: 'low', title: 'Dropped' }),
    ];
    const md = renderSummary(completedVerdict(findings, { reportSeverity: 'medium' }));
    expect(md).toContain('Kept');
    expect(md).not.toContain('Dropped');
  });

  it('escapes finding text so it cannot break the table or inject HTML', () => {
    const findings = [
      finding({
        title: 'Bad | title <img src=x onerror=alert(1)>\nsecond line',
        affected_component: 'tcp://h:1|`x`',
        cvss_score: 5,
        change: 'unchanged',
      }),
    ];
    const md = renderSummary(completedVerdict(findings));
    const row = md.split('\n').find((l) => l.includes('Bad'))!;
    expect(row).toBe(
      '| Medium | tcp://h:1\\|\\`x\\` | Bad \\| title &lt;img src=x onerror=alert(1)&gt; second line | 5.0 |',
    );
    expect(cell('a_b*c')).toBe('a\\_b\\*c');
  });

  it('says why a scan failed and when it timed out, with no gate', () => {
    const failed = renderSummary(unsuccessfulVerdict({ status: 'failed', error: 'runner | lost' }));
    expect(failed).toContain('| Status | failed |');
    expect(failed).toContain('> **The scan failed:** runner \\| lost');
    expect(failed).not.toContain('Duration');
    expect(failed).not.toContain('| Result |');

    const timedOut = renderSummary(unsuccessfulVerdict({ status: 'cancelled' }, true));
    expect(timedOut).toContain('| Status | timed out (cancelled) |');
    expect(timedOut).toContain('did not finish within timeout-minutes');
  });

  it('notes findings the gate ignored, and a passed gate', () => {
    const findings = [
      finding({ severity: 'critical', status: 'false_positive' }),
      finding({ severity: 'low' }),
    ];
    const md = renderSummary(completedVerdict(findings, { failOn: 'high' }));
    expect(md).toContain('| Result | ✅ passed: nothing at or above high |');
    expect(md).toContain('1 finding(s) triaged as false positive or accepted are not counted.');
  });

  it('links the workflow run and says what became of the SARIF upload', () => {
    const verdict = completedVerdict([finding()]);
    const runUrl = 'https://github.com/octo/shop/actions/runs/9';
    const states = {
      disabled: 'not uploaded (upload-sarif: false)',
      'no-repository': 'not uploaded (no GitHub repository, commit or ref)',
      processed: 'uploaded to code scanning and processed',
      processing: 'uploaded to code scanning (still processing)',
      failed: 'upload to code scanning failed (see the log)',
    } as const;
    for (const [upload, text] of Object.entries(states)) {
      const md = renderSummary(verdict, {
        runUrl,
        sarif: { path: 'scanward.sarif', upload: upload as keyof typeof states },
      });
      expect(md).toContain(`SARIF: \`scanward.sarif\`, ${text}`);
      expect(md).toContain(`[Workflow run](${runUrl})`);
    }
    expect(renderSummary(verdict)).not.toContain('SARIF:');
  });
});
