import { describe, expect, it } from 'vitest';
import { ProgressLog, progressLine } from '../../../../action/service/progress.ts';
import { scanRecord } from '../../../fixtures/action-verdicts.ts';

describe('progress lines', () => {
  it('describe the state and are logged only when it changes', () => {
    const scan = scanRecord();
    const lines: string[] = [];
    const log = new ProgressLog((l) => lines.push(l));
    const running = {
      ...scan,
      status: 'running',
      progress: 45,
      phase: 'web_analysis',
      current_tool: 'nuclei',
    };
    expect(log.report({ ...scan, status: 'pending', progress: 0, phase: 'discovery' })).toBe(true);
    expect(log.report(running)).toBe(true);
    expect(log.report({ ...running })).toBe(false);
    expect(log.report({ ...running, progress: 46 })).toBe(true);
    expect(lines).toEqual([
      'Scan scan_abc: pending, waiting for a scan runner',
      'Scan scan_abc: running, 45%, phase web analysis, running nuclei',
      'Scan scan_abc: running, 46%, phase web analysis, running nuclei',
    ]);
    expect(progressLine(scan)).toBe('Scan scan_abc: completed, 100%');
  });
});
