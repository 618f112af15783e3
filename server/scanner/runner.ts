import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { effectiveLimits, type OrganizationRow } from '../identity/plans.ts';
import type { Services } from '../services.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { presentScanEvent } from './events.ts';
import { executeScan } from './pipeline.ts';
import { failScanRow } from './scan-rows.ts';
import type { ScanRecord } from './types.ts';
import type { PhaseTimings } from '../schemas/scans.ts';
import { listenForQueuedScans } from '../scans/queue-signal.ts';
import { scanMetrics } from '../metrics/registry.ts';

/**
 * Runner processes share the scan queue in the database. A runner claims a
 * pending scan with `FOR UPDATE SKIP LOCKED`, holds a lease it renews while it
 * works, and loses the scan when it stops renewing (a crash): another runner
 * then takes the scan over, resuming after its last completed phase. A scan
 * that keeps losing its runner, or makes no progress for the watchdog time, is
 * failed with a reason, so no scan stays `running` forever.
 */

export const MAX_ATTEMPTS = 3;
/** Scans a claim looks at before giving up (each may belong to an organization at its ceiling). */
const CLAIM_CANDIDATES = 10;

export interface RunnerOptions {
  runnerId?: string;
  /** Scans one runner works on at once. */
  maxConcurrentScans?: number;
  pollIntervalMs?: number;
}

export interface Runner {
  id: string;
  /** Looks for work now instead of at the next poll (after a scan was created). */
  nudge(): void;
  /** Resolves when the runner has no scan in hand. */
  idle(): Promise<void>;
  /** Stops claiming, aborts scans in hand (they are taken over later) and waits for them to wind down. */
  stop(): Promise<void>;
}

interface Candidate {
  id: string;
  org_id: string;
  status: string;
  attempts: number;
  created_at: Date;
  phase_timings: PhaseTimings | null;
}

/** What a claim hands the runner: the scan, and whether another runner had it before. */
export interface Claim {
  scan: ScanRecord;
  takeover: boolean;
  /** Milliseconds the scan waited between its creation and this (first) claim. */
  queueWaitMs?: number;
}

/**
 * Claims at most one scan for this runner: a pending scan, or a running scan
 * whose lease expired. The organization row is locked while its running scans
 * are counted, so runners together never exceed the plan's concurrency.
 */
export async function claimScan(
  db: Knex,
  runnerId: string,
  leaseSeconds: number,
  now = new Date(),
): Promise<Claim | { failed: string } | undefined> {
  return db.transaction(async (trx) => {
    // One candidate at a time, so concurrent claimers each lock only the scan they try
    // (skipping those locked by others); a scan of an organization at its concurrency
    // ceiling stays locked by us until we finish and is passed over.
    const passedOver: string[] = [];
    for (let tries = 0; tries < CLAIM_CANDIDATES; tries++) {
      const candidate = (await trx('scans')
        .where((q) =>
          q
            .where('status', 'pending')
            .orWhere((r) => r.where('status', 'running').where('lease_expires_at', '<', now)),
        )
        .whereNotIn('id', passedOver)
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .first('id', 'org_id', 'status', 'attempts', 'created_at', 'phase_timings')
        .forUpdate()
        .skipLocked()) as Candidate | undefined;
      if (!candidate) return undefined;
      if (candidate.status === 'running' && candidate.attempts >= MAX_ATTEMPTS) {
        const error = `the scan lost its runner ${candidate.attempts} times (runner processes crashed or were stopped)`;
        await failScanRow(trx, candidate.id, candidate.org_id, error, now);
        return { failed: candidate.id };
      }
      const org = (await trx('organizations')
        .where({ id: candidate.org_id })
        .forUpdate()
        .first()) as OrganizationRow;
      const limit = effectiveLimits(org).concurrentScans;
      if (limit >= 0) {
        const [{ n }] = (await trx('scans')
          .where({ org_id: candidate.org_id, status: 'running' })
          .where('lease_expires_at', '>=', now)
          .select(trx.raw('count(*)::int as n'))) as [{ n: number }];
        if (n >= limit) {
          passedOver.push(candidate.id);
          continue;
        }
      }
      const takeover = candidate.status === 'running';
      const queueWaitMs = takeover
        ? undefined
        : Math.max(0, now.getTime() - new Date(candidate.created_at).getTime());
      const [row] = (await trx('scans')
        .where({ id: candidate.id })
        .update({
          status: 'running',
          runner_id: runnerId,
          lease_expires_at: new Date(now.getTime() + leaseSeconds * 1000),
          attempts: candidate.attempts + 1,
          started_at: trx.raw('coalesce(started_at, ?)', [now]),
          last_progress_at: now,
          updated_at: now,
          ...(takeover
            ? {}
            : {
                phase_timings: JSON.stringify({ queue_wait: queueWaitMs, phases: {} } satisfies PhaseTimings),
              }),
        })
        .returning('*')) as (ScanRecord & Record<string, unknown>)[];
      if (!takeover) {
        await enqueueWebhookEvent(trx, candidate.org_id, 'scan.started', presentScanEvent(row), now);
      }
      const { id, org_id, target, scan_type, frameworks, ports, credential_checks, attempts, created_by } =
        row!;
      const scan: ScanRecord = {
        id,
        org_id,
        target,
        scan_type,
        frameworks,
        ports,
        credential_checks,
        attempts,
        created_by,
      };
      return { scan, takeover, ...(queueWaitMs !== undefined ? { queueWaitMs } : {}) };
    }
    return undefined;
  });
}

