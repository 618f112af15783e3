import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';
import { directoryListingCheck, envFileExposedCheck } from '../../../../server/scanner/checks/web.ts';
import { crawl, htmlLinks, MAX_PAGES, sameOriginPath } from '../../../../server/scanner/net/web-crawl.ts';
import {
  PROBE_ORIGIN,
  sessionCookieCheck,
  webHardeningChecks,
  weakSessionCookies,
} from '../../../../server/scanner/checks/web-hardening.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { correlate } from '../../../../server/scanner/phases/correlation.ts';
import { runTemplates } from '../../../../server/scanner/templates/execute.ts';
import { loadTemplates } from '../../../../server/scanner/templates/template-set.ts';
import type { LoadedTemplate } from '../../../../server/scanner/templates/schema.ts';
import type { PhaseContext } from '../../../../server/scanner/types.ts';
import { html, startWebServer, type Route } from '../../../fixtures/web-server.ts';
import { checkContext } from '../../../helpers/phase-context.ts';

/** A web fixture answering `routes`; `paths` and `methods` of what it was asked. */
async function startFixture(routes: Record<string, Route>, tls?: { key: Buffer; cert: Buffer }) {
  const server = await startWebServer({ routes, ...(tls ? { tls } : {}) });
  return Object.defineProperties(server as typeof server & { paths: string[]; methods: string[] }, {
    paths: { get: () => server.requests.map((r) => r.path) },
    methods: { get: () => server.requests.map((r) => r.method) },
  });
}
type Fixture = Awaited<ReturnType<typeof startFixture>>;

const context = (address: string, scanType: 'quick' | 'full' = 'full') =>
  checkContext(address, { scan: { scan_type: scanType } });

const service = (fixture: Fixture, name: 'http' | 'https' = 'http') => fixture.service(name);

const WEB_CHECKS = [directoryListingCheck, envFileExposedCheck, ...webHardeningChecks];

async function runWebChecks(ctx: PhaseContext, svc: ServiceIdentification) {
  return (await Promise.all(WEB_CHECKS.map((check) => check.run(ctx, svc)))).flat();
}

describe('link extraction', () => {
  const origin = { scheme: 'http' as const, hosts: ['127.0.0.1', 'app.test'], port: 8080 };

  it('keeps links on the origin and resolves relative ones', () => {
    expect(sameOriginPath('b?x=1#top', '/a/', origin)).toBe('/a/b?x=1');
    expect(sameOriginPath('http://APP.test:8080/c', '/', origin)).toBe('/c');
    expect(sameOriginPath('//127.0.0.1:8080/d', '/', origin)).toBe('/d');
  });

  it('drops other hosts, ports, schemes and pseudo-links', () => {
    for (const href of [
      'http://127.0.0.2:8080/',
      'http://127.0.0.1:8081/',
      'https://127.0.0.1:8080/',
      'http://127.0.0.1/',
      'mailto:a@b.test',
      'javascript:alert(1)',
      'http://127.0.0.1:8080@evil.test/',
    ]) {
      expect(sameOriginPath(href, '/', origin), href).toBeUndefined();
    }
  });

  it('reads hrefs, frames and GET forms, not POST forms', () => {
    const links = htmlLinks(
      `<a href="/a">a</a><A HREF='/b'>b</A><link rel=stylesheet href=/c.css><iframe src="/f"></iframe>` +
        `<form action="/search"></form><form method="post" action="/post-only"></form><form method=GET></form>`,
    );
    expect(links).toEqual(['/a', '/b', '/c.css', '/f', '/search', '']);
  });
});

