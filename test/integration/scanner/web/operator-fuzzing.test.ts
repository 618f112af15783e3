import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksFor } from '../../../../server/scanner/check-registry.ts';
import type { Detection, PhaseContext, ScanRecord } from '../../../../server/scanner/types.ts';
import type { Services } from '../../../../server/services.ts';
import { checkContext } from '../../../helpers/phase-context.ts';
import { startWebServer, type WebServer } from '../../../fixtures/web-server.ts';

/**
 * An operator's own nuclei fuzzing template (issue 33): written to the template directory
 * (`SCANWARD_TEMPLATES_DIR`), loaded by the template loader, compiled by the fuzzing compiler
 * of the default set, and run by the web assessment over the crawled parameters only when the
 * scan's `web.active` is true. A template using what the engine does not run is skipped with
 * its reason in the scan's notes.
 */

const MARKER_TEMPLATE = `id: operator-debug-echo
info:
  name: Debug parameter echoed back
  author: scanward-tests
  severity: high
  description: The debug parameter of the tool page is echoed into the page.
  classification:
    cwe-id: CWE-74
http:
  - pre-condition:
      - type: dsl
        dsl:
          - 'method == "GET"'
    payloads:
      probe:
        - swfz-alpha
        - swfz-beta
    fuzzing:
      - part: query
        type: replace
        mode: single
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

const UNSUPPORTED_TEMPLATE = `id: operator-dsl-fuzz
info:
  name: Server error on a quote
  author: scanward-tests
  severity: low
http:
  - fuzzing:
      - part: query
        type: postfix
        fuzz:
          - "'"
    matchers:
      - type: dsl
        dsl:
          - 'status_code == 500'
`;

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

describe("an operator's fuzzing templates", () => {
  let web: WebServer;
  let root: string;

  /** One web_analysis run of the template checks; `sent` are the requests it made. */
  const scan = async (
    active: boolean,
  ): Promise<{ detections: Detection[]; ctx: PhaseContext; sent: string[] }> => {
    const before = web.requests.length;
    const ctx = checkContext(web.address, { scan: { web: { active } } as Partial<ScanRecord> });
    ctx.services = {
      config: { templatesDir: join(root, 'templates'), dataDir: join(root, 'data') },
    } as unknown as Services;
    const service = web.service();
    const checks = checksFor(ctx.scan, 'web_analysis').filter(
      (c) => c.id === 'web-fuzzing-template' || c.id === 'nuclei-templates',
    );
    const results = await Promise.all(checks.map((check) => check.run(ctx, service)));
    return { detections: results.flat(), ctx, sent: web.requests.slice(before).map((r) => r.path) };
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'scanward-operator-fuzzing-'));
    mkdirSync(join(root, 'templates', 'dast'), { recursive: true });
    writeFileSync(join(root, 'templates', 'dast', 'debug-echo.yaml'), MARKER_TEMPLATE);
    writeFileSync(join(root, 'templates', 'dast', 'dsl-fuzz.yaml'), UNSUPPORTED_TEMPLATE);
    web = await startWebServer({
      fallback: (req, res) => {
        const url = new URL(req.url ?? '/', 'http://lab');
        const body =
          url.pathname === '/tool'
            ? `<p>echo:${escape(url.searchParams.get('debug') ?? '')}</p><p>page ${escape(url.searchParams.get('page') ?? '')}</p>`
            : url.pathname === '/'
              ? '<a href="/tool?debug=basic&page=1">tool</a>'
              : undefined;
        if (body === undefined) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        else res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>${body}</body></html>`);
      },
    });
  });
  afterAll(async () => {
    await web?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('never sends them when web.active is false', async () => {
    const { detections, sent } = await scan(false);
    expect(detections.filter((d) => d.check_id === 'operator-debug-echo')).toEqual([]);
    expect(sent.filter((path) => path.includes('swfz-'))).toEqual([]);
  });

  it('runs them over the crawled parameters when web.active is true: one finding with its proof', async () => {
    const { detections, ctx, sent } = await scan(true);
    const hits = detections.filter((d) => d.check_id === 'operator-debug-echo');
    expect(hits, JSON.stringify(detections.map((d) => [d.check_id, d.affected_component]))).toHaveLength(1);
    const [hit] = hits as [Detection];
    expect(hit.affected_component).toBe(`${web.url}/tool?debug=`);
    expect(hit.severity).toBe('high');
    expect(hit.cwe_ids).toEqual(['CWE-74']);
    expect(hit.description).toContain('nuclei template `operator-debug-echo`');
    expect(hit.evidence.request).toMatch(/^GET \/tool\?debug=swfz-(alpha|beta)/);
    expect(hit.evidence.response).toMatch(/echo:swfz-(alpha|beta)/);
    // Only the parameter the template's `keys` name was fuzzed with its payloads.
    expect(sent.filter((path) => path.includes('debug=swfz-')).length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((path) => /[?&]page=swfz-/.test(path))).toEqual([]);
    expect(ctx.state.notes.join('\n')).toMatch(/fuzzing templates: 1 loaded from .*templates/);
  });

  it('skips a template using an unsupported feature, naming it and the reason in the notes', async () => {
    const { detections, ctx } = await scan(true);
    expect(detections.filter((d) => d.check_id === 'operator-dsl-fuzz')).toEqual([]);
    expect(ctx.state.notes.join('\n')).toContain(
      '1 skipped as unsupported (dast/dsl-fuzz.yaml: fuzzing:matcher-dsl)',
    );
  });
});
