import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, isUserError } from './errors.ts';
import { httpDeps, type Fetch, type RetryPolicy, type Sleep } from './http.ts';
import { parseInputs, type ActionInputs } from './inputs.ts';
import { renderJUnit } from './junit.ts';
import { findingUrl, formatMinutes, judge, runScanFlow, type FlowOutcome } from './scan-flow.ts';
import { buildSarif } from './sarif.ts';
import { formatCounts, scanCounts } from './threshold.ts';
import { ACTION_VERSION } from './version.ts';

/**
 * `scanward-ci`: the Action's scan, gate and reports for every other CI
 * (GitLab CI, Jenkins, Azure Pipelines, CircleCI, a shell). The same inputs
 * as flags (`--fail-on high`) or environment variables (`SCANWARD_FAIL_ON`),
 * progress on stderr, report files on request, and an exit code a pipeline
 * can act on. It runs the same modules as the Action (inputs, scan flow,
 * gate, SARIF); only the front end differs.
 */

export const EXIT = { passed: 0, gateFailed: 1, usage: 2, scanFailed: 3 } as const;

export interface CiDeps {
  argv: string[];
  env: Record<string, string | undefined>;
  /** Progress and problems (stderr). */
  stderr: (text: string) => void;
  /** The result (stdout). */
  stdout: (text: string) => void;
  fetch: Fetch;
  sleep: Sleep;
  now: () => number;
  writeFile: (path: string, data: string) => Promise<void>;
  mkdir: (path: string) => Promise<void>;
  cwd: string;
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy | undefined;
}

/** The inputs scanward-ci reads, as `--name` flags and `SCANWARD_NAME` variables. */
const INPUTS = [
  'api-url',
  'api-key',
  'token',
  'target',
  'scan-type',
  'ports',
  'frameworks',
  'credential-checks',
  'fail-on',
  'gate',
  'report-severity',
  'scan-id',
  'wait',
  'timeout-minutes',
  'poll-interval-seconds',
  'idempotency-key',
] as const;

export const USAGE = `Usage: scanward-ci [options]

Scan a host you own with your Scanward service, wait for the result, write
reports and exit 0 (passed), 1 (gate failed), 2 (bad usage) or 3 (the scan
failed, was cancelled or timed out).

Every option can also be set as an environment variable: --fail-on high is
SCANWARD_FAIL_ON=high. Flags win.

  --api-url URL                Scanward service address        (SCANWARD_API_URL, required)
  --api-key KEY                API key; prefer the variable    (SCANWARD_API_KEY)
  --token TOKEN                bearer token instead of a key   (SCANWARD_TOKEN)
  --target HOST                domain, IP or CIDR to scan      (SCANWARD_TARGET)
  --scan-type TYPE             quick (default), full, compliance
  --ports PORTS                e.g. 80,443 or 1-1024
  --frameworks LIST            soc2, pci-dss, iso27001
  --credential-checks MODE     defaults or none (default: the service's, by scan type)
  --fail-on SEVERITY           critical, high (default), medium, low, info, none
  --gate all|new               count every open finding (all, default) or only new/reopened ones
  --report-severity SEVERITY   least severe finding in the reports (default info)
  --scan-id ID                 follow an existing scan instead of creating one
  --wait true|false            false: create the scan, print its id, exit 0
  --no-wait                    the same as --wait false
  --timeout-minutes N          cancel the scan and exit 3 after N minutes (default 30)
  --poll-interval-seconds N    between status checks (default 10)
  --idempotency-key KEY        default: derived from the CI job, or random
  --sarif FILE                 write SARIF 2.1.0
  --junit FILE                 write JUnit XML: one test case per reported finding
  --json FILE                  write the scan, gate and findings as JSON
  --help, --version

SCANWARD_DEBUG=1 adds debug lines (the Idempotency-Key, ...) to the log.
`;

interface Parsed {
  get: (name: string) => string;
  reports: { sarif?: string | undefined; junit?: string | undefined; json?: string | undefined };
}

function parseCommandLine(argv: string[], env: CiDeps['env']): Parsed | 'help' | 'version' {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(INPUTS.map((name) => [name, { type: 'string' as const }]));
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...options,
        'no-wait': { type: 'boolean' },
        sarif: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigurationError(
      `${error instanceof Error ? error.message : String(error)}\nRun scanward-ci --help for the options.`,
    );
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const get = (name: string): string => {
    if (name === 'wait' && values['no-wait']) return 'false';
    if (name === 'upload-sarif') return 'false';
    if (name === 'comment') return 'false';
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    return env[`SCANWARD_${name.toUpperCase().replace(/-/g, '_')}`] ?? '';
  };
  return {
    get,
    reports: {
      sarif: values.sarif as string | undefined,
      junit: values.junit as string | undefined,
      json: values.json as string | undefined,
    },
  };
}

/** The CI job, for a default Idempotency-Key that is the same on a retried request and new per job. */
function ciJob(env: CiDeps['env']): { repository?: string; runId?: string; runAttempt?: string } {
  if (env.GITLAB_CI) return { repository: env.CI_PROJECT_PATH, runId: env.CI_JOB_ID };
  if (env.JENKINS_URL) return { repository: env.JOB_NAME, runId: env.BUILD_NUMBER };
  if (env.TF_BUILD)
    return {
      repository: env.BUILD_REPOSITORY_NAME,
      runId: env.BUILD_BUILDID,
      runAttempt: env.SYSTEM_JOBATTEMPT,
    };
  if (env.CIRCLECI) return { repository: env.CIRCLE_PROJECT_REPONAME, runId: env.CIRCLE_WORKFLOW_JOB_ID };
  return {};
}

