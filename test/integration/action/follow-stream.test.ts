import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCi } from '../../../action/ci/run.ts';
import { startRunner, type Runner } from '../../../server/scanner/runner.ts';
import { getScanRoute } from '../../../server/routes/scans.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { waitFor } from '../../helpers/poll.ts';
import {
  closeAll,
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';

/**
 * `scanward-ci` (the Action's client, run in this process) following a scan through the
 * service's event stream, against the real service behind a counting proxy: the proxy records
 * every request the client makes, and can answer 404 for the stream (an older service) or cut
 * the stream after its first scan event (a dropped connection). The scan runner is started
 * only once the client has opened the stream and read the scan, so every change of the scan
 * after that read can reach the client only as an event, or by polling, which the proxy sees.
 */

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

interface ProxyOptions {
  /** Answer GET /api/v1/events with 404, as a service older than the stream does. */
  refuseEvents?: boolean;
  /** Cut the first stream right after the first `scan.*` event it carried. */
  dropFirstStream?: boolean;
  /** Held before a later stream request is forwarded. */
  beforeReconnect?: () => Promise<void>;
}

interface CountingProxy {
  url: string;
  seen: Seen[];
  /** The `id:` of the event the cut stream ended with. */
  cutAfterId: string | undefined;
  close(): Promise<void>;
}

async function startProxy(upstream: string, options: ProxyOptions): Promise<CountingProxy> {
  const target = new URL(upstream);
  const proxy: CountingProxy = { url: '', seen: [], cutAfterId: undefined, close: async () => undefined };
  let streams = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      proxy.seen.push({ method: req.method ?? '', path, headers: req.headers });
      const isStream = path.startsWith('/api/v1/events');
      const streamNo = isStream ? ++streams : 0;
      if (isStream && options.refuseEvents) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'not found', error_code: 'NOT_FOUND' }));
        return;
      }
      if (streamNo > 1) await options.beforeReconnect?.();
      const out = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.flushHeaders();
          let text = '';
          answer.on('data', (chunk: Buffer) => {
            if (!(streamNo === 1 && options.dropFirstStream)) return void res.write(chunk);
            text += chunk.toString('utf8');
            const at = text.indexOf('event: scan.');
            const end = at < 0 ? -1 : text.indexOf('\n\n', at);
            if (end < 0) return;
            const frame = text.slice(0, end + 2);
            proxy.cutAfterId = /id: (\d+)\nevent: scan\.[^\n]*\n[\s\S]*$/.exec(frame)?.[1];
            res.write(frame, () => {
              answer.destroy();
              res.destroy();
            });
          });
          answer.on('end', () => res.end());
          answer.on('error', () => res.destroy());
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

