import type { Db } from '../db/index.ts';
import { notFound } from '../errors.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { FindingDetail, FindingListItem } from '../schemas/findings.ts';
import { selectCommentsOfFinding } from './finding-comments.repository.ts';
import { selectHistoryOfFinding } from './finding-history.repository.ts';
import type { FindingFilter, FindingSort, SortOrder } from './findings.repository.ts';
import { selectSourcesOf } from './finding-sources.repository.ts';
import { sourceViews } from './sources.ts';
import { countFindings, selectFindingDetail, selectFindingsPage } from './findings-listing.repository.ts';
import { findingDetail, findingListItem } from './views.ts';
import { totalsCache } from './caches.ts';
import { findingsVersion } from './finding-versions.repository.ts';

export interface ListFindingsOptions extends FindingFilter {
  page: number;
  perPage: number;
  sort?: FindingSort | undefined;
  order?: SortOrder | undefined;
}

/** One page of an organization's findings, with the total over the filter. */
export async function listFindings(
  db: Db,
  orgId: string,
  options: ListFindingsOptions,
): Promise<PageOf<FindingListItem>> {
  const { page, perPage, sort, order, ...filter } = options;
  // The version is read before the rows, so a total cached for it is never older than them.
  const version = await findingsVersion(db, orgId);
  const rows = await selectFindingsPage(db, orgId, filter, {
    sort,
    order,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  // A short page that is not past the end tells the total by itself.
  const total =
    rows.length < perPage && (page === 1 || rows.length > 0)
      ? (page - 1) * perPage + rows.length
      : await totalsCache.get(JSON.stringify([orgId, filter]), version, () =>
          countFindings(db, orgId, filter),
        );
  return pageOf(rows.map(findingListItem), total, page, perPage);
}

/** The finding's detail view; a missing or foreign id is NOT_FOUND. */
export async function getFindingDetail(db: Db, orgId: string, findingId: string): Promise<FindingDetail> {
  const row = await selectFindingDetail(db, orgId, findingId);
  if (!row) throw notFound('finding');
  const comments = await selectCommentsOfFinding(db, orgId, findingId);
  const history = await selectHistoryOfFinding(db, orgId, findingId);
  const sources = await selectSourcesOf(db, orgId, [findingId]);
  return findingDetail(row, comments, history, sourceViews(sources));
}
