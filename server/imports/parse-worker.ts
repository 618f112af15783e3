import { parentPort, workerData } from 'node:worker_threads';
import { parseReport } from './parse.ts';
import { ReportError, type ImportFormat } from './report.ts';

/**
 * A worker thread parsing one large report (parse-off-loop.ts starts it), so the server's
 * event loop keeps answering while it runs. Posts `{ report }` or `{ error, report: false }`.
 */
const { bytes, format } = (workerData as { data: { bytes: Uint8Array; format: ImportFormat | undefined } })
  .data;
try {
  parentPort!.postMessage({ report: parseReport(bytes, format) });
} catch (err) {
  parentPort!.postMessage({
    error:
      err instanceof ReportError ? err.message : `the report could not be read: ${(err as Error).message}`,
    invalid: err instanceof ReportError,
  });
}
