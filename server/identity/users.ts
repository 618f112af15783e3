import { hashPassword } from './passwords.ts';
import type { Db } from '../db/index.ts';
import type { Role } from '../schemas/common.ts';
import { newId } from './ids.ts';
import { findUserByEmailInAnyOrganization, insertUser, type UserRow } from './users.repository.ts';

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
  input: { orgId: string; email: string; password: string; role: Role },
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
