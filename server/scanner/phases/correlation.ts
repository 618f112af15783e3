import { controlsForFinding } from '../../controls/mapping.ts';
import { remediationFor } from '../../remediation/remediation.ts';
import { severityRank } from '../../scoring/severity.ts';
import type { Detection, Phase } from '../types.ts';

/** One finding per weakness and component: the most severe detection wins, with the upstream ids of all. */
export function correlate(detections: readonly Detection[]): Detection[] {
  const byKey = new Map<string, Detection>();
  for (const detection of detections) {
    const key = `${detection.check_id}\u0000${detection.affected_component}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...detection });
      continue;
    }
    const upstream = [...new Set([...(seen.upstream_ids ?? []), ...(detection.upstream_ids ?? [])])];
    const keep = severityRank(detection.severity) > severityRank(seen.severity) ? { ...detection } : seen;
    keep.upstream_ids = upstream;
    keep.cve_ids = [...new Set([...seen.cve_ids, ...detection.cve_ids])];
    keep.cwe_ids = [...new Set([...seen.cwe_ids, ...detection.cwe_ids])];
    byKey.set(key, keep);
  }
  return [...byKey.values()];
}

/**
 * Merges what the checks reported and completes each detection with
 * remediation and its compliance mapping, in the scan state. Nothing is
 * written here: the scan's findings are recorded once, when it completes
 * (pipeline.ts), after remediation planning has added its plan.
 */
export const correlation: Phase = {
  name: 'correlation',
  weight: 5,
  async run(ctx) {
    ctx.progress.tool('correlation');
    const detections = correlate(ctx.state.detections).map((d) => {
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
        remediation: d.remediation ?? remediationFor({ ...d, template_id: d.check_id }),
        frameworks: mapping.frameworks,
      };
    });
    ctx.state.detections = detections;
    ctx.progress.setTotal(1);
    ctx.progress.advance();
  },
};
