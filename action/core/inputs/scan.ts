import { ImportFormat } from '../../../server/schemas/imports.ts';
import { CredentialChecks, Framework, ScanType, portSpecProblem } from '../../../server/schemas/scans.ts';
import { parseBoolean, parseChoice, parseNumber, type InputReader } from './read.ts';

/**
 * The scan group: what to scan (`target`, `scan-type`, `ports`, `frameworks`,
 * `credential-checks`), or which scan to follow (`scan-id`) or import (`import-file`,
 * `import-format`), and how to follow it (`wait`, `timeout-minutes`, `follow`,
 * `poll-interval-seconds`).
 */

/** GitHub ends a job after 6 hours. */
const MAX_TIMEOUT_MINUTES = 360;
const MAX_POLL_SECONDS = 600;

/** Where the scan comes from: a new one of `target`, an existing `scan-id`, or an imported report. */
export interface ScanSourceInputs {
  target: string;
  scanId: string | undefined;
  importPath: string;
  importFormat: ImportFormat | undefined;
}

export function parseScanSource(input: InputReader, local: boolean): ScanSourceInputs {
  const { read, problems, warnings } = input;
  const scanIdRaw = read('scan-id');
  if (scanIdRaw !== '' && !/^scan_[A-Za-z0-9]{1,95}$/.test(scanIdRaw)) {
    problems.push(`\`scan-id\` is "${scanIdRaw}"; use the id of a scan, like scan_0123456789abcdefghijklmn.`);
  }
  const scanId = scanIdRaw || undefined;

  const importPath = read('import-file');
  const importFormatRaw = read('import-format').toLowerCase();
  const importFormat = importFormatRaw === '' ? undefined : ImportFormat.safeParse(importFormatRaw);
  if (importFormat && !importFormat.success) {
    problems.push(
      `\`import-format\` is "${importFormatRaw}"; use nuclei, zap, nmap, openvas or scanward (or leave it out to detect it).`,
    );
  }
  if (importPath && scanId) problems.push('Set `import-file` or `scan-id`, not both.');
  if (importPath === '' && importFormat)
    warnings.push('`import-format` is set but `import-file` is not; it is not used.');

  const target = read('target');
  if (local) checkLocalTarget(input, target, importPath);
  else if (target === '' && importPath) {
    problems.push(
      '`target` is required with `import-file`: the asset the report is about (a host, URL or stable name).',
    );
  } else if (target === '' && !scanId) {
    problems.push('`target` is required: the domain, IP address or CIDR range to scan (or set `scan-id`).');
  } else if (target.length > 253) problems.push('`target` must be at most 253 characters.');
  if (scanId && target !== '')
    warnings.push('`scan-id` is set, so `target` and the other scan inputs are not used.');
  return { target, scanId, importPath, importFormat: importFormat?.data };
}

/** mode: local scans `target`, a URL this job reaches, in this step: nothing else to follow. */
function checkLocalTarget({ read, problems, warnings }: InputReader, target: string, importPath: string) {
  if (read('scan-id') !== '')
    problems.push('`scan-id` cannot be used with mode: local (the scan runs in this job).');
  if (importPath) problems.push('Set `import-file` or mode: local, not both.');
  if (read('wait') !== '' && read('wait') !== 'true')
    problems.push('`wait` must be true with mode: local (the scan runs in this step).');
  if (read('ports') !== '')
    warnings.push('`ports` is not used with mode: local: the scan reaches only the port `target` names.');
  if (target === '')
    problems.push(
      '`target` is required with mode: local: the URL of the service this job started, e.g. http://localhost:8080.',
    );
  else if (!/^https?:\/\/[^\s/]+/i.test(target))
    problems.push(
      `\`target\` is "${target}"; with mode: local, name the service as a URL: http://localhost:8080 (scheme, host and port).`,
    );
}

/** How to scan a new target. */
export interface ScanOptions {
  scanType: ScanType;
  ports: string | undefined;
  frameworks: Framework[];
  credentialChecks: CredentialChecks | undefined;
}

export function parseScanOptions({ read, problems, warnings }: InputReader, local: boolean): ScanOptions {
  // Attack checks run in the web analysis phase, which quick scans skip (docs/web-testing.md).
  const scanTypeRaw = read('scan-type') || (local || read('active') === 'true' ? 'full' : 'quick');
  const scanType = ScanType.safeParse(scanTypeRaw);
  if (!scanType.success) problems.push(`\`scan-type\` is "${scanTypeRaw}"; use quick, full or compliance.`);

  const portsRaw = read('ports');
  if (portsRaw !== '') {
    const problem = portSpecProblem(portsRaw);
    if (problem) problems.push(`\`ports\`: ${problem}.`);
  }

  const frameworks = parseFrameworks(read('frameworks'), problems);
  if (frameworks.length > 0 && scanType.success && scanType.data !== 'compliance') {
    warnings.push(
      `\`frameworks\` is set but scan-type is ${scanType.data}; frameworks matter most to compliance scans.`,
    );
  }

  const credentialRaw = read('credential-checks').toLowerCase();
  const credentialChecks = credentialRaw === '' ? undefined : CredentialChecks.safeParse(credentialRaw);
  if (credentialChecks && !credentialChecks.success) {
    problems.push(
      `\`credential-checks\` is "${credentialRaw}"; use defaults (vendor-default and empty credentials, one attempt per service) or none.`,
    );
  }
  return {
    scanType: scanType.success ? scanType.data : 'quick',
    ports: portsRaw || undefined,
    frameworks,
    credentialChecks: credentialChecks?.data,
  };
}

function parseFrameworks(raw: string, problems: string[]): Framework[] {
  if (raw === '') return [];
  const names = raw
    .split(/[\s,]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const good: Framework[] = [];
  for (const name of names) {
    const parsed = Framework.safeParse(name);
    if (parsed.success) {
      if (!good.includes(parsed.data)) good.push(parsed.data);
    } else {
      problems.push(`\`frameworks\` lists "${name}"; use a comma-separated list of soc2, pci-dss, iso27001.`);
    }
  }
  return good;
}

/** How the run follows the scan to its end. */
export interface FollowInputs {
  wait: boolean | undefined;
  timeoutMs: number;
  follow: 'stream' | 'poll' | undefined;
  pollIntervalMs: number;
}

export function parseFollowInputs(input: InputReader): FollowInputs {
  const { read, problems } = input;
  const wait = parseBoolean('wait', read('wait') || 'true', problems);
  const timeoutMinutes = parseNumber('timeout-minutes', read('timeout-minutes') || '30', problems, {
    min: 0,
    exclusiveMin: true,
    max: MAX_TIMEOUT_MINUTES,
  });
  const pollSeconds = parseNumber('poll-interval-seconds', read('poll-interval-seconds') || '10', problems, {
    min: 0,
    max: MAX_POLL_SECONDS,
  });
  const follow = parseChoice(
    input,
    'follow',
    'stream',
    ['stream', 'poll'] as const,
    (raw) =>
      `\`follow\` is "${raw}"; use stream (the service's event stream: one request however long the scan runs, polling when the stream is not available) or poll (a status check every poll-interval-seconds).`,
  );
  return {
    wait,
    timeoutMs: Math.round(timeoutMinutes! * 60_000),
    follow,
    pollIntervalMs: Math.round(pollSeconds! * 1000),
  };
}
