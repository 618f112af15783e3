import { startModuleWorker } from '../worker-source.ts';
import { parseReport } from './parse.ts';
import { ReportError, type ImportFormat, type ParsedReport } from './report.ts';

/**
 * Parses a report, off the event loop when it is large: a report over INLINE_LIMIT bytes is
 * parsed in a worker thread of its own (bounded heap, bounded time), so a large or slow
 * report never holds up the server's other requests. Small reports (almost all of them) are
 * parsed inline, where a worker's start-up would cost more than the parse.
 */
export const INLINE_LIMIT = 256 * 1024;
/** A parse that takes longer is stopped and the report refused. */
const PARSE_TIMEOUT_MS = 60_000;

export async function parseReportOffLoop(
  bytes: Uint8Array,
  format: ImportFormat | undefined,
  inlineLimit = INLINE_LIMIT,
): Promise<ParsedReport> {
  if (bytes.length <= inlineLimit) return parseReport(bytes, format);
  const worker = startModuleWorker(
    new URL(`./parse-worker${extension()}`, import.meta.url),
    { bytes, format },
    { resourceLimits: { maxOldGenerationSizeMb: 1024 } },
  );
  return new Promise<ParsedReport>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ReportError(`the report took longer than ${PARSE_TIMEOUT_MS / 1000} s to read`));
      void worker.terminate();
    }, PARSE_TIMEOUT_MS);
    worker.once('message', (message: { report?: ParsedReport; error?: string; invalid?: boolean }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (message.report) resolve(message.report);
      else if (message.invalid) reject(new ReportError(message.error ?? 'the report could not be read'));
      else reject(new Error(message.error ?? 'the report parser failed'));
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** `.ts` when this module runs from source (tsx, vitest), `.js` from the build. */
function extension(): string {
  return import.meta.url.endsWith('.ts') ? '.ts' : '.js';
}
