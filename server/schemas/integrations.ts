import { z } from 'zod';
import { AccountEmail, paginated, PaginationQuery, Timestamp } from './common.ts';
import { FindingSeverity, Ticket } from './findings.ts';
import { NewPassword } from './people.ts';

/**
 * Integrations (Slack, Teams, GitHub, Jira, e-mail), notification rules, tickets and the
 * notification outbox's deliveries (docs/integrations.md). Secrets (chat webhook URLs,
 * tokens) are write-only: no answer carries them.
 */

export const IntegrationType = z
  .enum(['slack', 'teams', 'github', 'jira', 'email'])
  .meta({ id: 'IntegrationType' });
export type IntegrationType = z.infer<typeof IntegrationType>;

const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
  .max(2000, { error: 'must be at most 2000 characters' });
const Secret = (what: string) =>
  z
    .string()
    .min(1, { error: `must be the ${what}` })
    .max(4000, { error: 'must be at most 4000 characters' });

export const ChatConfig = z.strictObject({
  webhook_url: HttpUrl.meta({ description: 'The incoming webhook URL (a secret: write-only)' }),
});
export const GithubConfig = z.strictObject({
  repository: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, { error: 'must be owner/name' })
    .meta({ example: 'acme/web' }),
  token: Secret('token').meta({ description: 'A token with issues: write (write-only)' }),
  api_url: HttpUrl.optional().meta({
    description:
      'GitHub Enterprise Server API, e.g. https://github.example.com/api/v3; default https://api.github.com',
  }),
});
export const JiraConfig = z.strictObject({
  base_url: HttpUrl.meta({ example: 'https://acme.atlassian.net' }),
  email: AccountEmail.optional().meta({
    description:
      'Jira Cloud: the account of the API token (REST v3). Absent: Server/Data Center with a personal token (REST v2)',
  }),
  api_token: Secret('API token').meta({
    description: 'API token (Cloud) or personal access token (Server/DC); write-only',
  }),
  project_key: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,49}$/, { error: 'must be a Jira project key (capitals, digits, _)' }),
  issue_type: z.string().min(1).max(100).optional().meta({ description: 'Default Task' }),
});
export const EmailConfig = z.strictObject({
  to: z.array(AccountEmail).min(1, { error: 'must name at least one address' }).max(50),
});

const CONFIG_OF = {
  slack: ChatConfig,
  teams: ChatConfig,
  github: GithubConfig,
  jira: JiraConfig,
  email: EmailConfig,
};
export const configSchemaOf = (type: IntegrationType) => CONFIG_OF[type];

/** The fields of each type's config that are secrets: stored sealed, never answered. */
export const SECRET_FIELDS: Record<IntegrationType, readonly string[]> = {
  slack: ['webhook_url'],
  teams: ['webhook_url'],
  github: ['token'],
  jira: ['api_token'],
  email: [],
};

const Name = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });

export const CreateIntegrationRequest = z
  .strictObject({
    type: IntegrationType,
    name: Name,
    config: z.record(z.string(), z.unknown()).meta({
      description:
        'slack, teams: {webhook_url}; github: {repository, token, api_url?}; jira: {base_url, email?, api_token, project_key, issue_type?}; email: {to}',
    }),
  })
  .meta({ id: 'CreateIntegrationRequest' });

export const UpdateIntegrationRequest = z
  .strictObject({
    name: Name.optional(),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Fields to change; a secret left out is kept' }),
  })
  .meta({ id: 'UpdateIntegrationRequest' });

