import { randomBytes } from 'node:crypto';
import { recordScanAssets, type ObservedHost } from '../../server/assets/inventory.ts';
import { URI, type TOTP } from 'otpauth';
import { createApiKey } from '../../server/auth/api-keys.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import {
  type FindingCoverage,
  type FindingDetection,
  type ScanRef,
} from '../../server/findings/lifecycle.ts';
import { recordScanFindings, type ScanFindingsSummary } from '../../server/scans/recording.ts';
import { newId } from '../../server/identity/ids.ts';
import { createOrganization, setLimits, type LimitOverrides } from '../../server/identity/organizations.ts';
import { hashPassword, type ScryptParams } from '../../server/identity/passwords.ts';
import { insertUser } from '../../server/identity/users.repository.ts';
import type { FindingStatus } from '../../server/schemas/findings.ts';
import type { Permission, Plan, Role } from '../../server/schemas/common.ts';
import type { Db } from '../../server/db/index.ts';
import { insertObservations } from '../../server/findings/finding-observations.repository.ts';
import { insertFindingsIfNew } from '../../server/findings/findings-lifecycle.repository.ts';
import { movePersonally } from '../../server/findings/transitions.ts';
import {
  findScan,
  insertScanRow,
  updateActiveScan,
  type ScanChanges,
  type ScanRow,
} from '../../server/scans/scans.repository.ts';
import { insertWebhookUnlessUrlTaken } from '../../server/webhooks/webhooks.repository.ts';
import { createToken, setupMfa, verifyMfa } from '../../server/routes/auth.ts';
import {
  apiClient,
  type Answer,
  type ApiClient,
  type ApiTarget,
  type CallOptions,
  type RouteBody,
} from './api-client.ts';
import { waitFor } from './poll.ts';
import type { TestApp } from './app.ts';

/**
 * Factories of the test kit: an organization with its admin, more users, API
 * keys, bearer tokens, scans and findings, in one call, each tenant of its own
 * so tests never share rows. Built on the server's domain functions; the few
 * rows no domain function writes in the state a test needs (a scan completed at
 * a chosen time, a finding observed by a scan without the pipeline) are written
 * in the last section, through the tables' repositories.
 */

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
}

export interface Tenant {
  orgId: string;
  plan: Plan;
  admin: TestUser;
  /** Logs a user in over HTTP (POST /api/v1/auth/token) and returns the access token. */
  login(user?: TestUser): Promise<string>;
  /**
   * A bearer token for a new session of the user, minted directly (no password
   * check), for tests that are not about logging in.
   */
  bearer(user?: TestUser): Promise<string>;
  /** An API key of the user (the admin by default) carrying exactly these permissions; answers the secret. */
  apiKey(permissions: Permission[], user?: TestUser): Promise<string>;
  /** A typed client calling as the user (the admin by default), with a bearer token minted directly. */
  client(user?: TestUser): Promise<ApiClient>;
  /** A typed client calling with an API key of the admin carrying these permissions. */
  keyClient(permissions: Permission[]): Promise<ApiClient>;
  /** Adds a user to the tenant's organization. */
  addUser(role: Role): Promise<TestUser>;
}

/**
 * The scrypt cost of the factory's users: 1 MiB and about 1.5 ms a check, against the product's
 * 32 MiB and 60 ms. A stored hash names its parameters and log-in checks a password with them
 * (server/identity/passwords.ts), so a factory user's log-in still checks the password for real;
 * the suite creates and signs in about a thousand users, a minute of CPU at the product's cost.
 * The product's own parameters are what every user created through the API gets, and the
 * identity tests check them.
 */
const FACTORY_PASSWORD_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };

/** A fresh organization with an admin of its own. */
export async function createTenant(app: TestApp, plan: Plan = 'professional'): Promise<Tenant> {
  const db = app.services.db;
  const tag = randomBytes(5).toString('hex');
  const org = await createOrganization(db, { name: `Org ${tag}`, plan });
  const addUser = async (role: Role): Promise<TestUser> => {
    const email = `${role}-${randomBytes(5).toString('hex')}@${tag}.example.test`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const user = await insertUser(db, {
      id: newId('user'),
      org_id: org.id,
      email,
      password_hash: await hashPassword(password, FACTORY_PASSWORD_PARAMS),
      role,
    });
    return { id: user.id, email, password, role };
  };
  const admin = await addUser('admin');
  const owner = { orgId: org.id };
  const login = async (user: TestUser = admin) => {
    const res = await logIn(app, user);
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    return res.body.access_token;
  };
  const bearer = (user: TestUser = admin) =>
    mintBearerToken(db, app.services.keys.jwtSecret, { id: user.id, ...owner });
  const apiKey = (permissions: Permission[], user: TestUser = admin) =>
    mintApiKey(db, { id: user.id, email: user.email, ...owner }, permissions);
  return {
    orgId: org.id,
    plan,
    admin,
    login,
    bearer,
    apiKey,
    addUser,
    client: async (user) => apiClient(app, { token: await bearer(user) }),
    keyClient: async (permissions) => apiClient(app, { apiKey: await apiKey(permissions) }),
  };
}

