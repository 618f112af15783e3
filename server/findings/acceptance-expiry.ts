import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { recordAuditEvents } from '../identity/audit.ts';
import { bumpFindingsVersion } from './finding-versions.repository.ts';
import { lockExpiredAcceptancesOfAnyOrganization } from './findings-timers.repository.ts';
import { SYSTEM_ACTOR } from './rows.ts';
import { reopenLapsed } from './transitions.ts';
import { queueVulnerabilityEvents } from './vulnerability-events.ts';

/**
 * The acceptance-expiry timer (docs/finding-lifecycle.md, "Accepting a risk"): an
 * `accepted` finding whose `acceptance_expires_at` has passed reopens by itself, in
 * one transaction per pass: status `open` with the risk decision cleared, a history
 * entry by `system`, and the domain events `vulnerability.found` (as for a finding a
 * scan reopens: the list view with `scan_id`, here the last scan that saw it) and
 * `finding.updated`, and the audit event `risk.acceptance_expired` (no actor: the
 * service did it). Answers the ids it reopened.
 */
export async function reopenExpiredAcceptances(db: Db, now = new Date(), limit = 500): Promise<string[]> {
  return db.transaction(async (trx) => {
    const due = await lockExpiredAcceptancesOfAnyOrganization(trx, now, limit);
    const byOrg = new Map<string, string[]>();
    for (const f of due) byOrg.set(f.org_id, [...(byOrg.get(f.org_id) ?? []), f.id]);
    for (const [orgId, ids] of byOrg) {
      await reopenLapsed(trx, orgId, ids, now);
      await bumpFindingsVersion(trx, orgId);
      await recordAuditEvents(
        trx,
        ids.map((id) => ({
          orgId,
          action: 'risk.acceptance_expired' as const,
          target: { id, email: null },
          details: { to: 'open' },
        })),
        now,
      );
      // As for a finding a scan reopens (its last scan named), then the change itself.
      await queueVulnerabilityEvents(trx, orgId, ids, now, {
        then: (row) => [
          {
            type: 'finding.updated',
            subjectId: row.id,
            data: {
              id: row.id,
              status: 'open',
              previous_status: 'accepted',
              by: SYSTEM_ACTOR,
              updated_at: now.toISOString(),
            },
          },
        ],
      });
    }
    return due.map((f) => f.id);
  });
}

/** Runs the timer every `intervalMs` until stopped (roles `api` and `all`). */
export function startAcceptanceExpiry(db: Db, logger: Logger, intervalMs = 60_000): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  const tick = () => {
    pass = (async () => {
      try {
        while (!stopped && (await reopenExpiredAcceptances(db)).length === 500) {
          // a full pass: there may be more
        }
      } catch (err) {
        logger.error({ err }, 'acceptance expiry pass failed');
      }
    })();
    void pass.then(() => {
      pass = undefined;
      if (!stopped) timer = setTimeout(tick, intervalMs).unref();
    });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await pass;
  };
}
