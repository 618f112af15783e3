import { selectAssetLabels } from '../assets/assets-listing.repository.ts';
import type { Db } from '../db/index.ts';
import type { FindingGroupList } from '../schemas/findings.ts';
import type { FindingFilter } from './findings.repository.ts';
import {
  countFindingGroups,
  selectFindingGroups,
  type FindingGroupBy,
} from './findings-groups.repository.ts';

/**
 * GET /api/v1/findings/groups: the findings the list's filters keep, grouped by asset, CVE or
 * check, with counts by severity (docs/assets.md, "Grouping findings"). A finding with no
 * asset yet is in the one group of key null; a finding with several CVEs is counted in each,
 * one with none in no CVE group.
 */
export async function groupFindings(
  db: Db,
  orgId: string,
  by: FindingGroupBy,
  filter: FindingFilter,
  page: number,
  perPage: number,
): Promise<FindingGroupList> {
  const rows = await selectFindingGroups(db, orgId, filter, by, {
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  const total =
    rows.length < perPage && (page === 1 || rows.length > 0)
      ? (page - 1) * perPage + rows.length
      : await countFindingGroups(db, orgId, filter, by);
  const assets =
    by === 'asset'
      ? new Map(
          (
            await selectAssetLabels(
              db,
              orgId,
              rows.flatMap((r) => (r.key ? [r.key] : [])),
            )
          ).map((a) => [a.id, a]),
        )
      : new Map<string, { address: string; names: string[] }>();
  const items = rows.map((r) => {
    const asset = r.key ? assets.get(r.key) : undefined;
    const label = by === 'asset' ? (asset?.address ?? (r.key === null ? 'No asset' : r.key)) : (r.key ?? '');
    const detail =
      by === 'asset'
        ? asset && asset.names.length > 0
          ? asset.names.join(', ')
          : null
        : by === 'check'
          ? r.title
          : null;
    return {
      key: r.key,
      label,
      detail,
      total: Number(r.total),
      by_severity: {
        critical: Number(r.critical),
        high: Number(r.high),
        medium: Number(r.medium),
        low: Number(r.low),
        info: Number(r.info),
      },
    };
  });
  return { by, items, total, page, per_page: perPage, pages: Math.ceil(total / perPage) };
}
