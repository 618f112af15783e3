import type { Db } from '../db/index.ts';
import type { FindingPriority } from '../schemas/findings.ts';
import { observedByScan } from './finding-observations.repository.ts';
import type { NewFindingRow } from './findings.repository.ts';
import { LIST_COLUMNS, type FindingRow, type ListRow } from './rows.ts';

/**
 * The writes a scan makes to `findings` (server/findings/lifecycle.ts decides
 * what they are), and the list rows its webhook events carry. Every query
 * filters on the organization.
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

/**
 * A new finding: born `open` (the column's default) with no risk decision; every later move
 * of its status is findings/transitions.ts's.
 */
export type NewOpenFinding = Omit<
  NewFindingRow,
  'status' | 'resolved_at' | 'justification' | 'justified_by' | 'justified_at' | 'acceptance_expires_at'
>;

/** Inserts the findings; one whose fingerprint exists already is skipped. Answers those inserted. */
export async function insertFindingsIfNew(
  trx: Db,
  orgId: string,
  rows: readonly NewOpenFinding[],
): Promise<Pick<FindingRow, 'id' | 'fingerprint'>[]> {
  if (rows.length === 0) return [];
  return trx('findings')
    .insert(rows.map((row) => ({ ...row, org_id: orgId })))
    .onConflict(['org_id', 'fingerprint'])
    .ignore()
    .returning(['id', 'fingerprint']);
}

/**
 * A new sighting of a known finding: its headline (the strongest source's view, findings/sources.ts)
 * and what the sighting adds (null keeps the stored value; CVEs and CWEs are added to).
 */
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
  /** Null keeps the stored impact (a source that does not lead the finding). */
  impact: string | null;
  remediation: FindingRow['remediation'] | null;
  evidence: FindingRow['evidence'];
  frameworks: FindingRow['frameworks'] | null;
  kev: boolean | null;
  /** Set where nobody (and no earlier planning) set a priority; null leaves it. */
  planned_priority: FindingPriority | null;
}

/**
 * Applies sightings to known findings in one statement: the latest data, one
 * more sighting (a `resolved` one reopens through findings/transitions.ts). Remediation, frameworks, EPSS, KEV,
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
       cve_ids = f.cve_ids || array(select x from unnest(v.cve_ids) as x where x <> all(f.cve_ids)),
       cwe_ids = f.cwe_ids || array(select x from unnest(v.cwe_ids) as x where x <> all(f.cwe_ids)),
       description = v.description, impact = coalesce(v.impact, f.impact),
       remediation = coalesce(v.remediation, f.remediation), evidence = v.evidence,
       frameworks = coalesce(v.frameworks, f.frameworks), kev = coalesce(v.kev, false) or f.kev,
       priority = coalesce(f.priority, v.planned_priority)
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
