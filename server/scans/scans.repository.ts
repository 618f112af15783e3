import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type {
  CredentialChecks,
  Framework,
  Phase,
  PhaseTimings,
  ScanStatus,
  ScanType,
} from '../schemas/scans.ts';
import type { StoredWebOptions } from './web-options.ts';

/**
 * Typed queries over `scans`, and the only module with SQL on that table.
 * Every query an API request can reach takes the organization id, so no query
 * path reaches another organization's scan. The runner's own queries (claim any
 * pending scan, renew the lease of the scan it holds) work by scan id across
 * organizations and say so in their names or comments. State changes are made
 * by server/scans/lifecycle.ts, each as a single conditional UPDATE on the
 * expected status.
 */

export interface ScanChanges {
  new: number;
  reopened: number;
  resolved: number;
  unchanged: number;
}

export interface ScanRow {
  id: string;
  org_id: string;
  created_by: string | null;
  schedule_id: string | null;
  target: string;
  scan_type: ScanType;
  frameworks: Framework[];
  ports: string | null;
  credential_checks: CredentialChecks;
  status: ScanStatus;
  progress: number;
  phase: Phase;
  current_tool: string | null;
  phases_completed: string[];
  estimated_duration: number;
  vulnerabilities_found: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count: number;
  changes: ScanChanges | null;
  error: string | null;
  message: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
  runner_id: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  last_progress_at: Date | null;
  /** The engine's saved state (its own JSON: server/scanner/types.ts `ScanState`). */
  state: Record<string, unknown> | null;
  phase_timings: PhaseTimings | null;
  /** `scan`: the engine ran it; `import`: another tool's report brought in (server/imports/). */
  source: 'scan' | 'import';
  /** The tool that produced an imported report; null for the engine's own scans. */
  tool: string | null;
  /** Web application options, secrets sealed (server/scans/web-options.ts); null without. */
  web: StoredWebOptions | null;
  /** An import's report file name, as uploaded or named (`report_name`). */
  report_name?: string | null;
  /** A local engine run's CI run, as its recorder named it (`ci_run`). */
  ci_run?: string | null;
  /** How many results an import read from its report. */
  results_read?: number | null;
}

/** jsonb columns are written as JSON text (node-postgres would send an array as a PostgreSQL array). */
type JsonColumns = 'changes' | 'state' | 'phase_timings' | 'web';
type JsonText = { [K in JsonColumns]?: string | null };

/** Columns without a database default: what `insert` needs. */
type RequiredOnInsert = 'id' | 'org_id' | 'target' | 'scan_type' | 'phase' | 'estimated_duration';

/** A new row: the required columns, any others (the database fills the rest). */
export type NewScanRow = Pick<ScanRow, RequiredOnInsert> &
  Partial<Omit<ScanRow, RequiredOnInsert | JsonColumns>> &
  JsonText;

/** What an UPDATE may set (a column may be set to an SQL expression). */
export type ScanUpdate = { [K in Exclude<keyof ScanRow, JsonColumns>]?: ScanRow[K] | Knex.Raw } & JsonText;

declare module 'knex/types/tables.js' {
  interface Tables {
    scans: Knex.CompositeTableType<ScanRow, NewScanRow, ScanUpdate>;
  }
}

/** Statuses a scan can still leave; a scan in one of these counts against the concurrency ceiling. */
export const ACTIVE_STATUSES = ['pending', 'running'] as const satisfies readonly ScanStatus[];
export const FINISHED_STATUSES = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ScanStatus[];

export async function insertScanRow(db: Db, row: NewScanRow): Promise<ScanRow> {
  const [inserted] = await db('scans').insert(row).returning('*');
  return inserted!;
}

export async function findScan(db: Db, orgId: string, scanId: string): Promise<ScanRow | undefined> {
  return db('scans').where({ org_id: orgId, id: scanId }).first();
}

