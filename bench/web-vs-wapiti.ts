/**
 * The active web scan side by side with wapiti 3.0.4 on the PHP + MariaDB lab (bench/web-lab-php/,
 * DVWA-like: eight weakness classes, `low` vulnerable, `impossible` fixed), signed in through its
 * form. Prints each tool's time and what each found per class. Loopback only.
 *
 *   mysql -h127.0.0.1 -uroot < bench/web-lab-php/setup.sql
 *   npx tsx bench/web-vs-wapiti.ts [low|impossible] [scanward|wapiti|both]
 *
 * The lab runs under `php -S 127.0.0.1:PORT` (PHP_CLI_SERVER_WORKERS=4) with LAB_LEVEL set; wapiti
 * gets a cookie of a fresh sign-in (`-c`, its JSON cookie format), `--scope folder`, `-u
 * http://127.0.0.1:PORT/`, and the log-out and security pages excluded (`-x`), as Scanward excludes
 * the log-out link by itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLocalScan } from '../server/local-scan/run-local-scan.ts';

const level = process.argv[2] === 'impossible' ? 'impossible' : 'low';
const which = process.argv[3] ?? 'both';
const root = fileURLToPath(new URL('./web-lab-php/', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function resetDatabase(): void {
  const sql = readFileSync(join(root, 'setup.sql'));
  const done = spawnSync('mysql', ['-h127.0.0.1', '-uroot'], { input: sql });
  if (done.status !== 0) throw new Error(`mysql: ${String(done.stderr)}`);
}

async function startLab(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], {
    env: { ...process.env, LAB_LEVEL: level, PHP_CLI_SERVER_WORKERS: '4' },
    stdio: 'ignore',
    // Its own process group: PHP_CLI_SERVER_WORKERS forks workers, stopped with the group.
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}/login.php`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, stop: () => process.kill(-php.pid!, 'SIGTERM') };
}

const CLASSES: Array<[string, RegExp, RegExp]> = [
  ['SQL injection', /web-sql-injection/, /\/sqli\//],
  ['Blind SQL injection', /web-sql-injection/, /\/sqli_blind\//],
  ['Reflected XSS', /web-xss-reflected/, /\/xss_r\//],
  ['Stored XSS', /web-xss-stored/, /\/xss_s\//],
  ['Command injection', /web-command-injection/, /\/exec\//],
  ['File inclusion', /web-path-traversal/, /\/fi\//],
  ['Open redirect', /web-open-redirect/, /\/open_redirect\//],
  ['CSRF', /web-csrf/, /\/csrf\//],
];

async function scanward(url: string): Promise<void> {
  const started = performance.now();
  const report = await runLocalScan({
    target: url,
    scanType: 'full',
    web: {
      active: true,
      authentication: {
        type: 'form',
        login_url: `${url}/login.php`,
        username: 'admin',
        password: 'password',
      },
      exclude_paths: [],
    },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `scanward: ${seconds.toFixed(1)} s, ${report.findings.length} findings`,
    JSON.stringify(report.phases),
    report.notes.join(' | '),
  );
  for (const [name, check, path] of CLASSES) {
    const hits = report.findings.filter((f) => check.test(f.template_id) && path.test(f.affected_component));
    console.log(
      `  ${hits.length > 0 ? 'found' : 'MISSED'}  ${name}${hits.map((h) => `  ${h.affected_component}`).join('')}`,
    );
  }
  const others = report.findings.filter(
    (f) =>
      f.template_id.startsWith('web-') &&
      !CLASSES.some(([, c, p]) => c.test(f.template_id) && p.test(f.affected_component)),
  );
  for (const f of others) console.log(`  also   ${f.template_id} ${f.affected_component}`);
  if (
    JSON.stringify(report).includes('password=password') ||
    /[^*]password[^_=a-z]/.test(JSON.stringify(report.findings.map((f) => f.evidence)))
  ) {
    console.log('  (check: the word "password" appears in evidence; the secret itself is redacted)');
  }
}

async function wapiti(url: string): Promise<void> {
  // A fresh sign-in for wapiti's cookie file.
  const login = await fetch(`${url}/login.php`);
  const cookie = /PHPSESSID=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const token = /name="user_token" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
  const signed = await fetch(`${url}/login.php`, {
    method: 'POST',
    headers: { Cookie: `PHPSESSID=${cookie}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin', password: 'password', Login: 'Login', user_token: token }),
    redirect: 'manual',
  });
  const session = /PHPSESSID=([^;]+)/.exec(signed.headers.get('set-cookie') ?? '')?.[1] ?? cookie;
  const dir = mkdtempSync(join(tmpdir(), 'wapiti-'));
  const jar = join(dir, 'cookies.json');
  const entry = (value: string) => ({ value, version: 0, expires: null, secure: false, port: null });
  writeFileSync(
    jar,
    JSON.stringify({ '127.0.0.1': { '/': { PHPSESSID: entry(session), security: entry(level) } } }),
  );
  const started = performance.now();
  const out = spawnSync(
    'wapiti',
    [
      '-u',
      `${url}/`,
      '--scope',
      'folder',
      '-c',
      jar,
      '-x',
      `${url}/logout.php`,
      '-x',
      `${url}/security.php`,
      '-x',
      `${url}/login.php`,
      '--flush-session',
      '-f',
      'json',
      '-o',
      join(dir, 'report.json'),
      '-v',
      '0',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = (performance.now() - started) / 1000;
  let report: { vulnerabilities?: Record<string, Array<{ path: string; parameter: string }>> } = {};
  try {
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  } catch {
    console.log(out.stderr.slice(-2000));
  }
  console.log(`wapiti: ${seconds.toFixed(1)} s`);
  for (const [kind, list] of Object.entries(report.vulnerabilities ?? {})) {
    if (list.length > 0)
      console.log(`  ${kind}: ${list.map((v) => `${v.path} (${v.parameter})`).join(', ')}`);
  }
}

const lab = await startLab();
try {
  if (which !== 'wapiti') {
    resetDatabase();
    await scanward(lab.url);
  }
  if (which !== 'scanward') {
    resetDatabase();
    await wapiti(lab.url);
  }
} finally {
  lab.stop();
}
