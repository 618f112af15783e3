import { findingFingerprint } from '../findings/fingerprint.ts';
import type { LocalFinding } from '../schemas/local-scan.ts';
import type { Detection } from '../scanner/types.ts';
import { tryCvssScore } from '../scoring/cvss.ts';
import { severityRank } from '../scoring/severity.ts';

/**
 * A local scan's detections as findings, one per weakness and place, merged exactly as the
 * finding lifecycle merges one scan's detections (`prepareDetections` in
 * server/findings/lifecycle.ts): an upstream template id becomes the check that declares it,
 * the fingerprint is target, component and check, the more severe of two detections of one
 * fingerprint wins, and the score is computed from the vector (0.0 without one). Remediation
 * planning's plan is applied, as the lifecycle does for a new finding. Most severe first, then
 * by id, so two runs that find the same write the same report.
 */
export function localFindings(detections: readonly Detection[]): LocalFinding[] {
  const canonical = new Map<string, string>();
  for (const d of detections)
    for (const upstream of d.upstream_ids ?? []) canonical.set(upstream, d.check_id);
  const byFingerprint = new Map<string, LocalFinding>();
  for (const detection of detections) {
    const checkId = canonical.get(detection.check_id) ?? detection.check_id;
    const fingerprint = findingFingerprint({
      orgId: 'local',
      target: detection.target,
      affectedComponent: detection.affected_component,
      checkId,
    });
    const score = tryCvssScore(detection.cvss_vector);
    const remediation = detection.planned?.remediation ?? detection.remediation;
    const finding: LocalFinding = {
      id: `local_${fingerprint.slice(0, 24)}`,
      template_id: checkId,
      title: detection.title,
      severity: detection.severity,
      cvss_vector: score ? score.vector : null,
      cvss_score: score?.baseScore ?? 0,
      cve_ids: [...new Set(detection.cve_ids.map((id) => id.trim().toUpperCase()))],
      cwe_ids: detection.cwe_ids,
      description: detection.description,
      impact: detection.impact,
      remediation: remediation ?? null,
      target: detection.target,
      affected_component: detection.affected_component,
      port: detection.port ?? null,
      category: detection.category ?? null,
      tool: detection.tool,
      frameworks: (detection.frameworks ?? []).map((f) => f.name),
      kev: detection.kev === true,
      evidence: { request: detection.evidence.request, response: detection.evidence.response },
    };
    const earlier = byFingerprint.get(fingerprint);
    if (!earlier || severityRank(finding.severity) > severityRank(earlier.severity))
      byFingerprint.set(fingerprint, finding);
  }
  return [...byFingerprint.values()].sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      b.cvss_score - a.cvss_score ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
