import type { Db } from '../db/index.ts';
import type { AiAnalysis } from '../schemas/ai.ts';
import { findAnalysis, insertAnalysisUnlessPresent } from './ai-analyses.repository.ts';

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

export async function cachedAnalysis(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<CachedAnalysis | undefined> {
  const row = await findAnalysis(db, orgId, findingId);
  return row ? { ai_analysis: row.analysis, source: row.source } : undefined;
}

/**
 * Stores the analysis unless one is already stored (a concurrent request got there
 * first); answers whether this call's analysis is the stored one.
 */
export async function storeAnalysis(
  db: Db,
  orgId: string,
  findingId: string,
  analysis: CachedAnalysis,
): Promise<boolean> {
  return insertAnalysisUnlessPresent(db, orgId, {
    finding_id: findingId,
    source: analysis.source,
    analysis: JSON.stringify(analysis.ai_analysis),
    created_at: new Date(),
  });
}
