import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `integrations` table: an organization's Slack, Teams, GitHub, Jira and e-mail
 * integrations. `secrets` and `receiver_secret` are sealed. Every query is scoped by
 * organization except the receiver's look-up by id, which is how a tracker's signed event
 * names its integration (the signature then proves it).
 */

export interface IntegrationRow {
  id: string;
  org_id: string;
  type: 'slack' | 'teams' | 'github' | 'jira' | 'email';
  name: string;
  /** JSON of the settings that are not secret. */
  config: string;
  /** Sealed JSON of the secret settings. */
  secrets: string;
  receiver_secret: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewIntegrationRow = Omit<IntegrationRow, 'created_at' | 'updated_at'> &
  Partial<Pick<IntegrationRow, 'created_at' | 'updated_at'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    integrations: Knex.CompositeTableType<IntegrationRow, NewIntegrationRow, Partial<IntegrationRow>>;
  }
}

/** Inserts the integration; undefined when the organization already has one of that name. */
export async function insertIntegrationUnlessNameTaken(
  db: Db,
  orgId: string,
  row: NewIntegrationRow,
): Promise<IntegrationRow | undefined> {
  const [created] = await db('integrations')
    .insert({ ...row, org_id: orgId })
    .onConflict(['org_id', 'name'])
    .ignore()
    .returning('*');
  return created;
}

export async function findIntegration(
  db: Db,
  orgId: string,
  id: string,
): Promise<IntegrationRow | undefined> {
  return db('integrations').where({ org_id: orgId, id }).first();
}

/** The receiver's look-up: the integration an event names, of whichever organization. */
export async function findIntegrationOfAnyOrganization(
  db: Db,
  id: string,
): Promise<IntegrationRow | undefined> {
  return db('integrations').where({ id }).first();
}

export async function countIntegrations(db: Db, orgId: string): Promise<number> {
  const [row] = await db('integrations')
    .where({ org_id: orgId })
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

export async function listIntegrations(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<IntegrationRow[]> {
  return db('integrations')
    .where({ org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Changes the integration; undefined when it is gone. Throws the database's error on a taken name. */
export async function updateIntegration(
  db: Db,
  orgId: string,
  id: string,
  changes: Partial<Pick<IntegrationRow, 'name' | 'config' | 'secrets' | 'updated_at'>>,
): Promise<IntegrationRow | undefined> {
  const [row] = await db('integrations').where({ org_id: orgId, id }).update(changes).returning('*');
  return row;
}

export async function deleteIntegration(db: Db, orgId: string, id: string): Promise<boolean> {
  return (await db('integrations').where({ org_id: orgId, id }).delete()) > 0;
}