export interface TenantOptions {
  plan?: Plan;
  /**
   * Limits over the plan's. Request-rate limits are lifted unless given, so a
   * suite can make many calls; `false` keeps every limit of the plan.
   */
  limits?: LimitOverrides | false;
  /** Also mint an API key of the admin with these permissions (`key`, `keyApi`). */
  apiKey?: Permission[];
  /** Also insert a scan row (completed unless said otherwise). */
  scan?: InsertScanOptions;
  /** Also record these detections as the findings of a completed scan (`scan`, `summary`). */
  findings?: FindingDetection[];
}

export interface BuiltTenant extends Tenant {
  /** The admin's client (bearer token minted directly). */
  api: ApiClient;
  /** With `apiKey`: the secret and a client sending it. */
  key?: string;
  keyApi?: ApiClient;
  /** With `scan` or `findings`: the scan. */
  scan?: ScanRef;
  /** With `findings`: what recording them answered. */
  summary?: ScanFindingsSummary;
}

export const factory = {
  /**
   * A tenant in one call: `await factory.tenant(app, { plan: 'starter', apiKey: ['read:scans'],
   * findings: [detection({ severity: 'high' })] })`.
   */
  async tenant(app: TestApp, options: TenantOptions = {}): Promise<BuiltTenant> {
    const tenant = await createTenant(app, options.plan);
    if (options.limits !== false) {
      await setLimits(app.services.db, tenant.orgId, { hourly: -1, daily: -1, ...options.limits });
    }
    const built: BuiltTenant = { ...tenant, api: await tenant.client() };
    if (options.apiKey) {
      built.key = await tenant.apiKey(options.apiKey);
      built.keyApi = apiClient(app, { apiKey: built.key });
    }
    if (options.findings) {
      const { scan, summary } = await runScan(app.services.db, tenant.orgId, options.findings, {
        ...(options.scan?.target ? { target: options.scan.target } : {}),
      });
      built.scan = scan;
      built.summary = summary;
    } else if (options.scan) {
      built.scan = await insertScan(app.services.db, tenant.orgId, options.scan);
    }
    return built;
  },
};

/**
 * POST /api/v1/auth/token (the form login) for the user, with an MFA code when
 * given and any extra fields; answers whatever the server answered.
 */
export function logIn(
  target: ApiTarget,
  user: { email: string; password: string },
  fields: Record<string, string> = {},
  options: CallOptions = {},
): Promise<Answer<RouteBody<typeof createToken>>> {
  return apiClient(target).call(
    createToken,
    { body: { username: user.email, password: user.password, ...fields } },
    options,
  );
}

/** The user agent of the sessions tests mint, so a test can tell them from a browser's. */
export const TEST_USER_AGENT = 'scanward-test';

/** Opens a session for a user (as a login would) and signs a bearer token for it. */
export async function mintBearerToken(
  db: Db,
  jwtSecret: Uint8Array,
  user: { id: string; orgId: string },
): Promise<string> {
  const session = await createSession(
    db,
    { orgId: user.orgId, userId: user.id },
    { ip: '127.0.0.1', userAgent: TEST_USER_AGENT },
  );
  const token = await issueToken(jwtSecret, { sub: user.id, org: user.orgId, sid: session.id });
  return token.access_token;
}

/** An API key of the user with the given permissions; returns the secret. */
export async function mintApiKey(
  db: Db,
  user: { id: string; orgId: string; email?: string },
  permissions: Permission[] = ['read:scans'],
): Promise<string> {
  const { key } = await createApiKey(
    db,
    { orgId: user.orgId, userId: user.id, email: user.email ?? `${user.id}@localhost` },
    { name: `test ${permissions.join(' ')}`, permissions, expiresAt: null },
  );
  return key;
}

/**
 * The current TOTP step once at least `roomMs` of it is left, so the codes a
 * test computes for this step and its neighbours stay inside the server's
 * window while the test runs. Polls the clock with a deadline.
 */
