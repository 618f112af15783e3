import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute } from '../../../../server/routes/findings.ts';
import type { ScanState } from '../../../../server/scanner/types.ts';
import { okBody } from '../../../helpers/api-client.ts';
import { factory } from '../../../helpers/factory.ts';
import { runScanToEnd, startScanApp, type FinishedScan, type ScanApp } from '../../../helpers/scanner.ts';
import { testEngine } from '../../../helpers/database.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { startWebServer, type Route } from '../../../fixtures/web-server.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the template scan tests: ${CORPUS} is absent`);

const CORPUS_TEMPLATES = [
  'http/exposures/configs/git-config.yaml',
  'http/miscellaneous/dir-listing.yaml',
  'http/vulnerabilities/generic/generic-env.yaml',
];

/** A default-login template: it may run only under `credential_checks: defaults`. */
const LOGIN_TEMPLATE = `id: scanward-test-default-login
info:
  name: Test console default login
  severity: high
  tags: default-login,test
http:
  - method: POST
    path:
      - "{{BaseURL}}/console/login"
    body: "user=admin&password=admin"
    matchers:
      - type: status
        status: [200]
`;

/** A template of our own with no built-in counterpart: its finding is the template's alone. */
const BANNER_TEMPLATE = `id: scanward-test-debug-header
info:
  name: Debug header exposed
  severity: low
  description: The server announces debug mode in a response header.
  classification:
    cwe-id: CWE-215
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N
http:
  - method: GET
    path:
      - "{{BaseURL}}/status"
    matchers-condition: and
    matchers:
      - type: status
        status: [200]
      - type: dsl
        dsl:
          - "contains(to_lower(x_debug_mode), 'on') && !contains(body, '<html')"
