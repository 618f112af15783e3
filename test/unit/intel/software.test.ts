import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../server/scanner/check-registry.ts';
import {
  endOfLifeCheck,
  knownExploitedVersionCheck,
} from '../../../server/scanner/checks/software-versions.ts';
import { buildEolSnapshot } from '../../../server/intel/build-endoflife.ts';
import { buildKevSnapshot } from '../../../server/intel/build-kev.ts';
import { assessEndOfLife, monthsBetween } from '../../../server/intel/endoflife.ts';
import { kevMatches } from '../../../server/intel/kev.ts';
import { eolSnapshot, kevSnapshot } from '../../../server/intel/snapshots.ts';
import {
  parseServerHeader,
  serverPlatform,
  softwareOf,
  type IdentifiedSoftware,
} from '../../../server/intel/software.ts';
import type { ServiceIdentification } from '../../../server/scanner/net/services.ts';
import { emptyState, type PhaseContext } from '../../../server/scanner/types.ts';
import type { Services } from '../../../server/services.ts';
import { SHARED_DATA, sharedFile } from '../../helpers/shared-data.ts';

function web(server: string, extra: Partial<ServiceIdentification> = {}): ServiceIdentification {
  const [product, version] = server.split(/[/ ]/);
  return {
    address: '127.0.0.1',
    port: 8080,
    service: 'http',
    ...(server.includes('/') && { product, version }),
    details: { server },
    evidence: { request: '', response: '' },
    tool: 'scanward-probe',
    ...extra,
  };
}

const only = (service: ServiceIdentification): IdentifiedSoftware => {
  const found = softwareOf(service);
  expect(found).toHaveLength(1);
  return found[0]!;
};

function context(): PhaseContext {
  return {
    scan: {
      id: 'scan_test',
      org_id: 'org_test',
      target: '127.0.0.1',
      scan_type: 'full',
      frameworks: [],
      ports: null,
      attempts: 0,
      created_by: null,
    },
    state: { ...emptyState(), hosts: [{ target: '127.0.0.1', address: '127.0.0.1', alive: true }] },
    signal: new AbortController().signal,
    services: {} as Services,
    log: pino({ enabled: false }),
    progress: { setTotal: () => undefined, advance: () => undefined, tool: () => undefined },
    assertAllowed: () => undefined,
  };
}

describe('naming software from what a service announced', () => {
  it('reads the Server header, PHP behind it, and space-separated servers', () => {
    const apache = softwareOf(
      web('Apache/2.4.49', { details: { server: 'Apache/2.4.49 (Unix)', powered_by: 'PHP/7.4.3' } }),
    );
    expect(apache.map((s) => [s.product.key, s.version, s.source])).toEqual([
      ['apache-http-server', '2.4.49', 'Server: Apache/2.4.49 (Unix)'],
      ['php', '7.4.3', 'X-Powered-By: PHP/7.4.3'],
    ]);
    expect(only(web('HFS 2.3m')).product.key).toBe('rejetto-hfs');
    expect(only(web('nostromo 1.9.6')).version).toBe('1.9.6');
  });

  it('names nothing without a version, or for an unknown product', () => {
    expect(softwareOf(web('Apache'))).toEqual([]);
    expect(softwareOf(web('Acme/1.0'))).toEqual([]);
  });

  it('names every known product of a Server header, once, with the platform its comments name', () => {
    const found = softwareOf(
      web('Apache/2.4.49', {
        details: {
          server: 'Apache/2.4.49 (Unix) OpenSSL/1.1.1k mod_fcgid/2.3.9 PHP/7.4.3',
          powered_by: 'PHP/7.4.3',
        },
      }),
    );
    expect(found.map((s) => [s.product.key, s.version, s.product.vendor, s.platform])).toEqual([
      ['apache-http-server', '2.4.49', 'apache_httpd', 'unix'],
      ['openssl', '1.1.1k', 'openssl', 'unix'],
      ['php', '7.4.3', undefined, 'unix'],
    ]);
    expect(new Set(found.map((s) => s.source))).toEqual(
      new Set(['Server: Apache/2.4.49 (Unix) OpenSSL/1.1.1k mod_fcgid/2.3.9 PHP/7.4.3']),
    );
    const nginx = only(web('nginx/1.18.0 (Ubuntu)'));
    expect([nginx.product.vendor, nginx.version, nginx.platform, nginx.distribution]).toEqual([
      'nginx',
      '1.18.0',
      'unix',
      'Ubuntu',
    ]);
    const rhel = softwareOf(web('Apache/2.4.6 (Red Hat Enterprise Linux) OpenSSL/1.0.2k-fips'));
    expect(rhel.map((s) => [s.product.key, s.version, s.distribution])).toEqual([
      ['apache-http-server', '2.4.6', 'Red Hat'],
      ['openssl', '1.0.2k-fips', 'Red Hat'],
    ]);
    expect(softwareOf(web('Apache/2.4.54 (Win64) OpenSSL/1.1.1p')).map((s) => s.platform)).toEqual([
      'windows',
      'windows',
    ]);
  });
});

