import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueScan } from '../../../../server/scans/lifecycle.ts';
import type { ScanState } from '../../../../server/scanner/types.ts';
import { testEngine } from '../../../helpers/database.ts';
import { scanRow } from '../../../helpers/factory.ts';
import { waitFor } from '../../../helpers/poll.ts';
import {
  evidenceOf,
  findingsOf,
  startScanApp,
  type FinishedScan,
  type ScanApp,
} from '../../../helpers/scanner.ts';
import { startWebServer, type WebServer } from '../../../fixtures/web-server.ts';

/**
 * An operator's fuzzing template through the whole scan (issue 33): `SCANWARD_TEMPLATES_DIR`
 * holds it, the runner's template load (worker thread, compiled-template cache) compiles it, and
 * a scan with `web.active` records one finding with its proof; a passive scan never sends it.
 */

const TEMPLATE = `id: operator-debug-echo
info:
  name: Debug parameter echoed back
  author: scanward-tests
  severity: high
  description: The debug parameter of the tool page is echoed into the page.
  classification:
    cwe-id: CWE-74
http:
  - payloads:
      probe:
        - swfz-alpha
        - swfz-beta
    fuzzing:
      - part: query
        type: replace
        keys:
          - debug
        fuzz:
          - '{{probe}}'
    matchers:
      - type: word
        part: body
        words:
          - 'echo:{{probe}}'
`;

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

describe(`an operator's fuzzing template through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let web: WebServer;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'scanward-operator-fuzzing-scan-'));
    mkdirSync(join(work, 'templates'));
    writeFileSync(join(work, 'templates', 'debug-echo.yaml'), TEMPLATE);
    web = await startWebServer({
      fallback: (req, res) => {
        const url = new URL(req.url ?? '/', 'http://lab');
        const body =
          url.pathname === '/tool'
            ? `<p>echo:${escape(url.searchParams.get('debug') ?? '')}</p>`
            : url.pathname === '/'
              ? '<a href="/tool?debug=basic">tool</a>'
              : undefined;
        if (body === undefined) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        else res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>${body}</body></html>`);
      },
    });
    scanner = await startScanApp({
      env: { SCANWARD_TEMPLATES_DIR: join(work, 'templates'), SCANWARD_NMAP: 'off' },
    });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    await web?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const scan = async (active: boolean): Promise<FinishedScan> => {
    const { app, runner, tenant } = scanner;
    const created = await queueScan(app.services.db, {
      orgId: tenant.orgId,
      createdBy: tenant.admin.id,
      target: web.address,
      scanType: 'full',
      frameworks: [],
      ports: String(web.port),
      web: { active, exclude_paths: [] },
      createdAt: new Date(),
    });
    runner.nudge();
    const final = await waitFor(
      async () => (await scanRow(app, tenant.orgId, created.id)) as FinishedScan,
      (s) => s.status === 'completed' || s.status === 'failed' || s.status === 'cancelled',
    );
    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');
    return final;
  };

  it('runs only with web.active, and records one finding with the request and answer that prove it', async () => {
    await scan(false);
    expect(web.requests.filter((r) => r.path.includes('swfz-'))).toEqual([]);
    expect((await findingsOf(scanner)).filter((f) => f.template_id === 'operator-debug-echo')).toEqual([]);

    const final = await scan(true);
    expect(web.requests.filter((r) => r.path.includes('debug=swfz-')).length).toBeGreaterThanOrEqual(2);
    const mine = (await findingsOf(scanner)).filter((f) => f.template_id === 'operator-debug-echo');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      severity: 'high',
      affected_component: `http://${web.address}:${web.port}/tool?debug=`,
    });
    expect(mine[0]!.cwe_ids).toContain('CWE-74');
    const evidence = await evidenceOf(scanner, mine[0]!.id);
    expect(evidence).toMatch(/GET \/tool\?debug=swfz-(alpha|beta)/);
    expect(evidence).toMatch(/echo:swfz-(alpha|beta)/);
    const state = (typeof final.state === 'string' ? JSON.parse(final.state) : final.state) as ScanState;
    expect(state.notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^fuzzing templates: 1 loaded from /)]),
    );
  });
});
