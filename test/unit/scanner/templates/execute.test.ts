import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { runTemplates } from '../../../../server/scanner/templates/execute.ts';
import {
  MAX_TEMPLATE_RESPONSE_BYTES,
  sendTemplateRequest,
} from '../../../../server/scanner/templates/http-client.ts';
import { compileTemplate } from '../../../../server/scanner/templates/loader.ts';
import { emptyState, type PhaseContext } from '../../../../server/scanner/types.ts';
import type { Services } from '../../../../server/services.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function fixture(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const address = randomLoopbackAddress();
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host,
        headers: req.headers,
        body,
      });
      handler(req, res);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as AddressInfo).port;
  open.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const service: ServiceIdentification = {
    address,
    port,
    service: 'http',
    evidence: { request: '', response: '' },
    tool: 'scanward-probe',
  };
  return { address, port, seen, service };
}

function context(address: string, target = address, signal = new AbortController().signal): PhaseContext {
  return {
    scan: {
      id: 'scan_t',
      org_id: 'org_t',
      target,
      scan_type: 'full',
      frameworks: [],
      ports: null,
      attempts: 0,
      created_by: null,
    },
    state: { ...emptyState(), hosts: [{ target, address, alive: true }] },
    signal,
    services: {} as Services,
    log: pino({ enabled: false }),
    progress: { setTotal: () => undefined, advance: () => undefined, tool: () => undefined },
    assertAllowed: (a) => {
      if (!a.startsWith('127.')) throw new Error(`${a} is outside the scan scope`);
    },
  };
}

const tpl = (id: string, http: string, severity = 'medium') =>
  compileTemplate(`id: ${id}\ninfo:\n  name: ${id}\n  severity: ${severity}\nhttp:\n${http}`);

describe('running templates against a service', () => {
  it('sends method, headers and body with the target as Host, and reports a match', async () => {
    const f = await fixture((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('welcome admin'),
    );
    const t = tpl(
      'post-probe',
      '  - method: POST\n    path: ["{{BaseURL}}/login?next={{Hostname}}"]\n    headers:\n      X-Probe: "{{Host}}"\n' +
        '    body: "user=a"\n    matchers:\n      - type: word\n        words: ["admin"]\n',
    );
    const run = await runTemplates(context(f.address, 'app.example.test'), f.service, [t]);
    expect(f.seen).toHaveLength(1);
    expect(f.seen[0]).toMatchObject({
      method: 'POST',
      url: `/login?next=app.example.test:${f.port}`,
      host: `app.example.test:${f.port}`,
      body: 'user=a',
    });
    expect(f.seen[0]!.headers['x-probe']).toBe('app.example.test');
    expect(run.detections).toHaveLength(1);
    expect(run.detections[0]).toMatchObject({
      check_id: 'post-probe',
      upstream_ids: ['post-probe'],
      tool: 'nuclei-template',
      affected_component: `http://${f.address}:${f.port}/login?next=app.example.test:${f.port}`,
      target: 'app.example.test',
    });
    expect(run.coverage).toEqual([{ target: 'app.example.test', check_id: 'post-probe', port: f.port }]);
  });

  it('follows redirects only when asked and only on the same service', async () => {
    let offHost = '';
    const f = await fixture((req, res) => {
      if (req.url === '/same') res.writeHead(302, { Location: '/landing' }).end();
      else if (req.url === '/away') res.writeHead(302, { Location: offHost }).end();
      else if (req.url === '/landing') res.writeHead(200).end('landed');
      else res.writeHead(404).end();
    });
    offHost = `http://elsewhere.example.test:${f.port}/landing`;
    const m = '    matchers:\n      - type: word\n        words: ["landed"]\n';
    const follow = tpl('follow', `  - path: ["{{BaseURL}}/same"]\n    redirects: true\n${m}`);
    const stay = tpl('stay', `  - path: ["{{BaseURL}}/same"]\n${m}`);
    const away = tpl('away', `  - path: ["{{BaseURL}}/away"]\n    redirects: true\n${m}`);
    const run = await runTemplates(context(f.address), f.service, [follow, stay, away]);
    expect(run.detections.map((d) => d.check_id)).toEqual(['follow']);
    expect(run.detections[0]!.affected_component).toBe(`http://${f.address}:${f.port}/landing`);
    expect(f.seen.filter((s) => s.url === '/landing')).toHaveLength(1);
  });

  it('reads at most the byte budget of a response', async () => {
    const f = await fixture((_req, res) => res.writeHead(200).end('x'.repeat(1024 * 1024)));
    const { response } = await sendTemplateRequest(context(f.address), f.service, {
      method: 'GET',
      target: '/',
      host: f.address,
      headers: [],
      body: undefined,
    });
    expect(response!.truncated).toBe(true);
    expect(response!.body.length).toBeLessThanOrEqual(MAX_TEMPLATE_RESPONSE_BYTES);
  });

  it('honours the scope guard: a refused service runs nothing and covers nothing', async () => {
    const f = await fixture((_req, res) => res.writeHead(200).end('admin'));
    const ctx = context(f.address);
    ctx.assertAllowed = (a) => {
      throw new Error(`${a} is outside the scan scope`);
    };
    const t = tpl(
      'x',
      '  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n',
    );
    await expect(runTemplates(ctx, f.service, [t])).rejects.toThrow(/outside the scan scope/);
    expect(f.seen).toHaveLength(0);
  });

  it('stops when the scan is aborted', async () => {
    const f = await fixture(() => undefined); // never answers
    const controller = new AbortController();
    const t = tpl(
      'hang',
      '  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n',
    );
    const started = performance.now();
    const run = runTemplates(context(f.address, f.address, controller.signal), f.service, [t]);
    setTimeout(() => controller.abort(new Error('cancelled')), 200);
    await expect(run).rejects.toThrow('cancelled');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
