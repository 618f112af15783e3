import { z } from 'zod';
import { ScanDetail, ScanType } from './scans.ts';

/** POST /api/v1/imports: another tool's report brought in as a completed scan (docs/imports.md). */

export const ImportFormat = z
  .enum(['scanward', 'nuclei', 'zap', 'nmap', 'openvas'], {
    error: 'must be one of scanward, nuclei, zap, nmap, openvas',
  })
  .meta({
    id: 'ImportFormat',
    description:
      'The report format: `nuclei` (JSON array or JSON Lines), `zap` (XML or JSON report), `nmap` (XML), `openvas` (Greenbone XML or CSV), `scanward` (Scanward findings JSON). Detected from the report when omitted (an empty report needs it).',
  });
export type ImportFormat = z.infer<typeof ImportFormat>;

/** The fields of an import: query parameters with a raw body, or form fields beside the `file` part. */
export const ImportParams = z.object({
  format: ImportFormat.optional(),
  target: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').meta({
    description:
      "The asset the report is about (a host, a URL or any stable name such as `acme/app:staging`): the scan's target and its findings' target. Imports of one tool and target resolve what a later one no longer reports.",
  }),
  scan_type: ScanType.optional().meta({ description: 'A label for the imported scan; default `full`' }),
  report_name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .optional()
    .meta({
      description:
        "The report's file name, shown with the scan (`nuclei.jsonl`); a multipart upload's file name when omitted",
    }),
  ci_run: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .optional()
    .meta({
      description:
        'The CI run the report came from (a URL such as `https://github.com/acme/app/actions/runs/1`, or a name): a local engine run recorded on the service',
    }),
});
export type ImportParams = z.infer<typeof ImportParams>;

/** The multipart form of an import, for the OpenAPI document. */
export const ImportUpload = ImportParams.extend({
  file: z.string().meta({ format: 'binary', description: 'The report file' }),
}).meta({ id: 'ImportUpload' });

export const ImportResult = ScanDetail.extend({
  format: ImportFormat,
  results_read: z.number().int().min(0).meta({
    description: 'Results read from the report (several on one weakness and place are one finding)',
  }),
}).meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof ImportResult>;
