import { renderCsv } from './csv.ts';
import type { ExportFormat, ExportMetadata, RenderedExport } from './export-finding.ts';
import { renderJson } from './json.ts';
import { renderPdf, type FindingSource } from './pdf.ts';

export * from './export-finding.ts';
export { renderCsv, type CsvOptions } from './csv.ts';
export { renderJson } from './json.ts';
export { renderPdf, countTotals, type FindingSource } from './pdf.ts';

/**
 * Renders the export in `format`. `source` returns the findings, in report order,
 * each time it is called: CSV and JSON call it once, the PDF twice (or three times
 * without `metadata.totals`; see `renderPdf`).
 */
export function renderFindingsExport(
  format: ExportFormat,
  source: FindingSource,
  metadata: ExportMetadata,
): RenderedExport {
  switch (format) {
    case 'csv':
      return renderCsv(source(), metadata);
    case 'json':
      return renderJson(source(), metadata);
    case 'pdf':
      return renderPdf(source, metadata);
  }
}
