import { describe, expect, it } from 'vitest';
import { dslMatches, evaluateDsl, mmh3, parseDsl } from '../../../../server/scanner/templates/dsl.ts';
import { compileGoRegex } from '../../../../server/scanner/templates/regex.ts';
import { REGEX_TIMEOUT_MS, sandboxedRegexTest } from '../../../../server/scanner/templates/regex-sandbox.ts';
import { compileTemplate, UnsupportedTemplate } from '../../../../server/scanner/templates/loader.ts';
import { parseResponse } from '../../../../server/scanner/net/http-client.ts';
import { requestMatches, ResponseView } from '../../../../server/scanner/templates/matchers.ts';
import {
  canonicalCheckId,
  redactEvidence,
  requestTarget,
  substitute,
  templateTarget,
} from '../../../../server/scanner/templates/execute.ts';

const response = (status: number, headers: Record<string, string>, body: string): ResponseView => {
  const head = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join(
    '\r\n',
  );
  return new ResponseView(parseResponse(Buffer.from(`${head}\r\n\r\n${body}`, 'utf8'))!);
};

const template = (http: string, extra = ''): string =>
  `id: t1\ninfo:\n  name: T\n  severity: high\n${extra}http:\n${http}`;

const reason = (text: string): string => {
  try {
    compileTemplate(text);
    return 'loaded';
  } catch (err) {
    return err instanceof UnsupportedTemplate ? err.reason : String(err);
  }
};

describe('Go regex conversion', () => {
  it('turns leading inline flags into JavaScript flags', async () => {
    const re = compileGoRegex('(?mi)^db_pass=');
    expect(re.flags).toBe('im');
    expect(re.test('X=1\nDB_PASS=2')).toBe(true);
    expect(compileGoRegex('(?s)a.b').test('a\nb')).toBe(true);
  });
  it('converts named groups and anchors, rejects what JavaScript cannot express', async () => {
    expect(compileGoRegex('(?P<v>\\d+)').exec('v=42')?.groups?.v).toBe('42');
    expect(compileGoRegex('\\Aabc\\z').test('abc')).toBe(true);
    expect(() => compileGoRegex('(?U)a+')).toThrow();
    expect(() => compileGoRegex('[[:alpha:]]+')).toThrow();
  });
});

describe('DSL evaluator', () => {
  const vars = new Map<string, string | number>([
    ['body', 'Hello <HTML> world'],
    ['status_code', 200],
    ['content_type', 'text/html'],
  ]);
  it('evaluates the supported functions and operators', async () => {
    const yes = [
      "contains(to_lower(body), '<html')",
      "contains_all(body, 'Hello', 'world') && status_code == 200",
      "contains_any(body, 'nope', 'world')",
      "!contains(body, 'absent') || false",
      'len(body) > 10 && status_code >= 200 && status_code < 300',
      "regex('(?i)<html>', body)",
      "compare_versions('1.10.2', '>= 1.9', '< 2')",
      "starts_with(content_type, 'text/')",
      "concat('a', 'b') == 'ab'",
    ];
    for (const source of yes) expect(await dslMatches(parseDsl(source), vars), source).toBe(true);
    expect(await dslMatches(parseDsl('status_code == 404'), vars)).toBe(false);
    expect(await evaluateDsl(parseDsl('1 + 2 * 3'), vars)).toBe(7);
  });
  it('hashes the bytes received: mmh3(base64_py(body)) is the favicon hash', async () => {
    expect(mmh3(Buffer.from('hello'))).toBe(613153351);
    expect(mmh3(Buffer.from(''))).toBe(0);
    expect(mmh3(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(776992547);
    const icon = Buffer.from([0x00, 0x00, 0x01, 0x00, 0xff, 0xfe, 0x80]);
    const view = new ResponseView(
      parseResponse(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), icon]))!,
    );
    const expected = mmh3(Buffer.from(`${icon.toString('base64')}\n`));
    const node = parseDsl(`mmh3(base64_py(body)) == '${expected}'`);
    expect(await dslMatches(node, view.variables())).toBe(true);
    expect(await dslMatches(parseDsl("md5('abc') == '900150983cd24fb0d6963f7d28e17f72'"), vars)).toBe(true);
  });
  it('cannot reach code: unknown functions fail to parse, unknown names fail to match', async () => {
    expect(() => parseDsl("eval('process.exit(1)')")).toThrow(/unsupported function/);
    expect(() => parseDsl('constructor.constructor("return process")()')).toThrow();
    expect(() => parseDsl('tostring(process)')).toThrow();
    expect(await dslMatches(parseDsl('process'), vars)).toBe(false);
    expect(await dslMatches(parseDsl('__proto__ == 1'), vars)).toBe(false);
    expect(() => parseDsl('body; status_code')).toThrow();
  });
});

