import { startAcceptanceExpiry } from './findings/acceptance-expiry.ts';
import { startSlaBreachTimer } from './findings/sla-breaches.ts';
import { startNotificationWorker } from './notifications/delivery.ts';
import { startCounterSweeper } from './ratelimit/sweeper.ts';
import { startScheduler } from './scans/scheduler.ts';
import { startRunner, type Runner } from './scanner/runner.ts';
import type { Services } from './services.ts';
import { startWebhookWorker, type WebhookWorker } from './webhooks/delivery.ts';

export interface BackgroundWork {
  /** Present in the `all` and `runner` roles. */
  runner: Runner | undefined;
  webhooks: WebhookWorker;
  /** Stops every loop, letting work in hand wind down (scans in hand are handed back). */
  stop(): Promise<void>;
}

/**
 * The work a process does besides answering requests, by role
 * (SCANWARD_ROLE): `runner` runs scans; `api` runs the scheduler, the
 * acceptance-expiry timer and housekeeping; `all` does both. Every role delivers webhooks, since any
 * of them queues events.
 */
export function startBackgroundWork(services: Services, role: Services['config']['role']): BackgroundWork {
  const stops: Array<() => Promise<void>> = [];
  const runner = role === 'api' ? undefined : startRunner(services);
  // The sweep threads start with the first scan this process runs (pipeline.ts), not here: an
  // idle service does not carry them (docs/performance.md, Footprint).
  if (runner) stops.push(() => runner.stop());
  if (role !== 'runner') {
    stops.push(startScheduler(services));
    stops.push(startAcceptanceExpiry(services.db, services.logger));
    stops.push(startSlaBreachTimer(services.db, services.logger));
    const sweeper = startCounterSweeper(services.db, services.logger);
    stops.push(() => sweeper.stop());
  }
  const webhooks = startWebhookWorker(services);
  stops.push(() => webhooks.stop());
  // E-mail, chat messages and tracker calls (notifications/delivery.ts), in every role like webhooks.
  const notifications = startNotificationWorker(services);
  stops.push(() => notifications.stop());
  return {
    runner,
    webhooks,
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
