import { z } from 'zod';

/**
 * The service's whole configuration, read from the environment once at start-up.
 * Names are part of the operator contract (decisions.md, "Running it"); every
 * problem is reported at once so an operator fixes them in one go.
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const commaList = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const positiveInt = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

const envSchema = z.object({
  PORT: positiveInt(0, 65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// connection string' })
    .optional(),
  SCANWARD_DATA_DIR: z.string().min(1).default('./data'),
  SCANWARD_ROLE: z.enum(['all', 'api', 'runner'], { error: 'must be all, api or runner' }).default('all'),
  SCANWARD_ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).default('admin@localhost'),
  SCANWARD_ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }).optional(),
  SCANWARD_ADMIN_PLAN: z
    .enum(['startup', 'professional', 'enterprise'], { error: 'must be startup, professional or enterprise' })
    .default('enterprise'),
  SCANWARD_JWT_SECRET: z.string().min(32, { error: 'must be at least 32 bytes' }).optional(),
  SCANWARD_ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, { error: 'must be 32 bytes, base64-encoded' })
    .optional(),
  SCANWARD_SCAN_ALLOW: commaList.optional(),
  SCANWARD_SCAN_DENY: commaList.default([]),
  SCANWARD_MAX_CIDR_V4: positiveInt(0, 32).default(16),
  SCANWARD_MAX_CIDR_V6: positiveInt(0, 128).default(112),
  SCANWARD_SCAN_WATCHDOG_SECONDS: positiveInt(10, 7 * 24 * 3600).default(1800),
  SCANWARD_RUNNER_LEASE_SECONDS: positiveInt(2, 3600).default(60),
  SCANWARD_WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
  SCANWARD_DOCS_PUBLIC: booleanFlag.default(false),
  SCANWARD_BODY_LIMIT: positiveInt(1024, 100 * 1024 * 1024).default(1_048_576),
  SCANWARD_AI_URL: z.url({ error: 'must be a URL' }).optional(),
  SCANWARD_AI_KEY: z.string().optional(),
  SCANWARD_AI_MODEL: z.string().optional(),
  SCANWARD_TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be a pino level (fatal, error, warn, info, debug, trace, silent)',
    })
    .default('info'),
});

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
  webhookAllowPrivate: boolean;
  docsPublic: boolean;
  bodyLimit: number;
  ai: { url: string; key: string | undefined; model: string } | undefined;
  trustProxy: boolean;
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws one ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, the way shells and compose files produce them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  if (parsed.success && parsed.data.SCANWARD_AI_URL && !parsed.data.SCANWARD_AI_MODEL) {
    problems.push('SCANWARD_AI_MODEL: must be set when SCANWARD_AI_URL is set');
  }
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
    webhookAllowPrivate: e.SCANWARD_WEBHOOK_ALLOW_PRIVATE,
    docsPublic: e.SCANWARD_DOCS_PUBLIC,
    bodyLimit: e.SCANWARD_BODY_LIMIT,
    ai: e.SCANWARD_AI_URL
      ? { url: e.SCANWARD_AI_URL, key: e.SCANWARD_AI_KEY, model: e.SCANWARD_AI_MODEL ?? '' }
      : undefined,
    trustProxy: e.SCANWARD_TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
  };
}
