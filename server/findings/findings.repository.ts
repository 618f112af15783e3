import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import { severityRank } from '../scoring/severity.ts';
import { parseCidr } from '../schemas/common.ts';
import type { FindingSeverity, FindingStatus } from '../schemas/findings.ts';
import type { FindingRow } from './rows.ts';

/**
 * `findings`, the table: its registration in knex's table map, the shapes an
 * insert and an update take, and the query pieces its consumers share (the
 * filter, the orderings, the keyset cursor, the select list). The queries
 * themselves live in one module per consumer beside this one
 * (docs/architecture.md, "Where each table and each lifecycle lives"):
 *
 * - `findings-listing.repository.ts`: the list, the detail view, the export
 * - `findings-stats.repository.ts`: the statistics and the export's totals
 * - `findings-triage.repository.ts`: people's changes (status, triage fields)
 * - `findings-lifecycle.repository.ts`: a scan's writes
 * - `findings-controls.repository.ts`: the compliance view's reads
 * - `findings-remediation.repository.ts`: remediation guidance's reads
 *
 * The row types live in rows.ts. Every piece starts from the organization, so
 * no query path reaches another organization's finding.
 */

/** jsonb columns are written as JSON text (node-postgres would send an array as a PostgreSQL array). */
type FindingJsonColumns = 'remediation' | 'evidence' | 'frameworks';

/** Columns without a database default: what `insert` needs. */
type RequiredOnInsert =
  | 'id'
  | 'org_id'
  | 'fingerprint'
  | 'scan_id'
  | 'last_scan_id'
  | 'title'
  | 'severity'
  | 'severity_rank'
  | 'target'
  | 'affected_component'
  | 'tool'
  | 'template_id';

/** A new finding: the required columns, any others (the database fills the rest). */
export type NewFindingRow = Pick<FindingRow, RequiredOnInsert> &
  Partial<Omit<FindingRow, RequiredOnInsert | FindingJsonColumns>> & { [K in FindingJsonColumns]?: string };

/** What an UPDATE may set (a column may be set to an SQL expression; jsonb also as JSON text). */
export type FindingUpdate = {
  [K in keyof FindingRow]?: FindingRow[K] | (K extends FindingJsonColumns ? string : never) | Knex.Raw;
};

declare module 'knex/types/tables.js' {
  interface Tables {
    findings: Knex.CompositeTableType<FindingRow, NewFindingRow, FindingUpdate>;
  }
}

// --- the pieces the list, the export and the statistics share

/**
 * Query pieces the list, the export and the statistics share, for a query over
 * `findings` (unaliased): filters, orderings, the keyset cursor and the select
 * list. Every query starts from the organization: there is no path to another
 * organization's rows.
 */

export interface FindingFilter {
  severity?: FindingSeverity | undefined;
  /** One status, or several separated by commas (`open,in_progress`). */
  status?: FindingStatus | string | undefined;
  /** Findings the scan observed (finding_observations), not only those it owns. */
  scan_id?: string | undefined;
  /** A CIDR range, or a host and the hosts it begins up to a dot, ignoring case ({@link applyTarget}). */
  target?: string | undefined;
  tool?: string | undefined;
  /** cve_ids contains it (compared upper-case, as CVE ids are written). */
  cve?: string | undefined;
  /** detected_at ≥ from (inclusive). */
  from?: Date | undefined;
  /** detected_at < to (exclusive). */
  to?: Date | undefined;
  /** resolved_at ≥ resolved_from (inclusive). */
  resolved_from?: Date | undefined;
  /** resolved_at < resolved_to (exclusive). */
  resolved_to?: Date | undefined;
  /** Overdue at this instant: due_date before it, still open or in progress. */
  overdue_at?: Date | undefined;
  /** Free text, matched as a substring without case over title, component, target, CVE ids and description. */
  q?: string | undefined;
  kev?: boolean | undefined;
  /** Exact, ignoring case. */
  assignee?: string | undefined;
  /** Of this check (`template_id`, exact). */
  template_id?: string | undefined;
  /** On this asset of the inventory (docs/assets.md). */
  asset_id?: string | undefined;
}

/** `text` with LIKE's wildcards escaped, so it matches literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `text` as a LIKE pattern that matches it literally anywhere. */
function containing(text: string): string {
  return `%${literal(text)}%`;
}

/**
 * The text `q` searches, lower-cased: title, component, target, CVE ids and description, one
 * per line. The same expression as the trigram index (migrations/20261126050000_findings_search.ts).
 */
const SEARCH_TEXT =
  'scanward_finding_text(findings.title, findings.affected_component, findings.target, findings.cve_ids, findings.description)';

/**
 * The target rule (docs/findings-search.md): a CIDR range keeps the targets that are
 * addresses inside it; any other value, ignoring case, the target itself and the targets it
 * begins up to a dot (`redis` → `redis.internal`; `127.0.0` → `127.0.0.1`); a value ending
 * in a dot, every target that begins with it. The schema has checked a range's syntax.
 */
