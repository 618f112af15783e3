import { controlsForFinding } from '../../controls/mapping.ts';
import { remediationFor } from '../../remediation/remediation.ts';
import { severityRank } from '../../scoring/severity.ts';
import { isBuiltInCheckId } from '../check-registry.ts';
import { epssFor } from '../../intel/epss.ts';
import type { Detection, Established, Phase } from '../types.ts';

/** The tool of the checks that judge an announced version (checks/software-versions.ts, checks/vendor-cves.ts). */
const VERSION_TOOL = 'scanward-versions';
const CVE_ID = /^CVE-\d{4}-\d{4,}$/i;

/** How a detection's weakness is known: as its check says, else inferred for version checks, confirmed otherwise. */
export function establishedOf(detection: Detection): Established {
  return (
    detection.evidence.established ??
    (detection.tool === VERSION_TOOL ? 'inferred from version' : 'confirmed')
  );
}

/**
 * The CVE a detection stands for, when its identity is a CVE: a version match (its check id is
 * the CVE) or a template naming a CVE, unless the template was folded into a built-in check
 * (then the check names the weakness, whatever CVE the template lists). A template naming
 * several CVEs stands for its first.
 */
export function cveIdentity(detection: Detection): string | undefined {
  if (CVE_ID.test(detection.check_id)) return detection.check_id.toUpperCase();
  if (isBuiltInCheckId(detection.check_id)) return undefined;
  const first = detection.cve_ids.find((id) => CVE_ID.test(id.trim()));
  return first?.trim().toUpperCase();
}

/** The service a component URL is on (`http://h:80/cgi-bin/x` → `http://h:80`); a component without a path as it is. */
export function serviceOf(component: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(component.trim());
  return match ? match[1]! : component.trim();
}

/**
 * A detection keyed by its CVE: check id the CVE, component the service (a template's request
 * path stays in its evidence), the check id it had kept among its upstream ids so the coverage
 * of its template maps onto the CVE.
 */
function byCve(detection: Detection, cve: string): Detection {
  const upstream = [...(detection.upstream_ids ?? []), detection.check_id].filter((id) => id !== cve);
  return {
    ...detection,
    check_id: cve,
    upstream_ids: [...new Set([cve, ...upstream])],
    affected_component: serviceOf(detection.affected_component),
    cve_ids: [...new Set([cve, ...detection.cve_ids.map((id) => id.trim().toUpperCase())])],
    evidence: { ...detection.evidence, established: establishedOf(detection) },
  };
}

/** Which of two detections of one weakness leads (gives title, evidence, tool): a proof over a version, KEV, then severity. */
function leads(a: Detection, b: Detection): boolean {
  const rank = (d: Detection) => [
    establishedOf(d) === 'confirmed' ? 1 : 0,
    d.kev === true ? 1 : 0,
    severityRank(d.severity),
  ];
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! > rb[i]!;
  return false;
}

/** The merged remediation: advice particular to the finding (the vendor's fixing release) first, else the leader's, else the other's. */
function remediationOf(
  lead: Detection,
  other: Detection,
): Pick<Detection, 'remediation' | 'particular_remediation'> {
  const source = [lead, other].find((d) => d.particular_remediation) ?? (lead.remediation ? lead : other);
  return {
    ...(source.remediation && { remediation: source.remediation }),
    ...(source.particular_remediation && { particular_remediation: true as const }),
  };
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

/**
 * One finding per weakness and component, whichever engines saw it (docs/checks.md, "One
 * weakness, one finding"):
 *
 * - detections of one check on one component merge (a template folded into a built-in check
 *   already carries the check's id);
 * - detections standing for one CVE on one service merge whatever their check: a template's
 *   proof, a KEV version match and a vendor-CVE version match. The proof leads (`confirmed`),
 *   else the KEV match; the severity is the highest, KEV, CVEs, CWEs and upstream ids are the
 *   union, and remediation is the one particular to the finding (the vendor match names the
 *   fixing release), else the leader's.
 */
export function correlate(detections: readonly Detection[]): Detection[] {
  const byKey = new Map<string, Detection>();
  for (const original of detections) {
    const cve = cveIdentity(original);
    const detection = cve ? byCve(original, cve) : original;
    const key = `${detection.target.toLowerCase()}\u0000${detection.check_id}\u0000${detection.affected_component}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...detection });
      continue;
    }
    const [lead, other] = leads(detection, seen) ? [detection, seen] : [seen, detection];
    const established: Established =
      establishedOf(lead) === 'confirmed' || establishedOf(other) === 'confirmed'
        ? 'confirmed'
        : 'inferred from version';
    byKey.set(key, {
      ...lead,
      severity: severityRank(other.severity) > severityRank(lead.severity) ? other.severity : lead.severity,
      cvss_vector: lead.cvss_vector ?? other.cvss_vector ?? null,
      upstream_ids: union(lead.upstream_ids, other.upstream_ids),
      cve_ids: union(lead.cve_ids, other.cve_ids),
      cwe_ids: union(lead.cwe_ids, other.cwe_ids),
      ...((lead.kev === true || other.kev === true) && { kev: true }),
      ...remediationOf(lead, other),
      ...((lead.priority ?? other.priority) && { priority: lead.priority ?? other.priority }),
      evidence: { ...lead.evidence, ...(cve && { established }) },
    });
  }
  return [...byKey.values()];
}

/**
 * A merged detection completed: its EPSS score (the highest of its CVEs in the committed
 * snapshot), how it is established, remediation where the check gave none, and its compliance
 * mapping.
 */
export function completeDetection(d: Detection): Detection {
  const mapping = controlsForFinding({
    category: d.category,
    cwe_ids: d.cwe_ids,
    cve_ids: d.cve_ids,
    severity: d.severity,
    target: d.target,
    in_kev: d.kev,
  });
  return {
    ...d,
    epss_score: epssFor(d.cve_ids)?.score ?? d.epss_score ?? null,
    evidence: { ...d.evidence, established: establishedOf(d) },
    remediation: d.remediation ?? remediationFor({ ...d, template_id: d.check_id }),
    frameworks: mapping.frameworks,
  };
}

/**
 * Merges what the checks reported and completes each detection with its EPSS score (the
 * highest of its CVEs in the committed snapshot, intel/epss.ts), remediation and its
 * compliance mapping, in the scan state. Nothing is written here: the scan's findings are
 * recorded once, when it completes (pipeline.ts), after remediation planning has added its plan.
 */
export const correlation: Phase = {
  name: 'correlation',
  weight: 5,
  async run(ctx) {
    ctx.progress.tool('correlation');
    const detections = correlate(ctx.state.detections).map(completeDetection);
    ctx.state.detections = detections;
    ctx.progress.setTotal(1);
    ctx.progress.advance();
  },
};
