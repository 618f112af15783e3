import type { Db } from '../db/index.ts';
import { notFound, validationError } from '../errors.ts';
import { newId } from '../identity/ids.ts';
import { pageOf } from '../schemas/common.ts';
import { findIntegration } from './integrations.repository.ts';
import {
  findMessage,
  countMessages,
  listMessages,
  requeueDeadMessage,
  type MessageFilter,
  type MessageRow,
} from './notification-messages.repository.ts';
import {
  countNotificationRules,
  deleteNotificationRule,
  insertNotificationRule,
  listNotificationRules,
  type NotificationRuleRow,
} from './notification-rules.repository.ts';

/**
 * Notification rules (docs/integrations.md, "Rules"): which of the events
 * `vulnerability.found`, `scan.failed` and `sla.breached`, from which severity, go to which
 * integration, as a message (chat, e-mail) or a ticket (GitHub, Jira; finding events). And
 * the notification outbox's deliveries, as the console lists them.
 */

type NotificationEventName =
  'vulnerability.found' | 'vulnerability.critical' | 'scan.failed' | 'sla.breached';

export function presentRule(row: NotificationRuleRow) {
  return {
    id: row.id,
    integration_id: row.integration_id,
    events: row.events as Array<NotificationEventName>,
    min_severity: row.min_severity,
    action: row.action,
    created_at: row.created_at.toISOString(),
  };
}

export async function createRule(
  db: Db,
  orgId: string,
  userId: string,
  input: {
    integration_id: string;
    events: NotificationEventName[];
    min_severity?: NotificationRuleRow['min_severity'] | undefined;
    action?: 'message' | 'ticket' | undefined;
  },
) {
  const integration = await findIntegration(db, orgId, input.integration_id);
  if (!integration)
    throw validationError('integration_id', 'integration_id: no integration of the organization has this id');
  const action = input.action ?? 'message';
  const tracker = integration.type === 'github' || integration.type === 'jira';
  if (action === 'message' && tracker) {
    throw validationError(
      'action',
      'action: GitHub and Jira integrations take tickets: send "action": "ticket"',
    );
  }
  if (action === 'ticket' && !tracker) {
    throw validationError('action', 'action: tickets need a GitHub or Jira integration');
  }
  if (action === 'ticket' && input.events.includes('scan.failed')) {
    throw validationError(
      'events',
      'events: a ticket rule takes finding events (vulnerability.found, sla.breached)',
    );
  }
  const row = await insertNotificationRule(db, orgId, {
    id: newId('nrule'),
    org_id: orgId,
    integration_id: integration.id,
    events: [...new Set(input.events)],
    min_severity: input.min_severity ?? 'info',
    action,
    created_by: userId,
  });
  return presentRule(row);
}

export async function listRules(db: Db, orgId: string, page: number, perPage: number) {
  const total = await countNotificationRules(db, orgId);
  const rows = await listNotificationRules(db, orgId, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(presentRule), total, page, perPage);
}

export async function deleteRule(db: Db, orgId: string, id: string) {
  if (!(await deleteNotificationRule(db, orgId, id))) throw notFound('notification rule');
  return { id, deleted: true as const };
}

export function presentMessage(row: MessageRow) {
  return {
    id: row.id,
    integration_id: row.integration_id,
    kind: row.kind,
    summary: row.summary,
    status: row.status,
    attempts: row.attempts,
    status_code: row.last_status_code,
    error: row.last_error,
    next_retry_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listDeliveries(
  db: Db,
  orgId: string,
  filter: MessageFilter,
  page: number,
  perPage: number,
) {
  const total = await countMessages(db, orgId, filter);
  const rows = await listMessages(db, orgId, filter, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(presentMessage), total, page, perPage);
}

export async function getDelivery(db: Db, orgId: string, id: string) {
  const row = await findMessage(db, orgId, id);
  if (!row) throw notFound('delivery');
  return presentMessage(row);
}

/** Queues a dead message again (its key unchanged, so it is still sent once); 404 unless dead. */
export async function retryDelivery(db: Db, orgId: string, id: string) {
  const row = await requeueDeadMessage(db, orgId, id, new Date());
  if (!row) throw notFound('dead delivery');
  return presentMessage(row);
}
