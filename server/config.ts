import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { ACCOUNT_EMAIL_PATTERN } from './schemas/common.ts';

/**
 * The service's whole configuration, read from the environment once at start-up.
 * Names are part of the operator contract (decisions.md, "Running it"); every
 * problem is reported at once so an operator fixes them in one go.
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A whole number written in decimal digits only: `1e3`, `0x10` or `12.0` are mistakes, not numbers. */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const DOMAIN = /^(\*\.|\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i;

/** An entry of the scan scope policy: an address, a CIDR range or a domain suffix. */
function isScopeEntry(entry: string): boolean {
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(entry) || DOMAIN.test(entry);
}

const scopeList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .superRefine((entries, ctx) => {
    const bad = entries.filter((e) => !isScopeEntry(e));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must list CIDR ranges, addresses and domain suffixes; not understood: ${bad.join(', ')}`,
      });
    }
  });

const envSchema = z.object({
  PORT: wholeNumber(0, 65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// connection string' })
    .optional(),
  SCANWARD_DATA_DIR: z.string().default('./data'),
  SCANWARD_ROLE: z.enum(['all', 'api', 'runner'], { error: 'must be all, api or runner' }).default('all'),
  // Any local@domain, so the default `admin@localhost` (no dot in the domain) may also be set explicitly.
  SCANWARD_ADMIN_EMAIL: z
    .string()
    .regex(ACCOUNT_EMAIL_PATTERN, { error: 'must be an e-mail address' })
    .default('admin@localhost'),
  SCANWARD_ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }).optional(),
  SCANWARD_ADMIN_PLAN: z
    .enum(['startup', 'professional', 'enterprise'], { error: 'must be startup, professional or enterprise' })
    .default('enterprise'),
  SCANWARD_JWT_SECRET: z
    .string()
    .refine((v) => Buffer.byteLength(v, 'utf8') >= 32, { error: 'must be at least 32 bytes' })
    .optional(),
  SCANWARD_ENCRYPTION_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      error: 'must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
    })
    .optional(),
  SCANWARD_SCAN_ALLOW: scopeList.optional(),
  SCANWARD_SCAN_DENY: scopeList.default([]),
  SCANWARD_MAX_CIDR_V4: wholeNumber(0, 32).default(16),
  SCANWARD_MAX_CIDR_V6: wholeNumber(0, 128).default(112),
  SCANWARD_SCAN_WATCHDOG_SECONDS: wholeNumber(10, 7 * 24 * 3600).default(1800),
  SCANWARD_RUNNER_LEASE_SECONDS: wholeNumber(2, 3600).default(60),
  SCANWARD_RUNNER_SCANS: wholeNumber(1, 64).default(2),
  SCANWARD_SCAN_THREADS: wholeNumber(0, 64).optional(),
  SCANWARD_WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
  SCANWARD_EVENTS_HEARTBEAT_SECONDS: wholeNumber(1, 300).default(15),
  /** A console cookie older than this is replaced on the next request (auth/console-session.ts). */
  SCANWARD_CONSOLE_RENEW_AFTER_SECONDS: wholeNumber(1, 3000).default(300),
  SCANWARD_DOCS_PUBLIC: booleanFlag.default(false),
  SCANWARD_METRICS_PUBLIC: booleanFlag.default(false),
  // The operator's bearer token for GET /metrics: sent as `Authorization: Bearer <token>`, so token68 characters.
  SCANWARD_METRICS_TOKEN: z
    .string()
    .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -hex 32`)' })
    .regex(/^[A-Za-z0-9\-._~+/]+=*$/, {
      error: 'must be a bearer token: letters, digits and - . _ ~ + / (e.g. `openssl rand -hex 32`)',
    })
    .optional(),
  SCANWARD_BODY_LIMIT: wholeNumber(1024, 100 * 1024 * 1024).default(1_048_576),
  SCANWARD_IMPORT_LIMIT: wholeNumber(1024, 64 * 1024 * 1024).default(32 * 1024 * 1024),
  /** Report parse workers per process (imports/parse-pool.ts); the queue beyond them, then 503. */
  SCANWARD_IMPORT_WORKERS: wholeNumber(1, 64).default(2),
  SCANWARD_IMPORT_QUEUE: wholeNumber(0, 1024).default(8),
  /** Heap cap of each parse worker, in MB (its `resourceLimits.maxOldGenerationSizeMb`). */
  SCANWARD_IMPORT_WORKER_HEAP_MB: wholeNumber(32, 8192).default(256),
  /** HTTP edges (http/server.ts): idle keep-alive, headers, whole request, body inactivity, in ms. */
  SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(65_000),
  SCANWARD_HTTP_HEADERS_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(66_000),
  SCANWARD_HTTP_REQUEST_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(300_000),
  SCANWARD_HTTP_BODY_IDLE_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(30_000),
  SCANWARD_AI_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SCANWARD_AI_KEY: z.string().optional(),
  SCANWARD_AI_MODEL: z.string().optional(),
  SCANWARD_KEV_FILE: z.string().min(1).optional(),
  SCANWARD_TEMPLATES_DIR: z.string().min(1).optional(),
  SCANWARD_NMAP: z.enum(['auto', 'off'], { error: 'must be auto or off' }).default('auto'),
  SCANWARD_PGLITE_SHARED_BUFFERS_MB: wholeNumber(8, 4096).default(32),
  SCANWARD_TRUST_PROXY: booleanFlag.default(false),
  /** The address people reach the service at (invitation links); the request's own origin when unset. */
  SCANWARD_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Outgoing e-mail (docs/email.md): `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://` (TLS from the start). */
  SCANWARD_SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** A PEM file of CA certificates the SMTP server's certificate is verified against, besides Node's store. */
  SCANWARD_SMTP_CA_FILE: z.string().min(1).optional(),
  /** The sender of every e-mail: an address, or `Name <address>`. */
  SCANWARD_MAIL_FROM: z
    .string()
    .regex(/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+>?$/, { error: 'must be an e-mail address or Name <address>' })
    .default('Scanward <scanward@localhost>'),
  /** The hour (UTC, 0-23) from which each person's daily digest is sent. */
  SCANWARD_DIGEST_HOUR: wholeNumber(0, 23).default(7),
  /** OpenID Connect single sign-on (auth/oidc.ts, docs/authentication.md): the issuer and this service's client there. */
  SCANWARD_OIDC_ISSUER: z.url({ protocol: /^https$/, error: 'must be an https URL (the issuer)' }).optional(),
  SCANWARD_OIDC_CLIENT_ID: z.string().optional(),
  SCANWARD_OIDC_CLIENT_SECRET: z.string().optional(),
  SCANWARD_OIDC_AUTO_PROVISION: booleanFlag.default(false),
  SCANWARD_OIDC_DEFAULT_ROLE: z
    .enum(['admin', 'member', 'viewer'], { error: 'must be admin, member or viewer' })
    .default('viewer'),
  SCANWARD_OIDC_ALLOW_UNVERIFIED_EMAIL: booleanFlag.default(false),
  /** OpenID issuers trust policies may name besides GitHub Actions' (docs/ci-trust.md): comma-separated https URLs. */
  SCANWARD_CI_OIDC_ISSUERS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .url({
            protocol: /^https$/,
            error: 'must list https URLs (the issuers, as their tokens name them in iss)',
          })
          .refine((u) => !u.endsWith('/'), {
            error: 'must not end with / (write each issuer as its tokens name it in iss)',
          }),
      ),
    )
    .default([]),
  /** How long an access token of keyless CI sign-in lives, in seconds (at most 900). */
  SCANWARD_CI_TOKEN_LIFETIME_SECONDS: wholeNumber(60, 900).default(900),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be a pino level (fatal, error, warn, info, debug, trace, silent)',
    })
    .default('info'),
});