export async function stepWithRoom(totp: TOTP, roomMs: number): Promise<number> {
  const step = await waitFor(
    async () => ({ remaining: totp.remaining(), counter: totp.counter() }),
    (s) => s.remaining >= roomMs,
    { timeoutMs: 35_000, intervalMs: 100 },
  );
  return step.counter;
}

/** The TOTP code of a time step. */
export const totpCodeAt = (totp: TOTP, step: number) => totp.generate({ timestamp: step * 30_000 });

/** A 6-digit string that is the code of no step near now. */
export function wrongTotpCode(totp: TOTP): string {
  const near = new Set<string>();
  const current = totp.counter();
  for (let s = current - 3; s <= current + 3; s++) near.add(totpCodeAt(totp, s));
  let n = 0;
  while (near.has(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

/**
 * Turns MFA on for the caller of `api` through the API (setup, then verify with the
 * previous step's code, so the current and later steps stay usable) and answers
 * the authenticator and the body of the verification.
 */
export async function enrollMfa(
  api: ApiClient,
): Promise<{ totp: TOTP; step: number; verified: Record<string, unknown> }> {
  const setup = await api.call(setupMfa);
  if (setup.status !== 200) throw new Error(`MFA setup failed: ${setup.status} ${setup.text}`);
  const totp = URI.parse(setup.body.otpauth_uri) as TOTP;
  const step = await stepWithRoom(totp, 5_000);
  const verified = await api.call(verifyMfa, { body: { code: totpCodeAt(totp, step - 1) } });
  if (verified.status !== 200) throw new Error(`MFA verify failed: ${verified.status} ${verified.text}`);
  return { totp, step, verified: verified.body };
}

/** A scan request body that targets loopback. */
export const loopbackScan = (extra: Record<string, unknown> = {}) => ({
  target: '127.0.0.1',
  authorized: true,
  ...extra,
});

let counter = 0;

/** A detection of a web check on 127.0.0.1; every call without a `check_id` is a different check. */
export function detection(overrides: Partial<FindingDetection> = {}): FindingDetection {
  counter += 1;
  const target = overrides.target ?? '127.0.0.1';
  return {
    check_id: `test-check-${counter}`,
    title: `Test weakness ${counter}`,
    severity: 'medium',
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N',
    epss_score: null,
    target,
    affected_component: `https://${target}:443/`,
    port: 443,
    tool: 'scanward-http',
    category: 'misconfiguration',
    cve_ids: [],
    cwe_ids: ['CWE-16'],
    description: 'A test weakness.',
    impact: 'An attacker could do something.',
    remediation: { summary: 'Fix it.', steps: ['Change the setting'], code_example: '', references: [] },
    evidence: {
      request: 'GET / HTTP/1.1',
      response: `HTTP/1.1 200 OK (run ${randomBytes(3).toString('hex')})`,
    },
    frameworks: [{ name: 'soc2', controls: ['ctrl_soc2_cc7_1'] }],
    ...overrides,
  };
}

/** What a scan covered, derived from detections (target, check, port). */
export function coverageOf(detections: FindingDetection[]): FindingCoverage[] {
  return detections.map((d) => ({ target: d.target, check_id: d.check_id, port: d.port ?? null }));
}

/**
 * Inserts a completed scan and records its detections through the findings
 * lifecycle, covering exactly what it detected plus `extraCoverage`.
 */
export async function runScan(
  db: Db,
  orgId: string,
  detections: FindingDetection[],
  options: {
    extraCoverage?: FindingCoverage[];
    completed?: boolean;
    now?: Date;
    target?: string;
    /** The hosts the scan saw, recorded in the asset inventory as the completing scan does. */
    hosts?: ObservedHost[];
  } = {},
): Promise<{ scan: ScanRef; summary: ScanFindingsSummary }> {
  const scan = await insertScan(db, orgId, { target: options.target ?? '127.0.0.1' });
  const summary = await recordScanFindings(db, {
    scan,
    detections,
    coverage: [...coverageOf(detections), ...(options.extraCoverage ?? [])],
    completed: options.completed ?? true,
    ...(options.now ? { now: options.now } : {}),
  });
  if (options.hosts) {
    const hosts = options.hosts;
    await db.transaction((trx) =>
      recordScanAssets(trx, { orgId, scanId: scan.id, hosts, now: options.now ?? new Date() }),
    );
  }
  return { scan, summary };
}

// Rows in states no domain function writes directly (what a runner or the pipeline
// would leave), written through the tables' repositories.

export interface InsertScanOptions {
  target?: string;
  scanType?: 'quick' | 'full' | 'compliance';
  status?: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  createdAt?: Date;
}

/** A scan row of the organization (completed by default). */
export async function insertScan(db: Db, orgId: string, options: InsertScanOptions = {}): Promise<ScanRef> {
  const status = options.status ?? 'completed';
  const createdAt = options.createdAt ?? new Date();
  const scan = {
    id: newId('scan'),
    org_id: orgId,
    target: options.target ?? '127.0.0.1',
    scan_type: options.scanType ?? 'quick',
  };
  await insertScanRow(db, {
    ...scan,
    status,
    phase: status === 'completed' ? 'complete' : 'discovery',
    progress: status === 'completed' ? 100 : 0,
    estimated_duration: 600,
    created_at: createdAt,
    updated_at: createdAt,
    ...(status === 'completed' ? { started_at: createdAt, completed_at: createdAt } : {}),
  });
  return scan;
}

/** The scan's row as stored: what the API, a runner or a test left. */
export async function scanRow(app: TestApp, orgId: string, scanId: string): Promise<ScanRow> {
  const row = await findScan(app.services.db, orgId, scanId);
  if (!row) throw new Error(`scan ${scanId} of ${orgId} not found`);
  return row;
}

/**
 * Moves a pending or running scan of the organization the way a runner would (for suites that
 * run no runner), through the scans repository's conditional update of an active scan (the one
 * cancelling uses). A scan that is no longer active is refused, as the lifecycle refuses it.
 */
export async function updateScan(
  app: TestApp,
  orgId: string,
  scanId: string,
  changes: Partial<Omit<ScanRow, 'changes' | 'state' | 'phase_timings' | 'web'>> & { changes?: ScanChanges },
): Promise<void> {
  const { changes: counts, ...columns } = changes;
  const moved = await updateActiveScan(app.services.db, orgId, scanId, {
    ...columns,
    ...(counts ? { changes: JSON.stringify(counts) } : {}),
    updated_at: new Date(),
  });
  if (!moved)
    throw new Error(`scan ${scanId} of ${orgId} is not pending or running: a runner could not move it`);
}

/** A webhook row subscribed to the events (its secret is never used). */
export async function insertWebhook(db: Db, orgId: string, events: string[]): Promise<string> {
  const id = newId('wh');
  await insertWebhookUnlessUrlTaken(db, orgId, {
    id,
    url: `https://hooks.example.test/${id}`,
    events,
    secret: 'sealed-secret-not-used',
  });
  return id;
}

const RANK = { critical: 4, high: 3, medium: 2, low: 1, info: 0 } as const;
export type Severity = keyof typeof RANK;

/** A finding of the organization observed by `scanId` with the given severity, as the findings pipeline stores it. */
export async function seedObservedFinding(
  app: TestApp,
  orgId: string,
  scanId: string,
  f: {
    severity: Severity;
    title?: string;
    status?: FindingStatus;
    observedSeverity?: Severity;
    detectedAt?: Date;
    findingId?: string;
  },
): Promise<string> {
  const db = app.services.db;
  const id = f.findingId ?? newId('finding');
  if (!f.findingId) {
    const port = 1000 + Math.floor(Math.random() * 60000);
    await insertFindingsIfNew(db, orgId, [
      {
        id,
        org_id: orgId,
        fingerprint: randomBytes(16).toString('hex'),
        scan_id: scanId,
        last_scan_id: scanId,
        title: f.title ?? `Finding ${id}`,
        severity: f.severity,
        severity_rank: RANK[f.severity],
        cvss_score: RANK[f.severity] * 2.1,
        target: '127.0.0.1',
        affected_component: `tcp://127.0.0.1:${port}`,
        port,
        tool: 'scanward',
        template_id: `check-${f.severity}`,
        cve_ids: ['CVE-2024-0001'],
        description: `Description of ${id}`,
        remediation: JSON.stringify({ summary: `Fix ${id}`, steps: ['a'], code_example: '', references: [] }),
        evidence: JSON.stringify({ request: '', response: '', screenshot_url: null }),
        detected_at: f.detectedAt ?? new Date(),
        last_seen_at: new Date(),
      },
    ]);
    // Born open; another status is a move through the findings' transitions, as a person makes it.
    if (f.status && f.status !== 'open') {
      await movePersonally(db, orgId, [{ id, status: 'open' }], {
        by: 'factory@example.com',
        status: f.status,
        acceptance: {},
        justification: null,
        note: null,
        now: new Date(),
      });
    }
  }
  await insertObservations(
    db,
    orgId,
    scanId,
    [
      {
        finding_id: id,
        severity: f.observedSeverity ?? f.severity,
        change: f.findingId ? 'unchanged' : 'new',
      },
    ],
    new Date(),
  );
  return id;
}
