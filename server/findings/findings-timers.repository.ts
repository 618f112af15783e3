import type { Db } from '../db/index.ts';

/**
 * The findings timers' queries (findings/acceptance-expiry.ts): what has come due.
 * The lock serves every organization (a timer runs for the whole service); the
 * change itself is findings/transitions.ts's, scoped by organization.
 */

export interface DueFinding {
  id: string;
  org_id: string;
}

/**
 * Locks up to `limit` accepted findings of any organization whose acceptance expired
 * at `now`, soonest first, skipping those another process holds.
 */
export async function lockExpiredAcceptancesOfAnyOrganization(
  trx: Db,
  now: Date,
  limit: number,
): Promise<DueFinding[]> {
  return trx('findings')
    .where('status', 'accepted')
    .whereNotNull('acceptance_expires_at')
    .where('acceptance_expires_at', '<=', now)
    .orderBy([{ column: 'acceptance_expires_at' }, { column: 'id' }])
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id', 'org_id');
}
