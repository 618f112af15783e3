import { z } from 'zod';
import { FINDING_SEVERITIES } from '../../server/schemas/findings.ts';
import type { Finding, ScanRecord } from '../core/scan.ts';

/**
 * The parts of the Scanward API's answers the Action and scanward-ci read. They are looser
 * than the server's own contracts in server/schemas/ on purpose: a workflow
 * pins one Action version for months while the service is upgraded, so an
 * unknown phase, a new field or a new status must not break it. Only what the
 * Action needs is required.
 *
 * The per-scan findings list (`GET /api/v1/scans/{id}/findings`) has no
 * `template_id` or `cwe_ids` in its contract (server/schemas/scans.ts
 * `ScanFinding`), so the Action reads those from `GET /api/v1/findings?scan_id=`
 * (`FindingListItem` in server/schemas/findings.ts) and joins the two by id.
 */

const Severity = z.enum(FINDING_SEVERITIES);

const count = z.number().int().min(0).catch(0);

export const ScanCreatedBody = z.object({
  id: z.string().min(1),
  status: z.string(),
  estimated_duration: z.number().optional(),
});
export type ScanCreatedBody = z.infer<typeof ScanCreatedBody>;

export const ScanBody = z.object({
  id: z.string().min(1),
  target: z.string(),
  scan_type: z.string(),
  status: z.string(),
  progress: z.number().catch(0),
  phase: z.string().catch(''),
  current_tool: z.string().optional(),
  created_at: z.string().optional(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  vulnerabilities_found: count,
  critical_count: count,
  high_count: count,
  medium_count: count,
  low_count: count,
  info_count: count.optional(),
  error: z.string().optional(),
  message: z.string().optional(),
});
export type ScanBody = z.infer<typeof ScanBody>;
// What the API answers is the scan record every report reads (core/scan.ts); the compiler holds them together.
const _scanIsARecord: z.ZodType<ScanRecord> = ScanBody;

export const ScanCancelledBody = z.object({
  id: z.string(),
  status: z.string(),
  message: z.string().optional(),
});

/** One item of the per-scan findings list, `template_id`/`cwe_ids` accepted should the server add them. */
export const ScanFindingBody = z.object({
  id: z.string().min(1),
  title: z.string(),
  severity: Severity,
  cvss_score: z.number().nullable().catch(null),
  status: z.string(),
  tool: z.string().catch(''),
  affected_component: z.string(),
  description: z.string().catch(''),
  remediation: z
    .union([z.string(), z.object({ summary: z.string() }).transform((r) => r.summary)])
    .nullable()
    .catch(null),
  cve_ids: z.array(z.string()).catch([]),
  detected_at: z.string().optional(),
  /** What this scan's sighting was; absent from services older than the field. */
  change: z.enum(['new', 'reopened', 'unchanged']).optional().catch(undefined),
  template_id: z.string().optional(),
  cwe_ids: z.array(z.string()).optional(),
  target: z.string().optional(),
  frameworks: z.array(z.string()).optional(),
});
export type ScanFindingBody = z.infer<typeof ScanFindingBody>;
// …and the finding every report reads.
const _findingIsAFinding: z.ZodType<Finding> = ScanFindingBody;

/** The fields of the findings list view that the per-scan list lacks. */
export const FindingRefBody = z.object({
  id: z.string(),
  template_id: z.string(),
  cwe_ids: z.array(z.string()).catch([]),
  target: z.string().optional(),
  frameworks: z.array(z.string()).catch([]),
});
export type FindingRefBody = z.infer<typeof FindingRefBody>;

export function pageBody<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().optional(),
    page: z.number().int().optional(),
    pages: z.number().int().optional(),
  });
}

export const HealthBody = z.object({ version: z.string().optional() });

export const TokenBody = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() });

/** POST /api/v1/auth/ci-token: a short-lived access token for a CI job's ID token. */
export const CiAudienceBody = z.object({ audience: z.string().min(1) });

export const CiTokenBody = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  permissions: z.array(z.string()).optional(),
});
