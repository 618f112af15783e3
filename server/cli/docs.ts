import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openApiDocument } from '../routes/docs.ts';
import { VERSION } from '../version.ts';

/**
 * `npm run docs`: the tables of the docs that restate what the code says, generated from it so
 * they cannot drift (`npm run check:drift` compares them, as it compares docs/openapi.json):
 *
 * - docs/architecture.md, "The rules": every rule of `.dependency-cruiser.mjs`, its comment and
 *   the paths it holds;
 * - docs/architecture.md, "Where each table and each lifecycle lives": the table modules and
 *   consumer query modules of each domain folder, from the `*.repository.ts` files (a module
 *   that registers a table in knex's `interface Tables` is its table module);
 * - docs/roles.md: every route, the roles that may call it and the API-key permission it needs,
 *   from the route contracts (the `x-scanward-roles` of the OpenAPI document).
 *
 * A generated block sits between `<!-- generated: NAME (npm run docs) -->` and
 * `<!-- end generated: NAME -->`; the text around it is written by hand.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Rule {
  name: string;
  comment?: string;
  from: { path?: string | string[]; pathNot?: string | string[] };
  to: { path?: string | string[]; pathNot?: string | string[]; reachable?: boolean; circular?: boolean };
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A path pattern as a reader reads it: `^server/http/` → `server/http/`. */
function readablePattern(pattern: string): string {
  return `\`${pattern.replace(/^\^/, '').replace(/\\\./g, '.').replace(/\$$/, '').replace(/`/g, "'")}\``;
}

function side(spec: { path?: string | string[]; pathNot?: string | string[] }, anything: string): string {
  const only = list(spec.path).map(readablePattern);
  const but = list(spec.pathNot).map(readablePattern);
  const parts = [only.length > 0 ? only.join(', ') : anything];
  if (but.length > 0) parts.push(`except ${but.join(', ')}`);
  return parts.join(' ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export async function rulesTable(): Promise<string> {
  const config = (await import(pathToFileURL(path.join(ROOT, '.dependency-cruiser.mjs')).href)) as {
    default: { forbidden: Rule[] };
  };
  const rows = config.default.forbidden.map((rule) => {
    const to = rule.to.circular
      ? 'a module that imports it back (a cycle)'
      : side(rule.to, 'anything') + (rule.to.reachable ? ' (however indirectly)' : '');
    return `| \`${rule.name}\` | ${cell(side(rule.from, 'any file'))} | ${cell(to)} | ${cell(rule.comment ?? '')} |`;
  });
  return ['| Rule | Files in … | may not import … | Why |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function repositoryFiles(): string[] {
  return readdirSync(path.join(ROOT, 'server'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.repository.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Whether a repository module registers a table in knex's table map (`interface Tables { … }`). */
function registersTable(file: string): boolean {
  const block = /interface Tables \{([\s\S]*?)\n {2}\}/.exec(
    readFileSync(path.join(ROOT, file), 'utf8'),
  )?.[1];
  return block !== undefined && /^\s{4}[a-z_]+:/m.test(block);
}

export function tableModulesTable(): string {
  const byFolder = new Map<string, { tables: string[]; consumers: string[] }>();
  for (const file of repositoryFiles()) {
    const folder = `${path.dirname(file)}/`;
    const entry = byFolder.get(folder) ?? { tables: [], consumers: [] };
    (registersTable(file) ? entry.tables : entry.consumers).push(
      `\`${path.basename(file, '.repository.ts')}\``,
    );
    byFolder.set(folder, entry);
  }
  const rows = [...byFolder].map(
    ([folder, { tables, consumers }]) => `| \`${folder}\` | ${tables.join(', ')} | ${consumers.join(', ')} |`,
  );
  return ['| Domain folder | Table modules | Consumer query modules |', '| --- | --- | --- |', ...rows].join(
    '\n',
  );
}

interface Operation {
  summary?: string;
  description?: string;
  'x-scanward-roles'?: string[];
}

export function routesTable(): string {
  const document = openApiDocument(VERSION) as { paths?: Record<string, Record<string, Operation>> };
  const rows: string[] = [];
  for (const [route, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const roles = operation['x-scanward-roles'];
      const permission = /API key permission: `([^`]+)`/.exec(operation.description ?? '')?.[1];
      const bearerOnly = (operation.description ?? '').includes('Bearer tokens only');
      rows.push(
        `| \`${method.toUpperCase()} ${route}\` | ${cell(operation.summary ?? '')} | ${
          roles ? roles.join(', ') : 'anyone (public)'
        } | ${permission ? `\`${permission}\`` : bearerOnly ? 'none: bearer tokens only' : ''} |`,
      );
    }
  }
  return ['| Route | What it does | Roles | API-key permission |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/**
 * The layers of server/ (`LAYERS` of .dependency-cruiser.mjs, whose `layer-*` rules hold them), top
 * to bottom, one line each: a folder as `name/`, a top-level file as `name.ts`.
 */
export async function layersBlock(): Promise<string> {
  const config = (await import(pathToFileURL(path.join(ROOT, '.dependency-cruiser.mjs')).href)) as {
    LAYERS: string[][];
  };
  const named = (name: string) => (existsSync(path.join(ROOT, 'server', name)) ? `${name}/` : `${name}.ts`);
  const lines = config.LAYERS.map((layer) => layer.map(named).join(', '));
  return ['```', ...lines, '```'].join('\n');
}

/** `text` with the block NAME replaced by `content`; throws when the markers are missing. */
export function replaceBlock(text: string, name: string, content: string, file: string): string {
  const open = `<!-- generated: ${name} (npm run docs) -->`;
  const close = `<!-- end generated: ${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${file} has no "${open}" … "${close}" block`);
  return `${text.slice(0, start + open.length)}\n\n${content}\n\n${text.slice(end)}`;
}

const ROLES_PAGE = `# Routes and roles

Who may call each route of the API: the roles of the person (or of the API key's owner) and, for
an API key, the permission it must carry. Generated from the route contracts by \`npm run docs\`
(the same declarations the policy enforces, \`server/policies/roles.ts\`, and \`x-scanward-roles\`
in [openapi.json](openapi.json)); \`npm run check:drift\` fails when this page is stale.
[authentication.md](authentication.md) says what each role is for.

<!-- generated: routes (npm run docs) -->
<!-- end generated: routes -->
`;

/** Every generated docs file, path → its fresh text (`format` is Prettier's, so the committed files stay formatted). */
export async function generatedDocs(format: (text: string) => Promise<string>): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const architecture = 'docs/architecture.md';
  let text = readFileSync(path.join(ROOT, architecture), 'utf8');
  text = replaceBlock(text, 'rules', await rulesTable(), architecture);
  text = replaceBlock(text, 'tables', tableModulesTable(), architecture);
  text = replaceBlock(text, 'layers', await layersBlock(), architecture);
  files.set(architecture, await format(text));
  files.set(
    'docs/roles.md',
    await format(replaceBlock(ROLES_PAGE, 'routes', routesTable(), 'docs/roles.md')),
  );
  return files;
}

export async function prettierMarkdown(text: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(path.join(ROOT, 'docs/architecture.md'))) ?? {};
  return prettier.format(text, { ...options, parser: 'markdown' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [file, text] of await generatedDocs(prettierMarkdown)) {
    writeFileSync(path.join(ROOT, file), text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
