import type { Knex } from 'knex';
import { MIGRATION_TABLES } from './migrate.ts';

/**
 * Copies every row of one Scanward database into another of the same schema:
 * the embedded database into PostgreSQL (`scanward db copy`). Nothing here names
 * a table: the tables, their columns and the order their foreign keys impose
 * come from the source's catalog, so a table added by a later migration is
 * copied without a change here. Only knex's own bookkeeping (the migrations
 * applied, which the target records itself when it is migrated) stays behind.
 *
 * - The source is read in one read-only, repeatable-read transaction, through a
 *   cursor per table, `batchSize` rows at a time: memory holds one batch, never a table.
 * - Every value crosses as PostgreSQL's own text form and is cast back to the
 *   column's type on the target, so timestamps keep their microseconds, arrays,
 *   JSON and numbers their exact values.
 * - The target is written in one transaction: the copy lands whole or not at
 *   all, and a failed copy leaves the target as it was.
 * - Sequences (identity columns) continue where the source's stood, and never
 *   below the highest value copied.
 */

type Queryable = Knex | Knex.Transaction;

export interface CopyColumn {
  name: string;
  /** The column's type as SQL writes it (`format_type`), the cast applied on the target. */
  type: string;
}

export interface CopyTable {
  name: string;
  /** Every column a row can be written with (generated columns are recomputed on the target). */
  columns: CopyColumn[];
  /** Tables this one references with a foreign key (itself excluded). */
  references: string[];
}

export interface TableCount {
  name: string;
  source_rows: number;
  target_rows: number;
}

export interface SequenceState {
  name: string;
  /** The value the sequence last handed out on the target; its next is the one after. */
  value: string;
}

export interface CopyReport {
  /** In the order they were copied. */
  tables: TableCount[];
  sequences: SequenceState[];
  /** Rows the target held before and that --force deleted (empty without it). */
  replaced: Array<{ name: string; rows: number }>;
}

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
  done: boolean;
}

export interface CopyOptions {
  /** Rows read and written per round trip. */
  batchSize: number;
  /** Delete what the target already holds instead of refusing it. */
  replace: boolean;
  /** After every batch and at the end of every table. */
  onProgress?: (progress: CopyProgress) => void;
  /** Called before the target's rows are deleted (only with `replace`). */
  onReplace?: (occupied: Array<{ name: string; rows: number }>) => void;
}

/** The target already holds rows in Scanward's tables; nothing was written. */
export class TargetNotEmptyError extends Error {
  constructor(readonly occupied: Array<{ name: string; rows: number }>) {
    super(`the target database already holds Scanward data (${describeRows(occupied)})`);
    this.name = 'TargetNotEmptyError';
  }
}

/** The two databases do not have the same tables and columns; nothing was written. */
export class SchemaMismatchError extends Error {
  constructor(readonly problems: string[]) {
    super(`the two databases do not have the same schema: ${problems.join('; ')}`);
    this.name = 'SchemaMismatchError';
  }
}

