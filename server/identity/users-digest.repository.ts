import type { Db } from '../db/index.ts';

/**
 * The daily digest's queries over `users` and `findings` (digest.ts): who gets one, what is in
 * it, and each person's choice. The recipients' look-up serves every organization; the rest
 * is scoped by organization.
 */

export interface DigestRecipient {
  id: string;
  org_id: string;
  email: string;
}

export interface DigestFinding {
  id: string;
  title: string;
  severity: string;
  target: string;
  due_date: Date;
}

const UNRESOLVED = ['open', 'in_progress'];

/** People who want the digest, are not disabled and have an unresolved finding due before `until`. */
export async function digestRecipientsOfAnyOrganization(db: Db, until: Date): Promise<DigestRecipient[]> {
  return db('users as u')
    .where('u.email_digest', true)
    .whereNull('u.disabled_at')
    .whereExists((q) =>
      q
        .from('findings as f')
        .whereRaw('f.org_id = u.org_id')
        .whereRaw('lower(f.assignee) = lower(u.email)')
        .whereIn('f.status', UNRESOLVED)
        .whereNotNull('f.due_date')
        .where('f.due_date', '<', until),
    )
    .orderBy('u.id')
    .select<DigestRecipient[]>('u.id', 'u.org_id', 'u.email');
}

/** The person's unresolved findings due before `until`, soonest (most overdue) first. */
export async function dueFindingsOfAssignee(
  db: Db,
  orgId: string,
  email: string,
  until: Date,
  limit: number,
): Promise<DigestFinding[]> {
  return db('findings')
    .where({ org_id: orgId })
    .whereRaw('lower(assignee) = lower(?)', [email])
    .whereIn('status', UNRESOLVED)
    .whereNotNull('due_date')
    .where('due_date', '<', until)
    .orderBy([{ column: 'due_date' }, { column: 'id' }])
    .limit(limit)
    .select<DigestFinding[]>('id', 'title', 'severity', 'target', 'due_date');
}

export async function findDigestPreference(
  db: Db,
  orgId: string,
  userId: string,
): Promise<boolean | undefined> {
  const row = await db('users')
    .where({ org_id: orgId, id: userId })
    .first<{ email_digest: boolean } | undefined>('email_digest');
  return row?.email_digest;
}

export async function updateDigestPreference(
  db: Db,
  orgId: string,
  userId: string,
  wanted: boolean,
): Promise<void> {
  await db('users')
    .where({ org_id: orgId, id: userId })
    .update({ email_digest: wanted } as never);
}
