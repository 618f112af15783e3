import { normalizeCategory, type FindingCategory } from '../controls/mapping.ts';
import { targetExposure, type Exposure } from '../scoring/exposure.ts';
import type { KevEntry } from '../scoring/kev.ts';
import { severityRank } from '../scoring/severity.ts';
import type { FindingFacts } from './finding-facts.ts';
import { knowledgeFor } from './knowledge/index.ts';
import { listOf } from './placeholders.ts';

export const REMEDIATION_PRIORITIES = ['immediate', 'high', 'medium', 'low'] as const;
export type RemediationPriority = (typeof REMEDIATION_PRIORITIES)[number];

/** What analysis knows beyond the finding itself. */
export interface AnalysisContext {
  /** KEV entries of the finding's CVEs (`KevCatalogue.entriesFor(finding.cve_ids)`). */
  kevEntries?: readonly KevEntry[];
  /** Overrides the exposure judged from the target address. */
  exposure?: Exposure;
}

export interface PriorityDecision {
  priority: RemediationPriority;
  /** Why, as a clause that follows "because". */
  reason: string;
}

/** Weaknesses that hand access to whoever connects; on a public address they are found within hours. */
const OPEN_DOOR: ReadonlySet<FindingCategory> = new Set(['unauthenticated-access', 'default-credentials']);

const EPSS_URGENT = 0.5;
const EPSS_ELEVATED = 0.1;

/**
 * The remediation priority from severity, KEV membership, EPSS and exposure:
 * - immediate: in CISA KEV; critical; EPSS ≥ 50 % at medium or above; or a high
 *   severity open door (no or default authentication) on a public address;
 * - high: high severity; or medium with EPSS ≥ 10 % or an open door on a public address;
 * - medium: medium; low: low and info.
 */
export function remediationPriority(finding: FindingFacts, context: AnalysisContext = {}): PriorityDecision {
  const kev = context.kevEntries ?? [];
  const rank = severityRank(finding.severity);
  const epss = finding.epss_score ?? undefined;
  const exposure = context.exposure ?? targetExposure(finding.target);
  const category = normalizeCategory(finding.category) ?? knowledgeFor(finding).entry.category;
  const openDoorOnInternet = OPEN_DOOR.has(category) && exposure === 'internet';

  if (kev.length > 0) {
    return {
      priority: 'immediate',
      reason: `${listOf(kev.map((e) => e.cveID))} ${kev.length > 1 ? 'are' : 'is'} in CISA's Known Exploited Vulnerabilities catalogue`,
    };
  }
  if (finding.severity === 'critical')
    return { priority: 'immediate', reason: 'the finding is rated critical' };
  if (epss !== undefined && epss >= EPSS_URGENT && rank >= severityRank('medium')) {
    return {
      priority: 'immediate',
      reason: `EPSS puts the chance of exploitation activity at ${percent(epss)}`,
    };
  }
  if (rank >= severityRank('high') && openDoorOnInternet) {
    return {
      priority: 'immediate',
      reason: 'a high-severity weakness that needs no valid credentials sits on a public address',
    };
  }
  if (rank >= severityRank('high')) return { priority: 'high', reason: 'the finding is rated high' };
  if (rank === severityRank('medium') && epss !== undefined && epss >= EPSS_ELEVATED) {
    return { priority: 'high', reason: `EPSS (${percent(epss)}) is well above that of most vulnerabilities` };
  }
  if (rank === severityRank('medium') && openDoorOnInternet) {
    return { priority: 'high', reason: 'it needs no valid credentials and sits on a public address' };
  }
  if (rank === severityRank('medium')) return { priority: 'medium', reason: 'the finding is rated medium' };
  return {
    priority: 'low',
    reason: finding.severity === 'info' ? 'it is an informational observation' : 'the finding is rated low',
  };
}

/** The finding `priority` (p1–p4) that remediation planning suggests for a new finding. */
export function suggestedFindingPriority(
  finding: FindingFacts,
  context: AnalysisContext = {},
): 'p1' | 'p2' | 'p3' | 'p4' {
  const order: Record<RemediationPriority, 'p1' | 'p2' | 'p3' | 'p4'> = {
    immediate: 'p1',
    high: 'p2',
    medium: 'p3',
    low: 'p4',
  };
  return order[remediationPriority(finding, context).priority];
}

export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