export function describeRows(tables: Array<{ name: string; rows: number }>): string {
  return tables.map((t) => `${t.name}: ${t.rows} row${t.rows === 1 ? '' : 's'}`).join(', ');
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const SKIPPED: ReadonlySet<string> = new Set(MIGRATION_TABLES);

/** The tables of the current schema with their columns and foreign keys, knex's bookkeeping left out. */
export async function readTables(db: Queryable): Promise<CopyTable[]> {
  const tables = rowsOf<{ name: string }>(
    await db.raw(
      `select c.relname as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
    ),
  ).filter((t) => !SKIPPED.has(t.name));
  const columns = rowsOf<{ table_name: string; name: string; type: string }>(
    await db.raw(
      `select c.relname as table_name, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
          and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by c.relname, a.attnum`,
    ),
  );
  const references = rowsOf<{ child: string; parent: string }>(
    await db.raw(
      `select distinct c.relname as child, p.relname as parent
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid
         join pg_class p on p.oid = k.confrelid
         join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = current_schema()`,
    ),
  );
  return tables.map(({ name }) => ({
    name,
    columns: columns.filter((c) => c.table_name === name).map((c) => ({ name: c.name, type: c.type })),
    references: references
      .filter((r) => r.child === name && r.parent !== name && !SKIPPED.has(r.parent))
      .map((r) => r.parent)
      .sort(),
  }));
}

/**
 * The tables ordered so every table comes after the tables it references
 * (alphabetical among equals, so the order is stable). A cycle of foreign keys
 * has no such order and is refused. A table referencing itself (none does today)
 * would be copied in the source's row order, which a parent row stored after its
 * child would break: the copy would then fail and roll back, never half-land.
 */
export function dependencyOrder(tables: CopyTable[]): CopyTable[] {
  const pending = new Map(tables.map((t) => [t.name, t]));
  const ordered: CopyTable[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()]
      .filter((t) => t.references.every((r) => !pending.has(r)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (ready.length === 0) {
      throw new SchemaMismatchError([
        `the foreign keys of ${[...pending.keys()].join(', ')} form a cycle, so no table can be copied first`,
      ]);
    }
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t.name);
    }
  }
  return ordered;
}

/** What keeps a copy from source to target from being exact: tables or columns on one side only, or of other types. */
export function schemaDifferences(source: CopyTable[], target: CopyTable[]): string[] {
  const problems: string[] = [];
  const targets = new Map(target.map((t) => [t.name, t]));
  for (const table of source) {
    const other = targets.get(table.name);
    if (!other) {
      problems.push(`table ${table.name} is missing on the target`);
      continue;
    }
    const columns = new Map(other.columns.map((c) => [c.name, c.type]));
    for (const column of table.columns) {
      const type = columns.get(column.name);
      if (type === undefined) problems.push(`column ${table.name}.${column.name} is missing on the target`);
      else if (type !== column.type) {
        problems.push(
          `column ${table.name}.${column.name} is ${column.type} on the source but ${type} on the target`,
        );
      }
      columns.delete(column.name);
    }
    for (const name of columns.keys())
      problems.push(`column ${table.name}.${name} exists only on the target`);
  }
  const names = new Set(source.map((t) => t.name));
  for (const table of target) {
    if (!names.has(table.name)) problems.push(`table ${table.name} exists only on the target`);
  }
  return problems;
}

async function countRows(db: Queryable, table: string): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await db.raw(`select count(*)::text as n from ${ident(table)}`));
  return Number(row?.n ?? 0);
}

/** Tables of the list that hold at least one row, with their counts. */
export async function occupiedTables(
  db: Queryable,
  tables: CopyTable[],
): Promise<Array<{ name: string; rows: number }>> {
  const occupied: Array<{ name: string; rows: number }> = [];
  for (const table of tables) {
    const rows = await countRows(db, table.name);
    if (rows > 0) occupied.push({ name: table.name, rows });
  }
  return occupied;
}

/**
 * Text forms that read back the same on any server: ISO dates in UTC, every
 * float digit, hex bytea, the standard interval style.
 */
async function setPortableOutput(trx: Knex.Transaction): Promise<void> {
  await trx.raw(
    "select set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true), " +
      "set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '3', true), " +
      "set_config('bytea_output', 'hex', true)",
  );
}

const CURSOR = 'scanward_copy_rows';

async function copyTable(
  src: Knex.Transaction,
  dst: Knex.Transaction,
  table: CopyTable,
  total: number,
  options: CopyOptions,
): Promise<number> {
  const columns = table.columns;
  await src.raw(
    `declare ${CURSOR} no scroll cursor for select ${columns
      .map((c, i) => `${ident(c.name)}::text as c${i}`)
      .join(', ')} from ${ident(table.name)}`,
  );
  // One parameter per batch: a JSON array of rows, each an array of text values (or null).
  const insert =
    `insert into ${ident(table.name)} (${columns.map((c) => ident(c.name)).join(', ')}) overriding system value ` +
    `select ${columns.map((c, i) => `(r->>${i})::${c.type}`).join(', ')} from jsonb_array_elements(?::jsonb) as batch(r)`;
  let copied = 0;
  for (;;) {
    const rows = rowsOf<Record<string, string | null>>(
      await src.raw(`fetch forward ${options.batchSize} from ${CURSOR}`),
    );
    if (rows.length === 0) break;
    const batch = rows.map((row) => columns.map((_, i) => row[`c${i}`] ?? null));
    await dst.raw(insert, [JSON.stringify(batch)]);
    copied += rows.length;
    options.onProgress?.({ table: table.name, copied, total, done: false });
  }
  await src.raw(`close ${CURSOR}`);
  options.onProgress?.({ table: table.name, copied, total, done: true });
  return copied;
}

interface SourceSequence {
  name: string;
  table_name: string | null;
  column_name: string | null;
}

/**
 * Sets every sequence of the target (those behind identity and serial columns,
 * and free-standing ones) to where the source's stood, or to the highest value
 * copied if that is further, so new rows get new numbers.
 */
async function copySequences(src: Knex.Transaction, dst: Knex.Transaction): Promise<SequenceState[]> {
  const sequences = rowsOf<SourceSequence>(
    await src.raw(
      `select s.relname as name, t.relname as table_name, a.attname as column_name
         from pg_class s
         join pg_namespace n on n.oid = s.relnamespace
         left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid
              and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
         left join pg_class t on t.oid = d.refobjid
         left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where s.relkind = 'S' and n.nspname = current_schema()
        order by s.relname`,
    ),
  ).filter((s) => !(s.table_name && SKIPPED.has(s.table_name)));
  const states: SequenceState[] = [];
  for (const sequence of sequences) {
    const [state] = rowsOf<{ last_value: string; is_called: boolean }>(
      await src.raw(`select last_value::text as last_value, is_called from ${ident(sequence.name)}`),
    );
    let value = BigInt(state!.last_value);
    let called = state!.is_called;
    let target = ident(sequence.name);
    if (sequence.table_name && sequence.column_name) {
      const [owned] = rowsOf<{ seq: string | null; max: string | null }>(
        await dst.raw(
          `select pg_get_serial_sequence(?, ?) as seq, (select max(${ident(sequence.column_name)})::text from ${ident(sequence.table_name)}) as max`,
          [ident(sequence.table_name), sequence.column_name],
        ),
      );
      if (owned?.seq) target = owned.seq;
      if (owned?.max != null) {
        const max = BigInt(owned.max);
        if (max > value || (max === value && !called)) {
          value = max;
          called = true;
        }
      }
    }
    await dst.raw('select setval(?::regclass, ?::bigint, ?)', [target, value.toString(), called]);
    states.push({ name: sequence.name, value: (called ? value : value - 1n).toString() });
  }
  return states;
}

/**
 * Copies every row of `source` into `target`. Both must already be migrated to
 * the same schema; the target must hold no rows unless `replace` is set.
 * Throws TargetNotEmptyError or SchemaMismatchError before writing anything,
 * and rolls the target back if any table's count differs after the copy.
 */
export async function copyDatabase(source: Knex, target: Knex, options: CopyOptions): Promise<CopyReport> {
  const sourceTables = await readTables(source);
  const differences = schemaDifferences(sourceTables, await readTables(target));
  if (differences.length > 0) throw new SchemaMismatchError(differences);
  const order = dependencyOrder(sourceTables);

  return source.transaction(async (src) => {
    await src.raw('set transaction isolation level repeatable read, read only');
    await setPortableOutput(src);
    return target.transaction(async (dst) => {
      const occupied = await occupiedTables(dst, order);
      if (occupied.length > 0) {
        if (!options.replace) throw new TargetNotEmptyError(occupied);
        options.onReplace?.(occupied);
        await dst.raw(`truncate table ${order.map((t) => ident(t.name)).join(', ')}`);
      }
      const tables: TableCount[] = [];
      for (const table of order) {
        const total = await countRows(src, table.name);
        await copyTable(src, dst, table, total, options);
        tables.push({ name: table.name, source_rows: total, target_rows: await countRows(dst, table.name) });
      }
      const sequences = await copySequences(src, dst);
      const wrong = tables.filter((t) => t.source_rows !== t.target_rows);
      if (wrong.length > 0) {
        throw new Error(
          `the copy was rolled back: row counts differ (${wrong
            .map((t) => `${t.name}: ${t.source_rows} embedded, ${t.target_rows} PostgreSQL`)
            .join('; ')})`,
        );
      }
      return { tables, sequences, replaced: occupied };
    });
  });
}
