import { describe, expect, it } from 'vitest';
import { Phase } from '../../../server/schemas/scans.ts';
import {
  COMPLETE_PHASE,
  ESTIMATED_DURATION_SECONDS,
  PHASES,
  estimatedDuration,
  firstPhase,
  phasesOf,
  splitPhases,
} from '../../../server/scans/phases.ts';

describe('scan phases', () => {
  it('lists the eleven phases in run order, compliance_mapping eighth, then complete', () => {
    expect(PHASES).toHaveLength(11);
    expect(PHASES.indexOf('compliance_mapping')).toBe(7);
    expect([...PHASES, COMPLETE_PHASE]).toEqual(Phase.options);
  });

  it('runs all phases for full, five for quick, all but cloud and AI analysis for compliance', () => {
    expect(phasesOf('full')).toEqual(PHASES);
    expect(phasesOf('quick')).toEqual([
      'discovery',
      'enumeration',
      'vulnerability_scanning',
      'correlation',
      'reporting',
    ]);
    expect(phasesOf('compliance')).toEqual(
      PHASES.filter((p) => p !== 'cloud_analysis' && p !== 'ai_analysis'),
    );
    for (const type of ['quick', 'full', 'compliance'] as const) expect(firstPhase(type)).toBe('discovery');
  });

  it('splits a type’s phases into done and remaining that together always list the type’s phases', () => {
    const split = splitPhases('quick', ['enumeration', 'discovery', 'web_analysis', 'bogus']);
    expect(split).toEqual({
      phases_completed: ['discovery', 'enumeration'],
      phases_remaining: ['vulnerability_scanning', 'correlation', 'reporting'],
    });
    expect(splitPhases('compliance', [])).toEqual({
      phases_completed: [],
      phases_remaining: phasesOf('compliance'),
    });
  });

  it('estimates durations in seconds inside the typical ranges of the specification', () => {
    expect(estimatedDuration('quick')).toBeGreaterThanOrEqual(5 * 60);
    expect(estimatedDuration('quick')).toBeLessThanOrEqual(10 * 60);
    expect(estimatedDuration('compliance')).toBeGreaterThanOrEqual(15 * 60);
    expect(estimatedDuration('compliance')).toBeLessThanOrEqual(30 * 60);
    expect(estimatedDuration('full')).toBeGreaterThanOrEqual(30 * 60);
    expect(estimatedDuration('full')).toBeLessThanOrEqual(60 * 60);
    expect(Object.values(ESTIMATED_DURATION_SECONDS).every(Number.isInteger)).toBe(true);
  });
});
