import { importReportRoute } from '../../../server/routes/imports.ts';
import type { ApiClient, CallOptions, RouteInput } from '../../helpers/api-client.ts';

/**
 * Posts a report to `importReportRoute`: the raw body with the fields in `query`, or a
 * multipart form. The route reads its upload itself (`readUpload`), so its contract declares
 * no JSON body for `call` to type: the report is handed through as it is.
 */
export const postReport = (
  api: ApiClient,
  report: Uint8Array | FormData,
  query?: RouteInput<typeof importReportRoute>['query'],
  options?: CallOptions,
) => api.call(importReportRoute, { query, body: report as never }, options);
