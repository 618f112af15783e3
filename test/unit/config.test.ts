import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../server/config.ts';

/** The operator contract: decisions.md, "Running it". */
const DECIDED_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'SCANWARD_DATA_DIR',
  'SCANWARD_ROLE',
  'SCANWARD_ADMIN_EMAIL',
  'SCANWARD_ADMIN_PASSWORD',
  'SCANWARD_ADMIN_PLAN',
  'SCANWARD_JWT_SECRET',
  'SCANWARD_ENCRYPTION_KEY',
  'SCANWARD_SCAN_ALLOW',
  'SCANWARD_SCAN_DENY',
  'SCANWARD_MAX_CIDR_V4',
  'SCANWARD_MAX_CIDR_V6',
  'SCANWARD_SCAN_WATCHDOG_SECONDS',
  'SCANWARD_RUNNER_LEASE_SECONDS',
  'SCANWARD_WEBHOOK_ALLOW_PRIVATE',
  'SCANWARD_DOCS_PUBLIC',
  'SCANWARD_BODY_LIMIT',
  'SCANWARD_IMPORT_LIMIT',
  'SCANWARD_AI_URL',
  'SCANWARD_AI_KEY',
  'SCANWARD_AI_MODEL',
  'LOG_LEVEL',
];

const KEY = Buffer.alloc(32, 7).toString('base64');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration from the environment', () => {
  it('reads every variable the operator contract names', () => {
    expect(CONFIG_VARIABLES).toEqual(expect.arrayContaining(DECIDED_VARIABLES));
  });

  it('uses the decided default of every variable when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 8000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: './data',
      role: 'all',
      admin: { email: 'admin@localhost', password: undefined, plan: 'enterprise' },
      jwtSecret: undefined,
      encryptionKey: undefined,
      scope: { allow: undefined, deny: [], maxCidrV4: 16, maxCidrV6: 112 },
      scanWatchdogSeconds: 1800,
      runnerLeaseSeconds: 60,
      runnerScans: 2,
      scanThreads: Math.min(availableParallelism(), 8),
      nmap: 'auto',
      pgliteSharedBuffersMb: 32,
      webhookAllowPrivate: false,
      eventsHeartbeatSeconds: 15,
      consoleRenewAfterSeconds: 300,
      docsPublic: false,
      metricsPublic: false,
      metricsToken: undefined,
      bodyLimit: 1_048_576,
      importLimit: 33_554_432,
      importParsing: { workers: 2, queue: 8, heapMb: 256 },
      http: {
        keepAliveTimeout: 65_000,
        headersTimeout: 66_000,
        requestTimeout: 300_000,
        bodyIdleTimeout: 30_000,
      },
      ai: undefined,
      trustProxy: false,
      mail: undefined,
      digestHour: 7,
      ciOidcIssuers: [],
      ciTokenLifetimeSeconds: 900,
      logLevel: 'info',
    });
  });

  it('reads every variable when it is set', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://scanward@db.internal:5432/scanward',
      SCANWARD_DATA_DIR: '/var/lib/scanward',
      SCANWARD_ROLE: 'runner',
      SCANWARD_ADMIN_EMAIL: 'ops@example.com',
      SCANWARD_ADMIN_PASSWORD: 'a long enough password',
      SCANWARD_ADMIN_PLAN: 'startup',
      SCANWARD_JWT_SECRET: 'x'.repeat(32),
      SCANWARD_ENCRYPTION_KEY: KEY,
      SCANWARD_SCAN_ALLOW: '127.0.0.0/8, ::1,localhost',
      SCANWARD_SCAN_DENY: '127.0.0.2,.internal.example.com',
      SCANWARD_MAX_CIDR_V4: '24',
      SCANWARD_MAX_CIDR_V6: '120',
      SCANWARD_SCAN_WATCHDOG_SECONDS: '600',
      SCANWARD_RUNNER_LEASE_SECONDS: '30',
      SCANWARD_RUNNER_SCANS: '8',
      SCANWARD_SCAN_THREADS: '0',
      SCANWARD_NMAP: 'off',
      SCANWARD_PGLITE_SHARED_BUFFERS_MB: '64',
      SCANWARD_KEV_FILE: '/srv/kev/known_exploited_vulnerabilities.json',
      SCANWARD_TEMPLATES_DIR: '/srv/nuclei-templates',
      SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      SCANWARD_EVENTS_HEARTBEAT_SECONDS: '5',
      SCANWARD_CONSOLE_RENEW_AFTER_SECONDS: '120',
      SCANWARD_DOCS_PUBLIC: 'yes',
      SCANWARD_METRICS_PUBLIC: 'true',
      SCANWARD_METRICS_TOKEN: 'm'.repeat(64),
      SCANWARD_BODY_LIMIT: '2048',
      SCANWARD_IMPORT_LIMIT: '4096',
      SCANWARD_IMPORT_WORKERS: '3',
      SCANWARD_IMPORT_QUEUE: '0',
      SCANWARD_IMPORT_WORKER_HEAP_MB: '512',
      SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
      SCANWARD_HTTP_HEADERS_TIMEOUT_MS: '76000',
      SCANWARD_HTTP_REQUEST_TIMEOUT_MS: '120000',
      SCANWARD_HTTP_BODY_IDLE_TIMEOUT_MS: '10000',
      SCANWARD_AI_URL: 'https://llm.example.com/v1',
      SCANWARD_AI_KEY: 'sk-test',
      SCANWARD_AI_MODEL: 'small-model',
      SCANWARD_TRUST_PROXY: '1',
      SCANWARD_CI_OIDC_ISSUERS: 'https://gitlab.example.com, https://ci.example.org/oidc',
      SCANWARD_CI_TOKEN_LIFETIME_SECONDS: '300',
      SCANWARD_SMTP_URL: 'smtp://mailer:secret@mail.example.com:587',
      SCANWARD_MAIL_FROM: 'Scanward <scanward@example.com>',
      SCANWARD_DIGEST_HOUR: '6',
      LOG_LEVEL: 'debug',
    });
    expect(config).toEqual({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://scanward@db.internal:5432/scanward',
      dataDir: '/var/lib/scanward',
      role: 'runner',
      admin: { email: 'ops@example.com', password: 'a long enough password', plan: 'startup' },
      jwtSecret: 'x'.repeat(32),
      encryptionKey: KEY,
      scope: {
        allow: ['127.0.0.0/8', '::1', 'localhost'],
        deny: ['127.0.0.2', '.internal.example.com'],
        maxCidrV4: 24,
        maxCidrV6: 120,
      },
      scanWatchdogSeconds: 600,
      runnerLeaseSeconds: 30,
      runnerScans: 8,
      scanThreads: 0,
      nmap: 'off',
      pgliteSharedBuffersMb: 64,
      kevFile: '/srv/kev/known_exploited_vulnerabilities.json',
      templatesDir: '/srv/nuclei-templates',
      webhookAllowPrivate: true,
      eventsHeartbeatSeconds: 5,
      consoleRenewAfterSeconds: 120,
      docsPublic: true,
      metricsPublic: true,
      metricsToken: 'm'.repeat(64),
      bodyLimit: 2048,
      importLimit: 4096,
      importParsing: { workers: 3, queue: 0, heapMb: 512 },
      http: {
        keepAliveTimeout: 75_000,
        headersTimeout: 76_000,
        requestTimeout: 120_000,
        bodyIdleTimeout: 10_000,
      },
      ai: { url: 'https://llm.example.com/v1', key: 'sk-test', model: 'small-model' },
      trustProxy: true,
      ciOidcIssuers: ['https://gitlab.example.com', 'https://ci.example.org/oidc'],
      ciTokenLifetimeSeconds: 300,
      mail: { smtpUrl: 'smtp://mailer:secret@mail.example.com:587', from: 'Scanward <scanward@example.com>' },
      digestHour: 6,
      logLevel: 'debug',
    });
  });

  it('accepts the default admin address when it is set explicitly', () => {
    expect(loadConfig({ SCANWARD_ADMIN_EMAIL: 'admin@localhost' }).admin.email).toBe('admin@localhost');
  });

  it('treats empty and blank variables as unset', () => {
    const blank = Object.fromEntries(DECIDED_VARIABLES.map((name, i) => [name, i % 2 ? '' : '  ']));
    expect(loadConfig(blank)).toEqual(loadConfig({}));
  });

  it('lists every bad value at once, each with its variable name', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/scanward',
      SCANWARD_ROLE: 'worker',
      SCANWARD_ADMIN_EMAIL: 'not-an-email',
      SCANWARD_ADMIN_PASSWORD: 'short',
      SCANWARD_ADMIN_PLAN: 'free',
      SCANWARD_JWT_SECRET: 'too-short',
      SCANWARD_ENCRYPTION_KEY: 'bm90IDMyIGJ5dGVz',
      SCANWARD_SCAN_ALLOW: '127.0.0.0/33,localhost',
      SCANWARD_MAX_CIDR_V4: '40',
      SCANWARD_SCAN_WATCHDOG_SECONDS: '1e3',
      SCANWARD_RUNNER_SCANS: '0',
      SCANWARD_SCAN_THREADS: 'many',
      SCANWARD_NMAP: 'sometimes',
      SCANWARD_DOCS_PUBLIC: 'maybe',
      SCANWARD_BODY_LIMIT: '-5',
      SCANWARD_AI_URL: 'https://llm.example.com/v1',
      LOG_LEVEL: 'loud',
    });
    const named = problems.map((p) => p.slice(0, p.indexOf(':')));
    expect(named.sort()).toEqual(
      [
        'PORT',
        'DATABASE_URL',
        'SCANWARD_ROLE',
        'SCANWARD_ADMIN_EMAIL',
        'SCANWARD_ADMIN_PASSWORD',
        'SCANWARD_ADMIN_PLAN',
        'SCANWARD_JWT_SECRET',
        'SCANWARD_ENCRYPTION_KEY',
        'SCANWARD_SCAN_ALLOW',
        'SCANWARD_MAX_CIDR_V4',
        'SCANWARD_SCAN_WATCHDOG_SECONDS',
        'SCANWARD_RUNNER_SCANS',
        'SCANWARD_SCAN_THREADS',
        'SCANWARD_NMAP',
        'SCANWARD_DOCS_PUBLIC',
        'SCANWARD_BODY_LIMIT',
        'SCANWARD_AI_MODEL',
        'LOG_LEVEL',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('SCANWARD_SCAN_ALLOW'))).toContain('127.0.0.0/33');
  });

  it('says what is wrong in the message an operator sees', () => {
    const err = (() => {
      try {
        loadConfig({ PORT: '70000', SCANWARD_ROLE: 'worker' });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('PORT: must be at most 65535');
    expect(err.message).toContain('SCANWARD_ROLE: must be all, api or runner');
  });

  it('refuses numbers that are not plain whole numbers', () => {
    for (const value of ['1e3', '0x10', '12.5', '8000abc']) {
      expect(problemsOf({ PORT: value }), value).toEqual(['PORT: must be a whole number']);
    }
  });

  it('takes secrets verbatim but trims other values', () => {
    const config = loadConfig({ SCANWARD_ADMIN_PASSWORD: ' spaced password ', HOST: ' 127.0.0.1 ' });
    expect(config.admin.password).toBe(' spaced password ');
    expect(config.host).toBe('127.0.0.1');
  });

  it('takes a metrics token of at least 32 bearer-token characters', () => {
    const token = 'a1B2-._~+/'.repeat(4);
    expect(loadConfig({ SCANWARD_METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(problemsOf({ SCANWARD_METRICS_TOKEN: 'short' })).toEqual([
      'SCANWARD_METRICS_TOKEN: must be at least 32 characters (e.g. `openssl rand -hex 32`)',
    ]);
    expect(problemsOf({ SCANWARD_METRICS_TOKEN: `${'x'.repeat(32)} y` })[0]).toMatch(
      /^SCANWARD_METRICS_TOKEN: must be a bearer token/,
    );
  });

  it('accepts the loopback scope the tests and examples use', () => {
    expect(loadConfig({ SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost' }).scope.allow).toEqual([
      '127.0.0.0/8',
      '::1',
      'localhost',
    ]);
  });
});

/** Variable names in the first cell of the Markdown table rows between `heading` and the next `## ` heading. */
function documentedVariables(file: string, heading: string): string[] {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const start = text.indexOf(heading);
  const end = text.indexOf('\n## ', start + heading.length);
  const names = new Set<string>();
  for (const line of text.slice(start, end === -1 ? undefined : end).split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

describe('HTTP timeouts', () => {
  it('refuses a headers timeout not above the keep-alive timeout, and a request timeout below it', () => {
    expect(() =>
      loadConfig({ SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000', SCANWARD_HTTP_HEADERS_TIMEOUT_MS: '66000' }),
    ).toThrow(/SCANWARD_HTTP_HEADERS_TIMEOUT_MS: must be above SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ SCANWARD_HTTP_REQUEST_TIMEOUT_MS: '60000' })).toThrow(
      /SCANWARD_HTTP_REQUEST_TIMEOUT_MS: must be at least/,
    );
  });
});

describe('the SMTP CA file', () => {
  const SMTP = 'smtp://mailer:secret@mail.example.com:587';
  it('reads the PEM text of SCANWARD_SMTP_CA_FILE into the mail settings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanward-config-'));
    try {
      const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
      writeFileSync(join(dir, 'ca.pem'), pem);
      writeFileSync(join(dir, 'key.pem'), '-----BEGIN PRIVATE KEY-----\n');
      const config = loadConfig({ SCANWARD_SMTP_URL: SMTP, SCANWARD_SMTP_CA_FILE: join(dir, 'ca.pem') });
      expect(config.mail?.ca).toBe(pem);
      expect(loadConfig({ SCANWARD_SMTP_URL: SMTP }).mail?.ca).toBeUndefined();
      expect(problemsOf({ SCANWARD_SMTP_URL: SMTP, SCANWARD_SMTP_CA_FILE: join(dir, 'key.pem') })).toEqual([
        'SCANWARD_SMTP_CA_FILE: must be a PEM file of certificates',
      ]);
      expect(
        problemsOf({ SCANWARD_SMTP_URL: SMTP, SCANWARD_SMTP_CA_FILE: join(dir, 'missing.pem') }),
      ).toEqual(['SCANWARD_SMTP_CA_FILE: cannot be read (ENOENT)']);
      expect(problemsOf({ SCANWARD_SMTP_CA_FILE: join(dir, 'ca.pem') })).toEqual([
        'SCANWARD_SMTP_CA_FILE: is only used with SCANWARD_SMTP_URL, which is not set',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the configuration documentation', () => {
  it('describes exactly the variables the service reads, in docs/configuration.md and the README', () => {
    const variables = [...CONFIG_VARIABLES].sort();
    expect(documentedVariables('docs/configuration.md', '## Variables')).toEqual(variables);
    expect(documentedVariables('README.md', '## Configuration')).toEqual(variables);
  });
});
