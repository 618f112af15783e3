import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { API_KEY_PREFIX, hashApiKey } from '../../server/auth/gatekeeper.ts';
import {
  recordScanFindings,
  type Coverage,
  type Detection,
  type ScanFindingsSummary,
  type ScanRef,
} from '../../server/findings/lifecycle.ts';
import { newId } from '../../server/identity/ids.ts';
import type { Permission } from '../../server/schemas/common.ts';

/**
 * Scan rows and recorded findings for tests, written straight to the database
 * so finding tests do not wait for the scan engine.
 */

export interface InsertScanOptions {
  target?: string;
  scanType?: 'quick' | 'full' | 'compliance';
  status?: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  createdAt?: Date;
}

/** A scan row of the organization (completed by default). */
export async function insertScan(db: Knex, orgId: string, options: InsertScanOptions = {}): Promise<ScanRef> {
  const status = options.status ?? 'completed';
  const createdAt = options.createdAt ?? new Date();
  const scan = {
    id: newId('scan'),
    org_id: orgId,
    target: options.target ?? '127.0.0.1',
    scan_type: options.scanType ?? 'quick',
  };
  await db('scans').insert({
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

let counter = 0;

/** A detection of a web check on 127.0.0.1; every call without a `check_id` is a different check. */
export function detection(overrides: Partial<Detection> = {}): Detection {
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
export function coverageOf(detections: Detection[]): Coverage[] {
  return detections.map((d) => ({ target: d.target, check_id: d.check_id, port: d.port ?? null }));
}

/**
 * Inserts a completed scan and records its detections, covering exactly what
 * it detected plus `extraCoverage`.
 */
export async function runScan(
  db: Knex,
  orgId: string,
  detections: Detection[],
  options: { extraCoverage?: Coverage[]; completed?: boolean; now?: Date; target?: string } = {},
): Promise<{ scan: ScanRef; summary: ScanFindingsSummary }> {
  const scan = await insertScan(db, orgId, { target: options.target ?? '127.0.0.1' });
  const summary = await recordScanFindings(db, {
    scan,
    detections,
    coverage: [...coverageOf(detections), ...(options.extraCoverage ?? [])],
    completed: options.completed ?? true,
    ...(options.now ? { now: options.now } : {}),
  });
  return { scan, summary };
}

/** An API key of the user with the given permissions, inserted directly; returns the secret. */
export async function insertApiKey(
  db: Knex,
  orgId: string,
  userId: string,
  permissions: Permission[],
): Promise<string> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db('api_keys').insert({
    id: newId('key'),
    org_id: orgId,
    user_id: userId,
    name: 'test key',
    prefix: key.slice(0, 10),
    key_hash: hashApiKey(key),
    permissions,
  });
  return key;
}

/** A webhook row subscribed to the events, inserted directly (its secret is never used). */
export async function insertWebhook(db: Knex, orgId: string, events: string[]): Promise<string> {
  const id = newId('wh');
  await db('webhooks').insert({
    id,
    org_id: orgId,
    url: `https://hooks.example.test/${id}`,
    events,
    secret: 'sealed-secret-not-used',
  });
  return id;
}
