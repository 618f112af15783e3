import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';
import {
  directoryListingCheck,
  envFileExposedCheck,
  gitConfigExposedCheck,
  missingSecurityHeadersCheck,
  redactEnv,
  webChecks,
} from '../../../../server/scanner/checks/web.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import type { PhaseContext } from '../../../../server/scanner/types.ts';
import { startWebServer, type Route, type WebServer } from '../../../fixtures/web-server.ts';
import { checkContext } from '../../../helpers/phase-context.ts';

async function runAll(ctx: PhaseContext, service: ServiceIdentification) {
  return (await Promise.all(webChecks.map((check) => check.run(ctx, service)))).flat();
}

const AUTOINDEX = `<html>
<head><title>Index of /</title></head>
<body>
<h1>Index of /</h1><hr><pre><a href="../">../</a>
<a href="backup.tar.gz">backup.tar.gz</a>                                      01-Jan-2024 10:00   1048576
<a href="dump.sql">dump.sql</a>                                           01-Jan-2024 10:00     20480
</pre><hr></body>
</html>`;

const GIT_CONFIG = `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
[remote "origin"]
\turl = https://deploy:ghp_s3cr3tT0ken@github.com/acme/site.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
`;

const ENV_FILE = `# production settings
APP_KEY=base64:SuperSecretSigningKey==
DB_PASSWORD="hunter2-db-password"
export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY

STRIPE_KEY = sk_live_abcdef123456
`;

const SECRETS = [
  'SuperSecretSigningKey',
  'hunter2-db-password',
  'wJalrXUtnFEMI',
  'sk_live_abcdef',
  'ghp_s3cr3tT0ken',
];

describe('web checks against a misconfigured server', () => {
  let fixture: WebServer;
  beforeAll(async () => {
    fixture = await startWebServer({
      routes: {
        '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(AUTOINDEX),
        '/.git/config': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(GIT_CONFIG),
        '/.env': (_req, res) =>
          res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(ENV_FILE),
      },
    });
  });
  afterAll(() => fixture?.close());

  it('reports missing headers, the listing, .git/config and .env, each with its evidence', async () => {
    const ctx = checkContext(fixture.address);
    const detections = await runAll(ctx, fixture.service());
    const base = `http://${fixture.address}:${fixture.port}`;
    expect(detections.map((d) => d.check_id).sort()).toEqual([
      'directory-listing',
      'env-file-exposed',
      'git-config-exposed',
      'http-missing-security-headers',
    ]);
    for (const d of detections) {
      expect(d).toMatchObject({ tool: 'scanward-web', target: fixture.address, port: fixture.port });
      expect(d.evidence.request).toMatch(/^GET \S+ HTTP\/1\.1\nHost: /);
      expect(d.evidence.response).toMatch(/^HTTP\/1\.1 200 OK\n/);
    }
    const byId = Object.fromEntries(detections.map((d) => [d.check_id, d]));

    const headers = byId['http-missing-security-headers']!;
    expect(headers).toMatchObject({
      title:
        'HTTP security headers missing (Content-Security-Policy, X-Content-Type-Options, X-Frame-Options)',
      affected_component: base,
    });
    // Plain HTTP: HSTS is not asked for.
    expect(headers.description).toContain('Content-Security-Policy, X-Content-Type-Options, X-Frame-Options');
    expect(headers.description).not.toContain('Strict-Transport-Security');
    expect(headers.evidence.response).toMatch(/Content-Type: text\/html/i);

    expect(byId['directory-listing']).toMatchObject({ affected_component: `${base}/` });
    expect(byId['directory-listing']!.evidence.response).toContain('Index of /');

    const git = byId['git-config-exposed']!;
    expect(git).toMatchObject({ affected_component: `${base}/.git/config` });
    expect(git.evidence.request).toMatch(/^GET \/\.git\/config HTTP\/1\.1/);
    expect(git.evidence.response).toContain('[core]');
    expect(git.evidence.response).toContain('url = https://***@github.com/acme/site.git');

    const env = byId['env-file-exposed']!;
    expect(env).toMatchObject({ affected_component: `${base}/.env` });
    expect(env.evidence.response).toContain('APP_KEY=***');
    expect(env.evidence.response).toContain('export AWS_SECRET_ACCESS_KEY=***');
    expect(env.evidence.response).toContain('STRIPE_KEY =***');
    expect(env.description).toContain('APP_KEY, DB_PASSWORD, AWS_SECRET_ACCESS_KEY, STRIPE_KEY');
    const everything = JSON.stringify(detections);
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });

  it('fetches / once for the header and listing checks, and sends a bounded number of requests', async () => {
    const before = fixture.requests.length;
    await runAll(checkContext(fixture.address), fixture.service());
    const paths = fixture.requests.slice(before).map((r) => r.path);
    // The listing check of a full scan looks at the crawled pages: robots.txt, sitemap.xml and the listing's links.
    expect(paths.sort()).toEqual([
      '/',
      '/.env',
      '/.git/config',
      '/backup.tar.gz',
      '/dump.sql',
      '/robots.txt',
      '/sitemap.xml',
    ]);
  });

  it('names the scan target in Host and still connects to the literal address', async () => {
    const before = fixture.requests.length;
    const ctx = checkContext(fixture.address, { target: 'app.example.test' });
    const [finding] = await gitConfigExposedCheck.run(ctx, fixture.service());
    expect(fixture.requests.slice(before).map(({ path, host }) => ({ path, host }))).toEqual([
      { path: '/.git/config', host: `app.example.test:${fixture.port}` },
    ]);
    expect(finding).toMatchObject({ target: 'app.example.test' });
    expect(finding!.affected_component).toBe(`http://${fixture.address}:${fixture.port}/.git/config`);
  });

  it('asks the scope guard first and connects nowhere when it refuses', async () => {
    const before = fixture.connections;
    const asked: string[] = [];
    const ctx = checkContext(fixture.address, {
      assertAllowed: (address) => {
        asked.push(address);
        throw new Error('outside the scan scope');
      },
    });
    for (const check of webChecks) {
      await expect(check.run(ctx, fixture.service())).rejects.toThrow(/outside the scan scope/);
    }
    expect(asked.every((a) => a === fixture.address)).toBe(true);
    expect(fixture.connections).toBe(before);
  });

  it('refuses a service address that is not an IP literal (never resolves names)', async () => {
    const ctx = checkContext('localhost', { assertAllowed: () => undefined });
    const service = { ...fixture.service(), address: 'localhost' };
    await expect(gitConfigExposedCheck.run(ctx, service)).rejects.toThrow(/not an IP address/);
  });

  it('redacts every value of an env file, keeping keys and comments', () => {
    expect(redactEnv('# c\nA=1\nexport B="two"\n  C = 3\n-----BEGIN KEY-----\n')).toBe(
      '# c\nA=***\nexport B=***\n  C =***\n***\n',
    );
  });
});

