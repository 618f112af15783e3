/**
 * The five finding severities of the interface, in one place, with the order the
 * API sorts them in (critical > high > medium > low > info).
 */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** 4 for critical down to 0 for info, for comparisons and sorting. */
export function severityRank(severity: Severity): number {
  return RANK[severity];
}

export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}

/**
 * The finding severity for a CVSS score, using the CVSS qualitative rating bands
 * (0.0 none → `info`, 0.1–3.9 low, 4.0–6.9 medium, 7.0–8.9 high, 9.0–10.0 critical).
 */
export function severityForScore(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
}
