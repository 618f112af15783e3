import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/http/server.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { startRuntime, type Services } from '../../server/services.ts';
import { createTestDatabase } from './database.ts';

export interface TestApp {
  url: string;
  services: Services;
  config: Config;
  /** fetch relative to the app's URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
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
 * response is checked against its declared schema.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    ...TEST_ENV,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const { services, database: db } = await startRuntime(config, logger, {
    validateResponses: true,
    dataDir: 'memory://',
  });
  const server: Server = createHttpServer(createApp(services).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    services,
    config,
    request: (path, init) => fetch(url + path, init),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      await database.drop();
    },
  };
}
