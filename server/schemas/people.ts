import { z } from 'zod';
import { AccountEmail, IdParam, paginated, PaginationQuery, DateParam, Role, Timestamp } from './common.ts';

/**
 * Wire shapes of the People API (users of an organization, invitations), the
 * self-service password change and the audit trail (issue 22).
 */

/** Shortest password a person may set (the same rule as SCANWARD_ADMIN_PASSWORD and the command line). */
export const MIN_PASSWORD_LENGTH = 12;
export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(1024, { error: 'must be at most 1024 characters' });

// ---- People ----

export const UserRecord = z
  .object({
    id: z.string().meta({ example: 'user_0123456789abcdefghijklmn' }),
    email: z.string(),
    role: Role,
    disabled: z.boolean(),
    disabled_at: Timestamp.nullable(),
    mfa_enabled: z.boolean(),
    invite_pending: z
      .boolean()
      .meta({ description: 'Invited and has not set a password yet (the link may have expired)' }),
    created_at: Timestamp,
  })
  .meta({ id: 'User' });
export type UserRecord = z.infer<typeof UserRecord>;

export const UserList = paginated(UserRecord, 'UserList');

export const UserIdParams = z.object({ user_id: IdParam('user', 'user_0123456789abcdefghijklmn') });

export const UserInvite = z
  .object({
    email: AccountEmail,
    role: Role.default('member'),
  })
  .meta({ id: 'UserInvite' });

export const UserInvited = z
  .object({
    user: UserRecord,
    invite_url: z.string().meta({
      description:
        'One-time link under SCANWARD_PUBLIC_URL where the person sets their password; shown only in this answer',
      example: 'https://scanward.example.com/set-password#token=inv_…',
    }),
    invite_expires_at: Timestamp,
  })
  .meta({ id: 'UserInvited' });
export type UserInvited = z.infer<typeof UserInvited>;

export const UserUpdate = z
  .object({
    role: Role.optional(),
    disabled: z.boolean().optional().meta({
      description: 'true: no log-in, and every session and API key of the user is revoked at once',
    }),
  })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, { error: 'give role or disabled' })
  .meta({ id: 'UserUpdate' });

export const UserDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'UserDeleted' });

export const InviteAccept = z
  .object({
    token: z.string().min(1, { error: 'is required' }).max(200),
    password: NewPassword,
  })
  .meta({ id: 'InviteAccept' });

export const InviteAccepted = z
  .object({ email: z.string(), password_set: z.literal(true) })
  .meta({ id: 'InviteAccepted' });

// ---- Self-service ----

export const PasswordChange = z
  .object({
    current_password: z.string().min(1, { error: 'is required' }).max(1024),
    new_password: NewPassword,
  })
  .meta({ id: 'PasswordChange' });

export const PasswordChanged = z
  .object({
    password_changed: z.literal(true),
    sessions_revoked: z.number().int().meta({ description: 'How many other sessions were revoked' }),
  })
  .meta({ id: 'PasswordChanged' });

// ---- Audit trail ----

export const AuditAction = z.enum([
  'user.invited',
  'user.invite_accepted',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.password_changed',
  'user.provisioned',
  'auth.login',
  'auth.login_failed',
  'auth.password_login_changed',
  'auth.settings_changed',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.recovery_codes_regenerated',
  'ci.token_issued',
  'ci.token_refused',
  'ci_trust.created',
  'ci_trust.deleted',
  'risk.accepted',
  'risk.acceptance_revoked',
  'risk.acceptance_expired',
  'api_key.created',
  'api_key.revoked',
  'settings.sla_changed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'integration.created',
  'integration.updated',
  'integration.deleted',
]);
export type AuditAction = z.infer<typeof AuditAction>;

const Person = z
  .object({ id: z.string().nullable(), email: z.string().nullable() })
  .meta({ id: 'AuditPerson' });

export const AuditEvent = z
  .object({
    id: z.string(),
    action: AuditAction,
    actor: Person.nullable().meta({
      description:
        'Who acted; null when no person did: nobody signed in (a failed log-in), or the service itself (an acceptance that lapsed)',
    }),
    target: Person.nullable().meta({
      description:
        'Whom or what it was done to: a person (id and e-mail), or an object by its id (a finding, an API key, a webhook; e-mail null); null when nothing in particular',
    }),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.string()).meta({
      description:
        'What changed, as text (a changed setting as `before → after`); never a secret (no key, token, password or webhook secret)',
    }),
    created_at: Timestamp,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditEventList = paginated(AuditEvent, 'AuditEventList');

export const AuditEventQuery = PaginationQuery.extend({
  actor: z.string().max(320).optional().meta({ description: "The actor's user id or e-mail" }),
  action: AuditAction.optional().meta({ description: 'Only events of this action' }),
  target: z.string().max(320).optional().meta({
    description: "What the event was done to: a user's id or e-mail, or a finding, API key or webhook id",
    example: 'finding_3k9x0c2m4q8w1e5r7t6y2u0i',
  }),
  from: DateParam.optional().meta({ description: 'Events at or after this moment' }),
  to: DateParam.optional().meta({ description: 'Events before this moment' }),
});
