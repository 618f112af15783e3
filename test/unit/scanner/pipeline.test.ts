import { describe, expect, it } from 'vitest';
import { CHECKS, checksFor, type Check } from '../../../server/scanner/check-registry.ts';
import { correlate } from '../../../server/scanner/phases/correlation.ts';
import { PHASE_MODULES } from '../../../server/scanner/phases/index.ts';
import { ProgressTracker } from '../../../server/scanner/progress.ts';
import type { Detection, ScanRecord } from '../../../server/scanner/types.ts';
import { PHASES, phasesOf } from '../../../server/scans/phases.ts';

describe('ProgressTracker', () => {
  it('weights phases by their share, never falls, and stays below 100 until completion', () => {
    const seen: number[] = [];
    const tracker = new ProgressTracker([10, 30], 0, () => seen.push(tracker.value));
    const first = tracker.startPhase(10);
    first.setTotal(4);
    first.advance(2);
    expect(tracker.value).toBe(Math.floor((99 * 5) / 40));
    tracker.finishPhase();
    expect(tracker.value).toBe(Math.floor((99 * 10) / 40));

    const second = tracker.startPhase(30);
    second.setTotal(10);
    second.advance(9);
    // The phase discovers more work: the figure holds rather than falls.
    second.setTotal(100);
    second.advance(100);
    tracker.finishPhase();
    expect(tracker.value).toBe(99);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeLessThan(100);
  });

  it('starts from the weight of phases already completed (a takeover resumes)', () => {
    const tracker = new ProgressTracker([10, 30], 10, () => undefined);
    expect(tracker.value).toBe(Math.floor((99 * 10) / 40));
  });

  it('reports the tool named last in the current phase, and none at its start', () => {
    const tracker = new ProgressTracker([1], 0, () => undefined);
    const phase = tracker.startPhase(1);
    expect(tracker.currentTool).toBeUndefined();
    phase.tool('nmap');
    expect(tracker.currentTool).toBe('nmap');
  });
});

function detection(overrides: Partial<Detection>): Detection {
  return {
    check_id: 'redis-unauthenticated',
    title: 'Redis accepts commands without authentication',
    severity: 'high',
    target: '127.0.0.1',
    affected_component: 'redis://127.0.0.1:6379',
    port: 6379,
    tool: 'scanward-probe',
    cve_ids: [],
    cwe_ids: ['CWE-306'],
    description: 'd',
    impact: 'i',
    evidence: { request: 'PING', response: '+PONG' },
    ...overrides,
  };
}

describe('correlate', () => {
  it('keeps one finding per check and component, the most severe, with every upstream id and CVE', () => {
    const merged = correlate([
      detection({ upstream_ids: ['redis-default-logins'], cve_ids: ['CVE-2022-0543'] }),
      detection({ severity: 'critical', upstream_ids: ['exposed-redis'], tool: 'nuclei' }),
      detection({ affected_component: 'redis://127.0.0.2:6379', target: '127.0.0.2' }),
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toMatchObject({
      severity: 'critical',
      tool: 'nuclei',
      cve_ids: ['CVE-2022-0543'],
    });
    expect(merged[0]!.upstream_ids?.sort()).toEqual(['exposed-redis', 'redis-default-logins']);
    expect(merged[1]!.affected_component).toBe('redis://127.0.0.2:6379');
  });
});

describe('checks and phases', () => {
  const scan = (scan_type: ScanRecord['scan_type'], frameworks: string[] = []): ScanRecord => ({
    id: 'scan_x',
    org_id: 'org_x',
    target: '127.0.0.1',
    scan_type,
    frameworks,
    ports: null,
    attempts: 1,
    created_by: null,
  });

  it('has a module for every phase, named as the phase', () => {
    for (const name of PHASES) expect(PHASE_MODULES[name].name).toBe(name);
  });

  it('gives quick scans only the checks marked quick', () => {
    const slow: Check = { ...CHECKS[0]!, id: 'slow-check', quick: false };
    const quick = checksFor(scan('quick'), 'vulnerability_scanning', [...CHECKS, slow]);
    expect(quick.map((c) => c.id)).not.toContain('slow-check');
    expect(checksFor(scan('full'), 'vulnerability_scanning', [...CHECKS, slow]).map((c) => c.id)).toContain(
      'slow-check',
    );
  });

  it('gives compliance scans the checks mapped to each chosen framework', () => {
    // Every unauthenticated-service weakness is vulnerability management in all three frameworks.
    for (const framework of ['soc2', 'pci-dss', 'iso27001']) {
      const chosen = checksFor(scan('compliance', [framework]), 'vulnerability_scanning').map((c) => c.id);
      expect(chosen).toEqual(expect.arrayContaining(['redis-unauthenticated', 'postgresql-trust-auth']));
    }
    // Legacy TLS and exposed secrets speak to every framework, so compliance scans run them.
    for (const framework of ['soc2', 'pci-dss', 'iso27001']) {
      const chosen = checksFor(scan('compliance', [framework]), 'web_analysis').map((c) => c.id);
      expect(chosen).toEqual(expect.arrayContaining(['tls-legacy-protocol', 'env-file-exposed']));
    }
  });

  it('runs every registered check in some phase of a full scan, with unique ids', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of CHECKS) expect(phasesOf('full')).toContain(check.phase);
  });
});
