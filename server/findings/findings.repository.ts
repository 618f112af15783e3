import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import { severityRank } from '../scoring/severity.ts';
import {
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  type FindingSeverity,
  type FindingStatus,
} from '../schemas/findings.ts';
import { DETAIL_COLUMNS, LIST_COLUMNS, type DetailRow, type FindingRow, type ListRow } from './rows.ts';

/**
 * Typed queries over `findings`. The row types live in rows.ts (the findings
 * module's row types, shared with the lifecycle); every query takes the
 * organization id, so no query path reaches another organization's finding.
 */

// --- read side and triage (findings-read)

/**
 * What a write may give a column. The jsonb columns may come as JSON text (an
 * array of objects is otherwise sent as a PostgreSQL array). `status` and
 * `priority` may come as plain text, as the scan engine and the test factories
 * write them today: the table's CHECK constraints hold their values. Reads are
 * typed by {@link FindingRow} itself.
 */
type WrittenFindingColumns = {
  [K in keyof FindingRow]: K extends 'remediation' | 'evidence' | 'frameworks'
    ? FindingRow[K] | string
    : K extends 'status' | 'priority'
      ? FindingRow[K] | string
      : FindingRow[K];
};

/** Columns a new finding may leave out: they have a database default or are nullable. */
type OptionalFindingColumn =
  | 'status'
  | 'cvss_score'
  | 'cvss_vector'
  | 'epss_score'
  | 'port'
  | 'category'
  | 'cve_ids'
  | 'cwe_ids'
  | 'description'
  | 'impact'
  | 'frameworks'
  | 'kev'
  | 'assignee'
  | 'priority'
  | 'due_date'
  | 'notes'
  | 'times_seen'
  | 'resolved_at'
  | 'created_at'
  | 'updated_at';

type InsertedFindingRow = Omit<WrittenFindingColumns, OptionalFindingColumn> &
  Partial<Pick<WrittenFindingColumns, OptionalFindingColumn>>;

/** An update: any columns, each a value or SQL computed from the row (`Knex.Raw`). */
type FindingUpdate = { [K in keyof WrittenFindingColumns]?: WrittenFindingColumns[K] | Knex.Raw };

declare module 'knex/types/tables.js' {
  interface Tables {
    findings: Knex.CompositeTableType<FindingRow, InsertedFindingRow, FindingUpdate>;
  }
}

/**
 * Query pieces the list, the export and the statistics share, for a query over
 * `findings` (unaliased): filters, orderings, the keyset cursor and the select
 * list. Every query starts from the organization: there is no path to another
 * organization's rows.
 */

export interface FindingFilter {
  severity?: FindingSeverity | undefined;
  status?: FindingStatus | undefined;
  /** Findings the scan observed (finding_observations), not only those it owns. */
  scan_id?: string | undefined;
  /** Exact, ignoring case. */
  target?: string | undefined;
  tool?: string | undefined;
  /** cve_ids contains it (compared upper-case, as CVE ids are written). */
  cve?: string | undefined;
  /** detected_at ≥ from (inclusive). */
  from?: Date | undefined;
  /** detected_at < to (exclusive). */
  to?: Date | undefined;
}

