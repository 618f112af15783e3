import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The ESLint rules of docs/architecture.md bite (as dependency-rules.test.ts proves the
 * import rules do): each snippet is linted with the repository's eslint.config.js under the
 * path it names, and exactly the expected messages come back.
 */

const eslint = new ESLint({ cwd: process.cwd() });

/** The API's prefix, spelt apart in the snippets so that a search for raw calls in test/ finds none here. */
const API = '/api';

async function problems(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId}: ${m.message}`);
}

describe('the lint rules (eslint.config.js)', () => {
  it('keep a route file to the route habit: tags, own names, no non-null assertion', async () => {
    const found = await problems(
      'server/routes/probe.ts',
      [
        "import { defineRoute } from '../http/contract.ts';",
        "import { getScanDetail as detail, listScans } from '../scans/listing.ts';",
        "import { z as zod } from 'zod';",
        "const TAGS = ['Scans'];",
        "const tags = ['Scans'];",
        'export const aRoute = defineRoute({ tags: TAGS } as never);',
        "export const bRoute = defineRoute({ tags: ['Scans'] });",
        'export const cRoute = defineRoute({ tags });',
        'export const d = (x?: { id: string }) => [x!.id, detail, listScans, zod];',
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^2: scanward\/no-renamed-project-imports: Import `getScanDetail` under its own name/,
      ),
      expect.stringMatching(/^4: no-restricted-syntax: Spell it `tags`/),
      expect.stringMatching(/^7: no-restricted-syntax: Write `tags,`/),
      expect.stringMatching(/^9: @typescript-eslint\/no-non-null-assertion: /),
    ]);
  });

  it('keep repositories on Db and free of row! assertions', async () => {
    const found = await problems(
      'server/findings/probe.repository.ts',
      [
        "import type { Knex } from 'knex';",
        "import type { Db } from '../db/index.ts';",
        'export async function a(trx: Knex.Transaction, db: Db) {',
        "  const [row] = await db('findings').select('id');",
        '  return [trx, row!.id];',
        '}',
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(/^3: no-restricted-syntax: Repositories take `Db`/),
      expect.stringMatching(/^5: no-restricted-syntax: No `row!`/),
    ]);
  });

  it('keep SQL in repositories and row! out of domain code', async () => {
    const found = await problems(
      'server/findings/probe.ts',
      [
        "import type { Db } from '../db/index.ts';",
        'export async function a(db: Db, rows?: string[]) {',
        "  await db('findings').select('id');",
        '  await db.transaction(async () => undefined);',
        '  return rows!.length;',
        '}',
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(/^3: no-restricted-syntax: Query a table through its repository/),
      expect.stringMatching(/^5: no-restricted-syntax: No `row!`/),
    ]);
  });

  it('keep a built-in check to its one declaration: no detection fields, no detection() helper, no appliesTo lambda', async () => {
    const found = await problems(
      'server/scanner/checks/probe.ts',
      [
        "import { defineCheck } from '../check.ts';",
        "import { isHttp } from '../net/service-rules.ts';",
        'function detection(id: string) {',
        "  return { check_id: id, cwe_ids: ['CWE-1'], title: 't' };",
        '}',
        'export const a = { appliesTo: (s: { service: string }) => s.service === "http", detection };',
        'export const b = defineCheck({ appliesTo: isHttp } as never);',
        "export const c = { title: 'a title', description: 'd' };",
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(/^3: no-restricted-syntax: No per-file detection\(\) helper/),
      expect.stringMatching(/^4: no-restricted-syntax: A check states its metadata once/),
      expect.stringMatching(/^4: no-restricted-syntax: A check states its metadata once/),
      expect.stringMatching(/^6: no-restricted-syntax: Use a named service rule/),
    ]);
  });

  it('keep integration tests on the kit: no hand-typed calls, no raw table reads, no fixed order', async () => {
    const snippet = [
      "import { describe, it } from 'vitest';",
      "describe('a', { shuffle: false }, () => {",
      "  it('b', async (api: never, db: never, app: never) => {",
      "    await api.get<{ id: string }>('/api/v1/scans/1');",
      `    await api.get('${API}/v1/scans?per_page=0');`,
      "    await db('scans').where({ id: 1 }).first();",
      "    await app.services.db('findings').first();",
      '    await api.call(route, { params: { scan_id: 1 } });',
      '    // eslint-disable-next-line no-restricted-syntax -- storage itself: a secret hashed at rest',
      "    await db('api_keys').first();",
      '  });',
      '});',
    ].join('\n');
    expect(await problems('test/integration/scans/probe.test.ts', snippet)).toEqual([
      expect.stringMatching(/^2: no-restricted-syntax: Each test owns its data/),
      expect.stringMatching(
        /^4: no-restricted-syntax: Call the declared route with `api.call\(route, input\)`: /,
      ),
      expect.stringMatching(
        /^4: no-restricted-syntax: Call the declared route with `api.call\(route, input\)`; /,
      ),
      expect.stringMatching(
        /^5: no-restricted-syntax: Call the declared route with `api.call\(route, input\)`; /,
      ),
      expect.stringMatching(/^6: no-restricted-syntax: Read state through the API/),
      expect.stringMatching(/^7: no-restricted-syntax: Read state through the API/),
    ]);
    // The database layer's own tests are about storage.
    expect(
      (await problems('test/integration/db/probe.test.ts', snippet)).filter((p) => p.includes('Read state')),
    ).toEqual([]);
  });

  it('keep integration tests off raw /api calls: the declared route, or a raw call that says why', async () => {
    const snippet = [
      "import { it } from 'vitest';",
      "it('a', async (api: never, id: string) => {",
      `  await api.post('${API}/v1/scans', { target: 'x' });`,
      '  await api.get(`' + API + '/v1/scans/${id}`);',
      `  await api.as(null).del('${API}/v1/webhooks/wh_1');`,
      '  await api.patch(`' + API + '/v1/findings/${id}`, {});',
      `  await api.put('${API}/v1/settings/sla', {});`,
      `  await api.send('DELETE', '${API}/v1/auth/mfa', { code: '1' });`,
      '  await api.call(getScanRoute, { params: { scan_id: id } });',
      "  await api.get('/docs');",
      "  await api.send('GET', '/openapi.json');",
      '  // eslint-disable-next-line no-restricted-syntax -- a repeated query parameter the typed query cannot spell',
      `  await api.get('${API}/v1/scans?page=1&page=2');`,
      '});',
    ].join('\n');
    const refused = (line: number) =>
      expect.stringMatching(
        new RegExp(
          `^${line}: no-restricted-syntax: Call the declared route with \`api\\.call\\(route, input\\)\`;`,
        ),
      );
    const expected = [3, 4, 5, 6, 7, 8].map(refused);
    expect(await problems('test/integration/scans/probe.test.ts', snippet)).toEqual(expected);
    // The database layer's tests read tables, but call the API through its routes like any other.
    expect(await problems('test/integration/db/probe.test.ts', snippet)).toEqual(expected);
  });

  it('find a reason on every eslint-disable comment of the tests', () => {
    // (@eslint-community/eslint-plugin-eslint-comments is not installed: its require-description, by hand.)
    const disable = new RegExp('(//|/\\*)\\s*eslint' + '-disable');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    const bare = files('test').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) => disable.test(line) && !/ -- \S/.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
  });
});