/** Every environment variable the service reads. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as ReadonlyArray<keyof typeof envSchema.shape>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  role: 'all' | 'api' | 'runner';
  admin: { email: string; password: string | undefined; plan: 'startup' | 'professional' | 'enterprise' };
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  scope: { allow: string[] | undefined; deny: string[]; maxCidrV4: number; maxCidrV6: number };
  scanWatchdogSeconds: number;
  runnerLeaseSeconds: number;
  /** Scans one runner process works on at once. */
  runnerScans: number;
  /** Worker threads a port sweep is split over (0: on the runner's own thread). */
  scanThreads: number;
  webhookAllowPrivate: boolean;
  /** Seconds of silence after which the event stream sends a heartbeat comment. */
  eventsHeartbeatSeconds: number;
  /** Seconds after which a console cookie's token is replaced by a fresh one on the next request. */
  consoleRenewAfterSeconds: number;
  /** The embedded database's page cache (PostgreSQL's `shared_buffers`), in MiB (db/index.ts). */
  pgliteSharedBuffersMb: number;
  /** `auto`: full and compliance scans ask nmap for a second opinion when it is installed. */
  nmap: 'auto' | 'off';
  docsPublic: boolean;
  /** GET /metrics without credentials (for a scraper on a private network). */
  metricsPublic: boolean;
  /** The operator's bearer token for GET /metrics; unset (and not public): /metrics answers no one. */
  metricsToken: string | undefined;
  bodyLimit: number;
  /** Largest report POST /api/v1/imports accepts, in bytes (docs/imports.md). */
  importLimit: number;
  /** Report parsing off the event loop (imports/parse-pool.ts, docs/imports.md). */
  importParsing: { workers: number; queue: number; heapMb: number };
  /** Timeouts of the HTTP server (http/server.ts, docs/configuration.md), in ms. */
  http: HttpTimeouts;
  ai: { url: string; key: string | undefined; model: string } | undefined;
  trustProxy: boolean;
  /** Outgoing e-mail; undefined: SCANWARD_SMTP_URL unset, no e-mail is sent (docs/email.md). */
  mail: MailConfig | undefined;
  /** SCANWARD_DIGEST_HOUR: the UTC hour from which daily digests go out. */
  digestHour: number;
  /** SCANWARD_PUBLIC_URL: where invitation links point; undefined: the origin of the request that invites. */
  publicUrl: string | undefined;
  /** Single sign-on through an OpenID Connect provider; undefined: not configured (auth/oidc.ts). */
  oidc: OidcConfig | undefined;
  /** SCANWARD_CI_OIDC_ISSUERS: issuers trust policies may name besides GitHub Actions'. */
  ciOidcIssuers: string[];
  /** SCANWARD_CI_TOKEN_LIFETIME_SECONDS: lifetime of a CI access token (at most 900). */
  ciTokenLifetimeSeconds: number;
  /** CISA KEV catalogue (JSON) used by the threat intelligence phase. */
  kevFile: string | undefined;
  /** Directory tree of nuclei-format templates run by full and compliance scans; unset: none. */
  templatesDir: string | undefined;
  logLevel: string;
}

