import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../fixtures/web-server.ts';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';
import { multitool, validateSarif } from '../../helpers/sarif-multitool.ts';

/**
 * `scanward-ci scan --local --active` with a form log-in, end to end (issue 33, "Tests that must
 * exist"): the committed dist/ci/index.js under Node 24 against a tiny lab app on a loopback
 * address, behind a log-in form with an anti-CSRF token. Its search page is injectable (a MySQL
 * error on a quote, the term reflected unescaped) in the vulnerable variant and safe in the fixed
 * one. The gate fails on the first and passes on the second; the SARIF is valid under the SARIF
 * Multitool's GitHub rules; the password appears in no output; the log-out link is never followed.
 *
 * FOR THE LEAD: this needs the web engine (server/scanner/web/, the webengine branch) in
 * dist/local/engine.mjs, so it is skipped until that folder exists. After merging: `npm run
 * build:action`, then run this file on its own (with SCANWARD_NODE24 and SARIF_MULTITOOL set, as
 * .ci/run does). It passed, Multitool validation included, on this branch merged with
 * wip/webengine at f72d488 in a scratch worktree.
 */

const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');
const ENGINE_HAS_WEB = existsSync(resolve(import.meta.dirname, '../../../server/scanner/web'));
const USER = 'scanner';
const PASSWORD = `lab-${randomBytes(8).toString('hex')}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface JsonReport {
  findings: Array<{ severity: string; template_id?: string; cwe_ids?: string[] }>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The lab: a log-in form with a CSRF token, a session cookie, a search page, a log-out link. */
function labApp(vulnerable: boolean) {
  const sessions = new Set<string>();
  /** Anti-CSRF tokens handed out with the form, each good for one log-in. */
  const tokens = new Set<string>();
  const page = (res: ServerResponse, body: string, headers: Record<string, string> = {}) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers })
      .end(`<html><body>${body}</body></html>`);
  const loginForm = (res: ServerResponse) => {
    const csrf = randomBytes(8).toString('hex');
    tokens.add(csrf);
    page(
      res,
      `<form method="post" action="/login"><input type="hidden" name="csrf" value="${csrf}">` +
        `<input name="username"><input type="password" name="password"><button>Sign in</button></form>`,
    );
  };
  const sessionOf = (req: IncomingMessage) =>
    /(?:^|;\s*)session=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://lab');
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (url.pathname === '/login') {
      if (req.method === 'POST') {
        const form = new URLSearchParams(body);
        const token = form.get('csrf') ?? '';
        const tokenGood = tokens.delete(token);
        if (tokenGood && form.get('username') === USER && form.get('password') === PASSWORD) {
          const id = randomBytes(8).toString('hex');
          sessions.add(id);
          res.writeHead(302, { Location: '/', 'Set-Cookie': `session=${id}; HttpOnly; SameSite=Lax` }).end();
          return;
        }
      }
      loginForm(res);
      return;
    }
    const session = sessionOf(req);
    if (!session || !sessions.has(session)) {
      res.writeHead(302, { Location: '/login' }).end();
      return;
    }
    if (url.pathname === '/logout') {
      sessions.delete(session);
      res.writeHead(302, { Location: '/login' }).end();
      return;
    }
    if (url.pathname === '/search') {
      app.signedInSearches += 1;
      const q = url.searchParams.get('q') ?? '';
      // Concatenated into SQL: an unbalanced quote breaks the statement, as it would in MySQL.
      if (vulnerable && (q.split("'").length - 1) % 2 === 1) {
        page(
          res,
          `<p>You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${q}' at line 1</p>`,
        );
        return;
      }
      page(res, `<p>Results for ${vulnerable ? q : escapeHtml(q)}</p><a href="/">Home</a>`);
      return;
    }
    page(
      res,
      `<a href="/search?q=shoes">Search</a> <form action="/search"><input name="q" value="hat"><button>Go</button></form> <a href="/logout">Log out</a>`,
    );
  };
  const app = {
    server: undefined as WebServer | undefined,
    /** Requests of the search page that carried a live session: the scan was signed in. */
    signedInSearches: 0,
    // The fixture has read the body already: it is the request it recorded last, in this same tick.
    fallback: (req: IncomingMessage, res: ServerResponse) =>
      handle(req, res, app.server!.requests.at(-1)!.body),
  };
  return app;
}

async function startLab(vulnerable: boolean): Promise<WebServer & { signedInSearches: () => number }> {
  const app = labApp(vulnerable);
  app.server = await startWebServer(app);
  return Object.assign(app.server, { signedInSearches: () => app.signedInSearches });
}

function spawnRun(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const child = spawn(NODE24!, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

const injection = (f: JsonReport['findings'][number]) =>
  (f.cwe_ids ?? []).some((c) => c === 'CWE-89' || c === 'CWE-79');

describe.skipIf(!hasNode24 || !ENGINE_HAS_WEB)(
  'scanward-ci scan --local --active with a form log-in (needs the web engine)',
  { timeout: 300_000 },
  () => {
    let dir: string;
    let vulnerable: Awaited<ReturnType<typeof startLab>>;
    let fixed: Awaited<ReturnType<typeof startLab>>;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'scanward-web-active-'));
      vulnerable = await startLab(true);
      fixed = await startLab(false);
    });
    afterAll(async () => {
      await vulnerable?.close();
      await fixed?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const scan = (app: WebServer, out: string) =>
      spawnRun(
        [
          'scan',
          '--local',
          '--target',
          app.url,
          '--active',
          '--login-url',
          `${app.url}/login`,
          '--username',
          USER,
          '--password-env',
          'LAB_PASSWORD',
          '--exclude',
          '/logout',
          '--fail-on',
          'high',
          '--sarif',
          `${out}/scanward.sarif`,
          '--json',
          `${out}/scanward.json`,
        ],
        dir,
        { LAB_PASSWORD: PASSWORD },
      );

    it('fails the gate on the vulnerable variant, signed in, with valid SARIF and the password nowhere', async () => {
      const run = await scan(vulnerable, 'vulnerable');
      expect(run.code, run.stderr).toBe(1);
      const json = await readFile(join(dir, 'vulnerable/scanward.json'), 'utf8');
      const sarif = await readFile(join(dir, 'vulnerable/scanward.sarif'), 'utf8');
      expect((JSON.parse(json) as JsonReport).findings.some(injection)).toBe(true);
      for (const text of [run.stdout, run.stderr, json, sarif]) expect(text).not.toContain(PASSWORD);
      // Signed in: the search page (behind the log-in) was requested; the log-out link never was.
      expect(vulnerable.signedInSearches()).toBeGreaterThan(0);
      expect(vulnerable.requests.some((r) => r.path.startsWith('/logout'))).toBe(false);
      if (multitool) expect((await validateSarif(dir, 'vulnerable', sarif)).problems).toEqual([]);
    });

    it('passes the gate on the fixed variant', async () => {
      const run = await scan(fixed, 'fixed');
      expect(run.code, run.stderr).toBe(0);
      const json = await readFile(join(dir, 'fixed/scanward.json'), 'utf8');
      expect((JSON.parse(json) as JsonReport).findings.filter(injection)).toEqual([]);
      expect(fixed.signedInSearches()).toBeGreaterThan(0);
      expect(`${run.stdout}${run.stderr}${json}`).not.toContain(PASSWORD);
    });
  },
);
