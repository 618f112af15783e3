import { Readable } from 'node:stream';
import type { Db } from '../db/index.ts';
import { CSV_HEADERS, csvRecords } from './export/csv.ts';
import { jsonPieces } from './export/json.ts';
import {
  renderFindingsExport,
  type ExportFinding,
  type ExportFormat,
  type ExportMetadata,
  type ExportTicket,
  type FindingComment,
  type FindingHistoryEntry,
  type FindingSource,
  type RenderedExport,
} from './export/index.ts';
import { selectCommentsOfFindings } from './finding-comments.repository.ts';
import { selectSourcesOf, type FindingSourceRow } from './finding-sources.repository.ts';
import { sourceViews } from './sources.ts';
import type { FindingSourceView } from '../schemas/findings.ts';
import { selectHistoryOfFindings } from './finding-history.repository.ts';
import { ticketLinksOfFindings } from './finding-tickets-export.repository.ts';
import type { FindingFilter, FindingSort, SortOrder } from './findings.repository.ts';
import { selectExportBatch, type ExportSourceRow } from './findings-listing.repository.ts';
import { ACCEPTANCE_COLUMNS, DETAIL_COLUMNS, LIST_COLUMNS } from './rows.ts';
import { commentView, exportFinding, historyEntry } from './views.ts';

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
   * Each finding as its whole detail view: the `detail` fields plus the triage
   * fields, comments and history, exactly as `GET /api/v1/findings/{id}` shows
   * them (the JSON export). Costs two more queries per batch, keyed by the
   * batch's finding ids, so only the JSON export asks for it
   * ({@link exportResponse} turns it on for JSON).
   */
  fullDetail?: boolean;
  /** Each finding with the sources that saw it (`sources`, as the detail view): the PDF's "Seen by". */
  sources?: boolean;
  /**
   * Fetch the next batch while the current one is rendered (default). Worth it
   * with a database in another process; with PGlite, which runs on the same
   * thread, it only keeps two batches alive at once.
   */
  prefetch?: boolean;
}

export const EXPORT_BATCH_SIZE = 1000;

const LIST_EXPORT_COLUMNS = [
  ...LIST_COLUMNS,
  'description',
  ...ACCEPTANCE_COLUMNS,
  'assignee',
  'priority',
] as const;

/** CSV columns computed from the list fields: `first_seen_at` is `detected_at`, `overdue` from `due_date` and `status`. */
const COMPUTED_COLUMNS: readonly string[] = ['first_seen_at', 'overdue'];

/** Whether every CSV column is among the `list` fields, so the CSV may read only those. */
export const csvNeedsOnlyListFields: boolean = CSV_HEADERS.every(
  (header) =>
    (LIST_EXPORT_COLUMNS as readonly string[]).includes(header) || COMPUTED_COLUMNS.includes(header),
);

/**
 * An organization's findings for export, read in keyset-paginated batches: each
 * batch is one short query that continues after the last row of the previous
 * one, so memory stays at one or two batches whatever the total, and no
 * connection or transaction is held between batches (PGlite's single connection
 * stays free for other requests). Rows are fetched only as fast as the reader
 * takes them. Database cursors are avoided on purpose: knex-pglite's stream()
 * buffers the whole result. Nothing is read until the result is iterated.
 */
export function exportFindings(
  db: Db,
  orgId: string,
  query: ExportQuery,
  options: ExportOptions = {},
): ExportRows {
  return new ExportRows(db, orgId, query, options);
}

/** The findings {@link exportFindings} reads, each time it is iterated. */
export class ExportRows implements AsyncIterable<ExportFinding> {
  constructor(
    private readonly db: Db,
    private readonly orgId: string,
    private readonly query: ExportQuery,
    readonly options: ExportOptions,
  ) {}

  /** The same findings as whole detail views, comments and history included (see `fullDetail`). */
  withFullDetail(): ExportRows {
    if (this.options.fullDetail) return this;
    return new ExportRows(this.db, this.orgId, this.query, { ...this.options, fullDetail: true });
  }

  /** The same findings with their sources (the PDF's "Seen by"). */
  withSources(): ExportRows {
    if (this.options.sources) return this;
    return new ExportRows(this.db, this.orgId, this.query, { ...this.options, sources: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<ExportFinding> {
    return readFindings(this.db, this.orgId, this.query, this.options);
  }
}

/** Comments and history of one batch of findings, by finding id, oldest first. */
interface Discussion {
  comments: Map<string, FindingComment[]>;
  history: Map<string, FindingHistoryEntry[]>;
  tickets: Map<string, ExportTicket[]>;
}

interface Batch {
  rows: (ExportSourceRow | undefined)[];
  discussion?: Discussion;
  sources?: Map<string, FindingSourceView[]>;
}

/** The sources of the findings `ids`, by finding id, strongest first. */
async function sourcesOf(db: Db, orgId: string, ids: string[]): Promise<Map<string, FindingSourceView[]>> {
  const byFinding = new Map<string, FindingSourceRow[]>();
  for (const row of await selectSourcesOf(db, orgId, ids))
    byFinding.set(row.finding_id, [...(byFinding.get(row.finding_id) ?? []), row]);
  return new Map([...byFinding].map(([id, rows]) => [id, sourceViews(rows)]));
}

function groupBy<R extends { finding_id: string }, T>(rows: R[], present: (row: R) => T): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.finding_id);
    if (group) group.push(present(row));
    else groups.set(row.finding_id, [present(row)]);
  }
  return groups;
}