describe(`scanward-ci following a scan through the event stream (${testEngine})`, { timeout: 90_000 }, () => {
  const suite = useTestApp();
  let api: ApiClient;
  let apiKey: string;
  let host: string;
  let redis: FixtureListener;
  let runner: Runner | undefined;
  let proxy: CountingProxy | undefined;

  beforeAll(async () => {
    const tenant = await factory.tenant(suite.app, {
      plan: 'enterprise',
      apiKey: ['read:scans', 'write:scans', 'read:findings'],
    });
    api = tenant.api;
    apiKey = tenant.key!;
    host = randomLoopbackAddress();
    redis = await startListener({ host, serve: fakeRedis });
  });
  afterAll(async () => {
    if (redis) await closeAll([redis]);
  });
  beforeEach(() => {
    runner = undefined;
    proxy = undefined;
  });
  afterEach(async () => {
    await runner?.stop();
    await proxy?.close();
  });

  /** Runs scanward-ci in this process against the proxy, with a real clock. */
  function cli(args: string[]) {
    let stdout = '';
    let stderr = '';
    const done = runCi({
      argv: args,
      env: { SCANWARD_API_URL: proxy!.url, SCANWARD_API_KEY: apiKey },
      stderr: (t) => void (stderr += t),
      stdout: (t) => void (stdout += t),
      fetch: (input, init) => fetch(input, init),
      sleep: async (ms, signal) => void (await delay(ms, undefined, { signal })),
      now: () => Date.now(),
      writeFile: async () => undefined,
      mkdir: async () => undefined,
      cwd: process.cwd(),
    }).then((code) => ({ code, stdout, stderr }));
    return { done, stderr: () => stderr };
  }

  const scanReads = (id: string) =>
    proxy!.seen.filter((r) => r.method === 'GET' && r.path === `/api/v1/scans/${id}`);
  const streamOpens = () => proxy!.seen.filter((r) => r.path === '/api/v1/events');

  /** The id of the scan the client created, once it has read it (after opening the stream, if it does). */
  async function createdScan(): Promise<string> {
    const read = await waitFor(
      async () => proxy!.seen.find((r) => r.method === 'GET' && /^\/api\/v1\/scans\/scan_\w+$/.test(r.path)),
      (r) => r !== undefined,
      { timeoutMs: 20_000, intervalMs: 10 },
    );
    return read!.path.split('/').pop()!;
  }

  /** Waits until the client has logged the scan as pending: its first read has been answered. */
  async function readAsPending(run: ReturnType<typeof cli>, id: string): Promise<void> {
    await waitFor(
      async () => run.stderr(),
      (text) => text.includes(`Scan ${id}: pending`),
      { timeoutMs: 20_000, intervalMs: 10 },
    );
  }

  const startScanning = () => {
    runner = startRunner(suite.app.services, { pollIntervalMs: 50 });
  };

  it('follows a scan to its end with one stream request and a constant number of reads, logging its progress', async () => {
    proxy = await startProxy(suite.app.url, {});
    // A poll every 50 ms: had the client polled, the reads would grow with the scan's length.
    const run = cli(['--target', host, '--ports', String(redis.port), '--poll-interval-seconds', '0.05']);
    const id = await createdScan();
    expect(streamOpens()).toHaveLength(1);
    // The stream was opened before the scan was read: nothing between the two is lost.
    expect(proxy.seen.indexOf(streamOpens()[0]!)).toBeLessThan(proxy.seen.indexOf(scanReads(id)[0]!));
    await readAsPending(run, id);
    startScanning();
    const { code, stderr } = await run.done;
    expect(code, stderr).toBe(1); // the planted critical fails the default gate

    const scan = okBody(await api.call(getScanRoute, { params: { scan_id: id } }));
    expect(scan.status).toBe('completed');
    // The read after opening and the final record's read; nothing in between.
    expect(scanReads(id)).toHaveLength(2);
    expect(streamOpens()).toHaveLength(1);
    const paths = proxy.seen.map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(
      paths.filter((p) => p !== `GET /api/v1/scans/${id}/findings` && p !== 'GET /api/v1/findings'),
    ).toEqual([
      'POST /api/v1/scans',
      'GET /api/v1/events',
      `GET /api/v1/scans/${id}`,
      `GET /api/v1/scans/${id}`,
      'GET /api/health',
    ]);
    // Progress came from the events: more lines than the two reads could have given.
    const lines = stderr.split('\n').filter((l) => l.startsWith(`Scan ${id}: `));
    expect(lines[0]).toBe(`Scan ${id}: pending, waiting for a scan runner`);
    expect(lines.at(-1)).toBe(`Scan ${id}: completed, 100%`);
    expect(lines.filter((l) => l.startsWith(`Scan ${id}: running, `)).length).toBeGreaterThanOrEqual(1);
    expect(stderr).not.toContain('by polling');
  });

  it('falls back to polling, saying so once, when the service answers 404 for the stream', async () => {
    proxy = await startProxy(suite.app.url, { refuseEvents: true });
    const run = cli([
      '--target',
      host,
      '--ports',
      String(redis.port),
      '--poll-interval-seconds',
      '0.05',
      '--fail-on',
      'none',
    ]);
    const id = await createdScan();
    startScanning();
    const { code, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    const fallback = stderr.split('\n').filter((l) => l.includes('by polling'));
    expect(fallback).toEqual([
      `The event stream is not available (the service answered 404: it is older than GET /api/v1/events); following scan ${id} by polling every 0.05s.`,
    ]);
    expect(streamOpens()).toHaveLength(1);
    expect(scanReads(id).length).toBeGreaterThanOrEqual(2);
    expect(stderr).toContain(`Scan ${id}: completed, 100%`);
  });

  it('reconnects a dropped stream with Last-Event-ID and still sees the terminal event', async () => {
    const followed = { id: '' };
    proxy = await startProxy(suite.app.url, {
      dropFirstStream: true,
      // The reconnect goes through only once the scan has ended, so its end reaches the
      // client only through the events the stream resumes with.
      beforeReconnect: async () => {
        await waitFor(
          async () => okBody(await api.call(getScanRoute, { params: { scan_id: followed.id } })),
          (s) => ['completed', 'failed', 'cancelled'].includes(s.status),
          { timeoutMs: 30_000, intervalMs: 50 },
        );
      },
    });
    const run = cli(['--target', host, '--ports', String(redis.port), '--fail-on', 'none']);
    const scanId = (followed.id = await createdScan());
    await readAsPending(run, scanId);
    startScanning();
    const { code, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    expect(proxy.cutAfterId).toMatch(/^\d+$/);
    const opens = streamOpens();
    expect(opens).toHaveLength(2);
    expect(opens[0]!.headers['last-event-id']).toBeUndefined();
    expect(opens[1]!.headers['last-event-id']).toBe(proxy.cutAfterId);
    // No poll filled the gap: the read after the first opening and the final record's.
    expect(scanReads(scanId)).toHaveLength(2);
    expect(stderr).not.toContain('by polling');
    expect(stderr).toContain(`Scan ${scanId}: completed, 100%`);
  });

  it('cancels the scan when it does not finish within --timeout-minutes, the stream open', async () => {
    proxy = await startProxy(suite.app.url, {});
    // No runner: the scan stays pending, and only the deadline (6 s) can end the wait.
    const run = cli(['--target', host, '--ports', String(redis.port), '--timeout-minutes', '0.1']);
    const id = await createdScan();
    const { code, stderr } = await run.done;
    expect(code, stderr).toBe(3);
    expect(stderr).toContain('did not finish within --timeout-minutes');
    const scan = okBody(await api.call(getScanRoute, { params: { scan_id: id } }));
    expect(scan.status).toBe('cancelled');
    expect(streamOpens()).toHaveLength(1);
    expect(proxy.seen.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/api/v1/scans/${id}`,
    ]);
    expect(stderr).not.toContain('by polling');
  });
});
