import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { CSV_HEADERS, csvRecords } from './export/csv.ts';
import { jsonPieces } from './export/json.ts';
import {
  renderFindingsExport,
  type ExportFinding,
  type ExportFormat,
  type ExportMetadata,
  type FindingSource,
  type RenderedExport,
} from './export/index.ts';
import {
  applyAfter,
  applyFilter,
  applyOrder,
  selectColumns,
  type FindingFilter,
  type FindingSort,
  type SortOrder,
} from './filters.ts';
import { DETAIL_COLUMNS, LIST_COLUMNS } from './rows.ts';
import { exportFinding, type ExportSourceRow } from './views.ts';

export interface ExportQuery extends FindingFilter {
  sort?: FindingSort | undefined;
  order?: SortOrder | undefined;
}

/**
 * `detail`: every field of the finding (JSON, PDF). `list`: the list-view fields
 * and the description only; the other fields come back empty. Half the bytes
 * from the database, enough for the CSV (see {@link csvNeedsOnlyListFields}).
 */
export type ExportFields = 'detail' | 'list';

export interface ExportOptions {
  batchSize?: number;
  fields?: ExportFields;
  /**
   * Fetch the next batch while the current one is rendered (default). Worth it
   * with a database in another process; with PGlite, which runs on the same
   * thread, it only keeps two batches alive at once.
   */
  prefetch?: boolean;
}

export const EXPORT_BATCH_SIZE = 1000;

const LIST_EXPORT_COLUMNS = [...LIST_COLUMNS, 'description'] as const;

/** Whether every CSV column is among the `list` fields, so the CSV may read only those. */
export const csvNeedsOnlyListFields: boolean = CSV_HEADERS.every(
  (header) => (LIST_EXPORT_COLUMNS as readonly string[]).includes(header) || header === 'first_seen_at',
);

/**
 * An organization's findings for export, read in keyset-paginated batches: each
 * batch is one short query that continues after the last row of the previous
 * one, so memory stays at one or two batches whatever the total, and no
 * connection or transaction is held between batches (PGlite's single connection
 * stays free for other requests). Rows are fetched only as fast as the reader
 * takes them. Database cursors are avoided on purpose: knex-pglite's stream()
 * buffers the whole result.
 */
export async function* exportFindings(
  db: Knex,
  orgId: string,
  query: ExportQuery,
  options: ExportOptions = {},
): AsyncGenerator<ExportFinding> {
  const { sort, order = 'desc', ...filter } = query;
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const columns = options.fields === 'list' ? LIST_EXPORT_COLUMNS : DETAIL_COLUMNS;
  type Batch = (ExportSourceRow | undefined)[];
  const fetchAfter = async (after: string | undefined): Promise<Batch> => {
    const batch = applyOrder(applyFilter(db('findings'), orgId, filter), sort, order)
      .select(selectColumns(db, columns))
      .limit(batchSize);
    if (after) applyAfter(batch, sort, order, after);
    return (await batch) as ExportSourceRow[];
  };

  const prefetch = options.prefetch ?? true;
  let pending: Promise<Batch> | undefined = fetchAfter(undefined);
  try {
    while (pending) {
      const rows: Batch = await pending;
      const more: boolean = rows.length === batchSize;
      const last: string | undefined = rows[rows.length - 1]?.id;
      pending = more && prefetch ? fetchAfter(last) : undefined;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        rows[i] = undefined; // a rendered row can be collected before the batch ends
        yield exportFinding(row);
      }
      if (more && !prefetch) pending = fetchAfter(last);
    }
  } finally {
    // A reader that stops early (client gone) leaves no unobserved rejection behind.
    pending?.catch(() => {});
  }
}

/** Joins small strings into pieces of about `size` characters. */
async function* joinText(pieces: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let held = '';
  for await (const piece of pieces) {
    held += piece;
    if (held.length >= size) {
      yield held;
      held = '';
    }
  }
  if (held) yield held;
}

/**
 * The export as an HTTP response: the renderer's content type and file name,
 * and a body in chunks of about 64 KiB. The CSV and JSON renderers produce one
 * small string per finding; their string generators are read directly and
 * joined, because writing 100,000 pieces to the socket one by one (each turned
 * into a Buffer first by the stream they return) costs more than rendering them.
 * The PDF renderer already emits large chunks.
 */
export function exportResponse(
  format: ExportFormat,
  source: FindingSource,
  metadata: ExportMetadata,
): RenderedExport {
  const rendered = renderFindingsExport(format, source, metadata);
  if (format === 'pdf') return rendered;
  rendered.body.destroy(); // never read: it has not touched the source
  const pieces = format === 'csv' ? csvRecords(source()) : jsonPieces(source());
  return { ...rendered, body: Readable.from(joinText(pieces), { objectMode: false }) };
}
