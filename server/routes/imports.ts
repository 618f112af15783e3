import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../scans/idempotency.ts';
import { readUpload } from '../http/middleware/body.ts';
import { AppError } from '../errors.ts';
import { findUnstorable } from '../schemas/text.ts';
import { importReport } from '../imports/import-report.ts';
import { ImportParams, ImportResult, ImportUpload } from '../schemas/imports.ts';

export const IMPORTS_PATH = '/api/v1/imports';

const tags = ['Scans'];

export const importReportRoute = defineRoute({
  method: 'post',
  path: IMPORTS_PATH,
  operationId: 'importReport',
  summary: "Import another scanner's report",
  description:
    "Records a report of nuclei, OWASP ZAP, nmap, OpenVAS/Greenbone or Scanward as a completed scan of `target` (`source: import`, `tool` the producing tool), its results as findings through the same lifecycle as Scanward's own scans. Send the report as `multipart/form-data` (a `file` part, the other fields as parts) or as the raw request body with the fields in the query. Counts against the monthly scan quota. The body may be up to `SCANWARD_IMPORT_LIMIT` bytes (32 MiB by default; 413 beyond). A report that does not read is 422 naming the line or element, and nothing of it is recorded. XML external entities and DTDs are never resolved. A report over a few hundred KiB is parsed in a worker thread; when all of the process's parse workers (`SCANWARD_IMPORT_WORKERS`) are busy and their queue (`SCANWARD_IMPORT_QUEUE`) is full, the answer is 503 `SERVICE_UNAVAILABLE` with `Retry-After`. See docs/imports.md.",
  tags,
  access: { permission: 'write:scans' },
  query: ImportParams.partial(),
  headers: z.object({
    'idempotency-key': z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/, { error: 'must be 1-255 printable ASCII characters' })
      .optional()
      .meta({
        description: `\`${IDEMPOTENCY_HEADER}\`: 1-255 printable ASCII characters, kept 24 hours. A repeat with the same key, fields and report answers the scan the first import recorded and records nothing; the same key with another request is a validation error naming the header.`,
      }),
  }),
  upload: ImportUpload,
  errors: ['SCAN_QUOTA_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  responses: { 201: { description: 'The imported scan', schema: ImportResult } },
  async handler({ ctx, headers, principal, services }) {
    const upload = await readUpload(ctx, services.config.importLimit);
    const params = ImportParams.safeParse({
      ...(upload.fileName && { report_name: upload.fileName.slice(0, 255) }),
      ...queryFields(ctx.query),
      ...upload.fields,
    });
    if (!params.success) {
      const [issue] = params.error.issues;
      const field = issue?.path.map(String).join('.') || undefined;
      const message = (issue?.message ?? 'invalid').replace(/^Invalid input: /, '');
      throw new AppError(422, 'VALIDATION_ERROR', field ? `${field}: ${message}` : message, field);
    }
    const unstorable = findUnstorable(params.data);
    if (unstorable) {
      const field = unstorable.path.join('.');
      throw new AppError(422, 'VALIDATION_ERROR', `${field}: ${unstorable.problem}`, field);
    }
    const key = parseIdempotencyKey(headers['idempotency-key']);
    return {
      status: 201,
      body: await importReport(services, principal, params.data, upload.content, undefined, key),
    };
  },
});

/** The query's import fields, each given once. */
function queryFields(query: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['format', 'target', 'scan_type', 'report_name', 'ci_run']) {
    const value = query[key];
    if (Array.isArray(value)) throw new AppError(422, 'VALIDATION_ERROR', `${key}: must be given once`, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export const importRoutes: AnyRoute[] = [importReportRoute];