function applyTarget(query: Knex.QueryBuilder, target: string): void {
  const range = parseCidr(target);
  if (range) {
    query.whereRaw('scanward_inet(findings.target) <<= ?::inet', [`${range.address}/${range.prefix}`]);
  } else if (target.endsWith('.')) {
    query.whereRaw('lower(findings.target) like ?', [`${literal(target.toLowerCase())}%`]);
  } else {
    query.where((w) =>
      w
        .whereRaw('lower(findings.target) = ?', [target.toLowerCase()])
        .orWhereRaw('lower(findings.target) like ?', [`${literal(target.toLowerCase())}.%`]),
    );
  }
}

export function applyFilter<Q extends Knex.QueryBuilder>(query: Q, orgId: string, filter: FindingFilter): Q {
  query.where('findings.org_id', orgId);
  if (filter.severity) query.where('findings.severity_rank', severityRank(filter.severity));
  if (filter.status) query.whereIn('findings.status', filter.status.split(','));
  if (filter.tool) query.where('findings.tool', filter.tool);
  if (filter.target) applyTarget(query, filter.target);
  if (filter.cve) query.whereRaw('findings.cve_ids @> array[?]::text[]', [filter.cve.toUpperCase()]);
  if (filter.from) query.where('findings.detected_at', '>=', filter.from);
  if (filter.to) query.where('findings.detected_at', '<', filter.to);
  if (filter.resolved_from) query.where('findings.resolved_at', '>=', filter.resolved_from);
  if (filter.resolved_to) query.where('findings.resolved_at', '<', filter.resolved_to);
  if (filter.q) query.whereRaw(`${SEARCH_TEXT} like lower(?)`, [containing(filter.q)]);
  if (filter.kev !== undefined) query.where('findings.kev', filter.kev);
  if (filter.template_id) query.where('findings.template_id', filter.template_id);
  if (filter.asset_id) query.where('findings.asset_id', filter.asset_id);
  if (filter.assignee) query.whereRaw('lower(findings.assignee) = lower(?)', [filter.assignee]);
  if (filter.overdue_at) {
    query
      .where('findings.due_date', '<', filter.overdue_at)
      .whereIn('findings.status', ['open', 'in_progress']);
  }
  if (filter.scan_id) {
    const scanId = filter.scan_id;
    query.whereExists(function observedByScan() {
      this.select(this.client.raw('1'))
        .from('finding_observations as o')
        .where('o.scan_id', scanId)
        .whereRaw('o.finding_id = findings.id');
    });
  }
  return query;
}

export type FindingSort = 'severity' | 'created_at' | 'cvss_score';
export type SortOrder = 'asc' | 'desc';

/**
 * The ordering columns of a sort, all in one direction and ending with `id`, so
 * the order is total: pages never repeat or skip a row, and the export can walk
 * it with a keyset cursor.
 */
export function sortColumns(sort: FindingSort | undefined): string[] {
  switch (sort ?? 'severity') {
    case 'severity':
      return ['severity_rank', 'detected_at', 'id'];
    case 'created_at':
      return ['detected_at', 'id'];
    case 'cvss_score':
      return ['cvss_score', 'id'];
  }
}

export function applyOrder<Q extends Knex.QueryBuilder>(
  query: Q,
  sort: FindingSort | undefined,
  order: SortOrder = 'desc',
): Q {
  for (const column of sortColumns(sort)) query.orderBy(`findings.${column}`, order);
  return query;
}

/**
 * Keyset condition: rows strictly after the row `afterId` in the ordering.
 * The cursor row's own values are read in SQL, so timestamps keep their full
 * precision and no value makes a round trip through JavaScript.
 */
export function applyAfter<Q extends Knex.QueryBuilder>(
  query: Q,
  sort: FindingSort | undefined,
  order: SortOrder,
  afterId: string,
): Q {
  const columns = sortColumns(sort);
  const tuple = columns.map((c) => `findings.${c}`).join(', ');
  const cursor = columns.map((c) => `c.${c}`).join(', ');
  const op = order === 'desc' ? '<' : '>';
  query.whereRaw(`(${tuple}) ${op} (select ${cursor} from findings c where c.id = ?)`, [afterId]);
  return query;
}

/** Timestamp columns the list and export read as ISO 8601 text (see {@link selectColumns}). */
const ISO_COLUMNS: ReadonlySet<string> = new Set(['detected_at', 'last_seen_at']);

/**
 * The select list for `columns` of `findings`, with the timestamps the views
 * print formatted by the database as ISO 8601 UTC with milliseconds (what
 * `Date.toISOString()` prints): a page or an export then parses and formats no
 * dates at all, a measurable share of the work for large results.
 */
export function selectColumns(db: Db, columns: readonly string[]): (string | Knex.Raw)[] {
  return columns.map((c) =>
    ISO_COLUMNS.has(c)
      ? db.raw(`to_char(findings.?? at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ??`, [c, c])
      : `findings.${c}`,
  );
}