export async function runCi(deps: CiDeps): Promise<number> {
  const err = (line: string) => deps.stderr(`${line}\n`);
  let inputs: ActionInputs;
  let parsed: Parsed;
  try {
    const commandLine = parseCommandLine(deps.argv, deps.env);
    if (commandLine === 'help') {
      deps.stdout(USAGE);
      return EXIT.passed;
    }
    if (commandLine === 'version') {
      deps.stdout(`scanward-ci ${ACTION_VERSION}\n`);
      return EXIT.passed;
    }
    parsed = commandLine;
    const { inputs: read, warnings } = parseInputs(parsed.get, ciJob(deps.env), {
      heading: "scanward-ci's options",
    });
    inputs = read;
    for (const warning of warnings) err(`warning: ${warning}`);
  } catch (error) {
    err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }

  let outcome: FlowOutcome;
  try {
    outcome = await runScanFlow(
      {
        log: {
          info: err,
          warning: (m) => err(`warning: ${m}`),
          debug: (m) => deps.env.SCANWARD_DEBUG && err(`debug: ${m}`),
        },
        http: httpDeps(deps, err),
        userAgent: `scanward-ci/${ACTION_VERSION}`,
        onSecret: () => undefined,
      },
      inputs,
    );
  } catch (error) {
    err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return isUserError(error) ? EXIT.usage : EXIT.scanFailed;
  }

  switch (outcome.kind) {
    case 'started':
      deps.stdout(`${outcome.scanId}\n`);
      return EXIT.passed;
    case 'aborted':
      err(`error: the job was cancelled; Scanward scan ${outcome.scanId} was cancelled too.`);
      return EXIT.scanFailed;
    case 'unsuccessful': {
      const { scan } = outcome;
      if (outcome.timedOut) {
        err(
          `error: Scanward scan ${scan.id} did not finish within --timeout-minutes (${formatMinutes(inputs.timeoutMs / 60_000)}) and was cancelled.`,
        );
      } else {
        const reason = scan.error ?? scan.message;
        err(`error: Scanward scan ${scan.id} ${scan.status}${reason ? `: ${reason}` : ''}.`);
      }
      await writeReport(
        deps,
        parsed.reports.json,
        JSON.stringify({ scan, timed_out: outcome.timedOut }, null, 2),
      );
      return EXIT.scanFailed;
    }
    case 'completed':
      break;
  }

  const { scan, findings, links, toolVersion } = outcome;
  let verdict;
  try {
    verdict = judge(findings, inputs);
  } catch (error) {
    err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }
  const { gate } = verdict;
  const urlOf = (id: string) => findingUrl(inputs.apiUrl, id);

  if (parsed.reports.sarif) {
    const { log } = buildSarif(verdict.reported, {
      scanId: scan.id,
      target: scan.target,
      scanType: scan.scan_type,
      toolVersion,
      informationUri: `${inputs.apiUrl}/docs`,
      scanUrl: links.scanUrl,
      startedAt: scan.started_at,
      completedAt: scan.completed_at,
    });
    await writeReport(deps, parsed.reports.sarif, JSON.stringify(log, null, 2));
  }
  if (parsed.reports.junit) {
    const started = scan.started_at ? Date.parse(scan.started_at) : NaN;
    const ended = scan.completed_at ? Date.parse(scan.completed_at) : NaN;
    await writeReport(
      deps,
      parsed.reports.junit,
      renderJUnit({
        scanId: scan.id,
        target: scan.target,
        scanUrl: links.scanUrl,
        seconds: Number.isFinite(ended - started) ? (ended - started) / 1000 : undefined,
        timestamp: scan.started_at,
        findings: verdict.reported,
        gate,
        findingUrl: urlOf,
      }),
    );
  }
  if (parsed.reports.json) {
    const report = {
      scan,
      gate: {
        mode: gate.mode,
        fail_on: gate.failOn,
        failed: gate.failed,
        counts: gate.counts,
        message: gate.message,
      },
      new_finding_ids: verdict.newFindings.map((f) => f.id),
      failing_finding_ids: gate.failing.map((f) => f.id),
      findings: verdict.reported,
    };
    await writeReport(deps, parsed.reports.json, JSON.stringify(report, null, 2));
  }

  deps.stdout(
    [
      `Scanward scan ${scan.id} of ${scan.target}: completed (${formatCounts(scanCounts(scan))}).`,
      `${verdict.newFindings.length} new finding(s) at or above ${inputs.reportSeverity}.`,
      ...gate.failing
        .slice(0, 10)
        .map((f) => `  ${f.severity}: ${f.title} on ${f.affected_component} (${urlOf(f.id)})`),
      ...(gate.failing.length > 10 ? [`  …and ${gate.failing.length - 10} more.`] : []),
      gate.message,
      '',
    ].join('\n'),
  );
  return gate.failed ? EXIT.gateFailed : EXIT.passed;
}

async function writeReport(deps: CiDeps, file: string | undefined, text: string): Promise<void> {
  if (!file) return;
  const path = resolve(deps.cwd, file);
  await deps.mkdir(dirname(path));
  await deps.writeFile(path, text);
  deps.stderr(`Wrote ${path}\n`);
}