describe('reading a Server header', () => {
  it('splits product tokens and their comments', () => {
    expect(parseServerHeader('Apache/2.4.49 (Unix) OpenSSL/1.1.1k mod_fcgid/2.3.9')).toEqual([
      { name: 'Apache', version: '2.4.49', comments: ['Unix'] },
      { name: 'OpenSSL', version: '1.1.1k', comments: [] },
      { name: 'mod_fcgid', version: '2.3.9', comments: [] },
    ]);
    expect(parseServerHeader('nginx/1.18.0 (Ubuntu)')).toEqual([
      { name: 'nginx', version: '1.18.0', comments: ['Ubuntu'] },
    ]);
    expect(parseServerHeader('Microsoft-IIS/10.0')).toEqual([
      { name: 'Microsoft-IIS', version: '10.0', comments: [] },
    ]);
    expect(parseServerHeader('nginx')).toEqual([{ name: 'nginx', comments: [] }]);
    expect(parseServerHeader('Apache (Debian (testing))  mod_perl/2.0.12')).toEqual([
      { name: 'Apache', comments: ['Debian (testing)'] },
      { name: 'mod_perl', version: '2.0.12', comments: [] },
    ]);
    expect(parseServerHeader('')).toEqual([]);
  });

  it('tells the platform and distribution only when a comment names them', () => {
    expect(serverPlatform('Apache/2.4.54 (Win64) OpenSSL/1.1.1p')).toEqual({ platform: 'windows' });
    expect(serverPlatform('Apache/2.4.49 (Unix)')).toEqual({ platform: 'unix' });
    expect(serverPlatform('Apache/2.4.41 (Ubuntu)')).toEqual({ platform: 'unix', distribution: 'Ubuntu' });
    expect(serverPlatform('Apache/2.4.6 (CentOS) OpenSSL/1.0.2k-fips')).toEqual({
      platform: 'unix',
      distribution: 'CentOS',
    });
    expect(serverPlatform('nginx/1.25.3')).toEqual({});
  });
});

describe('end of life and outdated versions', () => {
  it('counts the releases and months Apache 2.4.49 is behind its cycle', () => {
    const assessment = assessEndOfLife(only(web('Apache/2.4.49')), '2026-11-23')!;
    expect(assessment.cycle.cycle).toBe('2.4');
    expect(assessment.endOfLife).toBeUndefined();
    const releases = assessment.cycle.releases.map(([v]) => v);
    const newer = releases.slice(releases.indexOf('2.4.49') + 1);
    expect(newer.at(-1)).toBe('2.4.68');
    expect(assessment.behind).toEqual({
      releases: newer.length,
      latest: '2.4.68',
      latestDate: '2026-06-08',
      releasedOn: '2021-09-16',
      months: 56,
    });
    expect(assessment.cpe).toBe('cpe:2.3:a:apache:http_server:2.4.49:*:*:*:*:*:*:*');
  });

  it('reports the 2.2 cycle as ended and the latest 2.4 as current', () => {
    expect(assessEndOfLife(only(web('Apache/2.2.34')), '2026-11-23')?.endOfLife).toBe('2017-07-11');
    const current = assessEndOfLife(only(web('Apache/2.4.68')), '2026-11-23')!;
    expect(current.endOfLife).toBeUndefined();
    expect(current.behind).toBeUndefined();
  });

  it('an end-of-life date still in the future is not end of life yet', () => {
    const software = softwareOf(web('x', { details: { powered_by: 'PHP/8.4.1' } }))[0]!;
    const cycle = eolSnapshot().products.php!.cycles.find((c) => c.cycle === '8.4')!;
    expect(typeof cycle.eol).toBe('string');
    expect(assessEndOfLife(software, '2026-11-23')?.endOfLife).toBeUndefined();
    expect(assessEndOfLife(software, cycle.eol as string)?.endOfLife).toBe(cycle.eol);
  });

  it("puts OpenSSL's letter releases in their cycle", () => {
    const [, openssl] = softwareOf(web('Apache/2.4.49 (Unix) OpenSSL/1.1.1k'));
    const assessment = assessEndOfLife(openssl!, '2026-11-23')!;
    expect(assessment.cycle.cycle).toBe('1.1.1');
    expect(assessment.endOfLife).toBe('2023-09-11');
    expect(assessment.behind).toMatchObject({ latest: '1.1.1w', releases: 12 });
    expect(assessment.cpe).toBe('cpe:2.3:a:openssl:openssl:1.1.1k:*:*:*:*:*:*:*');
  });

  it('counts whole months', () => {
    expect(monthsBetween('2021-09-16', '2026-06-08')).toBe(56);
    expect(monthsBetween('2021-09-16', '2021-10-16')).toBe(1);
  });
});

