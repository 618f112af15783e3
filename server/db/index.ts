import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import type ClientPgLite from 'knex-pglite';
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
  /** PGlite's page cache in MiB (`shared_buffers`); default {@link PGLITE_SHARED_BUFFERS_MB}. */
  pgliteSharedBuffersMb?: number;
}

/** The embedded database's page cache by default, in MiB (SCANWARD_PGLITE_SHARED_BUFFERS_MB). */
export const PGLITE_SHARED_BUFFERS_MB = 32;

/**
 * PostgreSQL settings of the embedded database, on top of PGlite's own start parameters. PGlite
 * runs PostgreSQL in one WebAssembly memory that grows and never shrinks, so what these size is
 * resident for the life of the process (docs/self-hosting.md, "Memory"; measured in
 * docs/performance.md, "Footprint"):
 *
 * - `shared_buffers` (initdb's 128 MB): the page cache. Pages it does not hold are read from the
 *   data directory's files, which the operating system caches; at 32 MB the process is ~100 MB
 *   smaller. Below 8 MB PGlite aborts under a bulk load.
 * - `maintenance_work_mem` (64 MB): memory for building an index (migrations) and vacuuming;
 *   once used it stays in the WebAssembly memory, so 16 MB.
 * - `temp_buffers` (8 MB): temporary tables, which Scanward does not use: 1 MB.
 * - `wal_buffers` follows `shared_buffers` (1/32), and `work_mem` (4 MB per sort or hash) stays.
 *
 * PGlite's `initialMemory` is left alone: 128 MB is the WebAssembly module's own minimum (a
 * smaller one is refused), and pages of it nothing touched take no memory.
 */
export function pgliteSettings(sharedBuffersMb = PGLITE_SHARED_BUFFERS_MB): string[] {
  return [`shared_buffers=${sharedBuffersMb}MB`, 'maintenance_work_mem=16MB', 'temp_buffers=1MB'];
}

/**
 * Full garbage collections once a new embedded database is open. PGlite creates a database
 * directory (initdb) in a second, temporary PostgreSQL instance; its WebAssembly memory
 * (~350 MB resident) is garbage once it closes, but V8 does not count WebAssembly memory towards
 * collecting, so an idle service would hold it for good. It becomes collectable only a moment
 * after the open (PGlite's own clean-up runs on later turns of the event loop), hence a
 * collection now and two later ones, on timers that keep no process alive.
 */
function collectGarbageSoon(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  for (const delay of [1000, 5000]) setTimeout(gc, delay).unref();
}

/**
 * knex-pglite reports a delete's command as `DEL`, so knex returns the raw
 * result instead of the number of deleted rows. Naming the method as knex's
 * own PostgreSQL client expects makes `.delete()` answer a count on both engines.
 * Made on first use: PGlite and its client are loaded only by a process on the
 * embedded database (about 15 MB that a process on PostgreSQL does not carry).
 */
async function pgliteClient(): Promise<typeof ClientPgLite> {
  const { default: Base } = await import('knex-pglite');
  class PgliteClient extends (Base as unknown as new (config: Knex.Config) => {
    processResponse(obj: { method?: string }, runner: unknown): unknown;
  }) {
    override processResponse(obj: { method?: string }, runner: unknown): unknown {
      return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
    }
  }
  return PgliteClient as unknown as typeof ClientPgLite;
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
  // A directory without PG_VERSION (or memory without a snapshot) is created by initdb on open.
  const creates = snapshot === undefined && !(filename && existsSync(path.join(filename, 'PG_VERSION')));
  const { PGlite: Embedded } = await import('@electric-sql/pglite');
  // pg_trgm: the trigram index behind the findings' free-text search (docs/findings-search.md);
  // its files are loaded only when a migration or a query asks for the extension.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const settings = pgliteSettings(options.pgliteSharedBuffersMb).flatMap((setting) => ['-c', setting]);
  const pglite: PGlite = new Embedded({
    ...(snapshot ? { loadDataDir: snapshot } : { dataDir: filename }),
    startParams: [...Embedded.defaultStartParams, ...settings],
    extensions: { pg_trgm },
  });
  const connection = { pglite } as unknown as Knex.StaticConnectionConfig;
  const db = knexFactory({
    client: await pgliteClient(),
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
  if (creates) collectGarbageSoon();
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
