import { z } from 'zod';
import { defineRoute } from '../http/contract.ts';
import { AppError } from '../errors.ts';
import { pageOf } from '../schemas/common.ts';
import {
  CreateScanRequest,
  ListScansQuery,
  ScanCancelled,
  ScanCreated,
  ScanDetail,
  ScanFindingList,
  ScanFindingsQuery,
  ScanIdParams,
  ScanList,
  ScanQuota,
} from '../schemas/scans.ts';
import { createScan } from '../scans/create-scan.ts';
import { announceScanQueued } from '../scans/queue-signal.ts';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../scans/idempotency.ts';
import { quotaReport } from '../scans/quota.ts';
import { cancelScan } from '../scans/lifecycle.ts';
import { getScanDetail, listScans } from '../scans/listing.ts';
import { listScanFindings } from '../scans/scan-findings.ts';
import { scheduleRoutes } from './schedules.ts';

const tags = ['Scans'];

/**
 * `/scans/quota` and `/scans/schedules` are literal segments under `/scans`.
 * They are registered before `/scans/{scan_id}` (the router runs the first
 * match), and a method they lack is answered here as 405 rather than as a
 * search for a scan called "quota".
 */
const LITERAL_SEGMENTS: Record<string, string> = { quota: 'GET', schedules: 'GET, POST' };

function refuseLiteralSegment(scanId: string, method: string): void {
  const allow = LITERAL_SEGMENTS[scanId];
  if (allow) {
    throw new AppError(
      405,
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed on /api/v1/scans/${scanId}`,
      undefined,
      {
        Allow: allow,
      },
    );
  }
}

export const getScanQuotaRoute = defineRoute({
  method: 'get',
  path: '/api/v1/scans/quota',
  operationId: 'getScanQuota',
  summary: 'Monthly scan quota',
  description:
    '`used_this_month` counts scans created since the first instant of the current UTC month; `resets_at` is the first instant of the next. `-1` means unlimited.',
  tags,
  access: { permission: 'read:scans' },
  responses: { 200: { description: 'The quota', schema: ScanQuota } },
  handler: async ({ principal, services }) => ({ body: await quotaReport(services.db, principal.org) }),
});

export const listScansRoute = defineRoute({
  method: 'get',
  path: '/api/v1/scans',
  operationId: 'listScans',
  summary: 'List scans',
  description:
    'Newest first (ties by id). `target` matches exactly, ignoring case; `from_date` is inclusive and `to_date` exclusive (a date alone means 00:00Z).',
  tags,
  access: { permission: 'read:scans' },
  query: ListScansQuery,
  responses: { 200: { description: 'One page of scans', schema: ScanList } },
  handler: async ({ query, principal, services }) => {
    const { items, total } = await listScans(
      services.db,
      principal.org.id,
      { status: query.status, target: query.target, from: query.from_date, to: query.to_date },
      query.page,
      query.per_page,
    );
    return { body: pageOf(items, total, query.page, query.per_page) };
  },
});

export const createScanRoute = defineRoute({
  method: 'post',
  path: '/api/v1/scans',
  operationId: 'createScan',
  summary: 'Create a scan',
  description: [
    'Queues a scan (`pending`); a runner starts it. `authorized` must be `true`.',
    'The target is checked against the server’s scan scope policy after DNS resolution (`TARGET_NOT_ALLOWED`).',
    `With an \`${IDEMPOTENCY_HEADER}\` header, a repeat with the same key and body within 24 hours answers the first response and creates nothing; the same key with another body is a validation error naming the header.`,
    'Refused with `SCAN_QUOTA_EXCEEDED` when the month’s scans are used up and `CONCURRENT_SCAN_LIMIT` (with `Retry-After`) at the plan’s pending + running ceiling.',
  ].join('\n\n'),
  tags,
  access: { permission: 'write:scans' },
  headers: z.object({
    'idempotency-key': z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/, { error: 'must be 1-255 printable ASCII characters' })
      .optional()
      .meta({ description: `\`${IDEMPOTENCY_HEADER}\`: 1-255 printable ASCII characters, kept 24 hours` }),
  }),
  body: CreateScanRequest,
  responses: { 201: { description: 'The scan was queued', schema: ScanCreated } },
  errors: ['TARGET_NOT_ALLOWED', 'SCAN_QUOTA_EXCEEDED', 'CONCURRENT_SCAN_LIMIT'],
  handler: async ({ body, headers, principal, services }) => {
    const key = parseIdempotencyKey(headers['idempotency-key']);
    const created = await createScan(services, principal, body, key);
    // Committed: wake the runners now rather than at their next poll (a replay's wake-up is harmless).
    if (created.status === 201) announceScanQueued(services);
    return created;
  },
});

export const getScanRoute = defineRoute({
  method: 'get',
  path: '/api/v1/scans/{scan_id}',
  operationId: 'getScan',
  summary: 'Scan details',
  description:
    '`phases_completed` and `phases_remaining` together always list the phases of the scan’s type. `current_tool` is present while running, `started_at` and `completed_at` once they apply, `changes` once completed.',
  tags,
  access: { permission: 'read:scans' },
  params: ScanIdParams,
  responses: { 200: { description: 'The scan', schema: ScanDetail } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await getScanDetail(services.db, principal.org.id, params.scan_id),
  }),
});

export const cancelScanRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/scans/{scan_id}',
  operationId: 'cancelScan',
  summary: 'Cancel a scan',
  description:
    'A `pending` or `running` scan becomes `cancelled`, keeping its phase, progress and findings. Nothing is deleted. A finished scan answers 409 `SCAN_NOT_CANCELLABLE`.',
  tags,
  access: { permission: 'write:scans' },
  params: ScanIdParams,
  responses: { 200: { description: 'The scan was cancelled', schema: ScanCancelled } },
  errors: ['NOT_FOUND', 'SCAN_NOT_CANCELLABLE', 'METHOD_NOT_ALLOWED'],
  handler: async ({ params, principal, services, ctx }) => {
    refuseLiteralSegment(params.scan_id, ctx.method);
    const scan = await cancelScan(
      services.db,
      principal.org.id,
      params.scan_id,
      `Scan cancelled by ${principal.user.email}`,
    );
    return { body: { id: scan.id, status: 'cancelled' as const, message: scan.message ?? '' } };
  },
});

export const listScanFindingsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/scans/{scan_id}/findings',
  operationId: 'listScanFindings',
  summary: 'Findings of one scan',
  description:
    'The findings this scan observed, with the severity it saw; the list of a finished scan never changes. Most severe first. `remediation` is the remediation summary in this view. `change` says whether this scan found the finding for the first time (`new`), found a resolved one again (`reopened`) or saw a known one (`unchanged`); filter on it to gate on what changed.',
  tags,
  access: { permission: 'read:scans' },
  params: ScanIdParams,
  query: ScanFindingsQuery,
  responses: { 200: { description: 'One page of the scan’s findings', schema: ScanFindingList } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, query, principal, services }) => {
    const { items, total } = await listScanFindings(
      services.db,
      principal.org.id,
      params.scan_id,
      { severity: query.severity, status: query.status, change: query.change },
      query.page,
      query.per_page,
    );
    return { body: pageOf(items, total, query.page, query.per_page) };
  },
});

/** Literal paths first: the router runs the first route whose pattern matches. */
export const scanRoutes = [
  getScanQuotaRoute,
  ...scheduleRoutes,
  listScansRoute,
  createScanRoute,
  getScanRoute,
  cancelScanRoute,
  listScanFindingsRoute,
];