export interface ScanFilters {
  status?: ScanStatus | undefined;
  /** Exact target, ignoring case. */
  target?: string | undefined;
  /** Created at or after. */
  from?: Date | undefined;
  /** Created before. */
  to?: Date | undefined;
}

/** One page of an organization's scans, newest first (ties by id, so pages never overlap), and the total. */
export async function selectScansPage(
  db: Db,
  orgId: string,
  filters: ScanFilters,
  page: number,
  perPage: number,
): Promise<{ rows: ScanRow[]; total: number }> {
  const base = db('scans').where({ org_id: orgId });
  if (filters.status) base.where({ status: filters.status });
  if (filters.target) base.whereRaw('lower(target) = lower(?)', [filters.target]);
  if (filters.from) base.where('created_at', '>=', filters.from);
  if (filters.to) base.where('created_at', '<', filters.to);
  const [counted] = await base.clone().count<{ total: number | string }[]>({ total: '*' });
  const rows = await base
    .clone()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** Scans the organization created at or after `since` (the monthly quota counts these). */
export async function countScansCreatedSince(db: Db, orgId: string, since: Date): Promise<number> {
  const [row] = await db('scans')
    .where({ org_id: orgId })
    .where('created_at', '>=', since)
    .select<{ n: number }[]>(db.raw('count(*)::int as n'));
  return Number(row?.n ?? 0);
}

export type ActiveScan = Pick<ScanRow, 'id' | 'status' | 'started_at' | 'estimated_duration'>;

/** The organization's pending and running scans: how long each is expected to take and since when. */
export async function activeScans(db: Db, orgId: string): Promise<ActiveScan[]> {
  return db('scans')
    .where({ org_id: orgId })
    .whereIn('status', ACTIVE_STATUSES)
    .select('id', 'status', 'started_at', 'estimated_duration');
}

/** Sets the changes on the scan if it is still pending or running; the row afterwards, or undefined. */
export async function updateActiveScan(
  db: Db,
  orgId: string,
  scanId: string,
  changes: ScanUpdate,
): Promise<ScanRow | undefined> {
  const [row] = await db('scans')
    .where({ org_id: orgId, id: scanId })
    .whereIn('status', ACTIVE_STATUSES)
    .update(changes)
    .returning('*');
  return row;
}

/** The scan's per-scan counts and changes (written as findings are recorded). */
export async function updateScanCounts(
  db: Db,
  orgId: string,
  scanId: string,
  counts: Pick<
    ScanUpdate,
    | 'vulnerabilities_found'
    | 'critical_count'
    | 'high_count'
    | 'medium_count'
    | 'low_count'
    | 'info_count'
    | 'updated_at'
  > &
    Pick<JsonText, 'changes'>,
): Promise<void> {
  await db('scans').where({ id: scanId, org_id: orgId }).update(counts);
}

export async function scanChanges(db: Db, orgId: string, scanId: string): Promise<ScanChanges | null> {
  const row = await db('scans').where({ id: scanId, org_id: orgId }).first('changes');
  return row?.changes ?? null;
}

// --- The runner's queries: by scan id, across organizations.

export type ClaimCandidate = Pick<
  ScanRow,
  'id' | 'org_id' | 'status' | 'attempts' | 'created_at' | 'phase_timings'
>;

/**
 * Runner-internal: the oldest claimable scan of any organization (pending, or
 * running with an expired lease), locked, skipping scans other claimers hold.
 */
export async function lockNextClaimCandidate(
  trx: Db,
  now: Date,
  passedOver: readonly string[],
): Promise<ClaimCandidate | undefined> {
  return trx('scans')
    .where((q) =>
      q
        .where('status', 'pending')
        .orWhere((r) => r.where('status', 'running').where('lease_expires_at', '<', now)),
    )
    .whereNotIn('id', passedOver)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('id', 'org_id', 'status', 'attempts', 'created_at', 'phase_timings')
    .forUpdate()
    .skipLocked();
}

/** The organization's running scans whose lease is still valid. */
export async function countLiveRunningScans(db: Db, orgId: string, now: Date): Promise<number> {
  const [row] = await db('scans')
    .where({ org_id: orgId, status: 'running' })
    .where('lease_expires_at', '>=', now)
    .select<{ n: number }[]>(db.raw('count(*)::int as n'));
  return Number(row?.n ?? 0);
}

/** Runner-internal: sets the claim on a scan locked by {@link lockNextClaimCandidate}. */
export async function updateClaimedScan(
  trx: Db,
  scanId: string,
  changes: Omit<ScanUpdate, 'started_at'>,
  startedAt: Date,
): Promise<ScanRow> {
  const [row] = await trx('scans')
    .where({ id: scanId })
    // A scan taken over keeps the time its first runner started it.
    .update({ ...changes, started_at: trx.raw('coalesce(started_at, ?)', [startedAt]) })
    .returning('*');
  // The caller holds the row's lock (lockNextClaimCandidate), so the update finds it.
  if (!row) throw new Error(`the claimed scan ${scanId} is gone`);
  return row;
}

/** Runner-internal: updates the scan while it is `running` for this runner; the rows touched (0 or 1). */
export async function updateHeldScan(
  db: Db,
  scanId: string,
  runnerId: string,
  changes: ScanUpdate,
): Promise<number> {
  return db('scans').where({ id: scanId, runner_id: runnerId, status: 'running' }).update(changes);
}

/** Runner-internal: like {@link updateHeldScan}, answering the row afterwards. */
export async function updateHeldScanReturning(
  db: Db,
  scanId: string,
  runnerId: string,
  changes: ScanUpdate,
): Promise<ScanRow | undefined> {
  const [row] = await db('scans')
    .where({ id: scanId, runner_id: runnerId, status: 'running' })
    .update(changes)
    .returning('*');
  return row;
}

/** Runner-internal: locks the scan if it is still `running` for this runner. */
export async function lockHeldScan(trx: Db, scanId: string, runnerId: string): Promise<boolean> {
  const row = await trx('scans')
    .where({ id: scanId, runner_id: runnerId, status: 'running' })
    .forUpdate()
    .first('id');
  return row !== undefined;
}

/** Runner-internal: the scan's status, by id. */
export async function scanStatusById(db: Db, scanId: string): Promise<ScanStatus | undefined> {
  const row = await db('scans').where({ id: scanId }).first('status');
  return row?.status;
}

export type SavedProgress = Pick<ScanRow, 'phases_completed' | 'state' | 'phase_timings' | 'created_at'>;

/** Runner-internal: what earlier runs of the scan saved (phases done, engine state, timings). */
export async function savedProgress(db: Db, scanId: string): Promise<SavedProgress | undefined> {
  return db('scans').where({ id: scanId }).first('phases_completed', 'state', 'phase_timings', 'created_at');
}

/** Runner-internal: sets the changes if the scan is still pending or running; the row, or undefined. */
export async function updateActiveScanById(
  db: Db,
  scanId: string,
  changes: ScanUpdate,
): Promise<ScanRow | undefined> {
  const [row] = await db('scans')
    .where({ id: scanId })
    .whereIn('status', ACTIVE_STATUSES)
    .update(changes)
    .returning('*');
  return row;
}

/** Runner-internal (watchdog): running scans of any organization with no progress since `cutoff`, locked. */
export async function lockStalledScans(trx: Db, cutoff: Date): Promise<Pick<ScanRow, 'id' | 'org_id'>[]> {
  return trx('scans')
    .where('status', 'running')
    .where('last_progress_at', '<', cutoff)
    .forUpdate()
    .skipLocked()
    .select('id', 'org_id');
}

// --- metrics: scans counted by status across the whole instance (what an operator scrapes)

export interface ScanStatusCount {
  status: string;
  n: number;
}

export async function countScansByStatusOfAllOrganizations(db: Db): Promise<ScanStatusCount[]> {
  return db('scans').groupBy('status').select<ScanStatusCount[]>('status', db.raw('count(*)::int as n'));
}
