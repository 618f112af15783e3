import { parseArgs } from 'node:util';
import { ConfigurationError } from '../core/errors.ts';
import type { JobIdentity } from '../core/inputs.ts';

/**
 * `scanward-ci`'s command line: the Action's inputs as `--name` flags or `SCANWARD_NAME`
 * variables (flags win), the report files, `--help` and `--version`.
 */

type Env = Record<string, string | undefined>;

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
  'follow',
  'poll-interval-seconds',
  'idempotency-key',
  'import-file',
  'import-format',
  'id-token-env',
  'mode',
  'asset',
  'login-url',
  'username',
  'password-env',
] as const;

export const USAGE = `Usage: scanward-ci [options]
       scanward-ci import FILE --target ASSET [--import-format FORMAT] [options]
       scanward-ci scan --local --target http://localhost:8080 [--asset NAME] [options]

Scan a host you own with your Scanward service, wait for the result, write
reports and exit 0 (passed), 1 (gate failed), 2 (bad usage, or the service
refused the request or answered with a redirect) or 3 (the scan failed, was
cancelled or timed out, or the service could not be reached).

Every option can also be set as an environment variable: --fail-on high is
SCANWARD_FAIL_ON=high. Flags win.

  --api-url URL                Scanward service address        (SCANWARD_API_URL; required
                               except with --local)
  --api-key KEY                API key; prefer the variable    (SCANWARD_API_KEY)
  --token TOKEN                bearer token instead of a key   (SCANWARD_TOKEN)
  --id-token-env VAR           sign in with the CI's OpenID ID token in the
                               variable VAR (GitLab id_tokens:), no stored key
                               (SCANWARD_ID_TOKEN_ENV)
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
  --follow stream|poll         stream (default): follow the scan through the service's
                               event stream, one request however long it runs, polling
                               when the stream is not available; poll: a status check
                               every --poll-interval-seconds
  --poll-interval-seconds N    between status checks when polling (default 10)
  --idempotency-key KEY        default: derived from the CI job, or random
  --import-file FILE           import this report (nuclei, ZAP, nmap, OpenVAS or Scanward
                               JSON) as a completed scan of --target instead of scanning;
                               \`scanward-ci import FILE\` is the same  (SCANWARD_IMPORT_FILE)
  --import-format FORMAT       nuclei, zap, nmap, openvas, scanward (default: detected)
  --local                      run Scanward's engine here, in the job, against --target, a
                               URL only this job reaches (http://localhost:8080): that host
                               and port only. --api-url and a key are then optional: with
                               them the result is recorded as a scan of --asset, so --gate
                               new compares with what the service knows  (SCANWARD_MODE=local)
  --asset NAME                 the stable name a local scan is recorded under
                               (default: <repository>:<target>)

Web application testing (docs/web-testing.md), locally and remotely:
  --active                     run the attack checks (SQL injection, XSS, command
                               injection, ...): they submit forms and may write data,
                               so scan a test deployment       (SCANWARD_ACTIVE=true)
  --login-url URL              sign in through this log-in form first (on the target)
  --username USER              the user name for the form log-in
  --password-env VAR           the password, read from the variable VAR (never a flag)
  --header 'Name: value'       a header sent with every request instead of a form
                               log-in (Authorization, Cookie); repeatable
                               (SCANWARD_AUTH_HEADERS, one per line)
  --exclude PATH               a path never requested: a prefix (/logout) or a glob
                               (/api/*/delete); repeatable     (SCANWARD_EXCLUDE_PATHS)
  --sarif FILE                 write SARIF 2.1.0
  --junit FILE                 write JUnit XML: one test case per reported finding
  --json FILE                  write the scan, gate and findings as JSON
  --help, --version

SCANWARD_DEBUG=1 adds debug lines (the Idempotency-Key, ...) to the log.
`;

export interface CommandLine {
  get: (name: string) => string;
  reports: { sarif?: string | undefined; junit?: string | undefined; json?: string | undefined };
}

export function parseCommandLine(argv: string[], env: Env): CommandLine | 'help' | 'version' {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    const options = Object.fromEntries(INPUTS.map((name) => [name, { type: 'string' as const }]));
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        ...options,
        'no-wait': { type: 'boolean' },
        local: { type: 'boolean' },
        active: { type: 'boolean' },
        header: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
        sarif: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    }));
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
  // `scanward-ci import FILE`: the report as a positional argument.
  if (positionals.length > 0) {
    if (positionals[0] !== 'import' || positionals.length !== 2)
      throw new ConfigurationError(
        `unexpected argument "${positionals.join(' ')}"; the commands are \`scan\` and \`import FILE\`.\nRun scanward-ci --help for the options.`,
      );
    if (typeof values['import-file'] === 'string')
      throw new ConfigurationError('give the report once: `import FILE` or --import-file, not both.');
    values['import-file'] = positionals[1];
  }
  const get = (name: string): string => {
    if (name === 'wait' && values['no-wait']) return 'false';
    if (name === 'mode' && values.local) return 'local';
    if (name === 'upload-sarif') return 'false';
    if (name === 'active' && values.active) return 'true';
    // Repeatable flags become the Action's one-per-line inputs.
    if (name === 'auth-headers' && Array.isArray(values.header)) return values.header.join('\n');
    if (name === 'exclude-paths' && Array.isArray(values.exclude)) return values.exclude.join('\n');
    // The password, read from the variable --password-env names (never a flag: it is a secret).
    if (name === 'password') {
      const source = get('password-env');
      return source ? (env[source] ?? '') : '';
    }
    if (name === 'comment') return 'false';
    // The ID token itself, read from the variable --id-token-env names (never a flag: it is a secret).
    if (name === 'id-token') {
      const source = get('id-token-env');
      return source ? (env[source] ?? '') : '';
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