describe('template loading (supported subset)', () => {
  it('compiles a plain GET template with its info', async () => {
    const t = compileTemplate(
      template(
        '  - method: GET\n    path: ["{{BaseURL}}/.git/config"]\n    matchers:\n      - type: status\n        status: [200]\n',
        '  description: d\n  classification:\n    cwe-id: CWE-200\n    cve-id: CVE-2021-1234\n    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N\n'.replace(
          /^/,
          '',
        ),
      ).replace('severity: high\n', 'severity: high\n'),
    );
    expect(t.requests[0]!.items[0]).toMatchObject({ method: 'GET', path: '{{BaseURL}}/.git/config' });
  });
  it('reads classification into cve, cwe and vector', async () => {
    const text =
      'id: t2\ninfo:\n  name: T2\n  severity: weird\n  classification:\n    cwe-id: CWE-200,CWE-538\n    cve-id: cve-2021-1234\n' +
      '    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N\n' +
      'http:\n  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: word\n        words: [x]\n';
    const t = compileTemplate(text);
    expect(t.info).toMatchObject({
      severity: 'info',
      cweIds: ['CWE-200', 'CWE-538'],
      cveIds: ['CVE-2021-1234'],
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    });
  });
  it('skips, with a reason, what it does not support', async () => {
    const m = '    matchers:\n      - type: word\n        words: [x]\n';
    expect(reason(template(`  - path: ["{{BaseURL}}/{{interactsh-url}}"]\n${m}`))).toBe('out-of-band');
    expect(reason(`flow: http(1)\n${template(`  - path: ["{{BaseURL}}"]\n${m}`)}`)).toBe('flow');
    expect(
      reason(
        template(
          `  - path: ["{{BaseURL}}/{{a}}/{{b}}"]\n    payloads:\n      a: [1]\n      b: [2]\n    attack: clusterbomb\n${m}`,
        ),
      ),
    ).toBe('payloads');
    expect(reason(template(`  - path: ["{{BaseURL}}/{{randstr}}"]\n${m}`))).toBe('unsupported-variable');
    expect(
      reason(
        template(`  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: xpath\n        xpath: [/a]\n`),
      ),
    ).toBe('unsupported-key:xpath');
    expect(
      reason(
        template(
          `  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: regex\n        regex: ["(?U)a+"]\n`,
        ),
      ),
    ).toBe('regex-does-not-compile');
    expect(
      reason(
        template(
          `  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: dsl\n        dsl: ["sleep(5) == 'x'"]\n`,
        ),
      ),
    ).toBe('unsupported-dsl');
    expect(
      reason(
        template(
          `  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: dsl\n        dsl: ["status_code_1 == 200"]\n`,
        ),
      ),
    ).toBe('multi-step');
    expect(reason(template(`  - path: ["https://example.com/"]\n${m}`))).toBe('path-not-on-target');
    expect(reason('id: n\ninfo:\n  name: N\nnetwork:\n  - host: ["{{Hostname}}"]\n')).toBe(
      'protocol:network',
    );
  });
  it('expands a one-variable inline payload list and raw requests', async () => {
    const t = compileTemplate(
      template(
        '  - path: ["{{BaseURL}}{{p}}"]\n    payloads:\n      p: ["/.env", "/.env.{{DN}}", "/api/.env"]\n    matchers:\n      - type: word\n        words: [x]\n',
      ),
    );
    expect(t.requests[0]!.items.map((i) => i.path)).toEqual(['{{BaseURL}}/.env', '{{BaseURL}}/api/.env']);
    const raw = compileTemplate(
      template(
        '  - raw:\n      - |\n        POST /login HTTP/1.1\n        Host: {{Hostname}}\n        Content-Type: application/json\n\n        {"a":1}\n    matchers:\n      - type: status\n        status: [200]\n',
      ),
    );
    expect(raw.requests[0]!.items[0]).toMatchObject({
      method: 'POST',
      path: '{{RootURL}}/login',
      headers: [['Content-Type', 'application/json']],
      body: '{"a":1}\n',
    });
  });
});

describe('matchers', () => {
  const compile = (matchers: string, condition = ''): Parameters<typeof requestMatches>[0] =>
    compileTemplate(template(`  - path: ["{{BaseURL}}"]\n${condition}    matchers:\n${matchers}`))
      .requests[0]!;
  const view = response(
    200,
    { 'Content-Type': 'text/plain', 'X-Powered-By': 'PHP/8.1' },
    '[core]\nurl = x\n',
  );

  it('word: parts, condition, case-insensitive, negative', async () => {
    expect(await requestMatches(compile('      - type: word\n        words: ["[core]"]\n'), view)).toBe(true);
    expect(await requestMatches(compile('      - type: word\n        words: ["[CORE]"]\n'), view)).toBe(
      false,
    );
    expect(
      await requestMatches(
        compile('      - type: word\n        words: ["[CORE]"]\n        case-insensitive: true\n'),
        view,
      ),
    ).toBe(true);
    expect(
      await requestMatches(
        compile('      - type: word\n        words: ["[core]", "nope"]\n        condition: and\n'),
        view,
      ),
    ).toBe(false);
    expect(
      await requestMatches(
        compile('      - type: word\n        part: header\n        words: ["PHP/8"]\n'),
        view,
      ),
    ).toBe(true);
    expect(
      await requestMatches(
        compile('      - type: word\n        part: x_powered_by\n        words: ["PHP"]\n'),
        view,
      ),
    ).toBe(true);
    expect(
      await requestMatches(
        compile('      - type: word\n        negative: true\n        words: ["<html"]\n'),
        view,
      ),
    ).toBe(true);
  });
  it('status, regex and dsl; matchers-condition and/or', async () => {
    const both =
      '      - type: status\n        status: [404]\n      - type: regex\n        regex: ["(?m)^url = "]\n';
    expect(await requestMatches(compile(both), view)).toBe(true);
    expect(await requestMatches(compile(both, '    matchers-condition: and\n'), view)).toBe(false);
    expect(
      await requestMatches(
        compile('      - type: dsl\n        dsl: ["status_code == 200 && contains(body, \'url\')"]\n'),
        view,
      ),
    ).toBe(true);
  });
});