export interface HttpTimeouts {
  /** An idle keep-alive connection closes after this (above common load balancers' 60 s). */
  keepAliveTimeout: number;
  /** The request line and headers must arrive within this (above keepAliveTimeout); else 408. */
  headersTimeout: number;
  /** The whole request (headers and body) must arrive within this; else 408. */
  requestTimeout: number;
  /** A request body that stops arriving for this long is answered 408. */
  bodyIdleTimeout: number;
}

export interface OidcConfig {
  /** The issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE alone, no client authentication). */
  clientSecret: string | undefined;
  /** An unknown e-mail becomes a new user of the default organization instead of being refused. */
  autoProvision: boolean;
  /** The role of an auto-provisioned user. */
  defaultRole: 'admin' | 'member' | 'viewer';
  /** Accept an `email` claim without `email_verified: true` (providers that never send it, e.g. Entra ID). */
  allowUnverifiedEmail: boolean;
}

/** Outgoing e-mail (notifications/mail.ts, docs/email.md). */
export interface MailConfig {
  smtpUrl: string;
  from: string;
  /** SCANWARD_SMTP_CA_FILE's PEM text: CAs trusted for the SMTP server besides Node's store. */
  ca?: string;
}

/** The PEM text of SCANWARD_SMTP_CA_FILE, or why it cannot serve. */
function readCaFile(path: string): { pem: string } | { problem: string } {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (err) {
    return { problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return { problem: 'must be a PEM file of certificates' };
  return { pem };
}

/** A configuration an operator must fix; `problems` names every offending variable, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Rules that tie two variables together, checked on the raw values so they are reported with the rest. */
function crossChecks(env: Record<string, string>): string[] {
  const problems: string[] = [];
  if (env.SCANWARD_AI_URL && !env.SCANWARD_AI_MODEL) {
    problems.push('SCANWARD_AI_MODEL: must be set when SCANWARD_AI_URL is set');
  }
  if (env.SCANWARD_OIDC_ISSUER && !env.SCANWARD_OIDC_CLIENT_ID) {
    problems.push('SCANWARD_OIDC_CLIENT_ID: must be set when SCANWARD_OIDC_ISSUER is set');
  }
  if (!env.SCANWARD_OIDC_ISSUER && (env.SCANWARD_OIDC_CLIENT_ID || env.SCANWARD_OIDC_CLIENT_SECRET)) {
    problems.push('SCANWARD_OIDC_ISSUER: must be set when SCANWARD_OIDC_CLIENT_ID or _SECRET is set');
  }
  if (env.SCANWARD_SMTP_CA_FILE) {
    if (!env.SCANWARD_SMTP_URL) {
      problems.push('SCANWARD_SMTP_CA_FILE: is only used with SCANWARD_SMTP_URL, which is not set');
    } else {
      const ca = readCaFile(env.SCANWARD_SMTP_CA_FILE);
      if ('problem' in ca) problems.push(`SCANWARD_SMTP_CA_FILE: ${ca.problem}`);
    }
  }
  const ms = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
  const keepAlive = ms('SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000);
  const headers = ms('SCANWARD_HTTP_HEADERS_TIMEOUT_MS', 66_000);
  const request = ms('SCANWARD_HTTP_REQUEST_TIMEOUT_MS', 300_000);
  if (headers <= keepAlive) {
    problems.push(
      'SCANWARD_HTTP_HEADERS_TIMEOUT_MS: must be above SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS (a reused connection must not be cut while its next request arrives)',
    );
  }
  if (request < headers) {
    problems.push('SCANWARD_HTTP_REQUEST_TIMEOUT_MS: must be at least SCANWARD_HTTP_HEADERS_TIMEOUT_MS');
  }
  return problems;
}

/** Secrets are taken verbatim; every other value is trimmed of stray whitespace. */
const VERBATIM = new Set<string>([
  'SCANWARD_ADMIN_PASSWORD',
  'SCANWARD_JWT_SECRET',
  'SCANWARD_AI_KEY',
  'SCANWARD_METRICS_TOKEN',
  'SCANWARD_OIDC_CLIENT_SECRET',
  'SCANWARD_SMTP_URL',
]);

/**
 * Sweep threads when `SCANWARD_SCAN_THREADS` is unset: one per core, at most 8 (a loopback or
 * LAN sweep is CPU work); 0 sweeps on the runner's own thread.
 */
export function defaultScanThreads(): number {
  return Math.min(availableParallelism(), 8);
}

/** Reads and validates the configuration; throws one ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty (or blank) variables count as unset, the way shells and compose files produce them.
  const present: Record<string, string> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name];
    if (value === undefined || value.trim() === '') continue;
    present[name] = VERBATIM.has(name) ? value : value.trim();
  }
  const parsed = envSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  problems.push(...crossChecks(present));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.SCANWARD_DATA_DIR,
    role: e.SCANWARD_ROLE,
    admin: {
      email: e.SCANWARD_ADMIN_EMAIL,
      password: e.SCANWARD_ADMIN_PASSWORD,
      plan: e.SCANWARD_ADMIN_PLAN,
    },
    jwtSecret: e.SCANWARD_JWT_SECRET,
    encryptionKey: e.SCANWARD_ENCRYPTION_KEY,
    scope: {
      allow: e.SCANWARD_SCAN_ALLOW,
      deny: e.SCANWARD_SCAN_DENY,
      maxCidrV4: e.SCANWARD_MAX_CIDR_V4,
      maxCidrV6: e.SCANWARD_MAX_CIDR_V6,
    },
    scanWatchdogSeconds: e.SCANWARD_SCAN_WATCHDOG_SECONDS,
    runnerLeaseSeconds: e.SCANWARD_RUNNER_LEASE_SECONDS,
    runnerScans: e.SCANWARD_RUNNER_SCANS,
    scanThreads: e.SCANWARD_SCAN_THREADS ?? defaultScanThreads(),
    webhookAllowPrivate: e.SCANWARD_WEBHOOK_ALLOW_PRIVATE,
    eventsHeartbeatSeconds: e.SCANWARD_EVENTS_HEARTBEAT_SECONDS,
    consoleRenewAfterSeconds: e.SCANWARD_CONSOLE_RENEW_AFTER_SECONDS,
    docsPublic: e.SCANWARD_DOCS_PUBLIC,
    metricsPublic: e.SCANWARD_METRICS_PUBLIC,
    metricsToken: e.SCANWARD_METRICS_TOKEN,
    bodyLimit: e.SCANWARD_BODY_LIMIT,
    importLimit: e.SCANWARD_IMPORT_LIMIT,
    importParsing: {
      workers: e.SCANWARD_IMPORT_WORKERS,
      queue: e.SCANWARD_IMPORT_QUEUE,
      heapMb: e.SCANWARD_IMPORT_WORKER_HEAP_MB,
    },
    http: {
      keepAliveTimeout: e.SCANWARD_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      headersTimeout: e.SCANWARD_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: e.SCANWARD_HTTP_REQUEST_TIMEOUT_MS,
      bodyIdleTimeout: e.SCANWARD_HTTP_BODY_IDLE_TIMEOUT_MS,
    },
    ai: e.SCANWARD_AI_URL
      ? { url: e.SCANWARD_AI_URL, key: e.SCANWARD_AI_KEY, model: e.SCANWARD_AI_MODEL ?? '' }
      : undefined,
    trustProxy: e.SCANWARD_TRUST_PROXY,
    publicUrl: e.SCANWARD_PUBLIC_URL,
    mail: e.SCANWARD_SMTP_URL
      ? {
          smtpUrl: e.SCANWARD_SMTP_URL,
          from: e.SCANWARD_MAIL_FROM,
          ...(e.SCANWARD_SMTP_CA_FILE
            ? { ca: (readCaFile(e.SCANWARD_SMTP_CA_FILE) as { pem: string }).pem }
            : {}),
        }
      : undefined,
    digestHour: e.SCANWARD_DIGEST_HOUR,
    oidc:
      e.SCANWARD_OIDC_ISSUER && e.SCANWARD_OIDC_CLIENT_ID
        ? {
            issuer: e.SCANWARD_OIDC_ISSUER,
            clientId: e.SCANWARD_OIDC_CLIENT_ID,
            clientSecret: e.SCANWARD_OIDC_CLIENT_SECRET,
            autoProvision: e.SCANWARD_OIDC_AUTO_PROVISION,
            defaultRole: e.SCANWARD_OIDC_DEFAULT_ROLE,
            allowUnverifiedEmail: e.SCANWARD_OIDC_ALLOW_UNVERIFIED_EMAIL,
          }
        : undefined,
    ciOidcIssuers: e.SCANWARD_CI_OIDC_ISSUERS,
    ciTokenLifetimeSeconds: e.SCANWARD_CI_TOKEN_LIFETIME_SECONDS,
    kevFile: e.SCANWARD_KEV_FILE,
    templatesDir: e.SCANWARD_TEMPLATES_DIR,
    nmap: e.SCANWARD_NMAP,
    pgliteSharedBuffersMb: e.SCANWARD_PGLITE_SHARED_BUFFERS_MB,
    logLevel: e.LOG_LEVEL,
  };
}
