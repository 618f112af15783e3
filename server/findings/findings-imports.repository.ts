import type { Db } from '../db/index.ts';

/**
 * The import domain's reads of findings (server/imports/): what an earlier import of the
 * same tool and target left open, so a later import can resolve what it no longer reports.
 * Every query takes the organization id.
 */

/** The distinct checks of the organization's open and in-progress findings of this tool on this target (target ignoring case). */
export async function openCheckIdsOfTool(
  db: Db,
  orgId: string,
  target: string,
  tool: string,
): Promise<string[]> {
  const rows = await db('findings')
    .where({ org_id: orgId, tool })
    .whereIn('status', ['open', 'in_progress'])
    .whereRaw('lower(target) = lower(?)', [target])
    .distinct('template_id')
    .orderBy('template_id')
    .select<{ template_id: string }[]>('template_id');
  return rows.map((r) => r.template_id);
}
