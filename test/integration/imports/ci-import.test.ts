import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCi, type CiDeps } from '../../../action/ci/run.ts';
import { getScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { CORPUS_TARBALL, extractCorpus, type Corpus } from './corpus.ts';

/**
 * `scanward-ci import FILE` (the same run as the Action's `import-file`) against the real
 * service: the report becomes a scan of the named asset, gated and reported like any scan.
 */
describe.skipIf(!CORPUS_TARBALL)(`scanward-ci import against the real service (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;
  let corpus: Corpus;
  let key: string;

  const suite = useTestApp();
  beforeAll(() => {
    corpus = extractCorpus();
    app = suite.app;
  });
  // A tenant per test: a gate on new findings reads only what this test imported.
  beforeEach(async () => {
    t = await factory.tenant(app, { plan: 'enterprise' });
    key = await t.apiKey(['read:scans', 'write:scans', 'read:findings']);
  });
  afterAll(async () => {
    corpus?.remove();
  });

  async function ci(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const files = new Map<string, string>();
    const deps: CiDeps = {
      argv,
      env: { SCANWARD_API_URL: app.url, SCANWARD_API_KEY: key },
      stderr: (text) => void (stderr += text),
      stdout: (text) => void (stdout += text),
      fetch: (input, init) => fetch(input, init),
      sleep: async () => undefined,
      now: () => Date.now(),
      writeFile: async (path, data) => void files.set(path, data),
      mkdir: async () => undefined,
      readFile: (path) => readFile(path),
      cwd: corpus.dir,
    };
    const code = await runCi(deps);
    return { code, stdout, stderr, files };
  }

  it('imports the report as a scan of the asset and gates on it: 1 with a finding at fail-on, 0 without', async () => {
    const failed = await ci([
      'import',
      'nuclei/multi_cwe_fabricated.json',
      '--target',
      'acme/app:ci',
      '--json',
      'out.json',
    ]);
    expect(failed.stderr).toMatch(
      /Imported nuclei\/multi_cwe_fabricated\.json as Scanward scan scan_\w+ of acme\/app:ci/,
    );
    expect(failed.code).toBe(1);
    const json = JSON.parse([...failed.files.values()][0]!) as { findings: { severity: string }[] };
    expect(json.findings.map((f) => f.severity)).toEqual(['high']);

    const passed = await ci([
      '--import-file',
      'zap/0_zap_sample.xml',
      '--import-format',
      'zap',
      '--target',
      'acme/app:zap',
    ]);
    expect(passed.code).toBe(0);
    const scans = okBody(await t.api.call(listScansRoute, { query: { target: 'acme/app:ci' } })).items;
    expect(scans).toHaveLength(1);
    const detail = okBody(await t.api.call(getScanRoute, { params: { scan_id: scans[0]!.id } }));
    expect(detail).toMatchObject({ source: 'import', tool: 'nuclei', status: 'completed' });
  });

  it('with gate new, passes when the report brings nothing new and fails when it does', async () => {
    expect(
      (await ci(['import', 'nmap/nmap_1port.xml', '--target', 'gate-new', '--fail-on', 'info'])).code,
    ).toBe(1);
    expect(
      (
        await ci([
          'import',
          'nmap/nmap_1port.xml',
          '--target',
          'gate-new',
          '--fail-on',
          'info',
          '--gate',
          'new',
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await ci([
          'import',
          'nmap/nmap_multiple_port.xml',
          '--target',
          'gate-new',
          '--fail-on',
          'info',
          '--gate',
          'new',
        ])
      ).code,
    ).toBe(1);
  });

  it('refuses bad usage with exit 2: no target, an unreadable file, a report the service refuses', async () => {
    const noTarget = await ci(['import', 'nmap/nmap_1port.xml']);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/`target` is required with `import-file`/);
    const missing = await ci(['import', 'no-such-file.xml', '--target', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/`import-file` no-such-file\.xml cannot be read/);
    const refused = await ci(['import', 'README.md', '--target', 'x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a report/);
  });
});
