import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Services } from '../services.ts';

type RootDb = Services['db'];

/**
 * Wakes runners when a scan is queued, so a new scan starts at once instead of
 * at a runner's next poll. In one process (PGlite, or `SCANWARD_ROLE=all`) an
 * in-process signal per database; on PostgreSQL also `NOTIFY`, which reaches
 * runners in other processes. Runners still poll: a lost notification only
 * costs latency.
 */

export const SCAN_QUEUED_CHANNEL = 'scanward_scan_queued';

const emitters = new WeakMap<RootDb, EventEmitter>();

function emitterOf(db: RootDb): EventEmitter {
  let emitter = emitters.get(db);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    emitters.set(db, emitter);
  }
  return emitter;
}

/** Tells runners that a scan was queued. Call after the inserting transaction committed. */
export function announceScanQueued(
  services: Pick<Services, 'db' | 'logger'> & Partial<Pick<Services, 'engine'>>,
): void {
  emitterOf(services.db).emit('queued');
  if (services.engine === 'postgres') {
    services.db.raw('select pg_notify(?, ?)', [SCAN_QUEUED_CHANNEL, '']).catch((err: unknown) => {
      services.logger.warn({ err }, 'could not notify runners of a queued scan');
    });
  }
}

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 5000;

/**
 * Calls `onQueued` whenever a scan is queued (in this process, or on PostgreSQL
 * in any process). Returns a function that stops listening.
 */
export function listenForQueuedScans(
  services: Pick<Services, 'db' | 'engine' | 'config'>,
  log: Logger,
  onQueued: () => void,
): () => Promise<void> {
  const emitter = emitterOf(services.db);
  emitter.on('queued', onQueued);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped || !services.config.databaseUrl) return;
    const c = new pg.Client({ connectionString: services.config.databaseUrl });
    client = c;
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err }, 'runner lost its notification connection; polling until it is back');
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (message) => {
      if (message.channel === SCAN_QUEUED_CHANNEL) onQueued();
    });
    try {
      await c.connect();
      await c.query(`listen ${SCAN_QUEUED_CHANNEL}`);
    } catch (err) {
      lost(err);
    }
  };
  if (services.engine === 'postgres') void connect();

  return async () => {
    stopped = true;
    emitter.off('queued', onQueued);
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}