describe('web checks against a well-configured server', () => {
  let fixture: WebServer;
  beforeAll(async () => {
    const headers = {
      'Content-Type': 'text/html',
      'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    };
    // A single-page app: every unknown path answers 200 with the same HTML page.
    const page: Route = (_req, res) =>
      res.writeHead(200, headers).end('<!doctype html><html><head><title>Shop</title></head></html>');
    fixture = await startWebServer({
      routes: { '/.git/config': (_req, res) => res.writeHead(403, headers).end('<h1>Forbidden</h1>') },
      fallback: page,
    });
  });
  afterAll(() => fixture?.close());

  it('produces no findings (a catch-all HTML page is not an .env file)', async () => {
    expect(await runAll(checkContext(fixture.address), fixture.service())).toEqual([]);
  });

  it('does not judge the headers of a redirect', async () => {
    const redirect = await startWebServer({
      routes: {
        '/': (_req, res) => res.writeHead(301, { Location: 'https://example.test/' }).end(),
      },
    });
    try {
      expect(
        await missingSecurityHeadersCheck.run(checkContext(redirect.address), redirect.service()),
      ).toEqual([]);
    } finally {
      await redirect.close();
    }
  });
});

describe('web checks: bounds and cancellation', () => {
  it('stops at once when the scan is cancelled, closing the connection', async () => {
    const hanging = await startWebServer({ fallback: () => undefined }); // never answers
    try {
      const controller = new AbortController();
      const ctx = checkContext(hanging.address, { signal: controller.signal });
      const started = performance.now();
      const run = directoryListingCheck.run(ctx, hanging.service());
      await hanging.waitForRequests(1);
      controller.abort(new Error('scan cancelled'));
      await expect(run).rejects.toThrow('scan cancelled');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(hanging.connections).toBe(1);
    } finally {
      await hanging.close();
    }
  });

  it('reads at most 64 KiB of a huge response', async () => {
    const huge = await startWebServer({
      routes: {
        '/.env': (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end(`${'K=v\n'.repeat(200_000)}`);
        },
      },
    });
    try {
      const [finding] = await envFileExposedCheck.run(checkContext(huge.address), huge.service());
      expect(finding?.check_id).toBe('env-file-exposed');
      expect(finding!.evidence.response.length).toBeLessThan(5_000);
    } finally {
      await huge.close();
    }
  });

  it('registers every web check for the web_analysis phase under its knowledge id', () => {
    for (const check of webChecks) {
      expect(CHECKS).toContain(check);
      expect(check.phase).toBe('web_analysis');
    }
  });
});
