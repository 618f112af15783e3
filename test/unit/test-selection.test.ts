import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testsUsingADatabase } from '../database-tests.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the tests CI runs again on PostgreSQL', () => {
  const tree = mkdtempSync(path.join(tmpdir(), 'scanward-test-selection-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  };

  it('are the files whose imports reach test/helpers/database.ts, directly or through other helpers', () => {
    write('test/helpers/database.ts', 'export const testEngine = "pglite";\n');
    write('test/helpers/app.ts', "import { testEngine } from './database.ts';\n");
    write('test/helpers/factory.ts', "import type { TestApp } from './app.ts';\n");
    write('test/helpers/poll.ts', "import { setTimeout } from 'node:timers/promises';\n");
    write('test/integration/a/direct.test.ts', "import { testEngine } from '../../helpers/database.ts';\n");
    write('test/integration/a/through.test.ts', "import { factory } from '../../helpers/factory.ts';\n");
    write(
      'test/integration/b/lazy.test.ts',
      "const { startTestApp } = await import('../../helpers/app.ts');\n",
    );
    write('test/integration/b/none.test.ts', "import { waitFor } from '../../helpers/poll.ts';\n");
    write('test/integration/b/server.test.ts', "import { createApp } from '../../../server/app.ts';\n");
    expect(testsUsingADatabase(tree)).toEqual(
      [
        'test/integration/a/direct.test.ts',
        'test/integration/a/through.test.ts',
        'test/integration/b/lazy.test.ts',
      ].map((f) => path.normalize(f)),
    );
  });

  it('leave out every unit test (they never touch a database) and keep the app and process tests', () => {
    const selected = testsUsingADatabase(ROOT);
    expect(selected.filter((f) => f.startsWith(path.join('test', 'unit')))).toEqual([]);
    for (const file of [
      'findings/api.test.ts',
      'main/built-start.test.ts',
      'auth/login-concurrency.test.ts',
    ]) {
      expect(selected).toContain(path.join('test', 'integration', file));
    }
  });

  it('include every test that opens a database driver itself, so none escapes the PostgreSQL run', () => {
    const selected = new Set(testsUsingADatabase(ROOT));
    const driver = /^import (?!type\b)[^;]*from '(?:knex|pg|@electric-sql\/pglite|knex-pglite)';/m;
    const opening = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => path.join('test', name))
      .filter((file) => driver.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.filter((file) => !selected.has(file))).toEqual([]);
  });
});
