import type { Db } from '../db/index.ts';
import type { FindingRow } from './rows.ts';

/**
 * Remediation guidance's read of findings (server/remediation/): the facts an
 * analysis of one finding needs. Every query takes the organization id.
 */

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