`;

type Fixture = 'vulnerable' | 'clean' | 'templates-only';

/**
 * `vulnerable`: what both the built-in checks and the templates see; `templates-only`: the same
 * weaknesses in shapes only the templates recognise, so their findings are the templates' own.
 */
async function startFixture(host: string, initial: Fixture) {
  let kind = initial;
  const handler: Route = (req, res) => {
    if (kind === 'templates-only') {
      const text = { 'Content-Type': 'text/plain' };
      if (req.url === '/.git/config') res.writeHead(200, text).end('[credentials]\n\thelper = store\n');
      else if (req.url === '/.env')
        res.writeHead(200, text).end('notes\nmore notes\neven more\nSECRET_KEY=s3cr3t-value\n');
      else if (req.url === '/') res.writeHead(200, text).end('Directory: /\n[To Parent Directory]\n');
      else res.writeHead(404).end();
    } else if (kind === 'clean') {
      res
        .writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/html' })
        .end('<html><body>hi</body></html>');
    } else if (req.url === '/.git/config') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('[core]\n\trepositoryformatversion = 0\n');
    } else if (req.url === '/.env') {
      res
        .writeHead(200, { 'Content-Type': 'text/plain' })
        .end('APP_NAME=demo\nDB_PASSWORD=hunter2-db-password\n');
    } else if (req.url === '/status') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Debug-Mode': 'ON' }).end('ok');
    } else if (req.url === '/') {
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<html><head><title>Index of /</title></head><body><a href="a.txt">a.txt</a></body></html>');
    } else {
      res.writeHead(404).end();
    }
  };
  const server = await startWebServer({ address: host, fallback: handler });
  return Object.assign(server, {
    host,
    /** Serve another kind of site from now on. */
    become: (next: Fixture): void => {
      kind = next;
    },
  });
}

describe.skipIf(!haveCorpus)(`nuclei templates through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let work: string;
  const fixtures: Array<Awaited<ReturnType<typeof startFixture>>> = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'scanward-template-scan-'));
    execFileSync('tar', ['-xzf', CORPUS, '-C', work, ...CORPUS_TEMPLATES]);
    const templates = join(work, 'templates');
    mkdirSync(templates);
    for (const file of CORPUS_TEMPLATES)
      copyFileSync(join(work, file), join(templates, file.split('/').pop()!));
    writeFileSync(join(templates, 'debug-header.yaml'), BANNER_TEMPLATE);
    writeFileSync(join(templates, 'default-login.yaml'), LOGIN_TEMPLATE);
    scanner = await startScanApp({ env: { SCANWARD_TEMPLATES_DIR: templates, SCANWARD_NMAP: 'off' } });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    for (const f of fixtures) {
      await f.close();
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Each test scans a site of its own (on an address of its own) as a tenant of its own. */
  async function own(kind: Fixture) {
    const fixture = await startFixture(randomLoopbackAddress(), kind);
    fixtures.push(fixture);
    const tenant = await factory.tenant(scanner.app, { plan: 'enterprise' });
    const scan = async (credentialChecks?: 'defaults' | 'none'): Promise<FinishedScan> => {
      const final = await runScanToEnd(
        { ...scanner, tenant },
        { target: fixture.host, ports: String(fixture.port), credentialChecks },
      );
      expect(final.error).toBeNull();
      expect(final.status).toBe('completed');
      return final;
    };
    /** The tenant's findings on the site (of `tool` when given), by template id. */
    const findings = async (tool?: string) => {
      const query = { target: fixture.host, per_page: 100, ...(tool ? { tool } : {}) };
      const { items, total } = okBody(await tenant.api.call(listFindingsRoute, { query }));
      expect(items).toHaveLength(total);
      return items.sort((a, b) => a.template_id.localeCompare(b.template_id));
    };
    const evidenceOf = async (id: string) =>
      JSON.stringify(okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: id } })).evidence);
    return { fixture, base: `http://${fixture.host}:${fixture.port}`, scan, findings, evidenceOf };
  }

  it('template findings merge with the built-in checks, template-only ones are recorded, and resolved by their own coverage', async () => {
    const { fixture, base, scan, findings, evidenceOf } = await own('vulnerable');
    const final = await scan();
    const found = (await findings()).filter((f) => f.template_id !== 'open-service');
    expect(found.map((f) => [f.template_id, f.affected_component])).toEqual([
      ['directory-listing', `${base}/`],
      ['env-file-exposed', `${base}/.env`],
      ['git-config-exposed', `${base}/.git/config`],
      ['http-missing-security-headers', base],
      ['scanward-test-debug-header', `${base}/status`],
    ]);
    // The built-in check is more severe than the git-config template: its finding wins the merge.
    expect(found.find((f) => f.template_id === 'git-config-exposed')).toMatchObject({
      severity: 'high',
      tool: 'scanward-web',
    });
    const mine = found.find((f) => f.template_id === 'scanward-test-debug-header')!;
    expect(mine).toMatchObject({ severity: 'low', tool: 'nuclei-template' });
    expect(mine.cwe_ids).toContain('CWE-215');
    expect(await evidenceOf(mine.id)).toContain('X-Debug-Mode: ON');
    // Whichever detection won, no secret value reached the evidence.
    for (const f of found) expect(await evidenceOf(f.id)).not.toContain('hunter2');

    const state = (typeof final.state === 'string' ? JSON.parse(final.state) : final.state) as ScanState;
    const git = state.detections.find((d) => d.check_id === 'git-config-exposed')!;
    expect(git.upstream_ids).toEqual(expect.arrayContaining(['git-config', 'exposed-git']));
    expect(state.detections.find((d) => d.check_id === 'env-file-exposed')!.upstream_ids).toContain(
      'generic-env',
    );
    expect(state.detections.find((d) => d.check_id === 'directory-listing')!.upstream_ids).toContain(
      'dir-listing',
    );
    expect(state.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^templates: 5 of 5 loaded/)]));
    const covered = state.coverage.filter((c) => c.port === fixture.port).map((c) => c.check_id);
    expect(covered).toEqual(
      expect.arrayContaining([
        'nuclei-templates',
        'git-config-exposed',
        'env-file-exposed',
        'scanward-test-debug-header',
      ]),
    );

    // The site is fixed: a template with no built-in counterpart is resolved by the template's own coverage alone.
    fixture.become('clean');
    await scan();
    const after = (await findings()).find((f) => f.template_id === 'scanward-test-debug-header')!;
    expect(after).toMatchObject({ id: mine.id, status: 'resolved' });
  }, 120_000);

  it('a clean web server yields no template findings', async () => {
    const { scan, findings } = await own('clean');
    await scan();
    const found = await findings();
    expect(found.filter((f) => f.tool === 'nuclei-template')).toEqual([]);
    expect(found.map((f) => f.template_id)).not.toContain('git-config-exposed');
    expect(found.map((f) => f.template_id)).not.toContain('scanward-test-debug-header');
  }, 120_000);

  it('runs default-login templates only under credential_checks: defaults', async () => {
    const { fixture, scan } = await own('clean');
    const logins = () => fixture.requests.filter((r) => r.path === '/console/login').length;
    await scan('none');
    expect(logins()).toBe(0);
    await scan('defaults');
    expect(logins()).toBe(1);
  }, 120_000);

  it('corpus templates report on their own, under the canonical ids, where the built-in checks see nothing; the next scan that no longer sees them resolves them', async () => {
    const { fixture, base, scan, findings, evidenceOf } = await own('templates-only');
    await scan();
    const found = await findings('nuclei-template');
    expect(found.map((f) => [f.template_id, f.severity, f.affected_component])).toEqual([
      ['directory-listing', 'info', `${base}/`],
      ['env-file-exposed', 'high', `${base}/.env`],
      ['git-config-exposed', 'medium', `${base}/.git/config`],
    ]);
    const env = await evidenceOf(found.find((f) => f.template_id === 'env-file-exposed')!.id);
    expect(env).toContain('SECRET_KEY=***');
    expect(env).not.toContain('s3cr3t-value');

    // Coverage per template: the site is fixed, and the next scan resolves what it no longer sees.
    fixture.become('clean');
    await scan();
    const after = await findings('nuclei-template');
    expect(after.map((f) => [f.template_id, f.status])).toEqual([
      ['directory-listing', 'resolved'],
      ['env-file-exposed', 'resolved'],
      ['git-config-exposed', 'resolved'],
    ]);
  }, 120_000);
});
