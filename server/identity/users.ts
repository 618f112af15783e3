import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords.ts';
import { newId } from './ids.ts';

export interface UserRow {
  id: string;
  org_id: string;
  email: string;
  password_hash: string;
  role: 'admin' | 'member';
  mfa_enabled: boolean;
  mfa_secret: string | null;
  mfa_pending_secret: string | null;
  mfa_last_step: number | string | null;
  created_at: Date;
  updated_at: Date;
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`a user with the e-mail ${email} already exists`);
    this.name = 'EmailTakenError';
  }
}

export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  return (await db('users').whereRaw('lower(email) = lower(?)', [email.trim()]).first()) as
    UserRow | undefined;
}

export async function createUser(
  db: Knex,
  input: { orgId: string; email: string; password: string; role: 'admin' | 'member' },
): Promise<UserRow> {
  const email = input.email.trim();
  if (await findUserByEmail(db, email)) throw new EmailTakenError(email);
  const [row] = (await db('users')
    .insert({
      id: newId('user'),
      org_id: input.orgId,
      email,
      password_hash: await hashPassword(input.password),
      role: input.role,
    })
    .returning('*')) as UserRow[];
  return row!;
}

/** Sets a new password and revokes every session of the user. Returns false for an unknown e-mail. */
export async function resetPassword(db: Knex, email: string, password: string): Promise<boolean> {
  const hash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user) return false;
    await trx('users').where({ id: user.id }).update({ password_hash: hash, updated_at: new Date() });
    await trx('sessions')
      .where({ user_id: user.id })
      .whereNull('revoked_at')
      .update({ revoked_at: new Date() });
    return true;
  });
}

/** Revokes every active session of the user; returns how many, or undefined for an unknown e-mail. */
export async function revokeUserSessions(db: Knex, email: string): Promise<number | undefined> {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  return db('sessions')
    .where({ user_id: user.id })
    .whereNull('revoked_at')
    .update({ revoked_at: new Date() });
}

export async function listUsers(db: Knex, orgId?: string) {
  const query = db('users as u')
    .join('organizations as o', 'o.id', 'u.org_id')
    .select('u.id', 'u.email', 'u.role', 'u.org_id', 'o.name as org_name', 'u.mfa_enabled', 'u.created_at')
    .orderBy([{ column: 'u.created_at' }, { column: 'u.id' }]);
  if (orgId) query.where('u.org_id', orgId);
  return query;
}
