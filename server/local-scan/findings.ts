import { normalizeDetections } from '../findings/normalize.ts';
import type { LocalFinding } from '../schemas/local-scan.ts';
import type { Detection } from '../scanner/types.ts';
import { severityRank } from '../scoring/severity.ts';

/**
 * A local scan's detections as findings, one per weakness and place: normalised by the
 * recorder's own pure step (`normalizeDetections`, server/findings/normalize.ts), so the
 * canonical check, the fingerprint, the merge of two detections of one fingerprint and the
 * score rule are the ones the service applies when the run is recorded there (through the
 * import API, which hands the report to the same recorder). Remediation planning's plan is
 * applied, as the lifecycle does for a new finding. Most severe first, then by id, so two runs
 * that find the same write the same report.
 */
export function localFindings(detections: readonly Detection[]): LocalFinding[] {
  const { byFingerprint } = normalizeDetections('local', detections);
  return [...byFingerprint.values()]
    .map(({ fingerprint, checkId, detection, severity, cvssScore, cvssVector, evidence }): LocalFinding => ({
      id: `local_${fingerprint.slice(0, 24)}`,
      template_id: checkId,
      title: detection.title,
      severity,
      cvss_vector: cvssVector,
      cvss_score: cvssScore,
      cve_ids: detection.cve_ids,
      cwe_ids: detection.cwe_ids,
      description: detection.description,
      impact: detection.impact,
      remediation: detection.planned?.remediation ?? detection.remediation ?? null,
      target: detection.target,
      affected_component: detection.affected_component,
      port: detection.port ?? null,
      category: detection.category ?? null,
      tool: detection.tool,
      frameworks: (detection.frameworks ?? []).map((f) => f.name),
      kev: detection.kev === true,
      evidence: { request: evidence.request, response: evidence.response },
    }))
    .sort(
      (a, b) =>
        severityRank(b.severity) - severityRank(a.severity) ||
        b.cvss_score - a.cvss_score ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}
