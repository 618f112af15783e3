import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules of .dependency-cruiser.mjs bite: a miniature tree with one crossing per
 * rule (and, beside each, an import the rule allows) is cruised with the real rule set, and
 * exactly the crossings are reported. `npm run lint:deps` applies the same rules to the repo.
 * The console's files import without extensions, as its bundler resolution lets them.
 */
const TREE: Record<string, string> = {
  'action/index.ts': [
    "import { z } from 'zod';",
    "import { Severity } from '../server/schemas/findings.ts';",
    "import { listFindings } from '../server/findings/listing.ts';",
    'export const a = [z, Severity, listFindings];',
  ].join('\n'),
  'action/core/gate.ts': 'export const gate = 1;',
  'action/core/verdict.ts': [
    "import { gate } from './gate.ts';",
    "import { createHash } from 'node:crypto';",
    "import { Socket } from 'node:net';",
    "import type { Shape } from '../reports/summary.ts';",
    'export const verdict = [gate, createHash, Socket];',
    'export type S = Shape;',
  ].join('\n'),
  'action/reports/summary.ts': [
    "import { readFileSync } from 'fs';",
    'export interface Shape { a: 1 }',
    'export const read = readFileSync;',
  ].join('\n'),
  'action/reports/sarif.ts': [
    "import { createHash } from 'node:crypto';",
    "import { writeFile } from 'node:fs/promises';",
    "import * as core from '@actions/core';",
    "import { verdict } from '../core/verdict.ts';",
    "import type { Shape } from './summary.ts';",
    "import { client } from '../service/client.ts';",
    'export const sarif = [createHash, writeFile, core, verdict, client];',
    'export type S = Shape;',
  ].join('\n'),
  'action/service/client.ts': [
    "import { gate } from '../core/gate.ts';",
    "import { retry } from '@octokit/plugin-retry';",
    "import { run } from '../github/run.ts';",
    'export const client = [gate, retry, run];',
  ].join('\n'),
  'action/github/run.ts': [
    "import * as core from '@actions/core';",
    "import { gate } from '../core/gate.ts';",
    'export const run = [core, gate];',
  ].join('\n'),
  'action/ci/run.ts': [
    "import { client } from '../service/client.ts';",
    "import { sarif } from '../reports/sarif.ts';",
    "import { run } from '../github/run.ts';",
    "import * as core from '@actions/core';",
    'export const ci = [client, sarif, run, core];',
  ].join('\n'),
  'action/ci-main.ts': "import { ci } from './ci/run.ts';\nexport const main = ci;",
  'server/schemas/findings.ts': "import { z } from 'zod';\nexport const Severity = z.string();",
  'server/schemas/scans.ts': "import type { Context } from 'koa';\nexport type C = Context;",
  'server/http/contract.ts': [
    "import type { Principal } from '../auth/principal.ts';",
    "import { Severity } from '../schemas/findings.ts';",
    'export type P = Principal;',
    'export const s = Severity;',
  ].join('\n'),
  'server/http/openapi-cli.ts': "import { routes } from '../routes/docs.ts';\nexport const r = routes;",
  'server/routes/docs.ts':
    "import { errorShape } from '../http/errors.ts';\nexport const routes = [errorShape];",
  'server/routes/findings.ts': [
    "import { listFindings } from '../findings/listing.ts';",
    "import { findingRows } from '../findings/findings.repository.ts';",
    'export const r = [listFindings, findingRows];',
  ].join('\n'),
  'server/routes/scans.ts': [
    "import { listFindings } from '../findings/listing.ts';",
    "import type { FindingRow } from '../findings/findings.repository.ts';",
    'export const r = [listFindings];',
    'export type R = FindingRow;',
  ].join('\n'),
  'server/http/errors.ts': 'export const errorShape = {};',
  'server/auth/principal.ts': 'export interface Principal { id: string }',
  'server/findings/listing.ts': [
    "import type { Knex } from 'knex';",
    "import { findingRows } from './findings.repository.ts';",
    'export const listFindings = (db: Knex) => findingRows(db);',
  ].join('\n'),
  'server/findings/findings.repository.ts': [
    "import type { Knex } from 'knex';",
    "export const findingRows = (db: Knex) => db('findings');",
    'export interface FindingRow { id: string }',
  ].join('\n'),
  'server/db/index.ts': "import knex from 'knex';\nexport const make = knex;",
  'migrations/001_init.ts': "import type { Knex } from 'knex';\nexport const up = (db: Knex) => db;",
  'server/scanner/net/http-exchange.ts': 'export const exchange = () => 1;',
  'server/scanner/net/probe.ts': "import { tlsCheck } from '../checks/tls.ts';\nexport const p = tlsCheck;",
  'server/scanner/checks/tls.ts': [
    "import { exchange } from '../net/http-exchange.ts';",
    "import type { PhaseContext } from '../check.ts';",
    'export const tlsCheck = exchange;',
    'export type C = PhaseContext;',
  ].join('\n'),
  'server/scanner/checks/ssh.ts': [
    "import type { Detection } from '../types.ts';",
    'export const sshCheck = (d: Detection) => d;',
  ].join('\n'),
  'server/scanner/check.ts': [
    "import type { PhaseContext } from './types.ts';",
    'export type { PhaseContext };',
  ].join('\n'),
  'server/scanner/types.ts': 'export interface PhaseContext { a: 1 }\nexport interface Detection { b: 1 }',
  'server/scanner/checks/web.ts': "import { run } from '../templates/execute.ts';\nexport const web = run;",
  'server/scanner/templates/execute.ts': [
    "import { exchange } from '../net/http-exchange.ts';",
    "import type { tlsCheck } from '../checks/tls.ts';",
    'export const run = exchange;',
    'export type T = typeof tlsCheck;',
  ].join('\n'),
  'server/scanner/check-registry.ts': [
    "import { tlsCheck } from './checks/tls.ts';",
    "import { run } from './templates/execute.ts';",
    'export const CHECKS = [tlsCheck, run];',
  ].join('\n'),
  'server/scanner/phases/checks.ts': [
    "import { CHECKS } from '../check-registry.ts';",
    "import { tlsCheck } from '../checks/tls.ts';",
    'export const c = [CHECKS, tlsCheck];',
  ].join('\n'),
  'server/ratelimit/counters.ts': [
    "import type { Principal } from '../policies/principal.ts';",
    "import type { ApiKey } from '../auth/keys.ts';",
    'export type P = Principal | ApiKey;',
  ].join('\n'),
  'server/policies/principal.ts': 'export interface Principal { id: string }',
  'server/auth/keys.ts': 'export interface ApiKey { id: string }',
  'server/cli/program.ts':
    "import { register } from './command.ts';\nexport interface Ctx { a: 1 }\nexport const p = register;",
  'server/cli/command.ts': "import type { Ctx } from './program.ts';\nexport const register = (c: Ctx) => c;",
  // The local engine reaches a repository through a domain module, and the scanner's phases (allowed).
  'server/local-scan/engine.ts': [
    "import { checks } from '../scanner/phases/checks.ts';",
    "import { listFindings } from '../findings/listing.ts';",
    'export const engine = [checks, listFindings];',
  ].join('\n'),
  'action/local/local-scan.ts': [
    "import { gate } from '../core/gate.ts';",
    "import { run } from '../github/run.ts';",
    'export const local = [gate, run];',
  ].join('\n'),
  // The layers of server/: findings reads assets (below) and its own folder, and reaches up to
  // scans; assets reaches across its layer to controls.
  'server/findings/transitions.ts': [
    "import { scanLifecycle } from '../scans/lifecycle.ts';",
    "import { inventory } from '../assets/inventory.ts';",
    "import { listFindings } from './listing.ts';",
    'export const transitions = [scanLifecycle, inventory, listFindings];',
  ].join('\n'),
  'server/scans/lifecycle.ts': [
    "import { listFindings } from '../findings/listing.ts';",
    'export const scanLifecycle = listFindings;',
  ].join('\n'),
  'server/assets/inventory.ts': [
    "import { catalogue } from '../controls/catalogue.ts';",
    'export const inventory = catalogue;',
  ].join('\n'),
  'server/controls/catalogue.ts': 'export const catalogue = 1;',
  // The console: extensionless imports, as its bundler resolution writes them.
  'console/src/api/client.ts': [
    "import createClient from 'openapi-fetch';",
    'export const createApiClient = () => createClient({});',
    'export type ApiClient = ReturnType<typeof createApiClient>;',
  ].join('\n'),
  'console/src/api/context.tsx': [
    "import type { ApiClient } from './client';",
    "export const apiClientRef = { id: 'scanward.api' } as { id: string; T?: ApiClient };",
  ].join('\n'),
  'console/src/main.tsx': [
    "import { createApiClient } from './api/client';",
    "import { apiClientRef } from './api/context';",
    'export const apis = [[apiClientRef, createApiClient()]];',
  ].join('\n'),
  'console/src/pages/settings/api-keys.tsx': [
    "import { apiClientRef } from '../../api/context';",
    "import { createApiClient } from '../../api/client';",
    'export const keys = [apiClientRef, createApiClient];',
  ].join('\n'),
  'console/src/ui.tsx': [
    "import type { ApiClient } from './api/client';",
    "import type { Client } from 'openapi-fetch';",
    'export type C = ApiClient | Client<object>;',
  ].join('\n'),
  'console/src/pages/scans.tsx': [
    "import type { C } from '../ui';",
    "import { Severity } from '../../../server/schemas/findings.ts';",
    'export const s: [C?, unknown?] = [undefined, Severity];',
  ].join('\n'),
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'scanward-deps-'));
  for (const [file, text] of Object.entries(TREE)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), `${text}\n`);
  }
  symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'), 'dir');
  const rules = pathToFileURL(path.resolve('.dependency-cruiser.mjs')).href;
  const { forbidden, options } = ((await import(rules)) as { default: IConfiguration }).default;
  const { tsConfig: _repoTsConfig, ...rest } = options ?? {};
  const out = await cruise(['action', 'server', 'migrations', 'console'], {
    ...rest,
    baseDir: root,
    ruleSet: { forbidden },
    validate: true,
  });
  result = out.output as ICruiseResult;
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

