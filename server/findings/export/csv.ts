import { Readable } from 'node:stream';
import {
  exportFileName,
  type ExportFinding,
  type ExportMetadata,
  type RenderedExport,
} from './export-finding.ts';

/**
 * CSV export: RFC 4180 (CRLF record separators, fields quoted when they hold a quote,
 * comma, CR or LF, quotes doubled), UTF-8. One record per finding with the list-view
 * fields in the spec's order plus `description`, the risk decision and the triage
 * fields (`assignee`, `priority`); arrays are joined with `;`.
 */

type CsvValue = string | number | null | undefined | readonly string[];

interface CsvColumn {
  header: string;
  value(finding: ExportFinding): CsvValue;
}

const COLUMNS: readonly CsvColumn[] = [
  { header: 'id', value: (f) => f.id },
  { header: 'title', value: (f) => f.title },
  { header: 'severity', value: (f) => f.severity },
  { header: 'status', value: (f) => f.status },
  { header: 'cvss_score', value: (f) => f.cvss_score },
  { header: 'epss_score', value: (f) => f.epss_score },
  { header: 'target', value: (f) => f.target },
  { header: 'affected_component', value: (f) => f.affected_component },
  { header: 'tool', value: (f) => f.tool },
  { header: 'template_id', value: (f) => f.template_id },
  { header: 'cve_ids', value: (f) => f.cve_ids },
  { header: 'cwe_ids', value: (f) => f.cwe_ids },
  { header: 'scan_id', value: (f) => f.scan_id },
  { header: 'detected_at', value: (f) => f.detected_at },
  // The list view carries framework names only.
  { header: 'frameworks', value: (f) => f.frameworks.map((framework) => framework.name) },
  { header: 'due_date', value: (f) => f.due_date ?? null },
  { header: 'overdue', value: (f) => String(f.overdue ?? false) },
  { header: 'description', value: (f) => f.description },
  // The risk decision: why a finding is accepted or a false positive, who said so, when, until when.
  { header: 'justification', value: (f) => f.justification },
  { header: 'justified_by', value: (f) => f.justified_by },
  { header: 'justified_at', value: (f) => f.justified_at },
  { header: 'acceptance_expires_at', value: (f) => f.acceptance_expires_at },
  // Triage, appended so the columns before them keep their places (docs/export.md).
  { header: 'assignee', value: (f) => f.assignee ?? null },
  { header: 'priority', value: (f) => f.priority ?? null },
];

export const CSV_HEADERS: readonly string[] = COLUMNS.map((column) => column.header);

const CRLF = '\r\n';

/** Spreadsheets evaluate a cell that starts with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Prefixes text that a spreadsheet would run as a formula with `'`, so `=HYPERLINK(…)`
 * in a scanned page title stays text. Numbers never pass through here: a numeric
 * cell holds digits, not a formula, and its sign is data (CVSS and EPSS are never
 * negative anyway). A text cell such as a title of `-1` is prefixed like any other.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field, escaped and quoted as RFC 4180 requires. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = neutralizeFormula(typeof value === 'string' ? value : value.join(';'));
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',') + CRLF;
}

export interface CsvOptions {
  /** Start with a UTF-8 byte order mark, which Excel needs to read UTF-8. Off by default. */
  bom?: boolean;
}

/** The CSV as one string per record: the header, then one per finding as it arrives. */
export async function* csvRecords(
  findings: AsyncIterable<ExportFinding>,
  options: CsvOptions = {},
): AsyncGenerator<string> {
  yield (options.bom ? '\uFEFF' : '') + csvRecord(CSV_HEADERS);
  for await (const finding of findings) {
    yield csvRecord(COLUMNS.map((column) => column.value(finding)));
  }
}

/** Streams the findings as CSV, one record at a time, pulling rows only as the reader consumes. */
export function renderCsv(
  findings: AsyncIterable<ExportFinding>,
  metadata: ExportMetadata,
  options: CsvOptions = {},
): RenderedExport {
  return {
    contentType: 'text/csv; charset=utf-8',
    fileName: exportFileName('csv', metadata.generatedAt),
    body: Readable.from(csvRecords(findings, options), { objectMode: false }),
  };
}
