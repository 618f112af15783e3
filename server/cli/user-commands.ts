import type { Db } from '../db/index.ts';
import { findOrganization } from '../identity/organizations.repository.ts';
import { listUsersWithOrganization } from '../identity/users.repository.ts';
import {
  createUser,
  EmailTakenError,
  findUserByEmail,
  resetPassword,
  revokeUserSessions,
} from '../identity/users.ts';
import { CliError, usageError } from './errors.ts';

/*
 * Input is checked by the parse functions before any database is opened, so a
 * typo is reported at once, even while the embedded database is locked. The
 * command functions take checked input and do the work.
 */

/** Shortest password the command line accepts (the same rule as SCANWARD_ADMIN_PASSWORD). */
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;

export type Role = 'admin' | 'member';
const ROLES: readonly Role[] = ['admin', 'member'];

export interface UserView {
  id: string;
  email: string;
  role: Role;
  org_id: string;
  org_name: string;
  mfa_enabled: boolean;
  created_at: string;
}

export function parseEmail(value: string): string {
  const email = value.trim();
  // Deliberately loose: `admin@localhost` (the bootstrap default) must pass.
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw usageError(`"${value}" is not an e-mail address`);
  return email;
}

export function parsePassword(value: string): string {
  if (value.length < MIN_PASSWORD_LENGTH) {
    throw usageError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (value.length > MAX_PASSWORD_LENGTH) {
    throw usageError(`the password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  return value;
}

export function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) {
    throw usageError(`unknown role "${value}": use one of ${ROLES.join(', ')}`);
  }
  return value as Role;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

export async function createUserCommand(
  db: Db,
  input: { orgId: string; email: string; password: string; role: Role },
): Promise<UserView> {
  const { email, password, role } = input;
  const org = await findOrganization(db, input.orgId);
  if (!org) throw new CliError(`organization ${input.orgId} not found`);
  try {
    const user = await createUser(db, { orgId: org.id, email, password, role });
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      org_id: org.id,
      org_name: org.name,
      mfa_enabled: user.mfa_enabled,
      created_at: new Date(user.created_at).toISOString(),
    };
  } catch (err) {
    // The unique index catches the race the look-up in createUser cannot.
    if (err instanceof EmailTakenError || isUniqueViolation(err)) {
      throw new CliError(`a user with the e-mail ${email} already exists`);
    }
    throw err;
  }
}

export interface PasswordResetView {
  id: string;
  email: string;
  password_reset: true;
  /** Every session of the user is revoked with the reset, so stolen tokens stop working. */
  sessions_revoked: true;
}

export async function resetPasswordCommand(
  db: Db,
  input: { email: string; password: string },
): Promise<PasswordResetView> {
  const user = await findUserByEmail(db, input.email);
  if (!user || !(await resetPassword(db, user.email, input.password))) {
    throw new CliError(`no user with the e-mail ${input.email.trim()}`);
  }
  return { id: user.id, email: user.email, password_reset: true, sessions_revoked: true };
}

export async function listUsersCommand(db: Db, input: { orgId?: string }): Promise<UserView[]> {
  if (input.orgId !== undefined && !(await findOrganization(db, input.orgId))) {
    throw new CliError(`organization ${input.orgId} not found`);
  }
  const rows = await listUsersWithOrganization(db, input.orgId);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    org_id: row.org_id,
    org_name: row.org_name,
    mfa_enabled: row.mfa_enabled,
    created_at: new Date(row.created_at).toISOString(),
  }));
}

export interface SessionsRevokedView {
  id: string;
  email: string;
  /** How many active sessions were revoked by this call. */
  revoked_sessions: number;
}

export async function revokeSessionsCommand(db: Db, input: { email: string }): Promise<SessionsRevokedView> {
  const user = await findUserByEmail(db, input.email);
  const revoked = user ? await revokeUserSessions(db, user.email) : undefined;
  if (!user || revoked === undefined) throw new CliError(`no user with the e-mail ${input.email.trim()}`);
  return { id: user.id, email: user.email, revoked_sessions: revoked };
}
