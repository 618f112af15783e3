import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceBlock, routesTable, rulesTable, tableModulesTable } from '../../../server/cli/docs.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('the generated docs tables (npm run docs)', () => {
  it('replace only what lies between a block’s markers', () => {
    const text = 'before\n<!-- generated: x (npm run docs) -->\nold\n<!-- end generated: x -->\nafter\n';
    expect(replaceBlock(text, 'x', 'new', 'f.md')).toBe(
      'before\n<!-- generated: x (npm run docs) -->\n\nnew\n\n<!-- end generated: x -->\nafter\n',
    );
  });

  it('refuse a file that lost its markers', () => {
    expect(() => replaceBlock('no markers here', 'x', 'new', 'f.md')).toThrow(/f\.md has no/);
  });

  it('list every rule of the dependency-cruiser configuration', async () => {
    const config = readFileSync(path.join(ROOT, '.dependency-cruiser.mjs'), 'utf8');
    const names = [...config.matchAll(/^\s+(?:rule\(|name: )\s*'([a-z0-9-]+)'/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    const table = await rulesTable();
    for (const name of names) expect(table).toContain(`| \`${name}\` |`);
  });

  it('name every repository module under its folder, table modules apart from consumers', () => {
    const table = tableModulesTable();
    const findings = table.split('\n').find((line) => line.startsWith('| `server/findings/`'))!;
    const [, , tables, consumers] = findings.split('|');
    expect(tables).toContain('`findings`');
    expect(tables).not.toContain('`findings-listing`');
    expect(consumers).toContain('`findings-listing`');
    expect(table).toContain('`user-invites`');
  });

  it('give every route its roles, and public routes none', () => {
    const table = routesTable();
    expect(table).toMatch(/\| `GET \/api\/health` \|[^|]*\| anyone \(public\) \|/);
    expect(table).toMatch(/\| `POST \/api\/v1\/scans` \|[^|]*\| admin, member \| `write:scans` \|/);
  });
});
