import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../../action/core/errors.ts';
import { defaultIdempotencyKey, parseInputs } from '../../../../action/core/inputs.ts';
import { ACTION_VERSION } from '../../../../action/core/version.ts';

const context = { repository: 'octo/shop', runId: '123', runAttempt: '2', job: 'scan', step: 'scanward' };

const base = {
  'api-url': 'https://scanward.example.com',
  'api-key': 'sw_key',
  target: 'app.example.com',
  'github-token': 'ghs_x',
};

function parse(inputs: Record<string, string>, ctx = context) {
  return parseInputs((name) => inputs[name] ?? '', ctx);
}

function problemsOf(inputs: Record<string, string>): string {
  try {
    parse(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('action inputs', () => {
  it('applies the documented defaults', () => {
    const { inputs, warnings } = parse(base);
    expect(inputs).toMatchObject({
      service: { apiUrl: 'https://scanward.example.com', auth: { kind: 'api-key', apiKey: 'sw_key' } },
      scan: {
        target: 'app.example.com',
        scanType: 'quick',
        frameworks: [],
        wait: true,
        timeoutMs: 30 * 60_000,
        pollIntervalMs: 10_000,
      },
      policy: { failOn: 'high', mode: 'all', reportSeverity: 'info' },
      github: { uploadSarif: true, comment: false, sarifFile: 'scanward.sarif', githubToken: 'ghs_x' },
    });
    expect(inputs.scan.ports).toBeUndefined();
    expect(inputs.scan.scanId).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('reads the gate, report-severity, wait and comment inputs, and refuses other values', () => {
    const { inputs } = parse({
      ...base,
      gate: 'NEW',
      'report-severity': 'medium',
      wait: 'false',
      comment: 'true',
    });
    expect(inputs).toMatchObject({
      policy: { mode: 'new', reportSeverity: 'medium' },
      scan: { wait: false },
      github: { comment: true },
    });
    const problems = problemsOf({ ...base, gate: 'changed', 'report-severity': 'none', wait: 'no' });
    expect(problems).toContain('`gate` is "changed"; use all');
    expect(problems).toContain('`report-severity` is "none"');
    expect(problems).toContain('`wait` is "no"; use true or false');
  });

  it('passes credential-checks through when set, leaves the service default otherwise, and refuses other values', () => {
    expect(parse(base).inputs.scan.credentialChecks).toBeUndefined();
    expect(parse({ ...base, 'credential-checks': 'None' }).inputs.scan.credentialChecks).toBe('none');
    expect(parse({ ...base, 'credential-checks': 'defaults' }).inputs.scan.credentialChecks).toBe('defaults');
    expect(problemsOf({ ...base, 'credential-checks': 'all' })).toContain(
      '`credential-checks` is "all"; use defaults',
    );
  });

  it('keys a scan with other credential-checks apart', () => {
    const key = (mode: string) => parse({ ...base, 'credential-checks': mode }).inputs.scan.idempotencyKey;
    expect(key('none')).not.toBe(key('defaults'));
    expect(key('')).not.toBe(key('none'));
  });

  it('follows a scan-id without a target, and refuses what is not a scan id', () => {
    const { inputs, warnings } = parse({ ...base, target: '', 'scan-id': 'scan_0123456789abcdefghijklmn' });
    expect(inputs.scan.scanId).toBe('scan_0123456789abcdefghijklmn');
    expect(warnings).toEqual([]);
    expect(parse({ ...base, 'scan-id': 'scan_abc' }).warnings[0]).toContain(
      '`target` and the other scan inputs are not used',
    );
    expect(problemsOf({ ...base, 'scan-id': '../scans' })).toContain('`scan-id` is "../scans"');
    expect(problemsOf({ ...base, target: '' })).toContain('`target` is required');
  });

  it('needs a github-token to comment', () => {
    expect(problemsOf({ ...base, 'github-token': '', 'upload-sarif': 'false', comment: 'true' })).toContain(
      'comment is true',
    );
  });

  it('accepts the service base with or without /api/v1 and a trailing slash', () => {
    for (const url of [
      'https://h.example.com/api/v1',
      'https://h.example.com/api/v1/',
      'https://h.example.com/',
    ]) {
      expect(parse({ ...base, 'api-url': url }).inputs.service?.apiUrl).toBe('https://h.example.com');
    }
    expect(parse({ ...base, 'api-url': 'https://h.example.com/scanward/' }).inputs.service?.apiUrl).toBe(
      'https://h.example.com/scanward',
    );
  });

  it('warns when the API key would travel over plain http to another host, not to loopback', () => {
    expect(parse({ ...base, 'api-url': 'http://scanward.example.com' }).warnings[0]).toContain('plain http');
    expect(parse({ ...base, 'api-url': 'http://127.0.0.1:8000' }).warnings).toEqual([]);
  });

  it('takes a bearer token instead of an API key, with or without the Bearer prefix', () => {
    const { inputs } = parse({ ...base, 'api-key': '', token: 'Bearer eyJ.a.b' });
    expect(inputs.service?.auth).toEqual({ kind: 'token', token: 'eyJ.a.b' });
  });

  it('parses lists, numbers and booleans', () => {
    const { inputs, warnings } = parse({
      ...base,
      'scan-type': 'compliance',
      frameworks: 'SOC2, pci-dss,soc2',
      ports: '22,80,8000-8100',
      'fail-on': 'CRITICAL',
      'timeout-minutes': '0.5',
      'poll-interval-seconds': '0',
      'upload-sarif': 'False',
      'github-token': '',
    });
    expect(inputs).toMatchObject({
      scan: {
        scanType: 'compliance',
        frameworks: ['soc2', 'pci-dss'],
        ports: '22,80,8000-8100',
        timeoutMs: 30_000,
        pollIntervalMs: 0,
      },
      policy: { failOn: 'critical' },
      github: { uploadSarif: false },
    });
    expect(warnings).toEqual([]);
  });

  it('follows the scan through the event stream unless follow says poll', () => {
    expect(parse(base).inputs.scan.follow).toBe('stream');
    expect(parse({ ...base, follow: 'Poll' }).inputs.scan.follow).toBe('poll');
    expect(problemsOf({ ...base, follow: 'sometimes' })).toContain(
      '`follow` is "sometimes"; use stream (the service\'s event stream',
    );
  });

  it('warns that frameworks matter to compliance scans', () => {
    expect(parse({ ...base, frameworks: 'soc2' }).warnings[0]).toContain('frameworks');
  });

  it('lists every problem at once, each naming its input and a right value', () => {
    const message = problemsOf({
      'api-url': 'ftp://x.example.com',
      'api-key': 'k',
      token: 't',
      target: '',
      'scan-type': 'deep',
      frameworks: 'hipaa',
      ports: '80-22',
      'fail-on': 'severe',
      'timeout-minutes': '0',
      'poll-interval-seconds': 'ten',
      'upload-sarif': 'yes',
      'idempotency-key': 'has space',
    });
    for (const expected of [
      '`api-url` must start with https://',
      'either `api-key` or `token`, not both',
      '`target` is required',
      '`scan-type` is "deep"; use quick, full or compliance',
      '`frameworks` lists "hipaa"',
      'range "80-22" is reversed; write it as "22-80"',
      '`fail-on` is "severe"; use one of critical, high, medium, low, info, none',
      '`timeout-minutes` is "0"; use a number more than 0',
      '`poll-interval-seconds` is "ten"',
      '`upload-sarif` is "yes"; use true or false',
      '`idempotency-key` must be 1-255 printable ASCII',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('asks for credentials and for a github-token when uploading', () => {
    const message = problemsOf({ 'api-url': 'https://h.example.com', target: 'h.example.com' });
    expect(message).toContain('Set `api-key`');
    expect(message).toContain('`github-token` is empty but upload-sarif is true');
  });

  it('refuses credentials, queries and non-URLs in api-url', () => {
    expect(problemsOf({ ...base, 'api-url': 'https://u:p@h.example.com' })).toContain(
      'must not contain credentials',
    );
    expect(problemsOf({ ...base, 'api-url': 'https://h.example.com/?x=1' })).toContain('query string');
    expect(problemsOf({ ...base, 'api-url': 'scanward.example.com' })).toContain('is not a URL');
  });

  it('uses an explicit idempotency-key as given', () => {
    expect(parse({ ...base, 'idempotency-key': 'release-42' }).inputs.scan.idempotencyKey).toBe('release-42');
  });
});

describe('the default Idempotency-Key', () => {
  const scan = { target: 'app.example.com', scan_type: 'quick', frameworks: [] as string[] };

  it('is the same for the same step, run attempt and scan inputs', () => {
    expect(defaultIdempotencyKey(context, scan)).toBe(defaultIdempotencyKey(context, { ...scan }));
    expect(defaultIdempotencyKey(context, scan)).toMatch(
      /^scanward-action:octo\/shop:123:2:scan:scanward:[0-9a-f]{16}$/,
    );
  });

  it('differs per attempt, step and scan inputs', () => {
    const key = defaultIdempotencyKey(context, scan);
    expect(defaultIdempotencyKey({ ...context, runAttempt: '3' }, scan)).not.toBe(key);
    expect(defaultIdempotencyKey({ ...context, step: 'second' }, scan)).not.toBe(key);
    expect(defaultIdempotencyKey(context, { ...scan, target: 'other.example.com' })).not.toBe(key);
    expect(defaultIdempotencyKey(context, { ...scan, ports: '443' })).not.toBe(key);
  });

  it('is fresh on every run outside GitHub Actions', () => {
    const outside = {};
    expect(defaultIdempotencyKey(outside, scan)).not.toBe(defaultIdempotencyKey(outside, scan));
  });

  it('stays within the 255 printable characters the service accepts', () => {
    const key = defaultIdempotencyKey({ ...context, repository: `o/${'r'.repeat(300)}` }, scan);
    expect(key).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});

describe('the Action version', () => {
  it('matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(ACTION_VERSION).toBe(pkg.version);
  });
});

describe('import-file and import-format', () => {
  it('asks for the report to be imported, with its format when given', () => {
    const { inputs } = parse({ ...base, 'import-file': 'reports/zap.xml', 'import-format': 'ZAP' });
    expect(inputs.scan.importFile).toEqual({ path: 'reports/zap.xml', format: 'zap' });
    expect(parse(base).inputs.scan.importFile).toBeUndefined();
    expect(parse({ ...base, 'import-file': 'n.jsonl' }).inputs.scan.importFile).toEqual({
      path: 'n.jsonl',
      format: undefined,
    });
  });

  it('names every problem: an unknown format, no target, and scan-id beside it', () => {
    const message = problemsOf({
      ...base,
      target: '',
      'import-file': 'r.xml',
      'import-format': 'burp',
      'scan-id': 'scan_abc',
    });
    expect(message).toContain('`import-format` is "burp"');
    expect(message).toContain('`target` is required with `import-file`');
    expect(message).toContain('Set `import-file` or `scan-id`, not both.');
  });
});

describe('keyless CI sign-in inputs (issue 26)', () => {
  const keyless = {
    'api-url': 'https://scanward.example.com',
    target: 'app.example.com',
    'github-token': 'ghs_x',
  };
  const withIdToken = (inputs: Record<string, string>) =>
    parseInputs((name) => inputs[name] ?? '', context, { idTokenAvailable: true });

  it('signs in with the job ID token when no key or token is given and the runner can mint one', () => {
    expect(withIdToken({ ...keyless, organization: 'org_abc123' }).inputs.service?.auth).toEqual({
      kind: 'oidc',
      organizationId: 'org_abc123',
    });
    expect(
      withIdToken({ ...keyless, auth: 'oidc', audience: 'https://aud.example.com' }).inputs.service?.auth,
    ).toEqual({ kind: 'oidc', audience: 'https://aud.example.com' });
    // A key given still wins over the automatic choice.
    expect(withIdToken({ ...keyless, 'api-key': 'sw_key' }).inputs.service?.auth.kind).toBe('api-key');
  });

  it('explains what is missing for auth: oidc', () => {
    expect(problemsOf({ ...keyless, auth: 'oidc' })).toContain('id-token: write');
    expect(problemsOf({ ...keyless, auth: 'oidc', 'api-key': 'sw_key' })).toContain(
      'leave `api-key` and `token` out',
    );
    expect(problemsOf({ ...keyless, auth: 'magic' })).toContain('use api-key, token or oidc');
    // No organization to ask the audience of (the instance's URL is nobody's audience any more).
    const refusalOf = (inputs: Record<string, string>) => {
      try {
        withIdToken(inputs);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a ConfigurationError');
    };
    expect(refusalOf(keyless)).toContain('set `organization`');
    expect(refusalOf({ ...keyless, organization: 'acme' })).toContain('`organization` is "acme"');
  });

  it('takes the ID token scanward-ci read from the variable --id-token-env names', () => {
    expect(
      parse({ ...keyless, 'id-token-env': 'GITLAB_OIDC', 'id-token': 'eyJ.x.y' }).inputs.service?.auth,
    ).toEqual({
      kind: 'id-token',
      idToken: 'eyJ.x.y',
    });
    expect(problemsOf({ ...keyless, 'id-token-env': 'GITLAB_OIDC' })).toContain(
      'names GITLAB_OIDC, which is empty',
    );
  });
});

describe('mode: local', () => {
  const local = { mode: 'local', target: 'http://localhost:8080', 'github-token': 'ghs_x' };

  it('needs no service; the asset defaults to <repository>:<target> and the scan type to full', () => {
    const { inputs, warnings } = parse(local);
    expect(inputs.mode).toBe('local');
    expect(inputs.service).toBeUndefined();
    expect(inputs.local).toEqual({ asset: 'octo/shop:http://localhost:8080' });
    expect(inputs.scan.scanType).toBe('full');
    expect(warnings).toEqual([]);
  });

  it('records on the service when one is named, under the asset given', () => {
    const { inputs } = parse({ ...local, 'api-url': 'https://sw.example', 'api-key': 'k', asset: 'shop:pr' });
    expect(inputs.service?.apiUrl).toBe('https://sw.example');
    expect(inputs.local?.asset).toBe('shop:pr');
  });

  it('warns that gate: new counts every finding without a service', () => {
    expect(parse({ ...local, gate: 'new' }).warnings.join(' ')).toContain('no Scanward service is named');
  });

  it('scans locally with a key but no api-url (a CI-wide SCANWARD_API_KEY), warning that nothing is recorded', () => {
    const { inputs, warnings } = parse({ ...local, 'api-key': 'k' });
    expect(inputs.mode).toBe('local');
    expect(inputs.service).toBeUndefined();
    expect(warnings.join(' ')).toContain('credentials are set but `api-url` is not');
  });

  it('refuses a target that is not a URL and the remote-only inputs', () => {
    const problems = problemsOf({ ...local, target: 'localhost', 'api-key': 'k', 'scan-id': 'scan_x1' });
    expect(problems).toContain('name the service as a URL');
    expect(problems).not.toContain('`api-url` is required');
    expect(problems).toContain('`scan-id` cannot be used with mode: local');
    expect(problemsOf({ ...local, mode: 'elsewhere' })).toContain('`mode` is "elsewhere"');
  });
});
