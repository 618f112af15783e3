import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureStatements, QUERY_PIECE, repositorySql } from '../../../server/cli/sql-generator.ts';
import { seedSampleTenant, ORG } from '../../../server/cli/sql-samples/fixture.ts';
import type { Db } from '../../../server/db/index.ts';
import { findOrganization, updateOrganization } from '../../../server/identity/organizations.repository.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The generator behind `npm run sql` and server/queries/ (docs/architecture.md, "The
 * queries folder"), on a real migrated database: it records what a query function sends,
 * rolls every sample back, and stops on a sample that fails or sends nothing.
 */

const SOURCE = [
  'export async function renameOrganization(db, orgId, name) {}',
  'export async function findOrganization(db, orgId) {}',
  'export function piece() {}',
].join('\n');

describe(`the SQL generator (${testEngine})`, () => {
  const suite = useTestApp();
  let root: string;
  const file = 'server/identity/sample.repository.ts';

  beforeAll(async () => {
    await seedSampleTenant(suite.db);
    root = mkdtempSync(path.join(tmpdir(), 'scanward-sql-'));
    mkdirSync(path.join(root, 'server/identity'), { recursive: true });
    writeFileSync(path.join(root, file), SOURCE);
  }, 120_000);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const renameOrganization = (db: Db, orgId: string, name: string) => updateOrganization(db, orgId, { name });

  it('records the statements a function sends, with placeholders, in the order of its source', async () => {
    const text = await repositorySql(suite.db, root, {
      file,
      module: { findOrganization, renameOrganization, piece: () => undefined },
      samples: {
        findOrganization: [[ORG]],
        renameOrganization: [{ name: 'new name', args: [ORG, 'Renamed'] }],
        piece: QUERY_PIECE,
      },
    });
    expect(text).toMatch(/^-- server\/identity\/sample\.repository\.ts: the SQL of its queries/);
    expect(text.indexOf('-- renameOrganization (new name)\nupdate "organizations"')).toBeGreaterThan(0);
    expect(text.indexOf('-- findOrganization\nselect')).toBeGreaterThan(
      text.indexOf('-- renameOrganization'),
    );
    expect(text).toContain('"id" = $');
    expect(text).not.toContain('Renamed');
    expect(text).not.toMatch(/^(begin|rollback|savepoint)/im);
    expect(text.endsWith(';\n')).toBe(true);
  });

  it('rolls every sample back', async () => {
    const statements = await captureStatements(suite.db, (trx) =>
      updateOrganization(trx, ORG, { name: 'Changed' }),
    );
    expect(statements).toHaveLength(1);
    expect((await findOrganization(suite.db, ORG))?.name).toBe('Sample');
  });

  it('answers the same text every time', async () => {
    const generate = () =>
      repositorySql(suite.db, root, {
        file,
        module: { findOrganization, renameOrganization, piece: () => undefined },
        samples: { findOrganization: [[ORG]], renameOrganization: [[ORG, 'Renamed']], piece: QUERY_PIECE },
      });
    expect(await generate()).toBe(await generate());
  });

  it('stops on a sample that fails, naming it', async () => {
    const failing = (db: Db, orgId: string) =>
      updateOrganization(db, orgId, { plan: 'no-such-plan' as 'startup' });
    await expect(
      repositorySql(suite.db, root, {
        file,
        module: { findOrganization: failing, renameOrganization, piece: () => undefined },
        samples: { findOrganization: [[ORG]], renameOrganization: [[ORG, 'x']], piece: QUERY_PIECE },
      }),
    ).rejects.toThrow(/sample\.repository\.ts: the sample of findOrganization fails: /);
  });

  it('stops on a sample that sends no SQL', async () => {
    const idle = async (_db: Db, _orgId: string) => undefined;
    await expect(
      repositorySql(suite.db, root, {
        file,
        module: { findOrganization: idle, renameOrganization, piece: () => undefined },
        samples: { findOrganization: [[ORG]], renameOrganization: [[ORG, 'x']], piece: QUERY_PIECE },
      }),
    ).rejects.toThrow('the sample of findOrganization sends no SQL');
  });
});
