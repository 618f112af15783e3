import type { Knex } from 'knex';
import type { AiAnalysis } from '../schemas/ai.ts';

/**
 * The analysis of each finding, kept once computed (table `ai_analyses`, keyed by
 * organization and finding), so asking again costs nothing and answers the same.
 * The row goes when the finding does (foreign key, on delete cascade).
 */

export interface CachedAnalysis {
  ai_analysis: AiAnalysis;
  /** `builtin` or the model name. */
  source: string;
}

interface AnalysisRow {
  source: string;
  analysis: AiAnalysis;
}

export async function cachedAnalysis(
  db: Knex,
  orgId: string,
  findingId: string,
): Promise<CachedAnalysis | undefined> {
  const row = (await db('ai_analyses')
    .where({ org_id: orgId, finding_id: findingId })
    .first('source', 'analysis')) as AnalysisRow | undefined;
  return row ? { ai_analysis: row.analysis, source: row.source } : undefined;
}

/**
 * Stores the analysis unless one is already stored (a concurrent request got there
 * first); answers whether this call's analysis is the stored one.
 */
export async function storeAnalysis(
  db: Knex,
  orgId: string,
  findingId: string,
  analysis: CachedAnalysis,
): Promise<boolean> {
  const rows = (await db('ai_analyses')
    .insert({
      org_id: orgId,
      finding_id: findingId,
      source: analysis.source,
      analysis: JSON.stringify(analysis.ai_analysis),
      created_at: new Date(),
    })
    .onConflict(['org_id', 'finding_id'])
    .ignore()
    .returning('finding_id')) as unknown[];
  return rows.length > 0;
}
