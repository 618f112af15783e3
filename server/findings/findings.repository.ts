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
import type { FindingPriority } from '../schemas/findings.ts';
import { observedByScan } from './finding-observations.repository.ts';

/**
 * Typed queries over `findings`. The row types live in rows.ts (the findings
 * module's row types, shared with the lifecycle); every query takes the
 * organization id, so no query path reaches another organization's finding.
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

// --- reads and triage (the findings API, stats, export)

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

// --- a scan's writes (findings/lifecycle.ts decides what they are)

/*
 * The writes a scan makes to `findings` (server/findings/lifecycle.ts decides
 * what they are). Every query filters on the organization.
 */

export type FindingKey = Pick<FindingRow, 'id' | 'fingerprint' | 'status'>;

/** The organization's findings with these fingerprints, locked in fingerprint order (no deadlock between scans). */
export async function lockFindingsByFingerprint(
  trx: Db,
  orgId: string,
  fingerprints: readonly string[],
): Promise<FindingKey[]> {
  if (fingerprints.length === 0) return [];
  return trx('findings')
    .where('org_id', orgId)
    .whereIn('fingerprint', fingerprints)
    .orderBy('fingerprint')
    .forUpdate()
    .select('id', 'fingerprint', 'status');
}

/** Inserts the findings; one whose fingerprint exists already is skipped. Answers those inserted. */
export async function insertFindingsIfNew(
  trx: Db,
  orgId: string,
  rows: readonly NewFindingRow[],
): Promise<Pick<FindingRow, 'id' | 'fingerprint'>[]> {
  if (rows.length === 0) return [];
  return trx('findings')
    .insert(rows.map((row) => ({ ...row, org_id: orgId })))
    .onConflict(['org_id', 'fingerprint'])
    .ignore()
    .returning(['id', 'fingerprint']);
}

/** A new sighting of a known finding: the latest detection's data (null keeps the stored value). */
export interface Sighting {
  id: string;
  title: string;
  severity: FindingRow['severity'];
  severity_rank: number;
  cvss_score: number;
  cvss_vector: string | null;
  epss_score: number | null;
  port: number | null;
  tool: string;
  category: string | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  remediation: FindingRow['remediation'] | null;
  evidence: FindingRow['evidence'];
  frameworks: FindingRow['frameworks'] | null;
  kev: boolean | null;
  /** Set where nobody (and no earlier planning) set a priority; null leaves it. */
  planned_priority: FindingPriority | null;
}

/**
 * Applies sightings to known findings in one statement: the latest data, one
 * more sighting, `resolved` back to `open`. Remediation, frameworks, EPSS, KEV,
 * category and port are kept when the sighting does not carry them; people's
 * fields (assignee, notes…) and the owning scan never change here, and
 * `priority` only where none is set.
 */
export async function applySightings(
  trx: Db,
  orgId: string,
  scanId: string,
  sightings: readonly Sighting[],
  now: Date,
): Promise<void> {
  if (sightings.length === 0) return;
  await trx.raw(
    `update findings as f set
       last_scan_id = ?, last_seen_at = ?, updated_at = ?, times_seen = f.times_seen + 1,
       title = v.title, severity = v.severity, severity_rank = v.severity_rank,
       cvss_score = v.cvss_score, cvss_vector = v.cvss_vector,
       epss_score = coalesce(v.epss_score, f.epss_score),
       port = coalesce(v.port, f.port), tool = v.tool, category = coalesce(v.category, f.category),
       cve_ids = v.cve_ids, cwe_ids = v.cwe_ids, description = v.description, impact = v.impact,
       remediation = coalesce(v.remediation, f.remediation), evidence = v.evidence,
       frameworks = coalesce(v.frameworks, f.frameworks), kev = coalesce(v.kev, f.kev),
       priority = coalesce(f.priority, v.planned_priority),
       status = case when f.status = 'resolved' then 'open' else f.status end,
       resolved_at = case when f.status = 'resolved' then null else f.resolved_at end
     from jsonb_to_recordset(?::jsonb) as v(
       id text, title text, severity text, severity_rank smallint, cvss_score float8, cvss_vector text,
       epss_score float8, port int, tool text, category text, cve_ids text[], cwe_ids text[],
       description text, impact text, remediation jsonb, evidence jsonb, frameworks jsonb, kev boolean,
       planned_priority text)
     where f.id = v.id and f.org_id = ?`,
    [scanId, now, now, JSON.stringify(sightings), orgId],
  );
}

/**
 * A check and port a scan covered on some targets; `port_ranges` instead of `port` for a port
 * sweep. Targets that share the check and ports share one combination: a range's sweep is one
 * combination for all its hosts, not one per host with the same port ranges each.
 */
export interface CoveredCombination {
  /** Lower case. */
  targets: readonly string[];
  check_id: string;
  port: number | null;
  port_ranges: ReadonlyArray<readonly [number, number]> | null;
}

