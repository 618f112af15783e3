import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';

/**
 * The operator command line, run in-process through runCli (the code the binary runs), opening
 * its database from the environment for every command as the binary does: a PGlite data
 * directory or a fresh PostgreSQL database. The commands themselves, over one shared open
 * database: admin.test.ts. cli-process.test.ts covers the real binary beside a real server.
 */

interface OrgJson {
  id: string;
  name: string;
  plan: string;
  limits: Record<string, number>;
  overrides: Record<string, number>;
  created_at: string;
  updated_at: string;
}

/** Tests that open the database from the environment: PGlite's first start is slow on a loaded machine. */
const SLOW = 120_000;

/** A command line split on spaces (no value in these tests contains one unless passed separately). */
const args = (line: string) => line.split(' ');

describe(`operator command line: the database from the environment (${testEngine})`, () => {
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let pg: TestDatabase | undefined;

  beforeAll(async () => {
    if (testEngine === 'postgres') {
      pg = await createTestDatabase();
      env = { DATABASE_URL: pg.url! };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'scanward-cli-'));
      env = { SCANWARD_DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    await pg?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('opening the database from the environment', () => {
    it(
      'migrate brings a fresh database to the current schema, then reports it up to date',
      async () => {
        // A fresh database of its own: the one the other tests share is migrated by whichever runs first.
        const own = testEngine === 'postgres' ? await createTestDatabase() : undefined;
        const ownDir = own ? undefined : mkdtempSync(path.join(tmpdir(), 'scanward-cli-migrate-'));
        const env = own ? { DATABASE_URL: own.url! } : { SCANWARD_DATA_DIR: ownDir! };
        onTestFinished(async () => {
          await own?.drop();
          if (ownDir) rmSync(ownDir, { recursive: true, force: true });
        });
        const first = await runCliCaptured(['migrate', '--json'], env);
        expect(first.stderr).toBe('');
        const result = JSON.parse(first.stdout) as { applied: string[]; engine: string; location: string };
        expect(result.applied).toEqual(migrations.map(([name]) => name));
        expect(result.engine).toBe(testEngine);
        expect(result.location).not.toContain('@');

        const second = await runCliCaptured(['migrate'], env);
        expect(second.code).toBe(0);
        expect(second.stdout).toBe(`${result.location}: the schema is up to date\n`);
      },
      SLOW,
    );

    it(
      'closes the database after each command, so the next command finds it free',
      async () => {
        const created = await runCliCaptured(
          [...args('admin org create --plan startup --name'), 'Plain Output Ltd'],
          env,
        );
        expect(created.stderr).toBe('');
        expect(created.code).toBe(0);
        expect(created.stdout).toMatch(/^org_[0-9a-z]{24}\n$/);

        const listed = await runCliCaptured(args('admin org list --json'), env);
        expect(listed.code).toBe(0);
        const orgs = (JSON.parse(listed.stdout) as { items: OrgJson[] }).items;
        expect(orgs.find((o) => o.id === created.stdout.trim())?.name).toBe('Plain Output Ltd');
      },
      SLOW,
    );

    it(
      'checks input before opening the database, so a typo is reported even when it is unreachable',
      async () => {
        const unreachable = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' };
        const short = await runCliCaptured(
          args('admin user create --org org_x --email a@b.example --password short'),
          unreachable,
        );
        expect(short.code).toBe(2);
        expect(short.stderr).toBe('scanward: error: the password must be at least 12 characters\n');

        // knex reports the failed connection with console.log (the binary sends that to stderr).
        const knexLog = vi.spyOn(console, 'log').mockImplementation(() => undefined);
        const down = await runCliCaptured(args('admin user list'), unreachable).finally(() =>
          knexLog.mockRestore(),
        );
        expect(down.code).toBe(1);
        expect(down.stderr).toMatch(/^scanward: error: .*ECONNREFUSED.*\n$/);
      },
      SLOW,
    );

    it(
      'an invalid configuration is a usage error naming the variable',
      async () => {
        const bad = await runCliCaptured(args('admin user list'), {
          DATABASE_URL: 'mysql://127.0.0.1/scanward',
        });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain(
          'DATABASE_URL: must be a postgres:// or postgresql:// connection string',
        );
      },
      SLOW,
    );
  });
});