describe('the crawl', () => {
  let site: Fixture;
  let elsewhere: Fixture;
  let big: Fixture;

  beforeAll(async () => {
    elsewhere = await startFixture({ '/': html('other origin') });
    const otherOrigin = `http://${elsewhere.address}:${elsewhere.port}`;
    site = await startFixture({
      '/': html(
        `<a href="/a">a</a><a href="${otherOrigin}/">away</a><a href="/logout">out</a>` +
          `<form action="/search"></form><form method="post" action="/post-only"></form>`,
      ),
      '/a': html('<a href="/a/b">b</a>'),
      '/a/b': html('<a href="/a/b/c">c</a>'),
      '/a/b/c': html('too deep'),
      '/search': html('results'),
      '/robots.txt': (_req, res) =>
        res
          .writeHead(200, { 'Content-Type': 'text/plain' })
          .end('User-agent: *\nDisallow: /secret/\nDisallow: /*.php$\n'),
      '/sitemap.xml': (_req, res) =>
        res
          .writeHead(200, { 'Content-Type': 'application/xml' })
          .end(
            `<urlset><url><loc>http://${site.address}:${site.port}/mapped</loc></url><url><loc>${otherOrigin}/x</loc></url></urlset>`,
          ),
      '/secret/': html('hidden'),
      '/mapped': html('from the sitemap'),
    });
    const links = Array.from({ length: 120 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('');
    big = await startFixture({ '/': html(links) });
  });
  afterAll(async () => {
    await Promise.all([site?.close(), elsewhere?.close(), big?.close()]);
  });

  it('follows links, forms, robots.txt and sitemap.xml on its origin, two links deep', async () => {
    const pages = await crawl(context(site.address), service(site));
    expect(pages.map((p) => p.path).sort()).toEqual(
      ['/', '/a', '/a/b', '/mapped', '/robots.txt', '/search', '/secret/', '/sitemap.xml'].sort(),
    );
    expect(site.paths).not.toContain('/a/b/c');
    expect(site.paths).not.toContain('/logout');
    expect(site.paths).not.toContain('/post-only');
    expect(site.methods.every((m) => m === 'GET')).toBe(true);
    expect(elsewhere.connections).toBe(0);
  });

  it('sends at most MAX_PAGES requests to a service, and crawls it once per scan', async () => {
    const ctx = context(big.address);
    const pages = await crawl(ctx, service(big));
    expect(pages.length).toBeLessThanOrEqual(MAX_PAGES);
    expect(big.paths.length).toBe(MAX_PAGES);
    await crawl(ctx, service(big));
    expect(big.paths.length).toBe(MAX_PAGES);
  });

  it('asks the scope guard before every request', async () => {
    const ctx = context(site.address);
    const asked: string[] = [];
    ctx.assertAllowed = (address) => {
      asked.push(address);
    };
    const before = site.connections;
    await crawl(ctx, service(site));
    expect(asked.length).toBe(site.connections - before);
    expect(new Set(asked)).toEqual(new Set([site.address]));
  });
});

/** A site whose home page links to every weakness, and its hardened twin. */
function site(weak: boolean): Record<string, Route> {
  const server: Record<string, string> = weak
    ? { Server: 'Apache/2.4.49 (Unix)', 'X-Powered-By': 'PHP/7.4.3' }
    : { Server: 'Apache' };
  return {
    '/': html('<a href="/files/">files</a> <a href="/login">log in</a> <a href="/api/me">me</a>', server),
    '/files/': weak
      ? html('<title>Index of /files</title><h1>Index of /files</h1><a href="dump.sql">dump.sql</a>')
      : html('<title>Files</title><p>Nothing to see</p>'),
    '/login': html('<form method="post" action="/login"></form>', {
      'Set-Cookie': weak
        ? ['sessionid=s3cr3t-session; Path=/', 'theme=dark; Path=/']
        : ['sessionid=s3cr3t-session; Path=/; HttpOnly; SameSite=Lax', 'theme=dark; Path=/'],
    }),
    '/api/me': (req, res) => {
      const origin = req.headers.origin;
      const cors: Record<string, string> =
        weak && origin
          ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' }
          : {
              'Access-Control-Allow-Origin': 'https://app.example.test',
              'Access-Control-Allow-Credentials': 'true',
            };
      res.writeHead(200, { 'Content-Type': 'application/json', ...cors }).end('{"user":"alice"}');
    },
    '/.env': (_req, res) =>
      weak
        ? res
            .writeHead(200, { 'Content-Type': 'text/plain' })
            .end('APP_KEY=base64:c2VjcmV0\nDB_PASSWORD=hunter2\n')
        : res.writeHead(404).end('not found'),
    '/server-status': (_req, res) =>
      weak
        ? res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(
              '<html><head><title>Apache Status</title></head><h1>Apache Server Status for localhost</h1>' +
                '<dl><dt>Server Version: Apache/2.4.49 (Unix)</dt></dl>',
            )
        : res.writeHead(403).end('Forbidden'),
    '/server-info': (_req, res) =>
      weak
        ? res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end('<h1>Apache Server Information</h1><dl><dt>Server Version: Apache/2.4.49 (Unix)</dt></dl>')
        : res.writeHead(403).end('Forbidden'),
  };
}

/** Answers TRACE by echoing the request (as Apache with TraceEnable on does), or refuses it. */
function withTrace(routes: Record<string, Route>, enabled: boolean): Record<string, Route> {
  const root = routes['/'] as Route;
  return {
    ...routes,
    '/': (req, res) => {
      if (req.method !== 'TRACE') return root(req, res);
      if (!enabled) return res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      const echo = `TRACE / HTTP/1.1\r\n${Object.entries(req.headers)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\r\n')}\r\n\r\n`;
      res.writeHead(200, { 'Content-Type': 'message/http' }).end(echo);
    },
  };
}

describe('web checks on a site with planted weaknesses and on its hardened twin', () => {
  let weak: Fixture;
  let hardened: Fixture;

  beforeAll(async () => {
    weak = await startFixture(withTrace(site(true), true));
    hardened = await startFixture(withTrace(site(false), false));
  });
  afterAll(async () => {
    await Promise.all([weak?.close(), hardened?.close()]);
  });

  it('are registered', () => {
    for (const check of webHardeningChecks) expect(CHECKS).toContain(check);
  });

  it('find every planted weakness, one link deep', async () => {
    const detections = await runWebChecks(context(weak.address), service(weak));
    const base = `http://${weak.address}:${weak.port}`;
    expect(detections.map((d) => [d.check_id, d.severity, d.affected_component]).sort()).toEqual(
      [
        ['directory-listing', 'medium', `${base}/files/`],
        ['env-file-exposed', 'high', `${base}/.env`],
        ['session-cookie-attributes', 'medium', base],
        ['cors-arbitrary-origin-credentials', 'high', `${base}/api/me`],
        ['http-trace-enabled', 'low', `${base}/`],
        ['http-version-disclosure', 'low', base],
        ['apache-server-status', 'medium', `${base}/server-status`],
        ['apache-server-status', 'medium', `${base}/server-info`],
      ].sort(),
    );
    const byId = Object.fromEntries(detections.map((d) => [d.check_id, d]));
    expect(byId['session-cookie-attributes']!.title).toBe(
      'Session cookie without protective attributes (HttpOnly, SameSite)',
    );
    expect(byId['session-cookie-attributes']!.evidence.response).toContain('sessionid=***');
    expect(byId['session-cookie-attributes']!.evidence.response).not.toContain('s3cr3t');
    expect(byId['session-cookie-attributes']!.description).not.toContain('theme');
    expect(byId['cors-arbitrary-origin-credentials']!.evidence.request).toContain(`Origin: ${PROBE_ORIGIN}`);
    expect(byId['http-version-disclosure']!.description).toContain('Apache/2.4.49');
    expect(byId['http-version-disclosure']!.description).toContain('PHP/7.4.3');
    expect(weak.methods).toContain('TRACE');
  });

  it('find nothing on the hardened twin', async () => {
    expect(await runWebChecks(context(hardened.address), service(hardened))).toEqual([]);
  });

  it('quick scans look for listings on the home page only', async () => {
    const before = weak.paths.length;
    expect(await directoryListingCheck.run(context(weak.address, 'quick'), service(weak))).toEqual([]);
    expect(weak.paths.slice(before)).toEqual(['/']);
  });
});

const SHARED_TEMPLATES = new URL(
  '../../../../../shared/data/nuclei-templates-9424c7c.tar.gz',
  import.meta.url,
).pathname;
const UPSTREAM = [
  'http/miscellaneous/http-trace.yaml',
  'http/misconfiguration/apache/apache-server-status.yaml',
  'http/exposures/configs/codeigniter-env.yaml',
  'http/technologies/waf-detect.yaml',
];
if (!existsSync(SHARED_TEMPLATES))
  console.warn('skipping the upstream template tests: ../shared/data is absent');

describe.skipIf(!existsSync(SHARED_TEMPLATES))(
  'upstream nuclei templates next to the built-in checks',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanward-upstream-'));
    let templates: LoadedTemplate[];
    let skipped: Map<string, string>;
    let weak: Fixture;
    let hardened: Fixture;

    beforeAll(async () => {
      execFileSync('tar', ['-xzf', SHARED_TEMPLATES, '-C', dir, ...UPSTREAM]);
      const set = await loadTemplates(join(dir, 'http'));
      templates = set.templates;
      skipped = set.skippedFiles;
      weak = await startFixture(withTrace(site(true), true));
      hardened = await startFixture(withTrace(site(false), false));
    });
    afterAll(async () => {
      await Promise.all([weak?.close(), hardened?.close()]);
      rmSync(dir, { recursive: true, force: true });
    });

    it('find what nuclei would on the planted fixture, and each weakness stays one finding', async () => {
      const ctx = context(weak.address);
      const run = await runTemplates(ctx, service(weak), templates);
      expect(run.detections.map((d) => d.upstream_ids?.[0]).sort()).toEqual([
        'apache-server-status',
        'codeigniter-env',
        'http-trace',
      ]);
      const builtIn = await runWebChecks(ctx, service(weak));
      const merged = correlate([...builtIn, ...run.detections]);
      expect(merged.map((d) => `${d.check_id} ${d.affected_component}`).sort()).toEqual(
        builtIn.map((d) => `${d.check_id} ${d.affected_component}`).sort(),
      );
      const env = merged.find((d) => d.check_id === 'env-file-exposed')!;
      expect(env.upstream_ids).toContain('codeigniter-env');
    });

    it('never runs the WAF detection that takes any Apache or nginx server for a firewall', () => {
      expect(skipped.get('technologies/waf-detect.yaml')).toBe('unreliable');
      expect(templates.map((t) => t.id)).not.toContain('waf-detect');
    });

    it('find nothing on the hardened twin', async () => {
      const run = await runTemplates(context(hardened.address), service(hardened), templates);
      expect(run.detections).toEqual([]);
    });
  },
);

describe('session cookie attributes', () => {
  it('asks for Secure only over TLS, and ignores deletions and other cookies', () => {
    expect(weakSessionCookies(['PHPSESSID=1; HttpOnly; SameSite=Strict'], false)).toEqual([]);
    expect(weakSessionCookies(['PHPSESSID=1; HttpOnly; SameSite=Strict'], true)[0]?.missing).toEqual([
      'Secure',
    ]);
    expect(weakSessionCookies(['JSESSIONID=1; HttpOnly; Secure; SameSite=None'], true)[0]?.missing).toEqual([
      'SameSite',
    ]);
    expect(weakSessionCookies(['session=; Max-Age=0'], true)).toEqual([]);
    expect(weakSessionCookies(['lang=en'], true)).toEqual([]);
  });
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasOpenssl) console.warn('openssl is not installed: the HTTPS cookie test is skipped');

describe.skipIf(!hasOpenssl)('session cookies over HTTPS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scanward-cookie-tls-'));
  const fixtures: Fixture[] = [];

  async function httpsFixture(cookie: string): Promise<Fixture> {
    const fixture = await startFixture(
      { '/': html('home', { 'Set-Cookie': cookie }) },
      { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
    );
    fixtures.push(fixture);
    return fixture;
  }

  beforeAll(() => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'k.pem',
        '-out',
        'c.pem',
        '-days',
        '2',
        '-subj',
        '/CN=cookie.test',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a session cookie without Secure is found; its twin with Secure is not', async () => {
    const weak = await httpsFixture('sid=1; Path=/; HttpOnly; SameSite=Lax');
    const strong = await httpsFixture('sid=1; Path=/; HttpOnly; Secure; SameSite=Lax');
    const found = await sessionCookieCheck.run(context(weak.address), service(weak, 'https'));
    expect(found.map((d) => [d.title, d.cwe_ids])).toEqual([
      ['Session cookie without protective attributes (Secure)', ['CWE-614']],
    ]);
    expect(await sessionCookieCheck.run(context(strong.address), service(strong, 'https'))).toEqual([]);
  });
});
