import type { Phase, ScanType } from '../schemas/scans.ts';

/**
 * The phases a scan moves through (decisions.md, "Scans"). The runner walks
 * `phasesOf(type)` in order; the API shows the first of them on a pending scan
 * and `complete` on a finished one.
 */

/** Every phase, in the order a full scan runs them. */
export const PHASES = [
  'discovery',
  'enumeration',
  'vulnerability_scanning',
  'web_analysis',
  'cloud_analysis',
  'threat_intelligence',
  'correlation',
  'compliance_mapping',
  'ai_analysis',
  'remediation_planning',
  'reporting',
] as const satisfies readonly Phase[];

/** The `phase` of a completed scan. */
export const COMPLETE_PHASE = 'complete' satisfies Phase;

const QUICK = new Set<Phase>([
  'discovery',
  'enumeration',
  'vulnerability_scanning',
  'correlation',
  'reporting',
]);
const NOT_IN_COMPLIANCE = new Set<Phase>(['cloud_analysis', 'ai_analysis']);

const PHASES_BY_TYPE: Record<ScanType, readonly Phase[]> = {
  full: PHASES,
  quick: PHASES.filter((p) => QUICK.has(p)),
  compliance: PHASES.filter((p) => !NOT_IN_COMPLIANCE.has(p)),
};

/** The phases a scan of this type runs, in order. */
export function phasesOf(type: ScanType): readonly Phase[] {
  return PHASES_BY_TYPE[type];
}

/** The phase a pending scan of this type shows. */
export function firstPhase(type: ScanType): Phase {
  return PHASES_BY_TYPE[type][0]!;
}

/**
 * Splits a scan type's phases into done and still to do, both in run order, so
 * that together they always list exactly the type's phases whatever the stored
 * list holds.
 */
export function splitPhases(
  type: ScanType,
  completed: readonly string[],
): { phases_completed: Phase[]; phases_remaining: Phase[] } {
  const done = new Set(completed);
  const phases = phasesOf(type);
  return {
    phases_completed: phases.filter((p) => done.has(p)),
    phases_remaining: phases.filter((p) => !done.has(p)),
  };
}

/**
 * Estimated duration in seconds of a scan of each type: the middle of the
 * typical range the specification gives (quick 5–10 min, compliance 15–30 min,
 * full 30–60 min). It is an estimate for one host over the default ports and is
 * not scaled by target size: the runner's speed on a range depends on how many
 * of its hosts answer, which nobody knows before discovery.
 */
export const ESTIMATED_DURATION_SECONDS: Record<ScanType, number> = {
  quick: 450,
  compliance: 1350,
  full: 2700,
};

export function estimatedDuration(type: ScanType): number {
  return ESTIMATED_DURATION_SECONDS[type];
}
