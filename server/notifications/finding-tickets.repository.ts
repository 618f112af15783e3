import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/** The `finding_tickets` table: the tracker issues opened for findings; scoped by organization. */

export interface FindingTicketRow {
  org_id: string;
  finding_id: string;
  integration_id: string;
  key: string;
  url: string;
  external_id: string;
  state: 'open' | 'closed';
  created_at: Date;
  updated_at: Date;
}

export type NewFindingTicketRow = Omit<FindingTicketRow, 'created_at' | 'updated_at' | 'state'> &
  Partial<Pick<FindingTicketRow, 'created_at' | 'updated_at' | 'state'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_tickets: Knex.CompositeTableType<
      FindingTicketRow,
      NewFindingTicketRow,
      Partial<FindingTicketRow>
    >;
  }
}

/** Records the ticket unless the finding already has one in the integration; answers whether it did. */
export async function insertFindingTicket(db: Db, orgId: string, row: NewFindingTicketRow): Promise<boolean> {
  const inserted = await db('finding_tickets')
    .insert({ ...row, org_id: orgId })
    .onConflict(['finding_id', 'integration_id'])
    .ignore()
    .returning('finding_id');
  return inserted.length > 0;
}

export async function findFindingTicket(
  db: Db,
  orgId: string,
  findingId: string,
  integrationId: string,
): Promise<FindingTicketRow | undefined> {
  return db('finding_tickets')
    .where({ org_id: orgId, finding_id: findingId, integration_id: integrationId })
    .first();
}

/** The finding's tickets, oldest first. */
export async function ticketsOfFinding(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<FindingTicketRow[]> {
  return db('finding_tickets')
    .where({ org_id: orgId, finding_id: findingId })
    .orderBy([{ column: 'created_at' }, { column: 'integration_id' }]);
}

/** The ticket an integration's tracker names by its own id. */
export async function findTicketByExternalId(
  db: Db,
  orgId: string,
  integrationId: string,
  externalId: string,
): Promise<FindingTicketRow | undefined> {
  return db('finding_tickets')
    .where({ org_id: orgId, integration_id: integrationId, external_id: externalId })
    .first();
}

export async function setFindingTicketState(
  db: Db,
  orgId: string,
  findingId: string,
  integrationId: string,
  state: 'open' | 'closed',
  now: Date,
): Promise<void> {
  await db('finding_tickets')
    .where({ org_id: orgId, finding_id: findingId, integration_id: integrationId })
    .update({ state, updated_at: now });
}

/** The ticket an integration's tracker names by its key (Jira's `SEC-12`). */
export async function findTicketByKey(
  db: Db,
  orgId: string,
  integrationId: string,
  key: string,
): Promise<FindingTicketRow | undefined> {
  return db('finding_tickets').where({ org_id: orgId, integration_id: integrationId, key }).first();
}

/** The organization's open tickets whose findings are no longer open (a scan resolved them), at most `limit`. */
export async function openTicketsOfClosedFindings(
  db: Db,
  orgId: string,
  limit: number,
): Promise<Array<FindingTicketRow & { finding_status: string }>> {
  return db('finding_tickets as t')
    .join('findings as f', function () {
      this.on('f.id', '=', 't.finding_id').andOn('f.org_id', '=', 't.org_id');
    })
    .where('t.org_id', orgId)
    .where('t.state', 'open')
    .whereIn('f.status', ['resolved', 'accepted', 'false_positive'])
    .orderBy([{ column: 't.finding_id' }, { column: 't.integration_id' }])
    .limit(limit)
    .select<Array<FindingTicketRow & { finding_status: string }>>('t.*', 'f.status as finding_status');
}
