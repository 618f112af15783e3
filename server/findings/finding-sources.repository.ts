import type { Db } from '../db/index.ts';
import type { Severity } from '../scoring/severity.ts';
import type { EvidenceValue } from './rows.ts';

/**
 * `finding_sources`: one row per finding and source (Scanward's own scans, `scan`, or one
 * tool's imports, `import:<tool>`), with what that source last saw. The finding's headline
 * is chosen from them (sources.ts). Every query takes the organization id.
 */

export type SourceKind = 'scan' | 'import';
export type SourceStatus = 'active' | 'resolved';
export type Established = 'confirmed' | 'inferred from version';

export interface FindingSourceRow {
  finding_id: string;
  org_id: string;
  source_key: string;
  kind: SourceKind;
  tool: string;
  first_scan_id: string | null;
  last_scan_id: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
  severity: Severity;
  cvss_score: number;
  cvss_vector: string | null;
  title: string;
  description: string;
  evidence: EvidenceValue;
  established: Established;
  status: SourceStatus;
  resolved_at: Date | null;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_sources: FindingSourceRow;
  }
}

/** Every source of these findings (all statuses), by finding then key. */
export async function selectSourcesOf(
  db: Db,
  orgId: string,
  findingIds: readonly string[],
): Promise<FindingSourceRow[]> {
  if (findingIds.length === 0) return [];
  const rows = await db('finding_sources')
    .where('org_id', orgId)
    .whereIn('finding_id', findingIds)
    .orderBy([{ column: 'finding_id' }, { column: 'source_key' }])
    .select<FindingSourceRow[]>('*');
  return rows.map((r) => ({ ...r, cvss_score: Number(r.cvss_score) }));
}

/** Records what a source saw now: a new source is added; a known one takes it and is active again. */
export async function upsertSources(db: Db, rows: readonly FindingSourceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('finding_sources')
    .insert(rows.map((r) => ({ ...r, evidence: JSON.stringify(r.evidence) as unknown as EvidenceValue })))
    .onConflict(['finding_id', 'source_key'])
    .merge([
      'tool',
      'last_scan_id',
      'last_seen_at',
      'severity',
      'cvss_score',
      'cvss_vector',
      'title',
      'description',
      'evidence',
      'established',
      'status',
      'resolved_at',
    ]);
}

/** Marks one source of these findings as no longer reporting them. */
export async function markSourcesResolved(
  db: Db,
  orgId: string,
  sourceKey: string,
  findingIds: readonly string[],
  now: Date,
): Promise<void> {
  if (findingIds.length === 0) return;
  await db('finding_sources')
    .where({ org_id: orgId, source_key: sourceKey, status: 'active' })
    .whereIn('finding_id', findingIds)
    .update({ status: 'resolved', resolved_at: now });
}

/** Those of these findings that still have an active source. */
export async function findingsWithActiveSources(
  db: Db,
  orgId: string,
  findingIds: readonly string[],
): Promise<Set<string>> {
  if (findingIds.length === 0) return new Set();
  const rows = await db('finding_sources')
    .where({ org_id: orgId, status: 'active' })
    .whereIn('finding_id', findingIds)
    .distinct('finding_id');
  return new Set(rows.map((r) => r.finding_id));
}

/**
 * The open or in-progress findings on `target` that `sourceKey` reports (actively) and the scan
 * did not observe: what an import of that tool covers, and resolves when it no longer lists them.
 */
export async function activeUnobservedOfSource(
  db: Db,
  orgId: string,
  scanId: string,
  target: string,
  sourceKey: string,
): Promise<{ id: string; template_id: string }[]> {
  return db('findings as f')
    .join('finding_sources as s', function () {
      this.on('s.finding_id', '=', 'f.id').andOn('s.org_id', '=', 'f.org_id');
    })
    .where({ 'f.org_id': orgId, 's.source_key': sourceKey, 's.status': 'active' })
    .whereIn('f.status', ['open', 'in_progress'])
    .whereRaw('lower(f.target) = lower(?)', [target])
    .whereNotExists(function () {
      this.select(db.raw('1'))
        .from('finding_observations as o')
        .where('o.scan_id', scanId)
        .whereRaw('o.finding_id = f.id');
    })
    .orderBy('f.id')
    .select<{ id: string; template_id: string }[]>('f.id', 'f.template_id');
}