describe('variables and targets', () => {
  const service = { address: '127.0.0.5', port: 8080, service: 'http' } as never;
  it('substitutes BaseURL, RootURL and Hostname from the scan target', async () => {
    const where = templateTarget('app.example.test', service);
    expect(substitute('{{BaseURL}}/x?h={{Hostname}}', where.variables)).toBe(
      'http://app.example.test:8080/x?h=app.example.test:8080',
    );
    expect(where.hostHeader).toBe('app.example.test:8080');
  });
  it('keeps every request on the service', async () => {
    const base = 'http://h:80';
    expect(requestTarget(`${base}`, base)).toBe('/');
    expect(requestTarget(`${base}?a=1`, base)).toBe('/?a=1');
    expect(requestTarget(`${base}/a b`, base)).toBe('/a%20b');
    expect(requestTarget(`${base}.evil.com/`, base)).toBeUndefined();
    expect(requestTarget(`${base}:81/`, base)).toBeUndefined();
    expect(requestTarget('http://other/', base)).toBeUndefined();
    expect(requestTarget(`${base}/a\r\nX: y`, base)).toBeUndefined();
  });
  it('maps knowledge aliases to canonical ids and redacts secrets', async () => {
    expect(canonicalCheckId('git-config')).toBe('git-config-exposed');
    expect(canonicalCheckId('some-unknown-template')).toBe('some-unknown-template');
    expect(redactEvidence('DB_PASSWORD=hunter2\nurl = https://u:p@h/')).toBe(
      'DB_PASSWORD=***\nurl = https://***@h/',
    );
  });
});

describe('regexes run off the event loop, with a time limit', () => {
  it('a pathological regex on a large response gives up as "no match" while the loop stays free', async () => {
    const re = compileGoRegex('(?i)[a-z_]*(KEY|TOKEN|PASS)[a-z_]*=');
    const text = 'x'.repeat(256 * 1024);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = performance.now();
    const result = await sandboxedRegexTest([re], text);
    clearInterval(ticker);
    expect(result).toBe(false);
    expect(performance.now() - started).toBeLessThan(REGEX_TIMEOUT_MS + 2000);
    expect(ticks).toBeGreaterThan(5);
    // The pool recovers: the next test gets a fresh worker and an answer.
    expect(await sandboxedRegexTest([/DB_PASSWORD=/], 'DB_PASSWORD=x')).toBe(true);
    expect(await sandboxedRegexTest([/a/, /b/], 'a', true)).toBe(false);
  });
});

describe('templates on crawled pages', () => {
  it('runs under the directories of the pages that answered, at most MAX_CRAWL_BASES of them', async () => {
    const { crawlBases, MAX_CRAWL_BASES } =
      await import('../../../../server/scanner/templates/crawl-bases.ts');
    const pages = [
      { path: '/', status: 200 },
      { path: '/robots.txt', status: 200 },
      { path: '/shop/index.html', status: 200 },
      { path: '/shop/cart?id=1', status: 200 },
      { path: '/gone/page', status: 404 },
      { path: '/a/', status: 200 },
      { path: '/b/x', status: 200 },
      { path: '/c/x', status: 200 },
    ];
    expect(crawlBases(pages)).toEqual(['/shop/', '/a/', '/b/']);
    expect(crawlBases(pages)).toHaveLength(MAX_CRAWL_BASES);
  });

  it('sets {{BaseURL}} to the page directory and keeps {{RootURL}} at the service root', () => {
    const service = {
      address: '127.0.0.1',
      port: 8080,
      service: 'http' as const,
      evidence: { request: '', response: '' },
      tool: 'scanward-probe' as const,
    };
    const where = templateTarget('app.example.test', service, '/shop/');
    expect(where.variables.get('BaseURL')).toBe('http://app.example.test:8080/shop');
    expect(where.variables.get('RootURL')).toBe('http://app.example.test:8080');
    expect(requestTarget(`${where.variables.get('BaseURL')}/.git/config`, where.rootUrl)).toBe(
      '/shop/.git/config',
    );
  });
});
