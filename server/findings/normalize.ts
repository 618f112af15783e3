import { findingFingerprint } from './fingerprint.ts';
import type { EvidenceValue, FrameworkValue, RemediationValue } from './rows.ts';
import type { FindingPriority } from '../schemas/findings.ts';
import { tryCvssScore } from '../scoring/cvss.ts';
import { isSeverity, severityRank, type Severity } from '../scoring/severity.ts';

/**
 * Normalising detections, whatever produced them (the engine, an imported report, the local
 * engine in a CI job): the one pure step every source goes through before anything is written
 * (results/record.ts), and the one the local engine's report is built from (server/local-scan/). No
 * database, no I/O: the local engine bundles it.
 *
 * - a detection must name a known severity and a check;
 * - an upstream template id becomes the check that declares it (`exposed-redis` →
 *   `redis-unauthenticated`) when another detection of the same batch declares it;
 * - the fingerprint is organization, target, component and check (findings/fingerprint.ts);
 * - **the score rule**: computed from a valid CVSS vector; else the score the source states
 *   (0.0 to 10.0); else 0.0, which means "no score", never a score of nought;
 * - CVE ids are trimmed, upper case and distinct;
 * - two detections of one fingerprint are one: the more severe wins.
 */

/**
 * One detection as the recorder takes it: one weakness seen at one place. The scan engine's
 * `Detection` (server/scanner/types.ts) has this shape; the recorder states its own input so
 * it does not depend on the engine.
 */
export interface FindingDetection {
  /** Canonical check (template) id. */
  check_id: string;
  /** Upstream template ids this check stands for, so two tools' reports stay one finding. */
  upstream_ids?: string[];
  title: string;
  severity: Severity;
  /** CVSS vector; the score is computed from it (see the score rule above). */
  cvss_vector?: string | null;
  /**
   * A base score stated without a vector (another tool's report, server/imports/): the finding's
   * score only when `cvss_vector` gives none. A vector always wins, since the score is computed.
   */
  cvss_score?: number | null;
  epss_score?: number | null;
  /** The concrete host scanned. */
  target: string;
  /** A URL with an explicit port: `https://host:443/path`, `redis://host:6379`. */
  affected_component: string;
  port?: number | null;
  tool: string;
  category?: string | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  /** Kept from the last detection that carried one when absent. */
  remediation?: RemediationValue;
  evidence: {
    request: string;
    response: string;
    screenshot_url?: string | null;
    established?: 'confirmed' | 'inferred from version';
  };
  /** Kept from the last detection that carried them when absent. */
  frameworks?: FrameworkValue[];
  kev?: boolean;
  /** A suggested priority, applied to new findings only (never over a person's choice). */
  priority?: FindingPriority;
  /** Remediation planning's plan, applied when the finding is new or reopened (see {@link PlannedRemediation}). */
  planned?: PlannedRemediation;
}

/**
 * What remediation planning worked out for a detection. Applied only when the
 * sighting is new or reopened: `remediation` replaces the detection's, and
 * `priority` is set where the detection and the finding have none.
 */
export interface PlannedRemediation {
  priority: FindingPriority;
  remediation: RemediationValue;
}

/** A detection ready to write: its fingerprint, canonical check, score and evidence decided. */
export interface NormalizedDetection {
  fingerprint: string;
  checkId: string;
  detection: FindingDetection;
  severity: Severity;
  /** 0.0 when no score is known (see the score rule). */
  cvssScore: number;
  cvssVector: string | null;
  evidence: EvidenceValue;
}

/** The normalised detections by fingerprint, and the upstream id → canonical check map they used. */
export interface Normalized {
  byFingerprint: Map<string, NormalizedDetection>;
  canonical: Map<string, string>;
}

/** A detection that cannot be recorded (unknown severity, no check). */
export class DetectionError extends Error {
  override name = 'DetectionError';
}

/** A stated score within CVSS's 0.0 to 10.0, else undefined. */
function statedScore(score: number | null | undefined): number | undefined {
  return typeof score === 'number' && Number.isFinite(score) && score >= 0 && score <= 10 ? score : undefined;
}

/** The score rule: the vector's computed score, else the stated one, else 0.0 (no score). */
export function scoreOf(detection: Pick<FindingDetection, 'cvss_vector' | 'cvss_score'>): {
  score: number;
  vector: string | null;
} {
  const computed = tryCvssScore(detection.cvss_vector);
  if (computed) return { score: computed.baseScore, vector: computed.vector };
  return { score: statedScore(detection.cvss_score) ?? 0, vector: null };
}

/** upstream template id → canonical check id, from every detection's declaration. */
export function canonicalCheckIds(detections: readonly FindingDetection[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const d of detections) for (const upstream of d.upstream_ids ?? []) map.set(upstream, d.check_id);
  return map;
}

/** Validates, scores, keys and merges one source's detections (see the module comment). */
export function normalizeDetections(orgId: string, detections: readonly FindingDetection[]): Normalized {
  const canonical = canonicalCheckIds(detections);
  const byFingerprint = new Map<string, NormalizedDetection>();
  for (const detection of detections) {
    if (!isSeverity(detection.severity))
      throw new DetectionError(`detection has an unknown severity "${String(detection.severity)}"`);
    if (!detection.check_id.trim()) throw new DetectionError('detection has no check_id');
    const checkId = canonical.get(detection.check_id) ?? detection.check_id;
    const fingerprint = findingFingerprint({
      orgId,
      target: detection.target,
      affectedComponent: detection.affected_component,
      checkId,
    });
    const { score, vector } = scoreOf(detection);
    const cveIds = [...new Set(detection.cve_ids.map((id) => id.trim().toUpperCase()))];
    const candidate: NormalizedDetection = {
      fingerprint,
      checkId,
      detection: { ...detection, cve_ids: cveIds },
      severity: detection.severity,
      cvssScore: score,
      cvssVector: vector,
      evidence: {
        request: detection.evidence.request,
        response: detection.evidence.response,
        screenshot_url: detection.evidence.screenshot_url ?? null,
        ...(detection.evidence.established && { established: detection.evidence.established }),
      },
    };
    const earlier = byFingerprint.get(fingerprint);
    if (!earlier || severityRank(candidate.severity) > severityRank(earlier.severity))
      byFingerprint.set(fingerprint, candidate);
  }
  return { byFingerprint, canonical };
}
