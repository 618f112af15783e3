import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { Services } from '../services.ts';
import { executeScan } from './pipeline.ts';
import type { ScanRecord } from './types.ts';
import { claimNextScan, failScan, failStalledScans } from '../scans/lifecycle.ts';
import { listenForQueuedScans } from '../scans/queue-signal.ts';
import { scanMetrics } from '../metrics/registry.ts';
import { openWebOptions } from '../scans/web-options.ts';

/**
 * Runner processes share the scan queue in the database. A runner claims a
 * pending scan with `FOR UPDATE SKIP LOCKED`, holds a lease it renews while it
 * works, and loses the scan when it stops renewing (a crash): another runner
 * then takes the scan over, resuming after its last completed phase. A scan
 * that keeps losing its runner, or makes no progress for the watchdog time, is
 * failed with a reason, so no scan stays `running` forever. Every change to the
 * scan row goes through the scan lifecycle (server/scans/lifecycle.ts).
 */

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

/** What a claim hands the runner: the scan, and whether another runner had it before. */
export interface Claim {
  scan: ScanRecord;
  takeover: boolean;
  /** Milliseconds the scan waited between its creation and this (first) claim. */
  queueWaitMs?: number;
}

/**
 * Claims at most one scan for this runner (see `claimNextScan`): a pending
 * scan, or a running scan whose lease expired. The scan's `web` options are
 * opened with `encryptionKey` here, in memory, for the engine alone (docs/web-testing.md, "Secrets").
 */
export async function claimScan(
  db: Db,
  runnerId: string,
  leaseSeconds: number,
  now = new Date(),
  encryptionKey?: Buffer,
): Promise<Claim | { failed: string } | undefined> {
  const claimed = await claimNextScan(db, runnerId, leaseSeconds, now);
  if (!claimed || 'failed' in claimed) return claimed;
  const { id, org_id, target, scan_type, frameworks, ports, credential_checks, attempts, created_by, web } =
    claimed.scan;
  let openedWeb: ScanRecord['web'];
  if (web && encryptionKey) {
    try {
      openedWeb = openWebOptions(encryptionKey, web);
    } catch {
      // Sealed under another key: scanning without the log-in would report a different app.
      await db.transaction((trx) =>
        failScan(
          trx,
          id,
          org_id,
          'the web log-in secrets of this scan cannot be opened: the encryption key (SCANWARD_ENCRYPTION_KEY) changed since it was created; create the scan again',
          now,
        ),
      );
      return { failed: id };
    }
  }
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
    ...(openedWeb ? { web: openedWeb } : {}),
  };
  return {
    scan,
    takeover: claimed.takeover,
    ...(claimed.queueWaitMs !== undefined ? { queueWaitMs: claimed.queueWaitMs } : {}),
  };
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
      await failStalledScans(services.db, services.config.scanWatchdogSeconds);
      while (!stopped && inHand.size < maxScans) {
        const claimed = await claimScan(
          services.db,
          id,
          leaseSeconds,
          new Date(),
          services.keys.encryptionKey,
        );
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
