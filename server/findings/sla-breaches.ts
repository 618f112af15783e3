import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { appendEvents, type NewDomainEvent } from '../events/outbox.ts';
import { findingListRows } from './findings-lifecycle.repository.ts';
import {
  insertSlaBreaches,
  lockNewlyBreachedFindingsOfAnyOrganization,
} from './finding-sla-breaches.repository.ts';
import { findingListItem } from './views.ts';

/**
 * The SLA-breach timer (docs/integrations.md, "Events"): when an open or in-progress finding
 * passes its due date, `sla.breached` is appended once for that due date (the finding's list
 * view, `due_date` included). A finding whose due date changes and passes again is announced
 * again. It changes no finding: notification rules read the event from the outbox.
 */
export async function announceSlaBreaches(db: Db, now = new Date(), limit = 500): Promise<number> {
  return db.transaction(async (trx) => {
    const due = await lockNewlyBreachedFindingsOfAnyOrganization(trx, now, limit);
    const byOrg = new Map<string, typeof due>();
    for (const f of due) byOrg.set(f.org_id, [...(byOrg.get(f.org_id) ?? []), f]);
    for (const [orgId, findings] of byOrg) {
      await insertSlaBreaches(
        trx,
        orgId,
        findings.map((f) => ({ org_id: orgId, finding_id: f.id, due_date: f.due_date, created_at: now })),
      );
      const events: NewDomainEvent[] = (
        await findingListRows(
          trx,
          orgId,
          findings.map((f) => f.id),
        )
      ).map((row) => ({ type: 'sla.breached', subjectId: row.id, data: { ...findingListItem(row) } }));
      await appendEvents(trx, orgId, events, now);
    }
    return due.length;
  });
}

/** Runs the timer every `intervalMs` until stopped (roles `api` and `all`). */
export function startSlaBreachTimer(db: Db, logger: Logger, intervalMs = 60_000): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  const tick = () => {
    pass = (async () => {
      try {
        while (!stopped && (await announceSlaBreaches(db)) === 500) {
          // a full pass: there may be more
        }
      } catch (err) {
        logger.error({ err }, 'SLA breach timer failed');
      } finally {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      }
    })();
  };
  timer = setTimeout(tick, 0);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await pass;
  };
}
