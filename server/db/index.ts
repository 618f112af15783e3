import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { lockDataDir, type DataDirLock } from './lock.ts';

export type Engine = 'pglite' | 'postgres';

/** A database handle or a transaction: what repository functions take. */
export type Db = Knex | Knex.Transaction;

export interface Database {
  db: Knex;
  engine: Engine;
  /** Human-readable location, never including credentials. */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  /**
   * With `memory://`: start from this PGlite data directory (`dumpDataDir`) instead of an
   * empty one. The test kit starts every in-memory database from one that is already
   * migrated: creating a PGlite cluster takes seconds, loading one about one.
   */
  snapshot?: Blob | undefined;
  /** Pool size for PostgreSQL. */
  poolMax?: number;
}

/**
 * knex-pglite reports a delete's command as `DEL`, so knex returns the raw
 * result instead of the number of deleted rows. Naming the method as knex's
 * own PostgreSQL client expects makes `.delete()` answer a count on both engines.
 */
class PgliteClient extends (ClientPgLite as unknown as new (config: Knex.Config) => {
  processResponse(obj: { method?: string }, runner: unknown): unknown;
}) {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }
}

// PostgreSQL's int8 (count(*), sums) arrives as a string by default; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

// `compileSqlOnError: false` (both engines): a failed query's message starts with its SQL
// with `$1` placeholders, never with the bound values (inputs, hashes) written into it.

/**
 * A failed query's error carries the query's shape (`sql`, placeholders only), so the
 * logger can name the query without the database's message, which may quote a value.
 */
function keepQueryShape(db: Knex): void {
  db.on('query-error', (err: unknown, query: { sql?: unknown }) => {
    if (err && typeof err === 'object' && typeof query?.sql === 'string') {
      Object.defineProperty(err, 'sql', { value: query.sql, enumerable: false, configurable: true });
    }
  });
}

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise PGlite in `dataDir`.
 * The embedded database is locked to this process for as long as it is open.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const db = knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
      compileSqlOnError: false,
    });
    keepQueryShape(db);
    const url = new URL(options.databaseUrl);
    return {
      db,
      engine: 'postgres',
      location: `postgresql://${url.hostname}:${url.port || 5432}${url.pathname}`,
      close: () => db.destroy(),
    };
  }

  const dataDir = options.dataDir ?? './data';
  let lock: DataDirLock | undefined;
  let filename: string | undefined;
  if (!dataDir.startsWith('memory://')) {
    filename = path.resolve(dataDir);
    mkdirSync(filename, { recursive: true });
    lock = await lockDataDir(filename);
  }
  // knex-pglite takes a PGlite instance of ours as `connection.pglite`; knex's types do not know it.
  const snapshot = filename ? undefined : options.snapshot;
  const connection = snapshot
    ? ({ pglite: new PGlite({ loadDataDir: snapshot }) } as unknown as Knex.StaticConnectionConfig)
    : filename
      ? { filename }
      : {};
  const db = knexFactory({
    client: PgliteClient as unknown as typeof ClientPgLite,
    dialect: 'postgres',
    connection,
    acquireConnectionTimeout: 30_000,
    compileSqlOnError: false,
  });
  keepQueryShape(db);
  try {
    await db.raw('select 1');
  } catch (err) {
    await lock?.release();
    throw err;
  }
  return {
    db,
    engine: 'pglite',
    location: filename ?? 'memory',
    close: async () => {
      await db.destroy();
      await lock?.release();
    },
  };
}
