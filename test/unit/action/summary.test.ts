import { describe, expect, it } from 'vitest';
import { ProgressLog, progressLine } from '../../../action/progress.ts';
import type { Finding, ScanBody } from '../../../action/responses.ts';
import { cell, renderSummary } from '../../../action/summary.ts';
import {
  countOpenFindings,
  evaluateGate,
  scanCounts,
  severitiesAtOrAbove,
} from '../../../action/threshold.ts';

const SCAN: ScanBody = {
  id: 'scan_abc',
  target: 'app.example.com',
  scan_type: 'full',
  status: 'completed',
  progress: 100,
  phase: 'complete',
  started_at: '2026-01-01T10:00:00.000Z',
  completed_at: '2026-01-01T10:42:05.000Z',
  vulnerabilities_found: 3,
  critical_count: 1,
  high_count: 1,
  medium_count: 1,
  low_count: 0,
  info_count: 2,
};

let n = 0;
function finding(overrides: Partial<Finding> = {}): Finding {
  n += 1;
  return {
    id: `finding_${n}`,
    title: `Weakness ${n}`,
    severity: 'medium',
    cvss_score: 5,
    status: 'open',
    tool: 'nuclei',
    affected_component: `https://app.example.com:443/p${n}`,
    description: '',
    remediation: '',
    cve_ids: [],
    ...overrides,
  };
}

const LINKS = {
  scanUrl: 'https://scanward.example.com/api/v1/scans/scan_abc',
  reportUrl: 'https://scanward.example.com/api/v1/findings/export?format=pdf&scan_id=scan_abc',
};

describe('the job summary', () => {
  it('shows the scan, its status and duration, the counts and the gate', () => {
    const findings = [finding({ severity: 'critical', cvss_score: 9.8 }), finding({ severity: 'high' })];
    const gate = evaluateGate(countOpenFindings(findings).counts, 'high');
    const md = renderSummary({ scan: SCAN, counts: scanCounts(SCAN), findings, gate, ...LINKS });

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
      }),
      finding({ severity: 'high', title: 'Accepted high', status: 'accepted' }),
      finding({ severity: 'medium', title: 'Medium one', affected_component: 'https://h:443/m' }),
    ];
    const md = renderSummary({ scan: SCAN, counts: scanCounts(SCAN), findings, ...LINKS, top: 2 });
    const rows = md.split('\n').filter((l) => /^\| (Critical|High|Medium|Low|Info) \| `/.test(l));
    expect(rows).toEqual([
      '| Critical | `redis://h:6379` | Critical one | 9.1 |',
      '| Medium | `https://h:443/m` | Medium one | 5.0 |',
    ]);
    expect(md).toContain('…and 1 more.');
    expect(md).not.toContain('Accepted high');
  });

  it('escapes finding text so it cannot break the table or inject HTML', () => {
    const findings = [
      finding({
        title: 'Bad | title <img src=x onerror=alert(1)>\nsecond line',
        affected_component: 'tcp://h:1|`x`',
      }),
    ];
    const md = renderSummary({ scan: SCAN, counts: scanCounts(SCAN), findings, ...LINKS });
    const row = md.split('\n').find((l) => l.includes('Bad'))!;
    expect(row).toBe(
      '| Medium | tcp://h:1\\|\\`x\\` | Bad \\| title &lt;img src=x onerror=alert(1)&gt; second line | 5.0 |',
    );
    expect(cell('a_b*c')).toBe('a\\_b\\*c');
  });

  it('says why a scan failed and when it timed out', () => {
    const failed = renderSummary({
      scan: { ...SCAN, status: 'failed', error: 'runner | lost', completed_at: undefined },
      counts: scanCounts(SCAN),
      ...LINKS,
    });
    expect(failed).toContain('| Status | failed |');
    expect(failed).toContain('> **The scan failed:** runner \\| lost');
    expect(failed).not.toContain('Duration');

    const timedOut = renderSummary({
      scan: { ...SCAN, status: 'cancelled' },
      counts: scanCounts(SCAN),
      timedOut: true,
      ...LINKS,
    });
    expect(timedOut).toContain('| Status | timed out (cancelled) |');
    expect(timedOut).toContain('did not finish within timeout-minutes');
  });

  it('notes findings the gate ignored, and a passed gate', () => {
    const findings = [
      finding({ severity: 'critical', status: 'false_positive' }),
      finding({ severity: 'low' }),
    ];
    const open = countOpenFindings(findings);
    const gate = evaluateGate(open.counts, 'high', open.ignored);
    const md = renderSummary({ scan: SCAN, counts: scanCounts(SCAN), findings, gate, ...LINKS });
    expect(md).toContain('| Result | ✅ passed: nothing at or above high |');
    expect(md).toContain('1 finding(s) triaged as false positive or accepted are not counted.');
  });
});

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

describe('progress lines', () => {
  it('describe the state and are logged only when it changes', () => {
    const lines: string[] = [];
    const log = new ProgressLog((l) => lines.push(l));
    const running = {
      ...SCAN,
      status: 'running',
      progress: 45,
      phase: 'web_analysis',
      current_tool: 'nuclei',
    };
    expect(log.report({ ...SCAN, status: 'pending', progress: 0, phase: 'discovery' })).toBe(true);
    expect(log.report(running)).toBe(true);
    expect(log.report({ ...running })).toBe(false);
    expect(log.report({ ...running, progress: 46 })).toBe(true);
    expect(lines).toEqual([
      'Scan scan_abc: pending, waiting for a scan runner',
      'Scan scan_abc: running, 45%, phase web analysis, running nuclei',
      'Scan scan_abc: running, 46%, phase web analysis, running nuclei',
    ]);
    expect(progressLine(SCAN)).toBe('Scan scan_abc: completed, 100%');
  });
});