/**
 * The comments, the history and the tickets of the findings `ids` of the organization: one
 * query each, in the detail view's order (creation time, then insertion order),
 * presented by the detail view's own presenters.
 */
async function discussionOf(db: Db, orgId: string, ids: string[]): Promise<Discussion> {
  const comments = await selectCommentsOfFindings(db, orgId, ids);
  const history = await selectHistoryOfFindings(db, orgId, ids);
  const tickets = await ticketLinksOfFindings(db, orgId, ids);
  return {
    comments: groupBy(comments, commentView),
    history: groupBy(history, historyEntry),
    tickets: groupBy(tickets, ({ integration_id, key, url, state }) => ({ integration_id, key, url, state })),
  };
}

/** The finding with the rest of its detail view: triage fields, comments and history. */
function withDiscussion(finding: ExportFinding, row: ExportSourceRow, discussion: Discussion): ExportFinding {
  const { comments, history, tickets } = discussion;
  finding.comments = comments.get(row.id) ?? [];
  finding.history = history.get(row.id) ?? [];
  finding.tickets = tickets.get(row.id) ?? [];
  comments.delete(row.id);
  history.delete(row.id);
  tickets.delete(row.id);
  finding.assignee = row.assignee ?? null;
  finding.priority = row.priority ?? null;
  finding.notes = row.notes ?? null;
  if (row.updated_at) finding.updated_at = row.updated_at.toISOString();
  return finding;
}

/** The triage fields the CSV and the PDF show (the JSON export has them from {@link withDiscussion}). */
function withTriage(finding: ExportFinding, row: ExportSourceRow): ExportFinding {
  finding.assignee = row.assignee ?? null;
  finding.priority = row.priority ?? null;
  return finding;
}

async function* readFindings(
  db: Db,
  orgId: string,
  query: ExportQuery,
  options: ExportOptions,
): AsyncGenerator<ExportFinding> {
  const { sort, order = 'desc', ...filter } = query;
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const fullDetail = options.fullDetail ?? false;
  const columns = options.fields === 'list' && !fullDetail ? LIST_EXPORT_COLUMNS : DETAIL_COLUMNS;
  const fetchAfter = async (after: string | undefined): Promise<Batch> => {
    const rows = await selectExportBatch(db, orgId, filter, {
      sort,
      order,
      columns,
      limit: batchSize,
      after,
    });
    if ((!fullDetail && !options.sources) || rows.length === 0) return { rows };
    const ids = rows.map((row) => row.id);
    return {
      rows,
      ...(fullDetail && { discussion: await discussionOf(db, orgId, ids) }),
      sources: await sourcesOf(db, orgId, ids),
    };
  };

  const prefetch = options.prefetch ?? true;
  let pending: Promise<Batch> | undefined = fetchAfter(undefined);
  try {
    while (pending) {
      const { rows, discussion, sources }: Batch = await pending;
      const more: boolean = rows.length === batchSize;
      const last: string | undefined = rows[rows.length - 1]?.id;
      pending = more && prefetch ? fetchAfter(last) : undefined;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        rows[i] = undefined; // a rendered row can be collected before the batch ends
        const finding = exportFinding(row);
        if (sources) {
          finding.sources = sources.get(row.id) ?? [];
          sources.delete(row.id);
        }
        yield discussion ? withDiscussion(finding, row, discussion) : withTriage(finding, row);
      }
      if (more && !prefetch) pending = fetchAfter(last);
    }
  } finally {
    // A reader that stops early (client gone) leaves no unobserved rejection behind.
    pending?.catch(() => {});
  }
}

/** `rows` as whole detail views when they come from {@link exportFindings}. */
function fullDetailOf(rows: AsyncIterable<ExportFinding>): AsyncIterable<ExportFinding> {
  return rows instanceof ExportRows ? rows.withFullDetail() : rows;
}

/** `rows` with their sources when they come from {@link exportFindings}. */
function withSourcesOf(rows: AsyncIterable<ExportFinding>): AsyncIterable<ExportFinding> {
  return rows instanceof ExportRows ? rows.withSources() : rows;
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
 *
 * The JSON objects are whole detail views, so for JSON the rows of
 * {@link exportFindings} are read with `fullDetail` (comments and history);
 * the CSV and the PDF do not pay for those queries.
 */
export function exportResponse(
  format: ExportFormat,
  source: FindingSource,
  metadata: ExportMetadata,
): RenderedExport {
  if (format === 'pdf') return renderFindingsExport(format, () => withSourcesOf(source()), metadata);
  const rendered = renderFindingsExport(format, source, metadata);
  rendered.body.destroy(); // never read: it has not touched the source
  const pieces = format === 'csv' ? csvRecords(source()) : jsonPieces(fullDetailOf(source()));
  return { ...rendered, body: Readable.from(joinText(pieces), { objectMode: false }) };
}
