import type { Server } from 'node:http';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import { bootstrapIfEmpty } from './identity/bootstrap.ts';
import { createLogger } from './logger.ts';
import { startRuntime } from './services.ts';

/** Start-up only: config → database → migrate → bootstrap → app → listen, and a graceful stop. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`scanward: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);

  let runtime;
  try {
    runtime = await startRuntime(config, logger);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`scanward: ${err.message}`);
      process.exit(3);
    }
    throw err;
  }
  const { services, database } = runtime;
  logger.info({ database: database.location, engine: database.engine, role: config.role }, 'database ready');

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

  const closers: Array<() => Promise<void>> = [];
  let server: Server | undefined;
  if (config.role !== 'runner') {
    const app = createApp(services);
    server = app.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port }, 'listening');
    process.stdout.write(
      `\n  Scanward API on http://localhost:${port}  (docs: /docs, log in: POST /api/v1/auth/token)\n\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000).unref();
    if (server) {
      // Stop accepting; let in-flight requests finish; drop idle keep-alive connections.
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    }
    for (const close of closers.reverse()) await close();
    await database.close();
    clearTimeout(force);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('scanward: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
