import { Readable } from 'node:stream';
import {
  exportFileName,
  type ExportFinding,
  type FindingComment,
  type FindingHistoryEntry,
  type ExportMetadata,
  type RenderedExport,
} from './export-finding.ts';

/**
 * JSON export: one array of finding detail objects, written as `[`, the items
 * separated by `,`, and `]`, so it is valid JSON for any number of rows and is
 * never held whole in memory.
 */

/**
 * The detail object for one finding: the fields of `GET /api/v1/findings/{id}`,
 * picked by name in the same order, so a database row with extra columns cannot
 * leak them into the file. Every object has the same keys: what the source did
 * not read is empty (`cvss_vector`, `asset_id`, the triage fields and `updated_at` null,
 * `comments` and `history` empty); `exportFindings` reads them all for JSON.
 */
export function findingDetail(f: ExportFinding) {
  return {
    id: f.id,
    title: f.title,
    severity: f.severity,
    status: f.status,
    cvss_score: f.cvss_score,
    cvss_vector: f.cvss_vector ?? null,
    epss_score: f.epss_score,
    epss_snapshot_date: f.epss_snapshot_date ?? null,
    target: f.target,
    affected_component: f.affected_component,
    tool: f.tool,
    template_id: f.template_id,
    cve_ids: f.cve_ids,
    cwe_ids: f.cwe_ids,
    scan_id: f.scan_id,
    detected_at: f.detected_at,
    description: f.description,
    impact: f.impact,
    remediation: {
      summary: f.remediation.summary,
      steps: f.remediation.steps,
      code_example: f.remediation.code_example,
      references: f.remediation.references,
    },
    evidence: {
      request: f.evidence.request,
      response: f.evidence.response,
      screenshot_url: f.evidence.screenshot_url,
      ...(f.evidence.established && { established: f.evidence.established }),
    },
    frameworks: f.frameworks.map((framework) => ({
      name: framework.name,
      controls: framework.controls,
      control_details: (framework.control_details ?? []).map((c) => ({
        id: c.id,
        reference: c.reference,
        name: c.name,
      })),
    })),
    comments: f.comments ? f.comments.map(commentOf) : [],
    history: f.history ? f.history.map(historyEntryOf) : [],
    // Read with the whole detail view (`fullDetail`, every JSON export): then every object has them.
    ...(f.sources && {
      sources: f.sources.map((src) => ({
        source: src.source,
        tool: src.tool,
        headline: src.headline,
        status: src.status,
        established: src.established,
        severity: src.severity,
        cvss_score: src.cvss_score,
        cvss_vector: src.cvss_vector,
        first_scan_id: src.first_scan_id,
        last_scan_id: src.last_scan_id,
        first_seen_at: src.first_seen_at,
        last_seen_at: src.last_seen_at,
        evidence: {
          request: src.evidence.request,
          response: src.evidence.response,
          screenshot_url: src.evidence.screenshot_url,
          ...(src.evidence.established && { established: src.evidence.established }),
        },
      })),
    }),
    first_seen_at: f.first_seen_at,
    last_seen_at: f.last_seen_at,
    times_seen: f.times_seen,
    last_scan_id: f.last_scan_id,
    asset_id: f.asset_id ?? null,
    assignee: f.assignee ?? null,
    priority: f.priority ?? null,
    due_date: f.due_date ?? null,
    overdue: f.overdue ?? false,
    notes: f.notes ?? null,
    justification: f.justification ?? null,
    justified_by: f.justified_by ?? null,
    justified_at: f.justified_at ?? null,
    acceptance_expires_at: f.acceptance_expires_at ?? null,
    updated_at: f.updated_at ?? null,
    // The tracker issues, as the detail view ends with them (read with `fullDetail`).
    ...(f.tickets && {
      tickets: f.tickets.map((t) => ({
        integration_id: t.integration_id,
        key: t.key,
        url: t.url,
        state: t.state,
      })),
    }),
  };
}

const commentOf = (c: FindingComment): FindingComment => ({
  id: c.id,
  user: c.user,
  text: c.text,
  created_at: c.created_at,
});

const historyEntryOf = (h: FindingHistoryEntry): FindingHistoryEntry => ({
  action: h.action,
  from: h.from,
  to: h.to,
  user: h.user,
  justification: h.justification ?? null,
  note: h.note ?? null,
  timestamp: h.timestamp,
});

/** The JSON text in pieces: the opening bracket, one piece per finding, the closing bracket. */
export async function* jsonPieces(findings: AsyncIterable<ExportFinding>): AsyncGenerator<string> {
  yield '[';
  let separator = '\n';
  for await (const finding of findings) {
    yield separator + JSON.stringify(findingDetail(finding));
    separator = ',\n';
  }
  yield '\n]\n';
}

/** Streams the findings as a JSON array, pulling rows only as the reader consumes. */
export function renderJson(findings: AsyncIterable<ExportFinding>, metadata: ExportMetadata): RenderedExport {
  return {
    contentType: 'application/json; charset=utf-8',
    fileName: exportFileName('json', metadata.generatedAt),
    body: Readable.from(jsonPieces(findings), { objectMode: false }),
  };
}
