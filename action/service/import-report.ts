import type { ImportFormat } from '../../server/schemas/imports.ts';
import { ConfigurationError } from '../core/errors.ts';
import type { FinishedScan, Log, ScanHooks, ScanOutcome, ScanRequest } from '../core/scan-source.ts';
import type { ScanwardClient } from './client.ts';
import { readFindings, serviceLinks, toolInfo } from './scan-results.ts';

/**
 * `import-file`: the report is sent to the import API, which answers with the completed scan
 * it recorded; its findings are then read exactly as a completed scan's are.
 */
export async function importReport(
  deps: {
    log: Log;
    /** Reads a report file to import; the front end does the file I/O. */
    readFile?: ((path: string) => Promise<Uint8Array>) | undefined;
  },
  client: ScanwardClient,
  apiUrl: string,
  request: ScanRequest,
  hooks: ScanHooks,
  deadline: number,
): Promise<ScanOutcome> {
  const file = request.importFile!;
  if (!deps.readFile) throw new Error('this front end cannot read report files');
  let report: Uint8Array;
  try {
    report = await deps.readFile(file.path);
  } catch (error) {
    throw new ConfigurationError(
      `\`import-file\` ${file.path} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return recordReport(
    deps.log,
    client,
    apiUrl,
    report,
    {
      target: request.target,
      scanType: request.scanType,
      format: file.format,
      reportName: file.path.split(/[\\/]/).pop(),
      ciRun: request.ciRun,
      what: `Imported ${file.path}`,
      idempotencyKey: request.idempotencyKey,
    },
    hooks,
    deadline,
  );
}

/**
 * Sends a report to the import API as a completed scan of `target` and reads that scan's
 * findings back exactly as a completed scan's are (so `change` is the service's: new, unchanged,
 * reopened for that target). `import-file` and the local engine's result both come this way.
 */
export async function recordReport(
  log: Log,
  client: ScanwardClient,
  apiUrl: string,
  report: Uint8Array,
  input: {
    target: string;
    scanType: string;
    format?: ImportFormat | undefined;
    /** What was done, for the log line: `Imported nuclei.json`. */
    what: string;
    /** Makes a retried import answer the scan already recorded. */
    idempotencyKey: string;
    /** The report's file name and the CI run, shown with the imported scan (`report_name`, `ci_run`). */
    reportName?: string | undefined;
    ciRun?: string | undefined;
  },
  hooks: ScanHooks,
  deadline: number,
): Promise<FinishedScan> {
  const scan = await client.importReport(
    report,
    {
      target: input.target,
      scan_type: input.scanType,
      format: input.format,
      report_name: input.reportName,
      ci_run: input.ciRun,
    },
    input.idempotencyKey,
    deadline,
  );
  const links = serviceLinks(apiUrl, scan.id);
  log.info(`${input.what} as Scanward scan ${scan.id} of ${input.target}: ${links.scanUrl}`);
  hooks.onScan?.(scan.id, links);
  const findings = await readFindings(log, client, scan.id);
  return { kind: 'completed', scan, links, tool: await toolInfo(client, apiUrl), findings };
}
