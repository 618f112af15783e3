import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/http/server.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import type { AnyRoute } from '../../server/http/contract.ts';
import { createLogger } from '../../server/logger.ts';
import { allRoutes } from '../../server/routes/index.ts';
import { startRuntime } from '../../server/runtime.ts';
import type { Services } from '../../server/services.ts';
import { createMigratedTestDatabase } from './database.ts';
import { migratedPgliteSnapshot } from './pglite-snapshot.ts';

export interface TestApp {
  url: string;
  services: Services;
  config: Config;
  database: Database;
  /** Every route the app serves: the production list plus the test's `extraRoutes`. */
  routes: AnyRoute[];
  /** fetch relative to the app's URL (for requests the typed client cannot make: raw bytes, odd headers). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Every log line the app wrote, parsed (empty unless `captureLogs` was set). */
  logs: Array<Record<string, unknown>>;
  /** The raw log output, for asserting that a secret appears nowhere. */
  rawLogs(): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment on top of {@link TEST_ENV}. */
  env?: Record<string, string>;
  /** Extra routes served beside the production ones (tests only; the production list stays as it is). */
  extraRoutes?: AnyRoute[];
  /** Keep the log lines (at level info) instead of discarding them. */
  captureLogs?: boolean;
  /**
   * `fresh` (default): a new database (PGlite in memory, or a new PostgreSQL
   * database when DATABASE_URL is set), dropped on close. `configured`: the
   * database `env` names (SCANWARD_DATA_DIR or DATABASE_URL), kept on close.
   */
  database?: 'fresh' | 'configured';
}

/** Environment every test app starts with: scans limited to loopback, quiet logs. */
export const TEST_ENV = {
  SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
  LOG_LEVEL: 'silent',
  SCANWARD_ADMIN_PASSWORD: 'bootstrap-password-not-used',
} as const;

/**
 * Starts the real app on 127.0.0.1:0 over a fresh, migrated database (PGlite in
 * memory, or a new PostgreSQL database when DATABASE_URL is set). Every
 * response is checked against its declared schema by the server, and again by
 * the test client (test/helpers/api-client.ts).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const fresh = options.database !== 'configured';
  const testDb = fresh ? await createMigratedTestDatabase() : { url: undefined, drop: async () => undefined };
  const config = loadConfig({
    ...TEST_ENV,
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
    ...(options.captureLogs ? { LOG_LEVEL: 'info' } : {}),
    ...options.env,
  });
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (options.captureLogs) raw += chunk.toString('utf8');
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const { services, database } = await startRuntime(config, logger, {
    validateResponses: true,
    ...(fresh ? { dataDir: 'memory://' } : {}),
    ...(fresh && !testDb.url ? { snapshot: await migratedPgliteSnapshot() } : {}),
  });
  const routes = [...allRoutes, ...(options.extraRoutes ?? [])];
  const app = createApp(services, options.extraRoutes ? { routes } : {});
  // The server's own timeouts (config.http): among them a keep-alive of 65 s. The tests' client
  // and this server share one event loop: after in-process database work blocked it for longer
  // than Node's 5 s default keep-alive, the server's idle timer and the client's reuse of the
  // same socket fired together, and the next call failed with ECONNRESET. The long keep-alive
  // (advertised to the client) leaves closing idle sockets to the client.
  const server: Server = createHttpServer(app.callback(), config.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  return {
    url,
    services,
    config,
    database,
    routes,
    get logs() {
      return raw
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    rawLogs: () => raw,
    request: (p, init) => fetch(url + p, init),
    close: async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The database may already be closed by a test that takes it down on purpose.
      await database.close().catch(() => undefined);
      await testDb.drop();
    },
  };
}
