/**
 * A migrated, empty PostgreSQL database that every fresh app database on PostgreSQL is copied
 * from (`startTestApp` when DATABASE_URL is set): the PostgreSQL twin of pglite-snapshot.ts.
 * Running every migration for each app took about a second of the server's work; copying a
 * template (`CREATE DATABASE … TEMPLATE`) is a file copy. The template is made once per set of
 * migrations, under an advisory lock so that test processes starting together make it once, and
 * made under a temporary name and renamed when complete, so no process copies half of one. It
 * holds the schema only (key material and rows are each app's own). The migrations themselves
 * still run for real: here, and in the migration tests, which start from an empty database.
 */
import { createHash, randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { openDatabase } from '../../server/db/index.ts';
import { migrateLatest } from '../../server/db/migrate.ts';
import { hashMigrations } from './pglite-snapshot.ts';

const PREFIX = 'scanward_template_';
/** The advisory lock the template's maker holds (any number the product does not use). */
const LOCK = 7_305_112_914;

/** Changes when a migration does. */
function templateName(): string {
  return `${PREFIX}${hashMigrations(createHash('sha1')).digest('hex').slice(0, 16)}`;
}

/** The address of database `name` on the server of `base`. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function makeTemplate(admin: Knex, base: string, name: string): Promise<void> {
  const partial = `${PREFIX}partial_${randomBytes(4).toString('hex')}`;
  await admin.raw(`create database ${partial}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(base, partial), dataDir: 'memory://' });
  try {
    await migrateLatest(database.db);
  } finally {
    await database.close();
  }
  await admin.raw(`alter database ${partial} rename to ${name}`);
  // Templates of other migration sets, and what a process stopped halfway left behind.
  const stale = (await admin('pg_database')
    .where('datname', 'like', `${PREFIX}%`)
    .whereNot('datname', name)
    .pluck('datname')) as string[];
  for (const old of stale) await admin.raw(`drop database if exists ${old} with (force)`);
}

const templates = new Map<string, Promise<string>>();

/** The name of the migrated template on the server of `base`, made on first use. */
export function migratedPostgresTemplate(base: string): Promise<string> {
  let pending = templates.get(base);
  if (!pending) {
    pending = (async () => {
      const name = templateName();
      const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
      try {
        // Held until the connection ends (destroy, below).
        await admin.raw('select pg_advisory_lock(?)', [LOCK]);
        const [exists] = (await admin('pg_database').where({ datname: name }).pluck('datname')) as string[];
        if (!exists) await makeTemplate(admin, base, name);
        return name;
      } finally {
        await admin.destroy();
      }
    })();
    templates.set(base, pending);
    pending.catch(() => templates.delete(base));
  }
  return pending;
}
