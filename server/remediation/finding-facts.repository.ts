import type { Db } from '../db/index.ts';
import type { FindingFacts } from './finding-facts.ts';

/**
 * A read-only query of the `findings` table for remediation: the facts an analysis
 * of one finding needs. Scoped by organization. (The findings table's own
 * repository lives in findings/.)
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

export async function findFindingFacts(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<FindingFacts | undefined> {
  return db('findings').where({ org_id: orgId, id: findingId }).first<FindingFacts | undefined>(FACT_COLUMNS);
}
