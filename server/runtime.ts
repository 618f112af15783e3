import { CiIssuers } from './auth/ci-issuers.ts';
import { loadKeyMaterial } from './auth/keys.ts';
import { openDatabase, type Database } from './db/index.ts';
import { migrateLatest } from './db/migrate.ts';
import { ParsePool } from './imports/parse-off-loop.ts';
import type { Services } from './services.ts';
import { VERSION } from './version.ts';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/**
 * What a process starts before serving or working (main.ts, the CLI, tests, the bench): the
 * database opened and migrated, the key material loaded, and the Services built over them.
 * It sits at the top (it builds auth/'s and imports/' pieces), so services.ts can stay an
 * interface below every domain.
 */

export interface Runtime {
  services: Services;
  database: Database;
}

/** Opens and migrates the database and loads key material: everything a process needs before serving. */
export async function startRuntime(
  config: Config,
  logger: Logger,
  options: { validateResponses?: boolean; dataDir?: string; snapshot?: Blob | undefined } = {},
): Promise<Runtime> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.dataDir ?? config.dataDir,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    snapshot: options.snapshot,
  });
  try {
    const applied = await migrateLatest(database.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    const keys = await loadKeyMaterial(database.db, config, logger);
    return {
      database,
      services: {
        config,
        db: database.db,
        engine: database.engine,
        logger,
        keys,
        ciIssuers: new CiIssuers(),
        importParsers: new ParsePool(config.importParsing),
        version: VERSION,
        validateResponses: options.validateResponses ?? false,
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
