import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, type Database, type Db } from '../db/index.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { migrateLatest } from '../db/migrate.ts';
import { CliError, EXIT } from './errors.ts';

export interface OperatorDatabase {
  database: Database;
  /** Migrations this open applied (empty when the schema was current). */
  applied: string[];
}

/**
 * Opens the database the server uses, configured from the same environment
 * (DATABASE_URL, or PGlite in SCANWARD_DATA_DIR), and brings its schema up to date
 * as a starting server would. A PGlite directory held by a running server is
 * refused before anything is read or written.
 */
export async function openOperatorDatabase(env: NodeJS.ProcessEnv): Promise<OperatorDatabase> {
  let config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
  let database: Database;
  try {
    // A command runs one query at a time: two connections are plenty.
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
      poolMax: 2,
    });
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new CliError(err.message, EXIT.locked);
    throw err;
  }
  try {
    return { database, applied: await migrateLatest(database.db) };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Opens the operator database from an environment; tests may pass one that hands out a shared database. */
export type OpenOperatorDatabase = (env: NodeJS.ProcessEnv) => Promise<OperatorDatabase>;

/** Runs `work` against the operator database and always closes it (releasing the PGlite lock). */
export async function withOperatorDatabase<T>(
  env: NodeJS.ProcessEnv,
  work: (db: Db, opened: OperatorDatabase) => Promise<T>,
  open: OpenOperatorDatabase = openOperatorDatabase,
): Promise<T> {
  const opened = await open(env);
  try {
    return await work(opened.database.db, opened);
  } finally {
    await opened.database.close();
  }
}
