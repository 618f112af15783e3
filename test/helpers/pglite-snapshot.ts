/**
 * A migrated, empty PGlite data directory that every in-memory test database starts from
 * (`startTestApp`). Creating a PGlite cluster (initdb, inside WebAssembly) takes about 3 s;
 * loading a dumped one about 1 s, and the suite starts a few hundred. The dump is made once
 * per set of migrations and PGlite version, kept in the system's temporary directory, and
 * shared by every test process; it holds the schema only (key material and rows are each
 * app's own). The migrations themselves still run for real: here, and in the migration tests.
 */
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/db/index.ts';
import { migrateLatest } from '../../server/db/migrate.ts';

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

/** Adds every migration's name and text to `hash`: a migrated template changes when one does. */
export function hashMigrations(hash: Hash): Hash {
  for (const name of readdirSync(MIGRATIONS).sort())
    hash.update(name).update(readFileSync(new URL(name, MIGRATIONS)));
  return hash;
}

/** Changes when a migration or the PGlite version does. */
function snapshotKey(): string {
  const hash = createHash('sha1');
  // The package's own manifest (its `exports` do not offer it to `require`).
  hash.update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  return hashMigrations(hash).digest('hex').slice(0, 16);
}

async function makeSnapshot(file: string): Promise<Blob> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateLatest(database.db);
    const pglite = (database.db.client as { pglite: PGlite }).pglite;
    const dump = await pglite.dumpDataDir('none');
    // Written aside and renamed into place: test processes starting together never read half a file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  } finally {
    await database.close();
  }
}

let snapshot: Promise<Blob> | undefined;

/** The migrated, empty data directory, made on first use. */
export function migratedPgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = join(tmpdir(), `scanward-test-pglite-${snapshotKey()}.tar`);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      return makeSnapshot(file);
    }
  })();
  return snapshot;
}
