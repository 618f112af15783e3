import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import {
  copyDatabase,
  describeRows,
  occupiedTables,
  readTables,
  SchemaMismatchError,
  TargetNotEmptyError,
  type CopyProgress,
  type CopyReport,
} from '../db/copy.ts';
import { DataDirLockedError, lockDataDir } from '../db/lock.ts';
import { openOperatorDatabase, type OperatorDatabase } from './database.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import type { Output } from './output.ts';
import { table } from './output.ts';

/** `scanward db copy`: the embedded database into an empty PostgreSQL database. */

export const DEFAULT_BATCH_SIZE = 1000;
const MAX_BATCH_SIZE = 50_000;
/** How often a long table reports how far it is. */
const PROGRESS_INTERVAL_MS = 5_000;

export interface CopyInput {
  /** The PostgreSQL connection string to copy into (never printed: it may hold a password). */
  to: string;
  force: boolean;
  batchSize: number;
}

/** What `db copy` prints with --json. */
export interface CopyView extends CopyReport {
  source: string;
  target: string;
  migrations_applied: { source: string[]; target: string[] };
  total_rows: number;
  seconds: number;
}

export function parseTargetUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^postgres(ql)?:$/.test(url.protocol) || !url.hostname) {
    throw usageError(
      '--to must be a PostgreSQL connection string: postgres://user:password@host:5432/database',
    );
  }
  return value;
}

export function parseBatchSize(value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_BATCH_SIZE) {
    throw usageError(`--batch-size must be a whole number from 1 to ${MAX_BATCH_SIZE} (got "${value}")`);
  }
  return n;
}

/** The embedded database's directory, from SCANWARD_DATA_DIR as the server reads it; it must hold a database. */
function embeddedDataDir(env: NodeJS.ProcessEnv): string {
  let dataDir: string;
  try {
    dataDir = loadConfig({ ...env, DATABASE_URL: undefined }).dataDir;
  } catch (err) {
    if (err instanceof ConfigError) throw usageError(err.message);
    throw err;
  }
  if (dataDir.startsWith('memory://')) throw usageError('SCANWARD_DATA_DIR must be a directory to copy from');
  const absolute = path.resolve(dataDir);
  // Checked before opening: opening an empty directory would create a new, empty database there.
  if (!existsSync(path.join(absolute, 'PG_VERSION'))) {
    throw new CliError(
      `there is no embedded database in ${absolute}: set SCANWARD_DATA_DIR to the directory the server uses`,
    );
  }
  return absolute;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line per table on standard error: when it is done, and every few seconds while a long one runs. */
function progressPrinter(out: Output): (progress: CopyProgress) => void {
  let lastLine = Date.now();
  return ({ table: name, copied, total, done }) => {
    const now = Date.now();
    if (done) out.stderr(`copied ${name}: ${plural(copied, 'row')}\n`);
    else if (now - lastLine >= PROGRESS_INTERVAL_MS)
      out.stderr(`copying ${name}: ${copied} of ${total} rows\n`);
    else return;
    lastLine = now;
  };
}

/** Refuses at once, before anything is opened, while a server holds the embedded database. */
async function ensureNotLocked(dataDir: string): Promise<void> {
  try {
    const lock = await lockDataDir(dataDir);
    await lock.release();
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new CliError(err.message, EXIT.locked);
    throw err;
  }
}

function refuseOccupied(location: string, occupied: Array<{ name: string; rows: number }>): CliError {
  return new CliError(
    `${location} already holds Scanward data (${describeRows(occupied)}); nothing was copied. ` +
      'Copy into an empty database, or run again with --force to DELETE that data and replace it with the embedded data.',
  );
}

/**
 * Copies the embedded database in SCANWARD_DATA_DIR (refused while a server
 * holds it) into the PostgreSQL database at `to`, after bringing both schemas up
 * to date. DATABASE_URL is not read: the source is always the embedded database.
 * The cheap refusals (server running, target not empty) come before the
 * embedded database is opened; the copy checks the target again in its transaction.
 */
export async function copyCommand(env: NodeJS.ProcessEnv, input: CopyInput, out: Output): Promise<CopyView> {
  const started = Date.now();
  const dataDir = embeddedDataDir(env);
  await ensureNotLocked(dataDir);
  const target = await openOperatorDatabase({ ...env, DATABASE_URL: input.to });
  let source: OperatorDatabase | undefined;
  try {
    const targetLocation = target.database.location;
    const occupied = await occupiedTables(target.database.db, await readTables(target.database.db));
    if (occupied.length > 0 && !input.force) throw refuseOccupied(targetLocation, occupied);
    source = await openOperatorDatabase({ ...env, DATABASE_URL: undefined, SCANWARD_DATA_DIR: dataDir });
    out.stderr(`copying ${source.database.location} (embedded) into ${targetLocation}\n`);
    let report: CopyReport;
    try {
      report = await copyDatabase(source.database.db, target.database.db, {
        batchSize: input.batchSize,
        replace: input.force,
        onProgress: progressPrinter(out),
        onReplace: (rows) =>
          out.stderr(
            `scanward: warning: --force: deleting everything ${targetLocation} holds ` +
              `(${describeRows(rows)}) and replacing it with the embedded data\n`,
          ),
      });
    } catch (err) {
      if (err instanceof TargetNotEmptyError) throw refuseOccupied(targetLocation, err.occupied);
      if (err instanceof SchemaMismatchError) throw new CliError(`${err.message}; nothing was copied`);
      throw err;
    }
    return {
      source: source.database.location,
      target: targetLocation,
      migrations_applied: { source: source.applied, target: target.applied },
      ...report,
      total_rows: report.tables.reduce((sum, t) => sum + t.target_rows, 0),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await source?.database.close();
    await target.database.close();
  }
}

export function formatCopy(view: CopyView): string {
  const counts = table(
    ['TABLE', 'EMBEDDED', 'POSTGRESQL'],
    view.tables.map((t) => [t.name, String(t.source_rows), String(t.target_rows)]),
  );
  return (
    `${counts}\n\ncopied ${plural(view.total_rows, 'row')} in ${plural(view.tables.length, 'table')} ` +
    `from ${view.source} to ${view.target} in ${view.seconds} s; the embedded data is unchanged.\n` +
    `Next: stop using SCANWARD_DATA_DIR and start the server with DATABASE_URL set to the new database.`
  );
}
