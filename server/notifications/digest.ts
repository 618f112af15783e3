import type { Db } from '../db/index.ts';
import { notFound } from '../errors.ts';
import type { Services } from '../services.ts';
import {
  digestRecipientsOfAnyOrganization,
  dueFindingsOfAssignee,
  findDigestPreference,
  updateDigestPreference,
} from '../identity/users-digest.repository.ts';
import { consoleLink, renderMail } from './mail.ts';
import { queueMessage } from './outbox.ts';

/**
 * The daily digest (docs/email.md): from SCANWARD_DIGEST_HOUR (UTC) each day, every person
 * who has not opted out and has unresolved findings assigned to them that are overdue or due
 * within 7 days gets one e-mail listing them, with links to the console. The message key
 * (`digest:<user>:<date>`) makes it one a day however often the worker looks.
 */

export const SOON_DAYS = 7;
const MAX_LISTED = 50;
/** How often a worker looks for digests to queue. */
const LOOK_EVERY_MS = 10 * 60_000;
const lastLook = new WeakMap<Services, number>();

const day = (d: Date) => d.toISOString().slice(0, 10);

export async function queueDueDigests(services: Services, now = new Date(), force = false): Promise<number> {
  if (!services.config.mail || now.getUTCHours() < services.config.digestHour) return 0;
  if (!force) {
    const last = lastLook.get(services);
    if (last !== undefined && now.getTime() - last < LOOK_EVERY_MS) return 0;
    lastLook.set(services, now.getTime());
  }
  const until = new Date(now.getTime() + SOON_DAYS * 86_400_000);
  const publicUrl = services.config.publicUrl ?? `http://localhost:${services.config.port}`;
  let queued = 0;
  for (const person of await digestRecipientsOfAnyOrganization(services.db, until)) {
    const findings = await dueFindingsOfAssignee(services.db, person.org_id, person.email, until, MAX_LISTED);
    if (findings.length === 0) continue;
    const overdue = findings.filter((f) => f.due_date.getTime() < now.getTime());
    const soon = findings.length - overdue.length;
    const item = (f: (typeof findings)[number]) => ({
      text: `[${f.severity}] ${f.title} on ${f.target}: ${f.due_date.getTime() < now.getTime() ? 'overdue since' : 'due'} ${day(f.due_date)}`,
      url: consoleLink(publicUrl, `/findings/${f.id}`),
    });
    const mail = renderMail(
      person.email,
      `[Scanward] ${overdue.length} overdue, ${soon} due within ${SOON_DAYS} days`,
      {
        greeting: 'Good morning,',
        paragraphs: [
          `Findings assigned to you: ${overdue.length} past their due date, ${soon} due within the next ${SOON_DAYS} days.`,
        ],
        items: findings.map(item),
        action: {
          label: 'Open your findings',
          url: consoleLink(publicUrl, `/findings?assignee=${encodeURIComponent(person.email)}`),
        },
        footer: `You receive this daily digest because findings are assigned to you. Turn it off in the console under Settings (${consoleLink(publicUrl, '/settings')}).`,
      },
    );
    const id = await queueMessage(services.db, services.keys.encryptionKey, person.org_id, {
      kind: 'email',
      integrationId: null,
      dedupeKey: `digest:${person.id}:${day(now)}`,
      summary: `daily digest to ${person.email}`,
      payload: { ...mail },
    });
    if (id) queued += 1;
  }
  return queued;
}

export async function digestPreference(db: Db, orgId: string, userId: string) {
  const wanted = await findDigestPreference(db, orgId, userId);
  if (wanted === undefined) throw notFound('user');
  return { email_digest: wanted };
}

export async function setDigestPreference(db: Db, orgId: string, userId: string, wanted: boolean) {
  await updateDigestPreference(db, orgId, userId, wanted);
  return digestPreference(db, orgId, userId);
}
