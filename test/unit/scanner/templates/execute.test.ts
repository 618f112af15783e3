import { afterEach, describe, expect, it } from 'vitest';
import { runTemplates } from '../../../../server/scanner/templates/execute.ts';
import {
  MAX_TEMPLATE_RESPONSE_BYTES,
  sendTemplateRequest,
} from '../../../../server/scanner/templates/http-client.ts';
import { compileTemplate } from '../../../../server/scanner/templates/loader.ts';
import { startWebServer, type Route } from '../../../fixtures/web-server.ts';
import { checkContext } from '../../../helpers/phase-context.ts';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** A web fixture closed after the test. */
async function fixture(handler: Route) {
  const server = await startWebServer({ fallback: handler });
  open.push(server.close);
  return server;
}

const context = (address: string, target = address, signal?: AbortSignal) =>
  checkContext(address, { target, ...(signal ? { signal } : {}) });

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
    const run = await runTemplates(context(f.address, 'app.example.test'), f.service(), [t]);
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]).toMatchObject({
      method: 'POST',
      path: `/login?next=app.example.test:${f.port}`,
      host: `app.example.test:${f.port}`,
      body: 'user=a',
    });
    expect(f.requests[0]!.headers['x-probe']).toBe('app.example.test');
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
    const run = await runTemplates(context(f.address), f.service(), [follow, stay, away]);
    expect(run.detections.map((d) => d.check_id)).toEqual(['follow']);
    expect(run.detections[0]!.affected_component).toBe(`http://${f.address}:${f.port}/landing`);
    expect(f.requests.filter((s) => s.path === '/landing')).toHaveLength(1);
  });

  it('reads at most the byte budget of a response', async () => {
    const f = await fixture((_req, res) => res.writeHead(200).end('x'.repeat(1024 * 1024)));
    const { response } = await sendTemplateRequest(context(f.address), f.service(), {
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
    await expect(runTemplates(ctx, f.service(), [t])).rejects.toThrow(/outside the scan scope/);
    expect(f.requests).toHaveLength(0);
  });

  it('stops when the scan is aborted', async () => {
    const f = await fixture(() => undefined); // never answers
    const controller = new AbortController();
    const t = tpl(
      'hang',
      '  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n',
    );
    const started = performance.now();
    const run = runTemplates(context(f.address, f.address, controller.signal), f.service(), [t]);
    await f.waitForRequests(1);
    controller.abort(new Error('cancelled'));
    await expect(run).rejects.toThrow('cancelled');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
