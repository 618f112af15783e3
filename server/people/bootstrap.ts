import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { advisoryTransactionLock } from '../db/session.ts';
import { generatePassword } from '../identity/passwords.ts';
import { createOrganization } from '../identity/organizations.ts';
import { anyUserExists } from '../identity/users.repository.ts';
import { createUser } from '../identity/users.ts';

export interface Bootstrapped {
  orgId: string;
  email: string;
  /** Present only when the password was generated: shown once, never stored in clear. */
  generatedPassword?: string;
}

/** An arbitrary constant naming the bootstrap lock, so concurrent first starts create one admin. */
const BOOTSTRAP_LOCK = 7_301_842_115;

/**
 * On a database with no users, creates the first organization and its admin.
 * Serialised with an advisory lock so several processes starting together on
 * one PostgreSQL create exactly one.
 */
export async function bootstrapIfEmpty(db: Db, config: Config): Promise<Bootstrapped | undefined> {
  return db.transaction(async (trx) => {
    await advisoryTransactionLock(trx, BOOTSTRAP_LOCK);
    if (await anyUserExists(trx)) return undefined;
    const password = config.admin.password ?? generatePassword();
    const org = await createOrganization(trx, { name: 'Default organization', plan: config.admin.plan });
    const user = await createUser(trx, { orgId: org.id, email: config.admin.email, password, role: 'admin' });
    return {
      orgId: org.id,
      email: user.email,
      ...(config.admin.password ? {} : { generatedPassword: password }),
    };
  });
}
