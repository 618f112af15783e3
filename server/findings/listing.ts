import type { Knex } from 'knex';
import { notFound } from '../http/errors.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { FindingDetail, FindingListItem } from '../schemas/findings.ts';
import {
  applyFilter,
  applyOrder,
  selectColumns,
  type FindingFilter,
  type FindingSort,
  type SortOrder,
} from './filters.ts';
import { DETAIL_COLUMNS, LIST_COLUMNS, type CommentRow, type DetailRow, type HistoryRow } from './rows.ts';
import { findingDetail, findingListItem, type ListSourceRow } from './views.ts';
import { totalsCache } from './caches.ts';
import { findingsVersion } from './versions.ts';

export interface ListFindingsOptions extends FindingFilter {
  page: number;
  perPage: number;
  sort?: FindingSort | undefined;
  order?: SortOrder | undefined;
}

/** One page of an organization's findings, with the total over the filter. */
export async function listFindings(
  db: Knex,
  orgId: string,
  options: ListFindingsOptions,
): Promise<PageOf<FindingListItem>> {
  const { page, perPage, sort, order, ...filter } = options;
  // The version is read before the rows, so a total cached for it is never older than them.
  const version = await findingsVersion(db, orgId);
  const rows = (await applyOrder(applyFilter(db('findings'), orgId, filter), sort, order)
    .select(selectColumns(db, LIST_COLUMNS))
    .limit(perPage)
    .offset((page - 1) * perPage)) as ListSourceRow[];
  // A short page that is not past the end tells the total by itself.
  const total =
    rows.length < perPage && (page === 1 || rows.length > 0)
      ? (page - 1) * perPage + rows.length
      : await totalsCache.get(JSON.stringify([orgId, filter]), version, async () => {
          const [row] = await applyFilter(db('findings'), orgId, filter).count<{ n: number }[]>({ n: '*' });
          return Number(row!.n);
        });
  return pageOf(rows.map(findingListItem), total, page, perPage);
}

/** The finding's detail view; a missing or foreign id is NOT_FOUND. */
export async function getFindingDetail(db: Knex, orgId: string, findingId: string): Promise<FindingDetail> {
  const row = (await db('findings').where({ org_id: orgId, id: findingId }).first(DETAIL_COLUMNS)) as
    DetailRow | undefined;
  if (!row) throw notFound('finding');
  const comments = (await db('finding_comments')
    .where({ org_id: orgId, finding_id: findingId })
    .orderBy([{ column: 'created_at' }, { column: 'seq' }])) as CommentRow[];
  const history = (await db('finding_history')
    .where({ org_id: orgId, finding_id: findingId })
    .orderBy([{ column: 'created_at' }, { column: 'seq' }])) as HistoryRow[];
  return findingDetail(row, comments, history);
}
