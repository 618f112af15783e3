/**
 * A template whose DSL would build gigabytes from a 250 KB page (nested replace, concat and
 * repeat), run by a real scan on a loopback web server: the scan completes, `/api/health`
 * answers within 2 s all along, the process grows by less than 200 MB, and the template is
 * reported once as too costly while the other templates still report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanState } from '../../../../server/scanner/types.ts';
import { testEngine } from '../../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { startWebServer, type Route, type WebServer } from '../../../fixtures/web-server.ts';

/** 250 KB of text with 500 "a" and 500 "b" in it. */
const PAGE = Array.from({ length: 500 }, () => `${'x'.repeat(249)}a${'y'.repeat(249)}b`).join('');

/**
 * Each expression would build from 125 MB to 250 GB: `replace(body, 'a', body)` alone is
 * 500 copies of the page. Three pages, so the template goes past the bounds three times.
 */
const BOMB = `id: scanward-test-string-bomb
info:
  name: String bomb
  severity: high
http:
  - method: GET
    path:
      - "{{BaseURL}}/page-1"
      - "{{BaseURL}}/page-2"
      - "{{BaseURL}}/page-3"
    matchers:
      - type: dsl
        dsl:
          - "contains(replace(replace(body, 'a', body), 'b', body), 'needle')"
          - "len(concat(replace(body, 'a', body), replace(body, 'b', body), body)) == 1"
          - "contains(repeat(replace(body, 'a', 'aaaa'), 5000), 'needle')"
`;

/** An ordinary template on the same server: it must still report. */
const BANNER = `id: scanward-test-debug-header
info:
  name: Debug header exposed
  severity: low
http:
  - method: GET
    path:
      - "{{BaseURL}}/status"
    matchers:
      - type: dsl
        dsl:
          - "contains(to_lower(x_debug_mode), 'on') && len(body) == 2"
`;

/**
 * Without the bounds the template held health for 10 s and the connection dropped; with them
 * health answers in milliseconds on a quiet machine. The bound sits between the two with room for
 * a busy one: with five test workers on two cores, a health request once took 1,043 ms here
 * (500 ms was the bound then), waiting for a core rather than for the template.
 */
const HEALTH_LIMIT_MS = 2_000;
const RSS_LIMIT_BYTES = 200 * 1024 * 1024;

describe(`a string-blowing template DSL during a scan (${testEngine})`, () => {
  let scanner: ScanApp;
  let web: WebServer;
  /** The same site without the large pages: a first scan there loads what a first scan loads. */
  let warmUp: WebServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanward-dsl-bomb-'));
    writeFileSync(join(dir, 'string-bomb.yaml'), BOMB);
    writeFileSync(join(dir, 'debug-header.yaml'), BANNER);
    scanner = await startScanApp({
      env: { SCANWARD_TEMPLATES_DIR: dir, SCANWARD_NMAP: 'off' },
      captureLogs: true,
    });
    const page: Route = (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(PAGE);
    warmUp = await startWebServer({ address: randomLoopbackAddress() });
    web = await startWebServer({
      address: randomLoopbackAddress(),
      routes: {
        '/page-1': page,
        '/page-2': page,
        '/page-3': page,
        '/status': (_req, res) => res.writeHead(200, { 'X-Debug-Mode': 'ON' }).end('ok'),
        '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>'),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    await web?.close();
    await warmUp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('completes with health answering within 2 s, under 200 MB of growth, the template reported once', async () => {
    expect(PAGE.length).toBe(250_000);
    // The process's first scan loads the engine's modules and the templates: not what is measured.
    const first = await runScanToEnd(scanner, { target: warmUp.address, ports: String(warmUp.port) });
    expect(first.status).toBe('completed');
    expect(warmUp.requests.map((r) => r.path)).toContain('/page-1');
    expect(JSON.stringify(first.state)).not.toContain('too costly');
    await scanner.runner.idle();
    const baseline = process.memoryUsage().rss;
    const latencies: number[] = [];
    let peak = baseline;
    let scanning = true;
    const poll = (async () => {
      while (scanning) {
        const started = performance.now();
        const res = await scanner.app.request('/api/health');
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        peak = Math.max(peak, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const pagesBefore = web.requests.filter((r) => r.path.startsWith('/page-')).length;
    let final;
    try {
      final = await runScanToEnd(scanner, { target: web.address, ports: String(web.port) });
    } finally {
      scanning = false;
      await poll;
    }
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');
    // The bomb was fed its three pages during the scan, while health was being polled.
    expect(web.requests.filter((r) => r.path.startsWith('/page-')).length - pagesBefore).toBe(3);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    for (const ms of latencies)
      expect(ms, `health latencies ${latencies.map(Math.round)}`).toBeLessThan(HEALTH_LIMIT_MS);
    expect(peak - baseline).toBeLessThan(RSS_LIMIT_BYTES);

    const state = (typeof final.state === 'string' ? JSON.parse(final.state) : final.state) as ScanState;
    const notes = state.notes.filter((n) => n.includes('too costly'));
    expect(notes).toEqual([
      expect.stringMatching(
        /^templates: scanward-test-string-bomb too costly \(replace\(\) would build [\d,]+ characters \(limit 1,048,576\)\): its DSL matcher counted as no match$/,
      ),
    ]);
    const warnings = scanner.app.logs.filter(
      (l) => l.msg === 'template too costly: its DSL evaluation was stopped at the bounds',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ template: 'scanward-test-string-bomb', scan_id: final.id });

    // No detection from the bomb, and it covers nothing; the other template still reports.
    expect(state.detections.map((d) => d.check_id)).not.toContain('scanward-test-string-bomb');
    expect(state.detections.map((d) => d.check_id)).toContain('scanward-test-debug-header');
    const covered = state.coverage.filter((c) => c.port === web.port).map((c) => c.check_id);
    expect(covered).not.toContain('scanward-test-string-bomb');
    expect(covered).toContain('scanward-test-debug-header');
  }, 180_000);
});