describe('known-exploited vulnerabilities by version', () => {
  it('Apache 2.4.49 is in the ranges of the path traversal CVEs; 2.4.68 in none', () => {
    const cves = kevMatches(only(web('Apache/2.4.49'))).map((m) => m.entry.cve);
    expect(cves.sort()).toEqual(['CVE-2021-41773', 'CVE-2021-42013', 'CVE-2024-38475']);
    expect(kevMatches(only(web('Apache/2.4.68')))).toEqual([]);
  });

  it('follows Tomcat milestones and Rejetto letter suffixes', () => {
    const tomcat = only(web('x', { product: 'Apache Tomcat', version: '9.0.0.M5', details: {} }));
    expect(kevMatches(tomcat).map((m) => m.entry.cve)).toContain('CVE-2016-8735');
    expect(kevMatches(only(web('HFS 2.3m'))).map((m) => m.entry.cve)).toEqual(['CVE-2024-23692']);
  });

  it('never matches an entry without usable ranges', () => {
    // CVE-2014-6287 (HFS before 2.3c) has a range only in its description.
    expect(kevSnapshot().entries.some((e) => e.cve === 'CVE-2014-6287')).toBe(false);
    expect(kevMatches(only(web('HFS 2.3'))).map((m) => m.entry.cve)).toEqual(['CVE-2024-23692']);
  });
});

describe('the version checks', () => {
  it('are registered', () => {
    expect(CHECKS).toContain(endOfLifeCheck);
    expect(CHECKS).toContain(knownExploitedVersionCheck);
  });

  it('report an outdated Apache, its KEV CVEs with honest wording, and cover what they judged', async () => {
    const ctx = context();
    const service = web('Apache/2.4.49');
    const eol = await endOfLifeCheck.run(ctx, service);
    expect(eol.map((d) => [d.check_id, d.severity])).toEqual([
      ['software-outdated:apache-http-server', 'medium'],
    ]);
    expect(eol[0]!.title).toMatch(/2\.4\.49, \d+ release\(s\) behind 2\.4\.68/);
    expect(eol[0]!.description).toContain('56 month(s) older');
    expect(eol[0]!.evidence.response).toContain('cpe:2.3:a:apache:http_server:2.4.49');

    const kev = await knownExploitedVersionCheck.run(ctx, service);
    const traversal = kev.find((d) => d.check_id === 'CVE-2021-41773')!;
    expect(traversal).toMatchObject({
      severity: 'high',
      kev: true,
      cve_ids: ['CVE-2021-41773'],
      cwe_ids: ['CWE-22'],
      affected_component: 'http://127.0.0.1:8080',
      priority: 'p1',
    });
    expect(traversal.cvss_vector).toMatch(/^CVSS:3\.1\//);
    expect(traversal.description).toContain('not proven exploitable');
    expect(traversal.description).toContain('ransomware');
    const rewrite = kev.find((d) => d.check_id === 'CVE-2024-38475')!;
    expect(rewrite.description).toContain('only configurations with affected RewriteRule');
    const covered = ctx.state.coverage.map((c) => c.check_id);
    expect(covered).toEqual(
      expect.arrayContaining(['software-outdated:apache-http-server', 'CVE-2019-0211', 'CVE-2021-41773']),
    );
  });

  it('report an end-of-life cycle as high, once', async () => {
    const detections = await endOfLifeCheck.run(context(), web('Apache/2.2.15'));
    expect(detections.map((d) => [d.check_id, d.severity])).toEqual([
      ['software-end-of-life:apache-http-server', 'high'],
    ]);
    expect(detections[0]!.description).toContain('reached its end of life on 2017-07-11');
  });

  it('stay silent on a current version', async () => {
    const ctx = context();
    const service = web('Apache/2.4.68');
    expect(await endOfLifeCheck.run(ctx, service)).toEqual([]);
    expect(await knownExploitedVersionCheck.run(ctx, service)).toEqual([]);
  });
});

describe.skipIf(!SHARED_DATA)('the committed snapshots are what the build makes of ../shared/data', () => {
  const work = mkdtempSync(join(tmpdir(), 'scanward-eol-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('KEV', () => {
    const raw = JSON.parse(readFileSync(sharedFile('kev-affected-2026-11-23.json') as string, 'utf8'));
    expect(buildKevSnapshot(raw, 'kev-affected-2026-11-23.json')).toEqual(kevSnapshot());
  });

  it('end of life', async () => {
    execFileSync('tar', ['-xzf', sharedFile('endoflife-2026-08-22.tar.gz') as string, '-C', work]);
    const built = await buildEolSnapshot({
      productsDir: join(work, 'endoflife.date/products'),
      releasesDir: join(work, 'release-data/releases'),
      productsCommit: 'a70eca3',
      releasesCommit: 'f626bde',
      date: '2026-08-22',
    });
    expect(built).toEqual(eolSnapshot());
  });
});

if (!SHARED_DATA) console.warn('skipping the snapshot rebuild tests: ../shared/data is absent');
