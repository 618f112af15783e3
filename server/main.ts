import { closeEventStreams } from './events/stream.ts';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { createHttpServer } from './http/server.ts';
import { startBackgroundWork } from './background.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import { bootstrapIfEmpty } from './people/bootstrap.ts';
import { scopePolicyFor } from './scans/scope.ts';
import { createLogger } from './logger.ts';
import { startRuntime, type Runtime } from './runtime.ts';

/** How long in-flight work may take to finish after SIGTERM before the process gives up on it. */
const SHUTDOWN_GRACE_MS = 25_000;

/** Exit codes: 2 configuration, 3 data directory in use, 1 anything else. */
const EXIT_CONFIG = 2;
const EXIT_DATA_DIR_LOCKED = 3;

/** A signal may arrive while we are still starting; remember it and stop once started. */
let stopRequested: string | undefined;
let stopNow: ((signal: string) => void) | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopNow) stopNow(signal);
    else stopRequested ??= signal;
  });
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`scanward: ${err.message}`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
}

async function openRuntime(config: Config, logger: Logger): Promise<Runtime> {
  try {
    return await startRuntime(config, logger);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`scanward: ${err.message}`);
      process.exit(EXIT_DATA_DIR_LOCKED);
    }
    throw err;
  }
}

async function listen(server: Server, config: Config): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}

/**
 * Stops accepting connections and waits for in-flight requests. Connections
 * that turn idle meanwhile (keep-alive after their last response) are closed
 * as they do, so a client holding one open cannot delay the exit.
 */
async function drain(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  await closed;
  clearInterval(idle);
}

/** Start-up only: config → database → migrate → bootstrap → app → listen, and a graceful stop. */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const runtime = await openRuntime(config, logger);
  try {
    await serve(config, logger, runtime);
  } catch (err) {
    // Release the database (and the data-dir lock) before giving up, e.g. when the port is taken.
    await runtime.database.close().catch(() => undefined);
    throw err;
  }
}

async function serve(config: Config, logger: Logger, { services, database }: Runtime): Promise<void> {
  logger.info({ database: database.location, engine: database.engine, role: config.role }, 'database ready');
  // Built once now, so a scope list that cannot be parsed stops the start rather than the first scan.
  scopePolicyFor(config);
  logger.info(
    { allow: config.scope.allow ?? 'public addresses only', deny: config.scope.deny },
    'scan scope policy',
  );

  const bootstrapped = await bootstrapIfEmpty(services.db, config);
  if (bootstrapped) {
    // Printed once, outside the JSON log stream, so the password never lands in log storage.
    process.stdout.write(
      [
        '',
        '  Scanward created its first organization and admin account.',
        `    e-mail:   ${bootstrapped.email}`,
        bootstrapped.generatedPassword
          ? `    password: ${bootstrapped.generatedPassword}   (shown only now; change it with \`npm run scanward -- admin user reset-password\`)`
          : '    password: the value of SCANWARD_ADMIN_PASSWORD',
        '',
      ].join('\n') + '\n',
    );
  }

  let server: Server | undefined;
  if (config.role !== 'runner') {
    server = createHttpServer(createApp(services).callback(), config.http);
    const port = await listen(server, config);
    logger.info({ host: config.host, port }, 'listening');
    process.stdout.write(
      `\n  Scanward API on http://localhost:${port}  (console: /, docs: /docs, log in: POST /api/v1/auth/token)\n\n`,
    );
  }
  // Scans, schedules, webhook deliveries and housekeeping (the rate-counter sweep), by role.
  const background = startBackgroundWork(services, config.role);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error(`shutdown took longer than ${SHUTDOWN_GRACE_MS / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Open event streams end now (clients reconnect elsewhere with Last-Event-ID), so the server can close.
    closeEventStreams(services.db);
    // In-flight requests finish while the background loops wind down; both still need the database.
    await Promise.all([server ? drain(server) : undefined, background.stop()]);
    // Closing the database releases the data-dir lock, so the next process can start at once.
    await database.close();
    clearTimeout(force);
    logger.info('stopped');
    process.exit(0);
  };
  stopNow = (signal) => {
    stop(signal).catch((err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  if (stopRequested) stopNow(stopRequested);
}

main().catch((err: unknown) => {
  console.error('scanward: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
