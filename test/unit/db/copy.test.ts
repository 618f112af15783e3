import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../helpers/cli.ts';
import {
  dependencyOrder,
  schemaDifferences,
  SchemaMismatchError,
  type CopyTable,
} from '../../../server/db/copy.ts';

/**
 * The parts of `scanward db copy` that need no database: the table order, the
 * schema comparison and the refusals made before anything is opened.
 * test/integration/db/copy.test.ts copies a real embedded database into PostgreSQL.
 */

const t = (name: string, references: string[] = [], columns = [{ name: 'id', type: 'text' }]): CopyTable => ({
  name,
  columns,
  references,
});

describe('db copy: table order', () => {
  it('puts every table after the tables it references, alphabetically among equals', () => {
    const order = dependencyOrder([
      t('findings', ['organizations', 'scans']),
      t('scans', ['organizations', 'users']),
      t('users', ['organizations']),
      t('settings'),
      t('organizations'),
      t('comments', ['findings']),
    ]).map((x) => x.name);
    expect(order).toEqual(['organizations', 'settings', 'users', 'scans', 'findings', 'comments']);
  });

  it('refuses a cycle of foreign keys, naming the tables in it', () => {
    expect(() => dependencyOrder([t('a', ['b']), t('b', ['a']), t('c')])).toThrow(SchemaMismatchError);
    expect(() => dependencyOrder([t('a', ['b']), t('b', ['a']), t('c')])).toThrow(/a, b form a cycle/);
  });
});

describe('db copy: schema comparison', () => {
  it('finds nothing between equal schemas', () => {
    expect(schemaDifferences([t('a'), t('b', ['a'])], [t('b', ['a']), t('a')])).toEqual([]);
  });

  it('names tables and columns present on one side only, and columns of another type', () => {
    const source = [
      t(
        'a',
        [],
        [
          { name: 'id', type: 'text' },
          { name: 'n', type: 'integer' },
          { name: 'gone', type: 'text' },
        ],
      ),
      t('only_source'),
    ];
    const target = [
      t(
        'a',
        [],
        [
          { name: 'id', type: 'text' },
          { name: 'n', type: 'bigint' },
          { name: 'extra', type: 'text' },
        ],
      ),
      t('only_target'),
    ];
    expect(schemaDifferences(source, target)).toEqual([
      'column a.n is integer on the source but bigint on the target',
      'column a.gone is missing on the target',
      'column a.extra exists only on the target',
      'table only_source is missing on the target',
      'table only_target exists only on the target',
    ]);
  });
});

describe('db copy: refusals before any database is opened', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'scanward-db-copy-unit-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('exits 2 when --to is missing or not a PostgreSQL connection string', async () => {
    const env = { SCANWARD_DATA_DIR: root };
    expect((await runCliCaptured(['db', 'copy'], env)).code).toBe(2);
    for (const to of ['mysql://db/x', 'not a url', 'postgres://']) {
      const run = await runCliCaptured(['db', 'copy', '--to', to], env);
      expect(run.code, to).toBe(2);
      expect(run.stderr).toContain('--to must be a PostgreSQL connection string');
    }
    const batch = await runCliCaptured(['db', 'copy', '--to', 'postgres://h/db', '--batch-size', '0'], env);
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain('--batch-size must be a whole number from 1 to 50000');
  });

  it('exits 1 when SCANWARD_DATA_DIR holds no embedded database, and creates none there', async () => {
    const missing = path.join(root, 'nothing-here');
    // DATABASE_URL is not the source: it is ignored, so it cannot be copied into itself.
    const run = await runCliCaptured(['db', 'copy', '--to', 'postgres://postgres@127.0.0.1:1/x'], {
      SCANWARD_DATA_DIR: missing,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `scanward: error: there is no embedded database in ${missing}: set SCANWARD_DATA_DIR to the directory the server uses\n`,
    );
    expect(existsSync(missing)).toBe(false);
  });
});
