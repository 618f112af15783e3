import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { sweepExpiredCounters } from './counters.ts';

export interface CounterSweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Deletes expired rate counters every `intervalMs` (and once right away), so the
 * table holds only the current windows. Any number of processes may sweep at
 * once: the delete is idempotent. A failed sweep is logged and retried next time.
 */
export function startCounterSweeper(db: Db, logger: Logger, intervalMs = 5 * 60_000): CounterSweeper {
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = () => {
    if (stopped || running) return; // a slow sweep is not overlapped by the next one
    running = sweepExpiredCounters(db)
      .then((deleted) => {
        if (deleted > 0) logger.debug({ deleted }, 'expired rate counters swept');
      })
      .catch((err: unknown) => logger.warn({ err }, 'sweeping expired rate counters failed'))
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
