import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { Severity } from '../scoring/severity.ts';

/**
 * Typed queries over `finding_observations`: which scans observed which
 * findings, with the severity seen then and what the sighting changed. Per-scan
 * lists and counts come from here, so an old scan's results never change.
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