/**
 * The organization's open and in-progress findings that one of the combinations
 * covers and that the scan did not observe, locked in id order.
 */
export async function lockCoveredUnobserved(
  trx: Db,
  orgId: string,
  scanId: string,
  combinations: readonly CoveredCombination[],
): Promise<Pick<FindingRow, 'id' | 'status'>[]> {
  if (combinations.length === 0) return [];
  const targets = [...new Set(combinations.flatMap((c) => c.targets))];
  return trx('findings as f')
    .where('f.org_id', orgId)
    .whereIn('f.status', ['open', 'in_progress'])
    .whereRaw(`lower(f.target) in (${targets.map(() => '?').join(', ')})`, targets)
    .whereRaw(
      `exists (select 1 from jsonb_to_recordset(?::jsonb) as c(targets jsonb, check_id text, port int, port_ranges jsonb)
                where c.targets @> to_jsonb(lower(f.target)) and c.check_id = f.template_id
                  and case when c.port_ranges is null then c.port is null or c.port = f.port
                      else exists (select 1 from jsonb_array_elements(c.port_ranges) as r(b)
                                   where f.port between (r.b->>0)::int and (r.b->>1)::int) end)`,
      [JSON.stringify(combinations)],
    )
    .whereNotExists(observedByScan(scanId, 'f.id'))
    .orderBy('f.id')
    .forUpdate()
    .select<Pick<FindingRow, 'id' | 'status'>[]>('f.id', 'f.status');
}

/** Marks the findings resolved by a scan. */
export async function markFindingsResolved(
  trx: Db,
  orgId: string,
  findingIds: readonly string[],
  now: Date,
): Promise<void> {
  if (findingIds.length === 0) return;
  await trx('findings')
    .where('org_id', orgId)
    .whereIn('id', findingIds)
    .update({ status: 'resolved', resolved_at: now, updated_at: now });
}

/** The list view rows of these findings, most severe first (ties by id). */
export async function findingListRows(
  db: Db,
  orgId: string,
  findingIds: readonly string[],
): Promise<ListRow[]> {
  if (findingIds.length === 0) return [];
  return db('findings')
    .where('org_id', orgId)
    .whereIn('id', findingIds)
    .orderBy([{ column: 'severity_rank', order: 'desc' }, { column: 'id' }])
    .select(LIST_COLUMNS);
}

// --- the controls view: findings through each finding's `frameworks[].controls` mapping

export interface OpenFindingsTally {
  control_id: string;
  open_findings: number;
}

/**
 * Counts the organization's findings in `statuses` per mapped control;
 * `controlId` narrows it to one control.
 */
export async function findingsPerControl(
  db: Db,
  orgId: string,
  statuses: readonly string[],
  controlId?: string,
): Promise<OpenFindingsTally[]> {
  // Unnest each finding's mapping ([{name, controls: [...]}]) into control ids.
  return db
    .from(
      db.raw(
        "findings f cross join lateral jsonb_array_elements(f.frameworks) fw cross join lateral jsonb_array_elements_text(fw->'controls') c(control_id)",
      ),
    )
    .where('f.org_id', orgId)
    .whereIn('f.status', statuses)
    .modify((q) => {
      if (controlId) void q.andWhere('c.control_id', controlId);
    })
    .groupBy('c.control_id')
    .select<OpenFindingsTally[]>('c.control_id', db.raw('count(distinct f.id)::int as open_findings'));
}

/** The organization's findings in `statuses` mapped to the control, most severe first, as list rows. */
export async function findingsOfControl(
  db: Db,
  orgId: string,
  controlId: string,
  statuses: readonly string[],
  limit: number,
): Promise<ListRow[]> {
  return db('findings')
    .where({ org_id: orgId })
    .whereIn('status', statuses)
    .whereRaw('frameworks @> ?::jsonb', [JSON.stringify([{ controls: [controlId] }])])
    .orderBy([
      { column: 'severity_rank', order: 'desc' },
      { column: 'detected_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select<ListRow[]>(LIST_COLUMNS);
}

// --- remediation guidance: one finding's facts

const FACT_COLUMNS = [
  'title',
  'severity',
  'template_id',
  'category',
  'cve_ids',
  'cwe_ids',
  'cvss_score',
  'cvss_vector',
  'epss_score',
  'target',
  'affected_component',
  'tool',
  'description',
  'evidence',
] as const;

export type FindingFactsRow = Pick<FindingRow, (typeof FACT_COLUMNS)[number]>;

/** The facts an analysis of one finding needs (remediation guidance). */
export async function findFindingFacts(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<FindingFactsRow | undefined> {
  return db('findings')
    .where({ org_id: orgId, id: findingId })
    .first<FindingFactsRow | undefined>(FACT_COLUMNS);
}
