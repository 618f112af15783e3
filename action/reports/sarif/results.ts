import { createHash } from 'node:crypto';
import type { Finding } from '../../core/scan.ts';
import { SRCROOT, locationPath } from './locations.ts';
import { LEVEL, ruleIdOf } from './rules.ts';
import { stripPeriod } from './text.ts';
import type { SarifResult } from './types.ts';

/**
 * One result per finding. GitHub tracks alerts across runs by
 * `partialFingerprints.primaryLocationLineHash` only, so that is derived from the Scanward
 * finding id, which stays the same for the same weakness on the same component in every later
 * scan (decisions.md "Findings").
 */
export function buildResult(
  finding: Finding,
  ruleIndex: Map<string, number>,
  options: { target: string },
): SarifResult {
  const ruleId = ruleIdOf(finding);
  const cves = finding.cve_ids.length > 0 ? ` (${finding.cve_ids.join(', ')})` : '';
  const score = finding.cvss_score && finding.cvss_score > 0 ? `, CVSS ${finding.cvss_score.toFixed(1)}` : '';
  return {
    ruleId,
    ruleIndex: ruleIndex.get(ruleId)!,
    level: LEVEL[finding.severity],
    message: {
      text: `${stripPeriod(finding.title)}${cves} on ${finding.affected_component}. Severity ${finding.severity}${score}.`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: {
            uri: locationPath(finding.affected_component, finding.target ?? options.target),
            uriBaseId: SRCROOT,
          },
          region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 },
        },
        message: { text: `Network location ${finding.affected_component}.` },
      },
    ],
    partialFingerprints: {
      primaryLocationLineHash: `${createHash('sha256').update(finding.id).digest('hex').slice(0, 16)}:1`,
      'scanwardFindingId/v1': finding.id,
    },
    properties: {
      findingId: finding.id,
      severity: finding.severity,
      status: finding.status,
      affectedComponent: finding.affected_component,
      ...(finding.cvss_score !== null ? { cvssScore: finding.cvss_score } : {}),
      ...(finding.cve_ids.length > 0 ? { cveIds: finding.cve_ids } : {}),
      ...(finding.tool ? { detectedBy: finding.tool } : {}),
    },
  };
}