export const Integration = z
  .object({
    id: z.string(),
    type: IntegrationType,
    name: z.string(),
    config: z.record(z.string(), z.unknown()).meta({ description: 'The settings without the secrets' }),
    secrets_set: z.array(z.string()).meta({ description: 'Which secret fields hold a value' }),
    receiver_url: z.string().nullable().meta({
      description: "Trackers: where the tracker's webhook posts issue events (POST, signed)",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Integration' });

export const CreatedIntegration = Integration.extend({
  receiver_secret: z.string().nullable().meta({
    description: "Trackers: the secret the tracker's webhook signs events with; shown only in this answer",
  }),
  secret: z.string().nullable().meta({
    description: 'The same as `receiver_secret`, under the name the webhooks API gives its signing secret',
  }),
}).meta({ id: 'CreatedIntegration' });

export const IntegrationList = paginated(Integration, 'IntegrationList');

export const IntegrationTestResult = z
  .object({ queued: z.literal(true), delivery_id: z.string() })
  .meta({ id: 'IntegrationTestResult' });

export const NotificationEvent = z
  .enum(['vulnerability.found', 'vulnerability.critical', 'scan.failed', 'sla.breached'])
  .meta({
    id: 'NotificationEvent',
    description: '`vulnerability.critical`: `vulnerability.found` of a critical finding only',
  });

export const CreateNotificationRuleRequest = z
  .strictObject({
    integration_id: z.string().min(1).max(100),
    events: z.array(NotificationEvent).min(1, { error: 'must name at least one event' }).max(4),
    min_severity: FindingSeverity.optional().meta({ description: 'Default info (everything)' }),
    action: z.enum(['message', 'ticket']).optional().meta({
      description:
        'message (default): a chat message or e-mail; ticket: open a ticket (trackers, finding events)',
    }),
  })
  .meta({ id: 'CreateNotificationRuleRequest' });

export const NotificationRule = z
  .object({
    id: z.string(),
    integration_id: z.string(),
    events: z.array(NotificationEvent),
    min_severity: FindingSeverity,
    action: z.enum(['message', 'ticket']),
    created_at: Timestamp,
  })
  .meta({ id: 'NotificationRule' });

export const NotificationRuleList = paginated(NotificationRule, 'NotificationRuleList');

export const CreateTicketRequest = z
  .strictObject({ integration_id: z.string().min(1).max(100) })
  .meta({ id: 'CreateTicketRequest' });

export const TicketQueued = z
  .object({ queued: z.boolean(), delivery_id: z.string().nullable(), tickets: z.array(Ticket) })
  .meta({ id: 'TicketQueued' });

export const NotificationDelivery = z
  .object({
    id: z.string(),
    integration_id: z.string().nullable(),
    kind: z.string(),
    summary: z.string(),
    status: z.enum(['pending', 'succeeded', 'dead']),
    attempts: z.number().int(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    next_retry_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'NotificationDelivery' });

export const NotificationDeliveryQuery = PaginationQuery.extend({
  status: z
    .enum(['pending', 'succeeded', 'dead'])
    .optional()
    .meta({ description: 'Only messages in this state (`dead`: retries exhausted, re-sendable)' }),
  integration_id: z.string().max(100).optional().meta({ description: 'Only messages to this integration' }),
});

export const NotificationDeliveryList = paginated(NotificationDelivery, 'NotificationDeliveryList');

export const PasswordResetRequest = z
  .strictObject({ email: z.string().max(320, { error: 'must be at most 320 characters' }) })
  .meta({ id: 'PasswordResetRequest' });
export const PasswordResetAccepted = z.object({ detail: z.string() }).meta({ id: 'PasswordResetAccepted' });
export const PasswordResetConfirm = z
  .strictObject({
    token: z.string().min(1).max(200),
    new_password: NewPassword,
    keep_api_keys: z
      .boolean()
      .optional()
      .meta({ description: 'Keep your API keys working (default: revoked)' }),
  })
  .meta({ id: 'PasswordResetConfirm' });
export const PasswordResetDone = z
  .object({
    email: z.string(),
    password_reset: z.literal(true),
    revoked_sessions: z.number().int(),
    revoked_api_keys: z.number().int(),
  })
  .meta({ id: 'PasswordResetDone' });

/** A person's mail choices, as answered. */
export const DigestPreference = z
  .object({ email_digest: z.boolean().meta({ description: 'Whether the daily digest is e-mailed' }) })
  .meta({ id: 'DigestPreference' });

/** A change of a person's mail choices (a request body: its own component, strict by the contract). */
export const DigestPreferenceChange = z
  .object({
    email_digest: z.boolean({ error: 'must be true or false' }).meta({
      description: '`false` stops the daily digest of overdue and soon-due findings; `true` resumes it',
    }),
  })
  .meta({ id: 'DigestPreferenceChange' });
