import type { Db } from '../db/index.ts';
import type { ScanFinding } from '../schemas/scans.ts';
import type { Knex } from 'knex';
import type { Severity } from '../scoring/severity.ts';

/**
 * Typed queries over `finding_observations`: which scans observed which
 * findings, with the severity seen then and what the sighting changed. Per-scan
 * lists and counts come from here, so an old scan's results never change. Every
 * query takes the organization id.
 */

/** What a sighting was to the finding: first seen, seen again after resolution, or seen again. */
export type ObservationChange = 'new' | 'reopened' | 'unchanged';

export interface FindingObservationRow {
  scan_id: string;
  finding_id: string;
  org_id: string;
  severity: Severity;
  change: ObservationChange;
  observed_at: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_observations: FindingObservationRow;
  }
}

// --- a scan's findings list

/** Filters of a scan's findings list. */
export interface ScanFindingFilters {
  severity?: ScanFinding['severity'] | undefined;
  status?: ScanFinding['status'] | undefined;
  change?: ScanFinding['change'] | undefined;
}

/** A finding as one scan observed it: the severity and change of the sighting, the finding's current rest. */
export interface ScanFindingRow {
  id: string;
  title: string;
  severity: ScanFinding['severity'];
  cvss_score: number | string;
  status: ScanFinding['status'];
  tool: string;
  affected_component: string;
  description: string;
  remediation_summary: string | null;
  cve_ids: string[] | null;
  detected_at: Date | string;
  last_seen_at: Date | string;
  times_seen: number | string;
  last_scan_id: string;
  due_date: Date | null;
  change: ScanFinding['change'];
}

/** Most severe first, then newest first, ties by id: a total order, so pages never overlap. */
const SEVERITY_RANK = `case o.severity when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end`;

function scanFindingsQuery(db: Db, orgId: string, scanId: string, filters: ScanFindingFilters) {
  const base = db('finding_observations as o')
    .join('findings as f', function () {
      this.on('f.id', '=', 'o.finding_id').andOn('f.org_id', '=', 'o.org_id');
    })
    .where({ 'o.org_id': orgId, 'o.scan_id': scanId });
  if (filters.severity) base.where('o.severity', filters.severity);
  if (filters.status) base.where('f.status', filters.status);
  if (filters.change) base.where('o.change', filters.change);
  return base;
}

/** How many of the organization's findings the scan observed, over the filters. */
export async function countScanFindings(
  db: Db,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
): Promise<number> {
  const [row] = await scanFindingsQuery(db, orgId, scanId, filters).count<{ total: number | string }[]>({
    total: '*',
  });
  return Number(row?.total ?? 0);
}

/** One page of the findings the scan observed, over the filters, most severe (as seen then) first. */
export async function selectScanFindingsPage(
  db: Db,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
  page: { limit: number; offset: number },
): Promise<ScanFindingRow[]> {
  return scanFindingsQuery(db, orgId, scanId, filters)
    .select<ScanFindingRow[]>(
      'f.id',
      'f.title',
      'o.severity',
      'f.cvss_score',
      'f.status',
      'f.tool',
      'f.affected_component',
      'f.description',
      db.raw(`f.remediation->>'summary' as remediation_summary`),
      'f.cve_ids',
      'f.detected_at',
      'f.last_seen_at',
      'f.times_seen',
      'f.last_scan_id',
      'f.due_date',
      'o.change',
    )
    .orderByRaw(`${SEVERITY_RANK} desc, f.detected_at desc, f.id asc`)
    .limit(page.limit)
    .offset(page.offset);
}

// --- a scan's sightings, counts and events

export type NewObservation = Pick<FindingObservationRow, 'finding_id' | 'severity' | 'change'>;

/** Records the scan's sightings; a finding the scan already observed keeps its first observation. */
export async function insertObservations(
  db: Db,
  orgId: string,
  scanId: string,
  observations: readonly NewObservation[],
  observedAt: Date,
): Promise<void> {
  if (observations.length === 0) return;
  await db('finding_observations')
    .insert(observations.map((o) => ({ ...o, scan_id: scanId, org_id: orgId, observed_at: observedAt })))
    .onConflict(['scan_id', 'finding_id'])
    .ignore();
}

/** Those of `findingIds` the scan already observed. */
export async function observedFindingIds(
  db: Db,
  orgId: string,
  scanId: string,
  findingIds: readonly string[],
): Promise<Set<string>> {
  if (findingIds.length === 0) return new Set();
  const rows = await db('finding_observations')
    .where({ org_id: orgId, scan_id: scanId })
    .whereIn('finding_id', findingIds)
    .select('finding_id');
  return new Set(rows.map((r) => r.finding_id));
}

/** The scan's observations counted by severity and change. */
export async function observationTally(
  db: Db,
  orgId: string,
  scanId: string,
): Promise<{ severity: Severity; change: ObservationChange; n: number }[]> {
  return db('finding_observations')
    .where({ org_id: orgId, scan_id: scanId })
    .groupBy('severity', 'change')
    .select<{ severity: Severity; change: ObservationChange; n: number }[]>(
      'severity',
      'change',
      db.raw('count(*)::int as n'),
    );
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
 * Findings per severity each scan observed, with the severity seen at the
 * time, so a scan's counts never change afterwards.
 */
export async function severityCounts(
  db: Db,
  orgId: string,
  scanIds: readonly string[],
): Promise<Map<string, SeverityCounts>> {
  const out = new Map<string, SeverityCounts>(scanIds.map((id) => [id, { ...NO_FINDINGS }]));
  if (scanIds.length === 0) return out;
  const rows = await db('finding_observations')
    .where({ org_id: orgId })
    .whereIn('scan_id', scanIds)
    .groupBy('scan_id', 'severity')
    .select<{ scan_id: string; severity: Severity; n: number }[]>(
      'scan_id',
      'severity',
      db.raw('count(*)::int as n'),
    );
  for (const r of rows) {
    const counts = out.get(r.scan_id);
    if (counts && r.severity in counts) counts[r.severity] = Number(r.n);
  }
  return out;
}

/** The findings the scan found for the first time or reopened, by id, with their severity now. */
export async function newOrReopenedFindings(
  db: Db,
  orgId: string,
  scanId: string,
): Promise<{ id: string; severity: Severity }[]> {
  return db('finding_observations as o')
    .join('findings as f', 'f.id', 'o.finding_id')
    .where({ 'o.org_id': orgId, 'o.scan_id': scanId })
    .whereIn('o.change', ['new', 'reopened'])
    .orderBy('f.id')
    .select<{ id: string; severity: Severity }[]>('f.id', 'f.severity');
}

/** A subquery for `whereNotExists`: the scan observed the finding `findingColumn` names. */
export function observedByScan(scanId: string, findingColumn: string) {
  return function observedByThisScan(this: Knex.QueryBuilder) {
    this.select(this.client.raw('1'))
      .from('finding_observations as o')
      .where('o.scan_id', scanId)
      .whereRaw(`o.finding_id = ${findingColumn}`);
  };
}