export function applyFilter<Q extends Knex.QueryBuilder>(query: Q, orgId: string, filter: FindingFilter): Q {
  query.where('findings.org_id', orgId);
  if (filter.severity) query.where('findings.severity_rank', severityRank(filter.severity));
  if (filter.status) query.where('findings.status', filter.status);
  if (filter.tool) query.where('findings.tool', filter.tool);
  if (filter.target) query.whereRaw('lower(findings.target) = lower(?)', [filter.target]);
  if (filter.cve) query.whereRaw('findings.cve_ids @> array[?]::text[]', [filter.cve.toUpperCase()]);
  if (filter.from) query.where('findings.detected_at', '>=', filter.from);
  if (filter.to) query.where('findings.detected_at', '<', filter.to);
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
  return Number(row!.n);
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

const WEEK_MS = 7 * 24 * 3600 * 1000;

export type StatsFilter = Pick<FindingFilter, 'target' | 'from' | 'to'>;

/** One row per (tool, severity, status) group of the filtered findings, with the trend counts. */
export interface StatsGroup {
  tool: string;
  severity_rank: number;
  status: (typeof FINDING_STATUSES)[number];
  n: number;
  new_this_week: number;
  resolved_this_week: number;
  resolutions: number;
  resolution_seconds: number;
}

/**
 * The statistics query: at most a few hundred group rows, aggregated by the
 * database from a covering index (findings_org_stats_idx), never from the
 * findings themselves. `from`/`to` limit by detection time; the trends count
 * the 7 days before `now`.
 */
export function statsGroupsQuery(db: Db, orgId: string, filter: StatsFilter, now: Date) {
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const resolved = "status = 'resolved' and resolved_at is not null";
  // groupBy before select: knex's typing of groupBy() would narrow the selected row type.
  return applyFilter(db('findings'), orgId, filter)
    .groupBy('tool', 'severity_rank', 'status')
    .select<StatsGroup[]>(
      'tool',
      'severity_rank',
      'status',
      db.raw('count(*)::int as n'),
      db.raw('count(*) filter (where detected_at >= ?)::int as new_this_week', [weekAgo]),
      db.raw(`count(*) filter (where ${resolved} and resolved_at >= ?)::int as resolved_this_week`, [
        weekAgo,
      ]),
      db.raw(`count(*) filter (where ${resolved})::int as resolutions`),
      db.raw(
        `coalesce(sum(extract(epoch from resolved_at - detected_at)) filter (where ${resolved}), 0)::float8 as resolution_seconds`,
      ),
    );
}

/** The statistics' group rows (see {@link statsGroupsQuery}). */
export async function selectStatsGroups(
  db: Db,
  orgId: string,
  filter: StatsFilter,
  now: Date,
): Promise<StatsGroup[]> {
  return statsGroupsQuery(db, orgId, filter, now);
}

/** `total`, `sev_<severity>` and `st_<status>` counts over a filter. */
export type FindingTotalsRow = Record<string, number>;

/** Counts by severity and status over a filter, in one aggregate row. */
export async function selectFindingTotals(
  db: Db,
  orgId: string,
  filter: FindingFilter,
): Promise<FindingTotalsRow> {
  const row = await applyFilter(db('findings'), orgId, filter)
    .select<FindingTotalsRow[]>(
      db.raw('count(*)::int as total'),
      ...FINDING_SEVERITIES.map((s) =>
        db.raw('count(*) filter (where severity = ?)::int as ??', [s, `sev_${s}`]),
      ),
      ...FINDING_STATUSES.map((s) => db.raw('count(*) filter (where status = ?)::int as ??', [s, `st_${s}`])),
    )
    .first();
  return row!;
}

/** What a status change needs to know of a finding it locked. */
export type TriageLockedRow = Pick<FindingRow, 'id' | 'status' | 'resolved_at'>;

/** Locks the organization's finding for a triage change (`FOR UPDATE`); undefined when missing or foreign. */
export async function lockFindingForTriage(
  trx: Knex.Transaction,
  orgId: string,
  findingId: string,
): Promise<TriageLockedRow | undefined> {
  return trx('findings')
    .where({ org_id: orgId, id: findingId })
    .forUpdate()
    .first('id', 'status', 'resolved_at');
}

/** Locks those of `ids` that are the organization's findings, in id order (no deadlock between bulk updates). */
export async function lockFindingsForTriage(
  trx: Knex.Transaction,
  orgId: string,
  ids: readonly string[],
): Promise<TriageLockedRow[]> {
  return trx('findings')
    .where('org_id', orgId)
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id', 'status', 'resolved_at');
}

/** Whether the organization has this finding. */
export async function findingExists(db: Db, orgId: string, findingId: string): Promise<boolean> {
  return (await db('findings').where({ org_id: orgId, id: findingId }).first('id')) !== undefined;
}

/** The triage fields a change answers with. */
export type TriagedRow = Pick<
  FindingRow,
  'id' | 'status' | 'assignee' | 'priority' | 'due_date' | 'notes' | 'updated_at'
>;

/** Applies a triage change to one of the organization's findings; undefined when it has no such finding. */
export async function updateFindingTriage(
  trx: Knex.Transaction,
  orgId: string,
  findingId: string,
  values: Partial<FindingRow>,
): Promise<TriagedRow | undefined> {
  const [row] = await trx('findings')
    .where({ org_id: orgId, id: findingId })
    .update(values)
    .returning(['id', 'status', 'assignee', 'priority', 'due_date', 'notes', 'updated_at']);
  return row;
}

/**
 * Sets one status (and optionally notes) on the organization's findings `ids`.
 * Findings already in the target status keep their resolved_at; the others get
 * the one their new status implies (history.ts `resolvedAtAfter`, in SQL).
 */
export async function setStatusOfFindings(
  trx: Knex.Transaction,
  orgId: string,
  ids: readonly string[],
  change: { status: FindingStatus; notes?: string | undefined; now: Date },
): Promise<void> {
  const { status, notes, now } = change;
  await trx('findings')
    .where('org_id', orgId)
    .whereIn('id', ids)
    .update({
      status,
      updated_at: now,
      resolved_at:
        status === 'resolved'
          ? trx.raw("case when status = 'resolved' then coalesce(resolved_at, ?) else ? end", [now, now])
          : null,
      ...(notes !== undefined ? { notes } : {}),
    });
}
