import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/index.ts';
import { revokeUnrevokedSessions } from '../auth/sessions.repository.ts';
import { newId } from './ids.ts';
import {
  findUserByEmailInAnyOrganization,
  insertUser,
  updateUserPassword,
  type UserRow,
} from './users.repository.ts';

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`a user with the e-mail ${email} already exists`);
    this.name = 'EmailTakenError';
  }
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return findUserByEmailInAnyOrganization(db, email.trim());
}

export async function createUser(
  db: Db,
  input: { orgId: string; email: string; password: string; role: 'admin' | 'member' },
): Promise<UserRow> {
  const email = input.email.trim();
  if (await findUserByEmail(db, email)) throw new EmailTakenError(email);
  return insertUser(db, {
    id: newId('user'),
    org_id: input.orgId,
    email,
    password_hash: await hashPassword(input.password),
    role: input.role,
  });
}

/** Sets a new password and revokes every session of the user. Returns false for an unknown e-mail. */
export async function resetPassword(db: Db, email: string, password: string): Promise<boolean> {
  const hash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user) return false;
    await updateUserPassword(trx, user.org_id, user.id, hash, new Date());
    await revokeUnrevokedSessions(trx, user.org_id, user.id, new Date());
    return true;
  });
}

/** Revokes every active session of the user; returns how many, or undefined for an unknown e-mail. */
export async function revokeUserSessions(db: Db, email: string): Promise<number | undefined> {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  return revokeUnrevokedSessions(db, user.org_id, user.id, new Date());
}
