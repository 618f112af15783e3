import type { Log } from '../core/scan-source.ts';
import type { Finding, ScanLinks, ToolInfo } from '../core/scan.ts';
import { ACTION_VERSION } from '../core/version.ts';
import type { ScanwardClient } from './client.ts';
import type { FindingRefBody } from './responses.ts';

/**
 * What a completed scan on the service yields, however it got there (run, followed, imported,
 * or recorded from a local scan): its findings, the tool that found them, and its links.
 */

/** The service version from /api/health (the Action's own when it does not say) and its documentation. */
export async function toolInfo(client: ScanwardClient, apiUrl: string): Promise<ToolInfo> {
  return { version: (await client.serviceVersion()) ?? ACTION_VERSION, informationUri: `${apiUrl}/docs` };
}

/**
 * The scan's findings, each completed with its template id, CWE ids and
 * frameworks from the findings list when the per-scan list lacks them. That
 * second list needs `read:findings`; without it the SARIF falls back to
 * title-based rule ids, with a warning, rather than failing the build.
 */
export async function readFindings(log: Log, client: ScanwardClient, scanId: string): Promise<Finding[]> {
  const findings = await client.listScanFindings(scanId);
  if (findings.length === 0 || findings.every((f) => f.template_id)) return findings;
  let refs: FindingRefBody[];
  try {
    refs = await client.listFindingRefs(scanId);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warning(
      `Could not read the findings' template ids, so SARIF rules are named after titles: ${reason}`,
    );
    return findings;
  }
  const byId = new Map(refs.map((r) => [r.id, r]));
  return findings.map((f) => {
    const ref = byId.get(f.id);
    if (!ref) return f;
    return {
      ...f,
      template_id: f.template_id ?? ref.template_id,
      cwe_ids: f.cwe_ids ?? ref.cwe_ids,
      target: f.target ?? ref.target,
      frameworks: f.frameworks ?? ref.frameworks,
    };
  });
}

/**
 * The scan's and a finding's pages in the console (served by the service at its own address:
 * `/scans/:id`, `/findings/:id`, console/src/routes.tsx), and the scan's PDF report (the
 * findings export filtered to the scan).
 */
export function serviceLinks(apiUrl: string, scanId: string): ScanLinks {
  const id = encodeURIComponent(scanId);
  return {
    scanUrl: `${apiUrl}/scans/${id}`,
    reportUrl: `${apiUrl}/api/v1/findings/export?format=pdf&scan_id=${id}`,
    findingUrl: (findingId) => `${apiUrl}/findings/${encodeURIComponent(findingId)}`,
  };
}
