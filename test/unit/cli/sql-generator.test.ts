import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  coverageProblems,
  formatStatement,
  importRepositories,
  QUERY_PIECE,
  queriesFileOf,
  repositoryFiles,
  type RepositoryEntry,
} from '../../../server/cli/sql-generator.ts';
import { REPOSITORY_SAMPLES } from '../../../server/cli/sql-samples/index.ts';

/**
 * `npm run sql` covers every repository function (docs/architecture.md, "The queries
 * folder"): the declarations are checked before any SQL runs, so a new function, a new
 * repository or a stale sample stops the generation with a message saying where to write.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');

const module = {
  async findThing() {},
  async countThings() {},
  buildFilter() {},
  async lockThing() {},
};

const entry = (
  samples: RepositoryEntry['samples'],
  file = 'server/things/things.repository.ts',
): RepositoryEntry => ({
  file,
  module,
  samples,
});

describe('the SQL generator', () => {
  it('covers every exported function of every repository with the samples in server/cli/sql-samples/', async () => {
    const files = repositoryFiles(ROOT);
    expect(files).toContain('server/findings/findings-triage.repository.ts');
    const problems = coverageProblems(files, await importRepositories(ROOT, files), REPOSITORY_SAMPLES);
    expect(problems).toEqual([]);
  });

  it('accepts a module whose every function is declared', () => {
    const files = ['server/things/things.repository.ts'];
    const samples = { findThing: [['id']], countThings: [[]], buildFilter: QUERY_PIECE, lockThing: [['id']] };
    expect(coverageProblems(files, new Map([[files[0]!, module]]), [entry(samples)])).toEqual([]);
  });

  it('refuses a function without samples, a query marked as a piece and a sample of nothing', () => {
    const files = ['server/things/things.repository.ts'];
    const samples = {
      findThing: [['id']],
      buildFilter: QUERY_PIECE,
      lockThing: QUERY_PIECE,
      dropThing: [[]],
    };
    const problems = coverageProblems(files, new Map([[files[0]!, module]]), [entry(samples)]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^server\/things\/things\.repository\.ts: countThings has no samples; .*server\/cli\/sql-samples\/things\.ts/,
      ),
      'server/things/things.repository.ts: lockThing is async, so a query, not a QUERY_PIECE: give it samples',
      'server/things/things.repository.ts: samples for dropThing, which the module does not export',
    ]);
  });

  it('refuses a repository without samples, samples of no repository and an empty list', () => {
    const files = ['server/things/things.repository.ts', 'server/things/things-audit.repository.ts'];
    const samples = { findThing: [], countThings: [[]], buildFilter: QUERY_PIECE, lockThing: [['id']] };
    const problems = coverageProblems(files, new Map(files.map((f) => [f, module])), [
      entry(samples),
      entry(samples, 'server/gone/gone.repository.ts'),
    ]);
    expect(problems).toEqual([
      'server/things/things.repository.ts: findThing has an empty list of samples',
      expect.stringMatching(
        /^server\/things\/things-audit\.repository\.ts: no samples; declare them with repositorySamples/,
      ),
      'server/gone/gone.repository.ts: samples of a file that is not a repository',
    ]);
  });

  it('refuses samples that declare another module than the file', () => {
    const files = ['server/things/things.repository.ts'];
    const samples = { findThing: [['id']], countThings: [[]], buildFilter: QUERY_PIECE, lockThing: [['id']] };
    const problems = coverageProblems(files, new Map([[files[0]!, { ...module }]]), [entry(samples)]);
    expect(problems).toEqual(['server/things/things.repository.ts: its samples declare another module']);
  });

  it('writes one file per repository, named for it, and refuses two repositories with one name', () => {
    expect(queriesFileOf('server/findings/findings-triage.repository.ts')).toBe('findings-triage.sql');
    const files = ['server/a/things.repository.ts', 'server/b/things.repository.ts'];
    const samples = { findThing: [['id']], countThings: [[]], buildFilter: QUERY_PIECE, lockThing: [['id']] };
    const problems = coverageProblems(files, new Map(files.map((f) => [f, module])), [
      entry(samples, files[0]),
      entry(samples, files[1]),
    ]);
    expect(problems).toEqual([
      'server/b/things.repository.ts and server/a/things.repository.ts would both write server/queries/things.sql',
    ]);
  });

  it('lays a statement out for review, keeping its placeholders', () => {
    expect(formatStatement('select "id" from "findings" where "org_id" = $1 limit $2')).toBe(
      'select\n  "id"\nfrom\n  "findings"\nwhere\n  "org_id" = $1\nlimit\n  $2;',
    );
  });
});
