import { dirname, resolve } from 'node:path';
import { isUserError } from '../core/errors.ts';
import { parseInputs, type ActionInputs } from '../core/inputs.ts';
import type { ScanOutcome } from '../core/scan-source.ts';
import { judge, type CompletedVerdict, type Verdict } from '../core/verdict.ts';
import { ACTION_VERSION } from '../core/version.ts';
import { jsonReport } from '../reports/json.ts';
import { renderJUnit } from '../reports/junit.ts';
import { flagName, failureMessage } from '../reports/messages.ts';
import { sarifReport } from '../reports/sarif.ts';
import { renderText } from '../reports/text.ts';
import { httpDeps, type Fetch, type RetryPolicy, type Sleep } from '../service/http.ts';
import { remoteScanSource } from '../service/remote-scan.ts';
import { localScanSource } from '../local/local-scan.ts';
import type { LocalEngine } from '../../server/schemas/local-scan.ts';
import { USAGE, ciJob, parseCommandLine, type CommandLine } from './command-line.ts';

/**
 * `scanward-ci`: the Action's scan, gate and reports for every other CI
 * (GitLab CI, Jenkins, Azure Pipelines, CircleCI, a shell). The same inputs
 * as flags (`--fail-on high`) or environment variables (`SCANWARD_FAIL_ON`),
 * progress on stderr, report files on request, and an exit code a pipeline
 * can act on. It runs the same scan source, verdict and report builders as
 * the Action; only this front end differs.
 */

export const EXIT = { passed: 0, gateFailed: 1, usage: 2, scanFailed: 3 } as const;

export { USAGE };

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
  /** Reads a report to import (`scanward-ci import FILE`, `--import-file`). */
  readFile?: ((path: string) => Promise<Uint8Array>) | undefined;
  cwd: string;
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy | undefined;
  /** Loads the local engine (`--local`): dist/local/engine.mjs beside the bundle. */
  loadEngine?: (() => Promise<LocalEngine>) | undefined;
  /** Milliseconds since the process started, for the local engine's first-probe line. */
  sinceStart?: (() => number) | undefined;
  /** Where the local engine keeps its compiled-template cache. */
  cacheDir?: string | undefined;
}

async function missingEngine(): Promise<LocalEngine> {
  throw new Error('this build of scanward-ci has no local engine (dist/local/engine.mjs)');
}

export async function runCi(deps: CiDeps): Promise<number> {
  const err = (line: string) => deps.stderr(`${line}\n`);
  const fail = (error: unknown) => err(`error: ${error instanceof Error ? error.message : String(error)}`);

  let inputs: ActionInputs;
  let commandLine: CommandLine;
  try {
    const parsed = parseCommandLine(deps.argv, deps.env);
    if (parsed === 'help') {
      deps.stdout(USAGE);
      return EXIT.passed;
    }
    if (parsed === 'version') {
      deps.stdout(`scanward-ci ${ACTION_VERSION}\n`);
      return EXIT.passed;
    }
    commandLine = parsed;
    const read = parseInputs(commandLine.get, ciJob(deps.env), { heading: "scanward-ci's options" });
    inputs = read.inputs;
    for (const warning of read.warnings) err(`warning: ${warning}`);
  } catch (error) {
    fail(error);
    return EXIT.usage;
  }

  const log = {
    info: err,
    warning: (m: string) => err(`warning: ${m}`),
    debug: (m: string) => void (deps.env.SCANWARD_DEBUG && err(`debug: ${m}`)),
  };
  const http = httpDeps(deps, err);
  const userAgent = `scanward-ci/${ACTION_VERSION}`;
  const source =
    inputs.mode === 'local'
      ? localScanSource(inputs.local!, {
          log,
          loadEngine: deps.loadEngine ?? missingEngine,
          sinceStart: deps.sinceStart ?? (() => 0),
          service: inputs.service && { inputs: inputs.service, http, userAgent, onSecret: () => undefined },
          cacheDir: deps.cacheDir,
          signal: deps.signal,
        })
      : remoteScanSource(inputs.service!, {
          log,
          http,
          userAgent,
          onSecret: () => undefined,
          readFile: deps.readFile && ((path) => deps.readFile!(resolve(deps.cwd, path))),
        });
  let outcome: ScanOutcome;
  let verdict: Verdict;
  try {
    outcome = await source.run(inputs.scan);
    if (outcome.kind === 'started') {
      deps.stdout(`${outcome.scanId}\n`);
      return EXIT.passed;
    }
    if (outcome.kind === 'aborted') {
      err(
        outcome.scanId === 'local'
          ? 'error: the job was cancelled; the local scan stopped.'
          : `error: the job was cancelled; Scanward scan ${outcome.scanId} was cancelled too.`,
      );
      return EXIT.scanFailed;
    }
    verdict = judge(outcome, inputs.policy);
  } catch (error) {
    fail(error);
    return isUserError(error) ? EXIT.usage : EXIT.scanFailed;
  }

  if (verdict.kind === 'unsuccessful') err(`error: ${failureMessage(verdict, flagName)}`);
  await writeReports(deps, commandLine.reports, verdict);
  if (verdict.kind === 'unsuccessful') return EXIT.scanFailed;
  deps.stdout(renderText(verdict));
  return verdict.passed ? EXIT.passed : EXIT.gateFailed;
}

/**
 * The report files asked for. A scan that did not complete gets only its JSON report: an
 * empty SARIF file would tell a code scanning service that every alert was fixed, and an
 * empty JUnit file that every test passed.
 */
async function writeReports(deps: CiDeps, files: CommandLine['reports'], verdict: Verdict): Promise<void> {
  const reports: Array<[string | undefined, () => string]> = [];
  if (verdict.kind === 'completed') {
    reports.push([files.sarif, () => sarifText(deps, verdict)], [files.junit, () => renderJUnit(verdict)]);
  }
  reports.push([files.json, () => jsonReport(verdict)]);
  for (const [file, build] of reports) {
    if (!file) continue;
    const path = resolve(deps.cwd, file);
    await deps.mkdir(dirname(path));
    await deps.writeFile(path, build());
    deps.stderr(`Wrote ${path}\n`);
  }
}

function sarifText(deps: CiDeps, verdict: CompletedVerdict): string {
  const sarif = sarifReport(verdict);
  for (const warning of sarif.warnings) deps.stderr(`warning: ${warning}\n`);
  return sarif.text;
}
