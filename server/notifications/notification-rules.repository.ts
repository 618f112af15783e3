import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/** The `notification_rules` table: which events go to which integration; scoped by organization. */

export interface NotificationRuleRow {
  id: string;
  org_id: string;
  integration_id: string;
  events: string[];
  min_severity: 'info' | 'low' | 'medium' | 'high' | 'critical';
  action: 'message' | 'ticket';
  created_by: string | null;
  created_at: Date;
}

export type NewNotificationRuleRow = Omit<NotificationRuleRow, 'created_at'> &
  Partial<Pick<NotificationRuleRow, 'created_at'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    notification_rules: Knex.CompositeTableType<
      NotificationRuleRow,
      NewNotificationRuleRow,
      Partial<NotificationRuleRow>
    >;
  }
}

export async function insertNotificationRule(
  db: Db,
  orgId: string,
  row: NewNotificationRuleRow,
): Promise<NotificationRuleRow> {
  const [created] = await db('notification_rules')
    .insert({ ...row, org_id: orgId })
    .returning('*');
  return created!;
}

export async function findNotificationRule(
  db: Db,
  orgId: string,
  id: string,
): Promise<NotificationRuleRow | undefined> {
  return db('notification_rules').where({ org_id: orgId, id }).first();
}

export async function countNotificationRules(db: Db, orgId: string): Promise<number> {
  const [row] = await db('notification_rules')
    .where({ org_id: orgId })
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

export async function listNotificationRules(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<NotificationRuleRow[]> {
  return db('notification_rules')
    .where({ org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

export async function deleteNotificationRule(db: Db, orgId: string, id: string): Promise<boolean> {
  return (await db('notification_rules').where({ org_id: orgId, id }).delete()) > 0;
}

/** The organization's rules listening to the event. */
export async function rulesForEvent(db: Db, orgId: string, event: string): Promise<NotificationRuleRow[]> {
  return db('notification_rules').where({ org_id: orgId }).whereRaw('? = any(events)', [event]).orderBy('id');
}