/** Fails running scans that made no progress for the watchdog time. Returns their ids. */
export async function failStuckScans(db: Knex, watchdogSeconds: number, now = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - watchdogSeconds * 1000);
  return db.transaction(async (trx) => {
    const stuck = (await trx('scans')
      .where('status', 'running')
      .where('last_progress_at', '<', cutoff)
      .forUpdate()
      .skipLocked()
      .select('id', 'org_id')) as { id: string; org_id: string }[];
    for (const scan of stuck) {
      await failScanRow(
        trx,
        scan.id,
        scan.org_id,
        `the scan made no progress for ${watchdogSeconds} seconds`,
        now,
      );
    }
    return stuck.map((s) => s.id);
  });
}

/** Starts a runner loop in this process. */
export function startRunner(services: Services, options: RunnerOptions = {}): Runner {
  const id = options.runnerId ?? `runner-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const maxScans = options.maxConcurrentScans ?? services.config.runnerScans;
  const pollMs = options.pollIntervalMs ?? 1000;
  const leaseSeconds = services.config.runnerLeaseSeconds;
  const log = services.logger.child({ runner_id: id });
  const inHand = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  /** A nudge arrived while a poll was running: poll again as soon as it ends. */
  let pollAgain = false;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = () => {
    if (inHand.size === 0 && !polling) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  const work = ({ scan, takeover, queueWaitMs }: Claim) => {
    const controller = new AbortController();
    if (queueWaitMs !== undefined) scanMetrics.queueWait.observe(queueWaitMs / 1000);
    const done = executeScan(services, scan, { runnerId: id, signal: controller.signal, takeover, log })
      .catch((err: unknown) => log.error({ err, scan_id: scan.id }, 'scan execution failed'))
      .finally(() => {
        inHand.delete(scan.id);
        settleIdle();
        if (!stopped) schedule(0);
      });
    inHand.set(scan.id, { controller, done });
    scanMetrics.leasesHeld.inc();
    void done.finally(() => scanMetrics.leasesHeld.dec());
  };

  const poll = async () => {
    try {
      await failStuckScans(services.db, services.config.scanWatchdogSeconds);
      while (!stopped && inHand.size < maxScans) {
        const claimed = await claimScan(services.db, id, leaseSeconds);
        if (!claimed) break;
        if ('failed' in claimed) {
          log.warn({ scan_id: claimed.failed }, 'scan failed after too many runner losses');
          continue;
        }
        log.info(
          { scan_id: claimed.scan.id, takeover: claimed.takeover, queue_wait_ms: claimed.queueWaitMs },
          'scan claimed',
        );
        work(claimed);
      }
    } catch (err) {
      log.error({ err }, 'runner poll failed');
    }
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (polling) {
        pollAgain = true;
        return;
      }
      polling = poll().finally(() => {
        polling = undefined;
        settleIdle();
        const again = pollAgain;
        pollAgain = false;
        schedule(again ? 0 : pollMs);
      });
    }, delay);
  };
  schedule(0);
  // A scan queued in this process (or, on PostgreSQL, in any) wakes the runner at once.
  const unlisten = listenForQueuedScans(services, log, () => schedule(0));

  return {
    id,
    nudge: () => schedule(0),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await unlisten();
      await polling;
      for (const { controller } of inHand.values()) controller.abort(new Error('runner stopping'));
      await Promise.all([...inHand.values()].map((h) => h.done));
    },
  };
}