function violations(rule: string): string[] {
  return result.summary.violations
    .filter((v) => v.rule.name === rule)
    .map((v) => (v.cycle ? v.cycle.map((c) => c.name).join(' → ') : `${v.from} → ${v.to}`))
    .sort();
}

describe('the import rules (.dependency-cruiser.mjs)', () => {
  it('keeps action/ to itself, the shared schemas and packages', () => {
    expect(violations('action-bundles-only-action-and-schemas')).toEqual([
      'action/index.ts → server/findings/listing.ts',
    ]);
  });

  it("keeps I/O out of the Action's core and reports: no file system, network, toolkit or I/O module", () => {
    expect(violations('action-core-and-reports-are-pure')).toEqual([
      'action/core/verdict.ts → net',
      'action/reports/sarif.ts → action/service/client.ts',
      'action/reports/sarif.ts → fs/promises',
      expect.stringMatching(/^action\/reports\/sarif\.ts → node_modules\/@actions\/core\//),
      'action/reports/summary.ts → fs',
    ]);
    expect(violations('action-core-knows-no-reports')).toEqual([
      'action/core/verdict.ts → action/reports/summary.ts',
    ]);
  });

  it('keeps the front ends and the Actions toolkit out of the Scanward service client', () => {
    expect(violations('action-service-knows-no-front-end')).toEqual([
      'action/service/client.ts → action/github/run.ts',
      expect.stringMatching(/^action\/service\/client\.ts → node_modules\/@octokit\/plugin-retry\//),
    ]);
  });

  it('keeps the front ends out of the local scan source', () => {
    expect(violations('action-local-knows-no-front-end')).toEqual([
      'action/local/local-scan.ts → action/github/run.ts',
    ]);
  });

  it('keeps every repository, the db/ layer and knex out of the local engine, however indirectly', () => {
    expect(violations('local-engine-runs-without-a-database')).toEqual([
      'server/local-scan/engine.ts → node_modules/knex/knex.js',
      'server/local-scan/engine.ts → server/findings/findings.repository.ts',
    ]);
  });

  it('keeps the GitHub front end and the Actions toolkit out of scanward-ci', () => {
    expect(violations('scanward-ci-bundles-no-github-toolkit')).toEqual([
      'action/ci/run.ts → action/github/run.ts',
      expect.stringMatching(/^action\/ci\/run\.ts → node_modules\/@actions\/core\//),
    ]);
  });

  it('keeps routes and domains (auth/ included, type imports too) out of http/', () => {
    expect(violations('http-knows-no-route-or-domain')).toEqual([
      'server/http/contract.ts → server/auth/principal.ts',
      'server/http/openapi-cli.ts → server/routes/docs.ts',
    ]);
  });

  it('keeps repositories out of routes (type imports too): a route calls domain code', () => {
    expect(violations('routes-call-domain-code')).toEqual([
      'server/routes/findings.ts → server/findings/findings.repository.ts',
      'server/routes/scans.ts → server/findings/findings.repository.ts',
    ]);
  });

  it('keeps checks/ and templates/ apart in both directions, and net/ below them', () => {
    expect(violations('checks-do-not-import-templates')).toEqual([
      'server/scanner/checks/web.ts → server/scanner/templates/execute.ts',
    ]);
    expect(violations('templates-do-not-import-checks')).toEqual([
      'server/scanner/templates/execute.ts → server/scanner/checks/tls.ts',
    ]);
    expect(violations('net-is-below-checks-and-templates')).toEqual([
      'server/scanner/net/probe.ts → server/scanner/checks/tls.ts',
    ]);
  });

  it('keeps checks/ from building detections by hand: types.ts only through check.ts', () => {
    expect(violations('checks-build-detections-through-defineCheck')).toEqual([
      'server/scanner/checks/ssh.ts → server/scanner/types.ts',
    ]);
  });

  it('lets the engine reach checks and templates only through the registry', () => {
    expect(violations('phases-reach-checks-through-the-registry')).toEqual([
      'server/scanner/phases/checks.ts → server/scanner/checks/tls.ts',
    ]);
  });

  it('keeps auth/ out of the rate limits', () => {
    expect(violations('ratelimit-knows-no-auth')).toEqual([
      'server/ratelimit/counters.ts → server/auth/keys.ts',
    ]);
  });

  it('lets only repositories, db/ and migrations/ import knex, type imports included', () => {
    expect(violations('only-repositories-and-db-use-knex')).toEqual([
      'server/findings/listing.ts → node_modules/knex/knex.js',
    ]);
  });

  it('keeps koa and knex out of the shared schemas', () => {
    expect(violations('schemas-are-pure')).toEqual([
      expect.stringMatching(/^server\/schemas\/scans\.ts → node_modules\/koa\//),
    ]);
  });

  it('lets only the console composition root (and api/) import the client module, type imports too', () => {
    expect(violations('console-gets-its-client-by-context')).toEqual([
      'console/src/pages/settings/api-keys.tsx → console/src/api/client.ts',
      'console/src/ui.tsx → console/src/api/client.ts',
    ]);
  });

  it('lets only console/src/api/client.ts import openapi-fetch', () => {
    expect(violations('console-has-one-client-module')).toEqual([
      expect.stringMatching(/^console\/src\/ui\.tsx → node_modules\/openapi-fetch\//),
    ]);
  });

  it('keeps server, Action and migration code out of the console', () => {
    expect(violations('console-reaches-the-server-over-http')).toEqual([
      'console/src/pages/scans.tsx → server/schemas/findings.ts',
    ]);
  });

  it('keeps each folder of server/ to the layers below it: none above, none beside', () => {
    expect(violations('layer-findings-auth')).toEqual([
      'server/findings/transitions.ts → server/scans/lifecycle.ts',
    ]);
    expect(violations('layer-assets-controls-ratelimit')).toEqual([
      'server/assets/inventory.ts → server/controls/catalogue.ts',
      'server/ratelimit/counters.ts → server/auth/keys.ts',
    ]);
    // scans → findings, findings → assets and findings → its own folder are allowed.
    expect(violations('layer-scans-remediation')).toEqual([]);
  });

  it('finds import cycles, type-only ones included', () => {
    expect(violations('no-circular')).toEqual(
      expect.arrayContaining([expect.stringContaining('server/cli/command.ts')]),
    );
    expect(violations('no-circular').every((c) => c.includes('server/cli/'))).toBe(true);
  });
});
