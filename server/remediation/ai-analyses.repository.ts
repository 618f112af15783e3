import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { AiAnalysis } from '../schemas/ai.ts';

/**
 * The `ai_analyses` table: the analysis of each finding, kept once computed, keyed by
 * organization and finding. The row goes when the finding does (foreign key, on
 * delete cascade). Every query is scoped by organization.
 */

export interface AiAnalysisRow {
  org_id: string;
  finding_id: string;
  /** `builtin` or the model name. */
  source: string;
  analysis: AiAnalysis;
  created_at: Date;
}

/** An insert: the analysis as JSON text (jsonb column). */
export interface NewAiAnalysisRow {
  org_id: string;
  finding_id: string;
  source: string;
  analysis: string;
  created_at: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    ai_analyses: Knex.CompositeTableType<AiAnalysisRow, NewAiAnalysisRow, never>;
  }
}

export async function findAnalysis(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<Pick<AiAnalysisRow, 'source' | 'analysis'> | undefined> {
  return db('ai_analyses').where({ org_id: orgId, finding_id: findingId }).first('source', 'analysis');
}

/** Stores the finding's analysis unless one is stored already; answers whether this one was stored. */
export async function insertAnalysisUnlessPresent(
  db: Db,
  orgId: string,
  row: Omit<NewAiAnalysisRow, 'org_id'>,
): Promise<boolean> {
  const stored = await db('ai_analyses')
    .insert({ ...row, org_id: orgId })
    .onConflict(['org_id', 'finding_id'])
    .ignore()
    .returning('finding_id');
  return stored.length > 0;
}
