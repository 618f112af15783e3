import type { Knex } from 'knex';
import { conflict, notFound, AppError } from '../http/errors.ts';
import { newId } from '../identity/ids.ts';
import {
  credentialChecksFor,
  type CredentialChecks,
  type Framework,
  type Phase,
  type PhaseTimings,
  type ScanStatus,
  type ScanType,
} from '../schemas/scans.ts';
import { estimatedDuration, firstPhase } from './phases.ts';

/**
 * Typed queries over `scans`. Every read and write takes the organization id,
 * so no query path reaches another organization's scan. Transitions the runner
 * makes (claim, progress, complete, fail) belong beside these and follow the
 * same rule: a single conditional UPDATE on the expected status.
 */

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
  changes: { new: number; reopened: number; resolved: number; unchanged: number } | null;
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
  state: unknown;
  phase_timings: PhaseTimings | null;
}

/** Statuses a scan can still leave; a scan in one of these counts against the concurrency ceiling. */
export const ACTIVE_STATUSES = ['pending', 'running'] as const satisfies readonly ScanStatus[];
export const FINISHED_STATUSES = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ScanStatus[];

export interface NewScan {
  orgId: string;
  createdBy: string | null;
  scheduleId?: string | null;
  target: string;
  scanType: ScanType;
  frameworks: readonly Framework[];
  ports: string | null;
  /** Default: by scan type (`none` for quick scans, `defaults` otherwise). */
  credentialChecks?: CredentialChecks | undefined;
  createdAt: Date;
}

/** Inserts a pending scan: first phase of its type, progress 0. */
export async function insertScan(db: Knex | Knex.Transaction, scan: NewScan): Promise<ScanRow> {
  const [row] = (await db('scans')
    .insert({
      id: newId('scan'),
      org_id: scan.orgId,
      created_by: scan.createdBy,
      schedule_id: scan.scheduleId ?? null,
      target: scan.target,
      scan_type: scan.scanType,
      frameworks: [...scan.frameworks],
      ports: scan.ports,
      credential_checks: credentialChecksFor(scan.scanType, scan.credentialChecks),
      status: 'pending',
      progress: 0,
      phase: firstPhase(scan.scanType),
      phases_completed: [],
      estimated_duration: estimatedDuration(scan.scanType),
      created_at: scan.createdAt,
      updated_at: scan.createdAt,
    })
    .returning('*')) as ScanRow[];
  return row!;
}

export async function findScan(
  db: Knex | Knex.Transaction,
  orgId: string,
  scanId: string,
): Promise<ScanRow | undefined> {
  return (await db('scans').where({ org_id: orgId, id: scanId }).first()) as ScanRow | undefined;
}

/** The scan, or 404 NOT_FOUND: the same answer for a missing scan and another organization's. */
export async function getScan(db: Knex | Knex.Transaction, orgId: string, scanId: string): Promise<ScanRow> {
  const scan = await findScan(db, orgId, scanId);
  if (!scan) throw notFound('scan');
  return scan;
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
export async function listScans(
  db: Knex,
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
  const [{ total }] = (await base.clone().count({ total: '*' })) as [{ total: number | string }];
  const rows = (await base
    .clone()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage)) as ScanRow[];
  return { rows, total: Number(total) };
}

export interface SeverityCounts {
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
}

const NO_FINDINGS: SeverityCounts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };

/**
 * Findings per severity each scan observed, from `finding_observations` with
 * the severity seen at the time, so a scan's counts never change afterwards.
 */
export async function severityCounts(
  db: Knex | Knex.Transaction,
  orgId: string,
  scanIds: readonly string[],
): Promise<Map<string, SeverityCounts>> {
  const out = new Map<string, SeverityCounts>(scanIds.map((id) => [id, { ...NO_FINDINGS }]));
  if (scanIds.length === 0) return out;
  const rows = (await db('finding_observations')
    .where({ org_id: orgId })
    .whereIn('scan_id', scanIds)
    .groupBy('scan_id', 'severity')
    .select('scan_id', 'severity', db.raw('count(*)::int as n'))) as {
    scan_id: string;
    severity: keyof SeverityCounts;
    n: number;
  }[];
  for (const r of rows) {
    const counts = out.get(r.scan_id);
    if (counts && r.severity in counts) counts[r.severity] = Number(r.n);
  }
  return out;
}

/** Scans the organization created at or after `since` (the monthly quota counts these). */
export async function countScansCreatedSince(
  db: Knex | Knex.Transaction,
  orgId: string,
  since: Date,
): Promise<number> {
  const [row] = (await db('scans')
    .where({ org_id: orgId })
    .where('created_at', '>=', since)
    .select(db.raw('count(*)::int as n'))) as { n: number }[];
  return Number(row?.n ?? 0);
}

/** The organization's pending and running scans: how long each is expected to take and since when. */
export async function activeScans(
  db: Knex | Knex.Transaction,
  orgId: string,
): Promise<Pick<ScanRow, 'id' | 'status' | 'started_at' | 'estimated_duration'>[]> {
  return (await db('scans')
    .where({ org_id: orgId })
    .whereIn('status', ACTIVE_STATUSES)
    .select('id', 'status', 'started_at', 'estimated_duration')) as Pick<
    ScanRow,
    'id' | 'status' | 'started_at' | 'estimated_duration'
  >[];
}

export const scanNotCancellable = (status: ScanStatus) =>
  new AppError(409, 'SCAN_NOT_CANCELLABLE', `the scan is ${status} and can no longer be cancelled`);

/**
 * Cancels a pending or running scan, keeping its phase, progress and
 * everything it found. A runner working on it sees the status change and stops.
 * Throws 404 for an unknown or foreign scan and 409 SCAN_NOT_CANCELLABLE for a
 * finished one.
 */
export async function cancelScan(
  db: Knex,
  orgId: string,
  scanId: string,
  message: string,
  now = new Date(),
): Promise<ScanRow> {
  const [row] = (await db('scans')
    .where({ org_id: orgId, id: scanId })
    .whereIn('status', ACTIVE_STATUSES)
    .update({ status: 'cancelled', message, current_tool: null, updated_at: now })
    .returning('*')) as ScanRow[];
  if (row) return row;
  const scan = await getScan(db, orgId, scanId);
  // It existed but was not active (or finished between the two statements).
  if ((FINISHED_STATUSES as readonly string[]).includes(scan.status)) throw scanNotCancellable(scan.status);
  throw conflict('the scan changed while it was being cancelled; try again');
}
