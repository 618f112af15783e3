import { parseArgs } from 'node:util';
import { ConfigurationError } from '../core/errors.ts';
import type { JobIdentity } from '../core/inputs.ts';
import { followOptions } from './commands/follow.ts';
import { gateOptions } from './commands/gate.ts';
import type { Env, OptionGroup, Values } from './commands/group.ts';
import { importCommand, importOptions } from './commands/import.ts';
import { localOptions } from './commands/local.ts';
import { reportOptions } from './commands/reports.ts';
import { scanOptions } from './commands/scan.ts';
import { serviceOptions } from './commands/service.ts';
import { webOptions } from './commands/web.ts';

/**
 * `scanward-ci`'s command line: the Action's inputs as `--name` flags or `SCANWARD_NAME`
 * variables (flags win), the report files, `--help` and `--version`. Each group of options is
 * declared once in commands/ (its flags, its help lines, the inputs it spells its own way);
 * this file composes them, and reads the commands `scan` and `import FILE`.
 */

/** The groups, in the order `--help` lists them. */
const GROUPS: OptionGroup[] = [
  serviceOptions,
  scanOptions,
  gateOptions,
  followOptions,
  importOptions,
  localOptions,
  webOptions,
  reportOptions,
];

export const USAGE = `Usage: scanward-ci [options]
       scanward-ci import FILE --target ASSET [--import-format FORMAT] [options]
       scanward-ci scan --local --target http://localhost:8080 [--asset NAME] [options]

Scan a host you own with your Scanward service, wait for the result, write
reports and exit 0 (passed), 1 (gate failed), 2 (bad usage, or the service
refused the request or answered with a redirect) or 3 (the scan failed, was
cancelled or timed out, or the service could not be reached).

Every option can also be set as an environment variable: --fail-on high is
SCANWARD_FAIL_ON=high. Flags win.

${GROUPS.map((group) => group.help).join('')}  --help, --version

SCANWARD_DEBUG=1 adds debug lines (the Idempotency-Key, ...) to the log.
`;

export interface CommandLine {
  get: (name: string) => string;
  reports: { sarif?: string | undefined; junit?: string | undefined; json?: string | undefined };
}

export function parseCommandLine(argv: string[], env: Env): CommandLine | 'help' | 'version' {
  let values: Values;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      options: {
        ...Object.assign({}, ...GROUPS.map((group) => group.options)),
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    });
    values = parsed.values as Values;
    positionals = parsed.positionals;
  } catch (error) {
    throw new ConfigurationError(
      `${error instanceof Error ? error.message : String(error)}\nRun scanward-ci --help for the options.`,
    );
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  // `scanward-ci scan --local`: the scan is the default command; `scan` may be named.
  if (positionals[0] === 'scan') {
    if (positionals.length !== 1)
      throw new ConfigurationError(
        `unexpected argument "${positionals.slice(1).join(' ')}"; give the target with --target.\nRun scanward-ci --help for the options.`,
      );
    positionals = [];
  }
  if (positionals.length > 0) importCommand(positionals, values);
  const get = (name: string): string => {
    for (const group of GROUPS) {
      const value = group.input?.(name, values, env, get);
      if (value !== undefined) return value;
    }
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
export function ciJob(env: Env): JobIdentity {
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
