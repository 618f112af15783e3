import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../../action/ci/command-line.ts';
import { ConfigurationError } from '../../../../action/core/errors.ts';
import { parseInputs, webSecrets } from '../../../../action/core/inputs.ts';

/**
 * The web application inputs of the Action (`active`, `login-url`, `username`, `password`,
 * `auth-headers`, `exclude-paths`) and their `scanward-ci` flags (docs/web-testing.md).
 */

const context = { repository: 'octo/shop', runId: '123', runAttempt: '1', job: 'scan', step: 'scanward' };
const remote = {
  'api-url': 'https://scanward.example.com',
  'api-key': 'sw_key',
  target: 'app.example.com',
  'github-token': 'ghs_x',
};
const local = { mode: 'local', target: 'http://localhost:8080', 'upload-sarif': 'false' };

const parse = (inputs: Record<string, string>) => parseInputs((name) => inputs[name] ?? '', context);

function problemsOf(inputs: Record<string, string>): string {
  try {
    parse(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('web application inputs', () => {
  it('sends no web options when no web input is set', () => {
    expect(parse(remote).inputs.scan.web).toBeUndefined();
  });

  it('runs a full scan by default when active is set, since quick scans skip the web analysis phase', () => {
    expect(parse({ ...remote, active: 'true' }).inputs.scan.scanType).toBe('full');
    expect(parse(remote).inputs.scan.scanType).toBe('quick');
    expect(parse({ ...remote, active: 'true', 'scan-type': 'compliance' }).inputs.scan.scanType).toBe(
      'compliance',
    );
  });

  it('reads a form log-in, active and exclusions into web', () => {
    const { inputs } = parse({
      ...local,
      active: 'true',
      'login-url': 'http://localhost:8080/login.php',
      username: 'admin',
      password: 'p@ss word',
      'exclude-paths': '/logout.php\n/setup.php, /admin/*/delete',
    });
    expect(inputs.scan.web).toEqual({
      active: true,
      authentication: {
        type: 'form',
        login_url: 'http://localhost:8080/login.php',
        username: 'admin',
        password: 'p@ss word',
      },
      exclude_paths: ['/logout.php', '/setup.php', '/admin/*/delete'],
    });
    expect(webSecrets(inputs.scan.web)).toEqual(['p@ss word']);
  });

  it('reads auth-headers one per line, values kept whole, and marks every value secret', () => {
    const { inputs } = parse({
      ...remote,
      'auth-headers': 'Authorization: Bearer abc:def\n\nCookie: a=1; b=2\n',
    });
    expect(inputs.scan.web).toEqual({
      active: false,
      authentication: { type: 'headers', headers: { Authorization: 'Bearer abc:def', Cookie: 'a=1; b=2' } },
      exclude_paths: [],
    });
    expect(webSecrets(inputs.scan.web)).toEqual(['Bearer abc:def', 'a=1; b=2']);
  });

  it('names what a form log-in lacks, and never repeats a secret in a problem', () => {
    const message = problemsOf({
      ...remote,
      'login-url': 'https://app.example.com/login',
      username: 'admin',
    });
    expect(message).toContain('`password` is empty');
    const both = problemsOf({
      ...remote,
      'login-url': 'https://app.example.com/login',
      username: 'admin',
      password: 'hunter2-secret',
      'auth-headers': 'Authorization: Bearer tok-secret',
    });
    expect(both).toContain('not both');
    expect(both).not.toContain('hunter2-secret');
    expect(both).not.toContain('tok-secret');
    const badLine = problemsOf({ ...remote, 'auth-headers': 'just-a-token-secret' });
    expect(badLine).toContain('`auth-headers` line 1 is not `Name: value`');
    expect(badLine).not.toContain('just-a-token-secret');
  });

  it('refuses a log-in page that is not on the target', () => {
    expect(
      problemsOf({
        ...local,
        'login-url': 'http://localhost:9090/login',
        username: 'a',
        password: 'b',
      }),
    ).toContain("`login-url` must be on the target's origin http://localhost:8080");
    expect(
      problemsOf({ ...remote, 'login-url': 'https://evil.example.net/login', username: 'a', password: 'b' }),
    ).toContain('`login-url` must be on the scan');
    expect(problemsOf({ ...remote, active: 'yes' })).toContain('`active` is "yes"; use true or false.');
  });

  it('keeps the default Idempotency-Key when only the password changes, and changes it with the options', () => {
    const form = { ...local, 'login-url': 'http://localhost:8080/login', username: 'a', password: 'one' };
    const key = parse(form).inputs.scan.idempotencyKey;
    expect(parse({ ...form, password: 'two' }).inputs.scan.idempotencyKey).toBe(key);
    expect(parse({ ...form, active: 'true' }).inputs.scan.idempotencyKey).not.toBe(key);
    expect(parse(local).inputs.scan.idempotencyKey).not.toBe(key);
  });
});

describe('scanward-ci web flags', () => {
  const inputsOf = (argv: string[], env: Record<string, string> = {}) => {
    const line = parseCommandLine(argv, env);
    if (typeof line === 'string') throw new Error(line);
    return parseInputs(line.get, {}, { heading: "scanward-ci's options" }).inputs;
  };

  it('turns --active, --login-url, --username, --password-env and repeated --exclude into web', () => {
    const inputs = inputsOf(
      [
        'scan',
        '--local',
        '--target',
        'http://127.0.0.1:8080',
        '--active',
        '--login-url',
        'http://127.0.0.1:8080/login',
        '--username',
        'admin',
        '--password-env',
        'APP_PASSWORD',
        '--exclude',
        '/logout',
        '--exclude',
        '/setup',
      ],
      { APP_PASSWORD: 'from-the-env' },
    );
    expect(inputs.mode).toBe('local');
    expect(inputs.scan.web).toEqual({
      active: true,
      authentication: {
        type: 'form',
        login_url: 'http://127.0.0.1:8080/login',
        username: 'admin',
        password: 'from-the-env',
      },
      exclude_paths: ['/logout', '/setup'],
    });
  });

  it('turns repeated --header into header authentication, remotely too', () => {
    const inputs = inputsOf(
      ['--target', '127.0.0.1', '--header', 'Authorization: Bearer t', '--header', 'X-Tenant: 7'],
      { SCANWARD_API_URL: 'https://scanward.example.com', SCANWARD_API_KEY: 'sw_key' },
    );
    expect(inputs.mode).toBe('remote');
    expect(inputs.scan.web?.authentication).toEqual({
      type: 'headers',
      headers: { Authorization: 'Bearer t', 'X-Tenant': '7' },
    });
  });

  it('reads SCANWARD_ACTIVE and SCANWARD_EXCLUDE_PATHS like every option', () => {
    const inputs = inputsOf(['--target', '127.0.0.1'], {
      SCANWARD_API_URL: 'https://scanward.example.com',
      SCANWARD_API_KEY: 'sw_key',
      SCANWARD_ACTIVE: 'true',
      SCANWARD_EXCLUDE_PATHS: '/a\n/b',
    });
    expect(inputs.scan.web).toEqual({ active: true, exclude_paths: ['/a', '/b'] });
  });

  it('says which variable --password-env names when it is empty', () => {
    expect(() =>
      inputsOf([
        '--local',
        '--target',
        'http://127.0.0.1:8080',
        '--login-url',
        'http://127.0.0.1:8080/login',
        '--username',
        'admin',
        '--password-env',
        'NOT_SET_HERE',
      ]),
    ).toThrow('`password-env` names NOT_SET_HERE, which is empty or unset');
  });

  it('takes no password as a flag', () => {
    expect(() => parseCommandLine(['--password', 'x'], {})).toThrow(ConfigurationError);
  });
});
