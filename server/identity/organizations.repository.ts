import type { Db } from '../db/index.ts';
import type { OrganizationRow } from './plans.ts';

// --- added by scan-lifecycle

/**
 * Locks the organization row until the transaction ends and returns it fresh
 * (limits included). Scan creation and the runner's claim take this lock before
 * counting the organization's scans, so two processes cannot both slip under a limit.
 */
export async function lockOrganizationRow(db: Db, orgId: string): Promise<OrganizationRow | undefined> {
  return db<OrganizationRow>('organizations').where({ id: orgId }).forUpdate().first();
}
