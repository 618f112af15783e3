import { randomBytes } from 'node:crypto';
import { createApiKey } from '../../server/auth/api-keys.ts';
import { newId } from '../../server/identity/ids.ts';
import { setLimits, type LimitOverrides } from '../../server/identity/organizations.ts';
import type { Permission, Plan } from '../../server/schemas/common.ts';
import type { FindingStatus } from '../../server/schemas/findings.ts';
import type { ScanRow } from '../../server/scans/repository.ts';
import type { TestApp } from './app.ts';
import { createTenant, type Tenant } from './tenants.ts';

/** Shared by the scans and schedules integration suites: HTTP callers, tenants and rows a runner would write. */

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Client {
  get<T = Record<string, unknown>>(path: string): Promise<Answer<T>>;
  post<T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  del<T = Record<string, unknown>>(path: string): Promise<Answer<T>>;
}

/** A JSON client that sends one credential: a bearer token or an API key (or none). */
export function client(app: TestApp, credential: { token?: string; apiKey?: string } = {}): Client {
  const auth: Record<string, string> = credential.token
    ? { authorization: `Bearer ${credential.token}` }
    : credential.apiKey
      ? { 'x-api-key': credential.apiKey }
      : {};
  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body, headers) => call('POST', path, body, headers),
    del: (path) => call('DELETE', path),
  };
}

export interface ScanTenant extends Tenant {
  api: Client;
}

/**
 * A fresh organization with an admin logged in. Request-rate limits are lifted
 * (unless given) so suites can make many calls; other limits are the plan's
 * unless overridden.
 */
export async function scanTenant(app: TestApp, plan: Plan, limits: LimitOverrides = {}): Promise<ScanTenant> {
  const tenant = await createTenant(app, plan);
  await setLimits(app.services.db, tenant.orgId, { hourly: -1, daily: -1, ...limits });
  return { ...tenant, api: client(app, { token: await tenant.login() }) };
}

/** An API key of the tenant's admin carrying exactly these permissions. */
export async function apiKeyClient(app: TestApp, tenant: Tenant, permissions: Permission[]): Promise<Client> {
  const { key } = await createApiKey(
    app.services.db,
    { orgId: tenant.orgId, userId: tenant.admin.id },
    { name: `test ${permissions.join(' ')}`, permissions, expiresAt: null },
  );
  return client(app, { apiKey: key });
}

export const loopbackScan = (extra: Record<string, unknown> = {}) => ({
  target: '127.0.0.1',
  authorized: true,
  ...extra,
});

/** Moves a scan the way a runner would (the runner is not part of these suites). */
export async function updateScan(app: TestApp, scanId: string, changes: Partial<ScanRow>): Promise<void> {
  const row: Record<string, unknown> = { ...changes, updated_at: new Date() };
  if (row.changes) row.changes = JSON.stringify(row.changes);
  await app.services.db('scans').where({ id: scanId }).update(row);
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
    await db('findings').insert({
      id,
      org_id: orgId,
      fingerprint: randomBytes(16).toString('hex'),
      scan_id: scanId,
      last_scan_id: scanId,
      title: f.title ?? `Finding ${id}`,
      severity: f.severity,
      severity_rank: RANK[f.severity],
      status: f.status ?? 'open',
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
    });
  }
  await db('finding_observations').insert({
    scan_id: scanId,
    finding_id: id,
    org_id: orgId,
    severity: f.observedSeverity ?? f.severity,
    change: f.findingId ? 'unchanged' : 'new',
  });
  return id;
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
