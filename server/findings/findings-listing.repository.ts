import type { Db } from '../db/index.ts';
import {
  applyAfter,
  applyFilter,
  applyOrder,
  selectColumns,
  type FindingFilter,
  type FindingSort,
  type SortOrder,
} from './findings.repository.ts';
import { DETAIL_COLUMNS, LIST_COLUMNS, type DetailRow, type FindingRow, type ListRow } from './rows.ts';

/**
 * The findings API's reads (findings/listing.ts, findings/export-source.ts): a
 * page of the list and its count, one finding's detail, the export's batches.
 * Every query takes the organization id.
 */

/** A list row whose timestamps come as ISO text from the database ({@link selectColumns}). */
export type ListSourceRow = Omit<ListRow, 'detected_at' | 'last_seen_at'> & {
  detected_at: Date | string;
  last_seen_at: Date | string;
};

/**
 * A row the export renders: list-view columns and the description at least,
 * the other detail columns when selected. The export may have the database
 * format its timestamps (ISO 8601 text), which spares parsing and formatting
 * 200,000 dates per 100,000 findings.
 */
export type ExportSourceRow = Omit<ListRow, 'detected_at' | 'last_seen_at'> &
  Partial<DetailRow> &
  Pick<DetailRow, 'description'> & { detected_at: Date | string; last_seen_at: Date | string };

export interface FindingsPage {
  sort?: FindingSort | undefined;
  order?: SortOrder | undefined;
  limit: number;
  offset: number;
}

/** One page of the organization's findings over a filter, list columns only. */
export async function selectFindingsPage(
  db: Db,
  orgId: string,
  filter: FindingFilter,
  page: FindingsPage,
): Promise<ListSourceRow[]> {
  return applyOrder(applyFilter(db('findings'), orgId, filter), page.sort, page.order)
    .select<ListSourceRow[]>(selectColumns(db, LIST_COLUMNS))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many of the organization's findings the filter keeps. */
export async function countFindings(db: Db, orgId: string, filter: FindingFilter): Promise<number> {
  const [row] = await applyFilter(db('findings'), orgId, filter).count<{ n: number | string }[]>({ n: '*' });
  return Number(row?.n ?? 0);
}

/** The finding's detail columns (comments and history aside), or undefined for a missing or foreign id. */
export async function selectFindingDetail(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<DetailRow | undefined> {
  return db('findings').where({ org_id: orgId, id: findingId }).first<DetailRow | undefined>(DETAIL_COLUMNS);
}

export interface ExportBatch {
  sort?: FindingSort | undefined;
  order: SortOrder;
  columns: readonly (keyof FindingRow)[];
  limit: number;
  /** The id of the previous batch's last row (keyset cursor); the first batch has none. */
  after?: string | undefined;
}

/**
 * One batch of the export: at most `limit` rows in the filter's order after the
 * row `after`. One short query, no cursor and no transaction held between
 * batches.
 */
export async function selectExportBatch(
  db: Db,
  orgId: string,
  filter: FindingFilter,
  batch: ExportBatch,
): Promise<ExportSourceRow[]> {
  const query = applyOrder(applyFilter(db('findings'), orgId, filter), batch.sort, batch.order)
    .select<ExportSourceRow[]>(selectColumns(db, batch.columns))
    .limit(batch.limit);
  if (batch.after) applyAfter(query, batch.sort, batch.order, batch.after);
  return query;
}
