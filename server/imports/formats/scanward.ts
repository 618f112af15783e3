import { isSeverity } from '../../scoring/severity.ts';
import {
  componentPort,
  cveId,
  cweId,
  distinct,
  list,
  record,
  ReportError,
  statedScore,
  text,
  type ImportedResult,
} from '../report.ts';

/**
 * Scanward's own findings as JSON: the findings export (`GET /api/v1/findings/export?format=json`,
 * an array of finding detail objects) or an object with such a `findings` array (what
 * `scanward-ci` writes). Each finding keeps its check (`template_id`), severity, CVSS vector,
 * CVE and CWE ids, description, impact, remediation and evidence; triage fields are not
 * imported (they belong to the organization that set them).
 */
export function isScanwardFinding(value: unknown): boolean {
  const r = record(value);
  return (
    r !== undefined && typeof r['template_id'] === 'string' && typeof r['affected_component'] === 'string'
  );
}

export function scanwardItems(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  const findings = record(document)?.['findings'];
  return Array.isArray(findings) ? findings : undefined;
}

export function scanwardResults(items: readonly unknown[]): ImportedResult[] {
  return items.map((item, i) => {
    const f = record(item);
    const checkId = text(f?.['template_id'], 256).trim();
    const component = text(f?.['affected_component'], 4096).trim();
    const severity = text(f?.['severity'], 16);
    if (!f || !checkId || !component)
      throw new ReportError(
        `finding ${i + 1}: not a Scanward finding (it needs template_id and affected_component)`,
      );
    if (!isSeverity(severity))
      throw new ReportError(
        `finding ${i + 1} (${checkId}): severity "${severity}" is not one of critical, high, medium, low, info`,
      );
    const remediation = record(f['remediation']);
    const evidence = record(f['evidence']);
    const port = Number(f['port']);
    return {
      check_id: checkId,
      title: text(f['title'], 512).trim() || checkId,
      severity,
      cvss_vector: text(f['cvss_vector'], 256) || null,
      cvss_score: statedScore(f['cvss_score']) ?? null,
      cve_ids: distinct(list(f['cve_ids']).map(cveId)),
      cwe_ids: distinct(list(f['cwe_ids']).map(cweId)),
      description: text(f['description']),
      impact: text(f['impact']),
      ...(remediation
        ? {
            remediation: {
              summary: text(remediation['summary']),
              references: list(remediation['references'])
                .map((r) => text(r, 2048))
                .filter(Boolean),
            },
          }
        : {}),
      affected_component: component,
      port: Number.isInteger(port) && port > 0 && port < 65536 ? port : componentPort(component),
      category: text(f['category'], 64) || null,
      evidence: { request: text(evidence?.['request']), response: text(evidence?.['response']) },
    };
  });
}
