import type { Db } from '../db/index.ts';
import { findOrganization } from '../identity/organizations.repository.ts';
import { listUsersWithOrganization } from '../identity/users.repository.ts';
import {
  deleteUser,
  disableUser,
  enableUser,
  resetPassword,
  resetUserMfa,
  revokeUserSessions,
  type UserRef,
} from '../people/user-lifecycle.ts';
import type { UserRow } from '../identity/users.repository.ts';
import { createUser, EmailTakenError, findUserByEmail } from '../identity/users.ts';
import { AppError } from '../errors.ts';
import { ACCOUNT_EMAIL_PATTERN, Role } from '../schemas/common.ts';
import { CliError, usageError } from './errors.ts';

/*
 * Input is checked by the parse functions before any database is opened, so a
 * typo is reported at once, even while the embedded database is locked. The
 * command functions take checked input and do the work.
 */

/** Shortest password the command line accepts (the same rule as SCANWARD_ADMIN_PASSWORD). */
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;

export type { Role };
const ROLES: readonly Role[] = Role.options;

export interface UserView {
  id: string;
  email: string;
  role: Role;
  org_id: string;
  org_name: string;
  mfa_enabled: boolean;
  /** When the user was disabled; null while active. */
  disabled_at: string | null;
  created_at: string;
}

export function parseEmail(value: string): string {
  const email = value.trim();
  // Deliberately loose: `admin@localhost` (the bootstrap default) must pass.
  if (!ACCOUNT_EMAIL_PATTERN.test(email)) throw usageError(`"${value}" is not an e-mail address`);
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
      disabled_at: null,
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

/** The user an e-mail names, whatever its organization (the operator is instance-wide). */
async function userNamed(db: Db, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`no user with the e-mail ${email.trim()}`);
  return user;
}

const refOf = (user: UserRow): UserRef => ({ orgId: user.org_id, userId: user.id });

/** Runs a lifecycle change; a refusal (the last active admin) is the operator's to read, exit 1. */
async function refusalsAsCliErrors<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new CliError(err.detail);
    throw err;
  }
}

export interface PasswordResetView {
  id: string;
  email: string;
  password_reset: true;
  /** Every session of the user is revoked with the reset, so stolen tokens stop working. */
  sessions_revoked: true;
  /** How many sessions and API keys stopped working with the reset. */
  revoked_sessions: number;
  revoked_api_keys: number;
  /** Whether the user's API keys were kept (`--keep-api-keys`). */
  api_keys_kept: boolean;
}

export async function resetPasswordCommand(
  db: Db,
  input: { email: string; password: string; keepApiKeys: boolean },
): Promise<PasswordResetView> {
  const user = await userNamed(db, input.email);
  const { revoked } = await refusalsAsCliErrors(() =>
    resetPassword(db, refOf(user), input.password, { keepApiKeys: input.keepApiKeys }),
  );
  return {
    id: user.id,
    email: user.email,
    password_reset: true,
    sessions_revoked: true,
    revoked_sessions: revoked.sessions,
    revoked_api_keys: revoked.apiKeys,
    api_keys_kept: input.keepApiKeys,
  };
}

export interface UserDisabledView {
  id: string;
  email: string;
  disabled: true;
  disabled_at: string;
  revoked_sessions: number;
  revoked_api_keys: number;
}

export async function disableUserCommand(db: Db, input: { email: string }): Promise<UserDisabledView> {
  const user = await userNamed(db, input.email);
  const change = await refusalsAsCliErrors(() => disableUser(db, refOf(user)));
  return {
    id: user.id,
    email: user.email,
    disabled: true,
    disabled_at: new Date(change.user.disabled_at!).toISOString(),
    revoked_sessions: change.revoked.sessions,
    revoked_api_keys: change.revoked.apiKeys,
  };
}

export interface UserEnabledView {
  id: string;
  email: string;
  disabled: false;
}

export async function enableUserCommand(db: Db, input: { email: string }): Promise<UserEnabledView> {
  const user = await userNamed(db, input.email);
  await refusalsAsCliErrors(() => enableUser(db, refOf(user)));
  return { id: user.id, email: user.email, disabled: false };
}

export interface UserDeletedView {
  id: string;
  email: string;
  deleted: true;
  revoked_sessions: number;
  revoked_api_keys: number;
}

export async function deleteUserCommand(db: Db, input: { email: string }): Promise<UserDeletedView> {
  const user = await userNamed(db, input.email);
  const change = await refusalsAsCliErrors(() => deleteUser(db, refOf(user)));
  return {
    id: user.id,
    email: user.email,
    deleted: true,
    revoked_sessions: change.revoked.sessions,
    revoked_api_keys: change.revoked.apiKeys,
  };
}

export interface MfaResetView {
  id: string;
  email: string;
  mfa_reset: true;
  /** Whether MFA was on (or being set up) before the reset. */
  mfa_was_enabled: boolean;
}

export async function resetMfaCommand(db: Db, input: { email: string }): Promise<MfaResetView> {
  const user = await userNamed(db, input.email);
  const { mfaWasOn } = await refusalsAsCliErrors(() => resetUserMfa(db, refOf(user)));
  return { id: user.id, email: user.email, mfa_reset: true, mfa_was_enabled: mfaWasOn };
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
    disabled_at: row.disabled_at ? new Date(row.disabled_at).toISOString() : null,
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
  const user = await userNamed(db, input.email);
  const revoked = await refusalsAsCliErrors(() => revokeUserSessions(db, refOf(user)));
  return { id: user.id, email: user.email, revoked_sessions: revoked };
}
