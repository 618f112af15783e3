import type { Db } from '../db/index.ts';

/**
 * The tracker tickets linked to findings, as the findings export lists them
 * (findings/export-source.ts). notifications/ opens and closes the tickets and owns their
 * writes; this is the read the export makes of them, kept here because notifications sit
 * above findings. Every query takes the organization id.
 */

export interface FindingTicketLink {
  finding_id: string;
  integration_id: string;
  key: string;
  url: string;
  state: 'open' | 'closed';
}

/** The tickets of the findings `ids` (one query), oldest first. */
export async function ticketLinksOfFindings(
  db: Db,
  orgId: string,
  ids: readonly string[],
): Promise<FindingTicketLink[]> {
  return db('finding_tickets')
    .where({ org_id: orgId })
    .whereIn('finding_id', ids)
    .orderBy([{ column: 'created_at' }, { column: 'integration_id' }])
    .select('finding_id', 'integration_id', 'key', 'url', 'state');
}
