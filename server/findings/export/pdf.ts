import { Readable } from 'node:stream';
import {
  exportFileName,
  type ExportFinding,
  type ExportMetadata,
  type ExportTotals,
  type RenderedExport,
} from './export-finding.ts';
import { FindingsReport } from './pdf-report.ts';
import { PAGE } from './pdf-theme.ts';

/**
 * PDF export: a cover page with the report details and summary charts, a findings
 * table, then a detail section per finding.
 *
 * The table lists every finding before the first detail section, so the source is
 * read twice: `source` is called once for the table and once for the details (and
 * once more, first, to count the findings when `metadata.totals` is absent). Each
 * call must return the same findings in the same order, e.g. the same ordered query
 * run again; run both inside one REPEATABLE READ transaction when the table and the
 * details must agree exactly while findings change. Memory stays flat: each finding
 * is drawn and dropped, and pdfkit writes every page out as soon as the next begins.
 */
export type FindingSource = () => AsyncIterable<ExportFinding>;

export function renderPdf(source: FindingSource, metadata: ExportMetadata): RenderedExport {
  return {
    contentType: 'application/pdf',
    fileName: exportFileName('pdf', metadata.generatedAt),
    body: Readable.from(pdfChunks(source, metadata), { objectMode: false }),
  };
}

/** Counts by severity and status in one pass, for callers that have no totals query. */
export async function countTotals(findings: AsyncIterable<ExportFinding>): Promise<ExportTotals> {
  const totals: Required<ExportTotals> = { by_severity: {}, by_status: {}, total: 0 };
  for await (const finding of findings) {
    totals.by_severity[finding.severity] = (totals.by_severity[finding.severity] ?? 0) + 1;
    totals.by_status[finding.status] = (totals.by_status[finding.status] ?? 0) + 1;
    totals.total += 1;
  }
  return totals;
}

/**
 * The PDF's bytes, drawn as the reader asks for them: after each finding the
 * bytes pdfkit has written so far are handed on, and drawing resumes only when
 * the reader wants more, which is what paces the database cursor.
 */
async function* pdfChunks(source: FindingSource, metadata: ExportMetadata): AsyncGenerator<Uint8Array> {
  const totals = metadata.totals ?? (await countTotals(source()));
  // pdfkit (with its font and compression code, ~20 MB of a process's memory) is loaded by the
  // first PDF export, not by every process that serves the API (docs/performance.md, Footprint).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    autoFirstPage: false,
    size: PAGE.size,
    margins: PAGE.margins,
    info: {
      Title: `Vulnerability Findings Report: ${metadata.organization}`,
      Author: 'Scanward',
      Creator: 'Scanward',
      Subject: 'Vulnerability findings',
      CreationDate: metadata.generatedAt,
    },
  });
  // The document is read in paused mode: what pdfkit has written is in its buffer as soon as it
  // is written, and `read()` takes it at once. (A 'data' listener would see nothing until the
  // stream starts flowing on a later tick, and a source that never pauses would starve it.)
  const finished = new Promise<void>((resolve, reject) => {
    doc.once('end', resolve);
    doc.once('error', reject);
  });
  finished.catch(() => {}); // awaited below; this only keeps an early error from going unhandled
  const takeWritten = (): Uint8Array[] => {
    const chunk = doc.read() as Uint8Array | null;
    return chunk ? [chunk] : [];
  };

  const report = new FindingsReport(doc, metadata, totals);
  report.cover();
  report.startTable();
  yield* takeWritten();

  let number = 0;
  for await (const finding of source()) {
    report.tableRow(finding, ++number);
    yield* takeWritten();
  }
  report.endTable(number);

  if (number > 0) {
    report.startDetails();
    number = 0;
    for await (const finding of source()) {
      report.findingSection(finding, ++number);
      yield* takeWritten();
    }
  }

  doc.end();
  yield* takeWritten();
  doc.read(); // past the end: lets the stream emit 'end'
  await finished;
}
