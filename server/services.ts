import { loadKeyMaterial } from './auth/keys.ts';
import { CiIssuers } from './auth/ci-issuers.ts';
import { ParsePool } from './imports/parse-off-loop.ts';
import { openDatabase, type Database, type Engine } from './db/index.ts';
import { migrateLatest } from './db/migrate.ts';
import { VERSION } from './version.ts';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { KeyMaterial } from './auth/keys.ts';

/**
 * What request handlers and workers share: configuration, the database and key
 * material. Domain modules are plain functions over these.
 */
export interface Services {
  config: Config;
  /** The root database handle (a pool on PostgreSQL, one connection on PGlite), never a transaction. */
  db: Database['db'];
  engine: Engine;
  logger: Logger;
  keys: KeyMaterial;
  /** The OpenID issuers of CI providers, with their keys cached (keyless CI sign-in). */
  ciIssuers: CiIssuers;
  /** The report parse workers of this process (imports/parse-off-loop.ts). */
  importParsers: ParsePool;
  version: string;
  /**
   * The fetch the OpenID Connect client reaches the issuer with (auth/oidc.ts). Unset: the
   * global fetch, which verifies the issuer's TLS against Node's CA store and
   * NODE_EXTRA_CA_CERTS. Tests hand in one that trusts their test CA.
   */
  oidcFetch?: typeof fetch;
  /** Check every response against its declared schema (tests). */
  validateResponses: boolean;
}

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
