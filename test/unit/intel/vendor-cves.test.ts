import { describe, expect, it } from 'vitest';
import type {
  Cve4Version,
  Cve5Product,
  VendorCveEntry,
  VendorProduct,
  VendorSnapshot,
} from '../../../server/intel/build-vendor-cves.ts';
import { summarize } from '../../../server/intel/build-vendor-cves.ts';
import { vendorSnapshot } from '../../../server/intel/snapshots.ts';
import {
  comparableVersion,
  cve4Status,
  cve5Status,
  nginxStatus,
  releaseLine,
  vendorCveIds,
  vendorCves,
  vendorSeverityToOurs,
  vendorSnapshotInfo,
} from '../../../server/intel/vendor-cves.ts';

const status = (verdict: { status: string }) => verdict.status;

function snapshotOf(product: VendorProduct, entries: Partial<VendorCveEntry>[]): VendorSnapshot {
  const full = entries.map((e, i): VendorCveEntry => ({
    cve: `CVE-2099-${1000 + i}`,
    title: 't',
    summary: 's',
    severity: null,
    published: null,
    source: 'x',
    affected: { format: 'cve4', versions: [] },
    ...e,
  }));
  const source = { repository: 'r', path: 'p', commit: 'c', format: 'f', notice: 'n' };
  const counts = { records: 0, entries: 0, left_out: {} };
  return {
    source: {
      dataset: 'd',
      date: '2026-11-25',
      products: { apache_httpd: source, nginx: source, openssl: source },
    },
    counts: { apache_httpd: counts, nginx: counts, openssl: counts },
    statements: { openssl: [{ base: '1.0.2', text: 'OpenSSL 1.0.2 is out of support.' }] },
    products: {
      apache_httpd: product === 'apache_httpd' ? full : [],
      nginx: product === 'nginx' ? full : [],
      openssl: product === 'openssl' ? full : [],
    },
  };
}

describe('Apache HTTP Server, CVE JSON 4.0 version_data', () => {
  const listed: Cve4Version[] = [
    ['=', '2.4.49', '2.4'],
    ['=', '2.4.50', '2.4'],
  ];

  it('matches exactly the releases an `=` list names', () => {
    expect(status(cve4Status(listed, '2.4.49'))).toBe('affected');
    expect(status(cve4Status(listed, '2.4.50'))).toBe('affected');
    expect(status(cve4Status(listed, '2.4.48'))).toBe('unaffected');
    expect(status(cve4Status(listed, '2.4.51'))).toBe('unaffected');
    expect(status(cve4Status(listed, '2.2.49'))).toBe('unaffected');
  });

  it('reads `<=` from the start of the release line the entry names, raised by `!<` and `>=`', () => {
    const line: Cve4Version[] = [['<=', '2.4.48', '2.4']];
    expect(cve4Status(line, '2.4.48')).toEqual({ status: 'affected', range: '2.4 through 2.4.48' });
    expect(status(cve4Status(line, '2.4.0'))).toBe('affected');
    expect(status(cve4Status(line, '2.4.49'))).toBe('unaffected');
    expect(status(cve4Status(line, '2.2.34'))).toBe('unaffected');

    const notBelow: Cve4Version[] = [
      ['<=', '2.4.48', '2.4'],
      ['!<', '2.4.17', '2.4'],
    ];
    expect(cve4Status(notBelow, '2.4.17')).toEqual({ status: 'affected', range: '2.4.17 through 2.4.48' });
    expect(status(cve4Status(notBelow, '2.4.16'))).toBe('unaffected');
    expect(status(cve4Status(notBelow, '2.4.48'))).toBe('affected');
    expect(status(cve4Status(notBelow, '2.4.49'))).toBe('unaffected');

    const atLeast: Cve4Version[] = [
      ['>=', '2.4.7', '2.4'],
      ['<=', '2.4.51', '2.4'],
    ];
    expect(status(cve4Status(atLeast, '2.4.6'))).toBe('unaffected');
    expect(status(cve4Status(atLeast, '2.4.7'))).toBe('affected');
    expect(status(cve4Status(atLeast, '2.4.51'))).toBe('affected');
    expect(status(cve4Status(atLeast, '2.4.52'))).toBe('unaffected');
  });

  it('reads `<=` without a release line from the first release, and `<` without its bound', () => {
    const open: Cve4Version[] = [['<=', '2.4.53']];
    expect(cve4Status(open, '2.2.34')).toEqual({ status: 'affected', range: 'through 2.4.53' });
    expect(status(cve4Status(open, '1.3.0'))).toBe('affected');
    expect(status(cve4Status(open, '2.4.54'))).toBe('unaffected');
    const before: Cve4Version[] = [['<', '2.4.54', '2.4']];
    expect(status(cve4Status(before, '2.4.53'))).toBe('affected');
    expect(status(cve4Status(before, '2.4.54'))).toBe('unaffected');
  });

  it('never reports a release whose status the vendor marks unknown (`?=`)', () => {
    const unknown: Cve4Version[] = [
      ['=', '1.3.12'],
      ['?=', '1.3.11'],
    ];
    expect(status(cve4Status(unknown, '1.3.12'))).toBe('affected');
    expect(status(cve4Status(unknown, '1.3.11'))).toBe('unknown');
    const snapshot = snapshotOf('apache_httpd', [{ affected: { format: 'cve4', versions: unknown } }]);
    expect(vendorCves('apache_httpd', '1.3.11', {}, snapshot)).toEqual([]);
    expect(vendorCves('apache_httpd', '1.3.12', {}, snapshot)).toHaveLength(1);
  });

  it('names the fix on the version’s line from the record’s timeline', () => {
    const snapshot = snapshotOf('apache_httpd', [
      {
        fixed_in: ['2.4.26', '2.2.34'],
        affected: {
          format: 'cve4',
          versions: [
            ['=', '2.4.25'],
            ['=', '2.2.32'],
            ['=', '2.2.31'],
          ],
        },
      },
    ]);
    expect(vendorCves('apache_httpd', '2.2.31', {}, snapshot)[0]).toMatchObject({
      fixedIn: '2.2.34',
      fixedReleases: ['2.2.34', '2.4.26'],
    });
    expect(vendorCves('apache_httpd', '2.4.25', {}, snapshot)[0]!.fixedIn).toBe('2.4.26');
  });

  it('keeps a Windows-only record off a server that says it runs on Unix', () => {
    const snapshot = snapshotOf('apache_httpd', [
      { affected: { format: 'cve4', platforms: ['Windows'], versions: [['<=', '2.4.53']] } },
    ]);
    expect(vendorCves('apache_httpd', '2.4.53', { platform: 'unix' }, snapshot)).toEqual([]);
    expect(vendorCves('apache_httpd', '2.4.53', { platform: 'windows' }, snapshot)[0]!.platforms).toEqual([
      'Windows',
    ]);
    expect(vendorCves('apache_httpd', '2.4.53', {}, snapshot)[0]!.platforms).toEqual(['Windows']);
  });
});

describe('CVE JSON 5 versions (Apache, OpenSSL)', () => {
  const openssl: Cve5Product = {
    default_status: 'unaffected',
    versions: [
      { version: '3.0.0', lessThan: '3.0.8', status: 'affected' },
      { version: '1.1.1', lessThan: '1.1.1t', status: 'affected' },
      { version: '1.0.2', lessThan: '1.0.2zg', status: 'affected' },
    ],
  };

  it('holds a version from `version` up to before `lessThan`, on each line listed', () => {
    expect(cve5Status(openssl, '3.0.0')).toEqual({
      status: 'affected',
      range: '3.0.0 before 3.0.8',
      rangeFix: '3.0.8',
    });
    expect(status(cve5Status(openssl, '3.0.7'))).toBe('affected');
    expect(status(cve5Status(openssl, '3.0.8'))).toBe('unaffected');
    expect(status(cve5Status(openssl, '3.1.0'))).toBe('unaffected');
  });

  it('orders OpenSSL letter releases (1.1.1 < 1.1.1a < … < 1.1.1z < 1.1.1za)', () => {
    expect(status(cve5Status(openssl, '1.1.1'))).toBe('affected');
    expect(status(cve5Status(openssl, '1.1.1k'))).toBe('affected');
    expect(status(cve5Status(openssl, '1.1.1s'))).toBe('affected');
    expect(status(cve5Status(openssl, '1.1.1t'))).toBe('unaffected');
    expect(status(cve5Status(openssl, '1.1.1w'))).toBe('unaffected');
    expect(status(cve5Status(openssl, '1.0.2z'))).toBe('affected');
    expect(status(cve5Status(openssl, '1.0.2zf'))).toBe('affected');
    expect(status(cve5Status(openssl, '1.0.2zg'))).toBe('unaffected');
    expect(status(cve5Status(openssl, '1.0.2zh'))).toBe('unaffected');
    // Lines the record does not list are not affected: 1.1.0 and 1.0.1.
    expect(status(cve5Status(openssl, '1.1.0l'))).toBe('unaffected');
    expect(status(cve5Status(openssl, '1.0.1u'))).toBe('unaffected');
  });

  it('reads `lessThanOrEqual`, a single version, `version: "0"` and the `*` bounds', () => {
    const product: Cve5Product = {
      default_status: 'unaffected',
      versions: [
        { version: '2.4', lessThanOrEqual: '2.4.54', status: 'affected' },
        { version: '2.4.60', status: 'affected' },
        { version: '0', lessThan: '1.3.42', status: 'affected' },
        { version: '3.0', lessThan: '3.*', status: 'affected' },
        { version: '5.0', lessThan: '*', status: 'affected' },
      ],
    };
    expect(cve5Status(product, '2.4.54')).toMatchObject({ status: 'affected', range: '2.4 through 2.4.54' });
    expect(status(cve5Status(product, '2.4.0'))).toBe('affected');
    expect(status(cve5Status(product, '2.4.55'))).toBe('unaffected');
    expect(status(cve5Status(product, '2.4.60'))).toBe('affected');
    expect(status(cve5Status(product, '2.4.61'))).toBe('unaffected');
    expect(cve5Status(product, '1.3.41')).toMatchObject({ status: 'affected', range: 'before 1.3.42' });
    expect(status(cve5Status(product, '1.3.42'))).toBe('unaffected');
    expect(status(cve5Status(product, '3.99.1'))).toBe('affected');
    expect(status(cve5Status(product, '4.0.0'))).toBe('unaffected');
    expect(status(cve5Status(product, '27.1'))).toBe('affected');
  });

  it('lets the first entry that holds the version decide, then its status changes', () => {
    const product: Cve5Product = {
      default_status: 'unknown',
      versions: [
        {
          version: '2.0.0',
          lessThan: '2.*',
          status: 'affected',
          changes: [
            { at: '2.6.3', status: 'unaffected' },
            { at: '2.5.2', status: 'unaffected' },
            { at: '2.6.0', status: 'affected' },
          ],
        },
        { version: '2.5.0', lessThan: '2.6.0', status: 'affected' },
      ],
    };
    expect(cve5Status(product, '2.5.1')).toMatchObject({ status: 'affected', rangeFix: '2.5.2' });
    expect(status(cve5Status(product, '2.5.2'))).toBe('unaffected');
    expect(status(cve5Status(product, '2.5.9'))).toBe('unaffected');
    expect(cve5Status(product, '2.6.0')).toMatchObject({ status: 'affected', rangeFix: '2.6.3' });
    expect(status(cve5Status(product, '2.6.3'))).toBe('unaffected');
    expect(status(cve5Status(product, '1.9.9'))).toBe('unknown');
    expect(status(cve5Status(product, '3.0.0'))).toBe('unknown');
  });

  it('reports only `affected`: a default of `unknown` stays silent, a default of `affected` does not', () => {
    const snapshot = snapshotOf('openssl', [
      { affected: { format: 'cve5', products: [{ default_status: 'unknown', versions: [] }] } },
      {
        affected: {
          format: 'cve5',
          products: [
            {
              default_status: 'affected',
              versions: [{ version: '3.0.0', lessThan: '*', status: 'unaffected' }],
            },
          ],
        },
      },
    ]);
    expect(vendorCves('openssl', '1.1.1k', {}, snapshot).map((m) => m.cve)).toEqual(['CVE-2099-1001']);
    expect(vendorCves('openssl', '3.0.2', {}, snapshot)).toEqual([]);
  });

  it('names the fix on the line and every fixed release, and OpenSSL’s word on the line', () => {
    const snapshot = snapshotOf('openssl', [{ affected: { format: 'cve5', products: [openssl] } }]);
    expect(vendorCves('openssl', '1.0.2k', {}, snapshot)[0]).toMatchObject({
      fixedIn: '1.0.2zg',
      fixedReleases: ['1.0.2zg', '1.1.1t', '3.0.8'],
      affectedRange: '1.0.2 before 1.0.2zg',
      note: 'OpenSSL 1.0.2 is out of support.',
    });
    expect(vendorCves('openssl', '3.0.2', {}, snapshot)[0]).toMatchObject({ fixedIn: '3.0.8' });
    expect(vendorCves('openssl', '3.0.2', {}, snapshot)[0]!.note).toBeUndefined();
  });
});

describe('nginx vulnerable and good lists', () => {
  const vulnerable = '1.1.4-1.2.8, 1.3.9-1.4.0';
  const good = '1.5.0+, 1.4.1+, 1.2.9+';
  const at = (version: string) => status(nginxStatus(vulnerable, good, version));

  it('holds both ends of each vulnerable range and what lies between', () => {
    expect(at('1.1.4')).toBe('affected');
    expect(at('1.2.0')).toBe('affected');
    expect(at('1.2.8')).toBe('affected');
    expect(at('1.3.9')).toBe('affected');
    expect(at('1.4.0')).toBe('affected');
  });

  it('leaves out what lies outside the ranges, between them included', () => {
    expect(at('1.1.3')).toBe('unaffected');
    expect(at('1.0.15')).toBe('unaffected');
    expect(at('1.3.0')).toBe('unaffected');
    expect(at('1.3.8')).toBe('unaffected');
  });

  it('treats each good release as fixing its own line, and the highest one everything after it', () => {
    expect(at('1.2.9')).toBe('unaffected');
    expect(at('1.4.1')).toBe('unaffected');
    expect(at('1.4.7')).toBe('unaffected');
    expect(at('1.5.0')).toBe('unaffected');
    expect(at('1.31.4')).toBe('unaffected');
    // A line inside a vulnerable range with no fixed release of its own stays vulnerable.
    const wide = (version: string) => status(nginxStatus('0.9.6-1.31.2', '1.31.3+, 1.30.4+', version));
    expect(wide('1.29.9')).toBe('affected');
    expect(wide('1.30.3')).toBe('affected');
    expect(wide('1.30.4')).toBe('unaffected');
    expect(wide('1.31.2')).toBe('affected');
    expect(wide('1.31.3')).toBe('unaffected');
    expect(wide('0.9.5')).toBe('unaffected');
  });

  it('reads a single version, `all`, and the Windows-only prefix', () => {
    expect(status(nginxStatus('1.25.0-1.25.5, 1.26.0', '1.27.0+, 1.26.1+', '1.26.0'))).toBe('affected');
    expect(status(nginxStatus('1.25.0-1.25.5, 1.26.0', '1.27.0+, 1.26.1+', '1.26.1'))).toBe('unaffected');
    expect(status(nginxStatus('all', 'none', '1.31.4'))).toBe('affected');
    const snapshot = snapshotOf('nginx', [
      { affected: { format: 'nginx', vulnerable: 'nginx/Windows 0.7.52-1.3.0', good: '1.3.1+, 1.2.1+' } },
    ]);
    expect(vendorCves('nginx', '1.2.0', { platform: 'unix' }, snapshot)).toEqual([]);
    expect(vendorCves('nginx', '1.2.0', {}, snapshot)[0]).toMatchObject({
      platforms: ['Windows'],
      fixedIn: '1.2.1',
      fixedReleases: ['1.2.1', '1.3.1'],
    });
    expect(vendorCves('nginx', '1.1.19', {}, snapshot)[0]!.fixedIn).toBeNull();
  });
});

describe('versions as servers announce them', () => {
  it('drops vendor and distribution build suffixes, keeps pre-release markers', () => {
    expect(comparableVersion('1.0.2k-fips')).toBe('1.0.2k');
    expect(comparableVersion('1.1.1k-FIPS')).toBe('1.1.1k');
    expect(comparableVersion('1.18.0-6ubuntu14')).toBe('1.18.0');
    expect(comparableVersion('2.4.38+deb10u1')).toBe('2.4.38');
    expect(comparableVersion('1.0.2k-21.el7_9')).toBe('1.0.2k');
    expect(comparableVersion('3.0.0-beta1')).toBe('3.0.0-beta1');
    expect(comparableVersion('1.1.1-pre9')).toBe('1.1.1-pre9');
    expect(comparableVersion('v1.25.3')).toBe('1.25.3');
    expect(comparableVersion('unknown')).toBeUndefined();
  });

  it('matches a -fips build like its release, and a pre-release before its release', () => {
    const snapshot = snapshotOf('openssl', [
      {
        affected: {
          format: 'cve5',
          products: [
            {
              default_status: 'unaffected',
              versions: [
                { version: '1.0.2', lessThan: '1.0.2l', status: 'affected' },
                { version: '3.0.0', lessThan: '3.0.7', status: 'affected' },
              ],
            },
          ],
        },
      },
    ]);
    expect(vendorCves('openssl', '1.0.2k-fips', {}, snapshot)).toHaveLength(1);
    expect(vendorCves('openssl', '1.0.2l-fips', {}, snapshot)).toEqual([]);
    expect(vendorCves('openssl', '3.0.7-beta1', {}, snapshot)).toHaveLength(1);
    expect(vendorCves('openssl', 'garbage', {}, snapshot)).toEqual([]);
  });

  it('matches nothing on a version that names only a release line (ServerTokens Minor)', () => {
    expect(vendorCves('apache_httpd', '2.4.49').length).toBeGreaterThan(0);
    expect(vendorCves('apache_httpd', '2.4')).toEqual([]);
    expect(vendorCves('apache_httpd', '2')).toEqual([]);
    expect(vendorCves('nginx', '1.18')).toEqual([]);
  });

  it('names the release line of each vendor', () => {
    expect(releaseLine('apache_httpd', '2.4.49')).toBe('2.4');
    expect(releaseLine('nginx', '1.25.3')).toBe('1.25');
    expect(releaseLine('openssl', '1.1.1k')).toBe('1.1.1');
    expect(releaseLine('openssl', '1.0.2zh')).toBe('1.0.2');
    expect(releaseLine('openssl', '3.0.13')).toBe('3.0');
  });
});

describe('vendor severities mapped to ours', () => {
  it.each([
    ['apache_httpd', 'critical', 'critical'],
    ['apache_httpd', 'important', 'high'],
    ['apache_httpd', 'moderate', 'medium'],
    ['apache_httpd', 'low', 'low'],
    ['apache_httpd', 'n/a', 'medium'],
    ['nginx', 'major', 'high'],
    ['nginx', 'medium', 'medium'],
    ['nginx', 'low', 'low'],
    ['nginx', 'minor', 'low'],
    ['openssl', 'Critical', 'critical'],
    ['openssl', 'HIGH', 'high'],
    ['openssl', 'Moderate', 'medium'],
    ['openssl', 'MODERATE', 'medium'],
    ['openssl', 'Low', 'low'],
    ['openssl', 'unknown', 'medium'],
    ['openssl', null, 'medium'],
  ] as const)('%s %s is %s', (product, level, ours) => {
    expect(vendorSeverityToOurs(product, level)).toBe(ours);
  });

  it('covers every level the committed data uses', () => {
    const known: Record<VendorProduct, (string | null)[]> = {
      apache_httpd: ['critical', 'important', 'moderate', 'low', 'n/a'],
      nginx: ['major', 'medium', 'low', 'minor'],
      openssl: ['critical', 'high', 'moderate', 'low', 'unknown'],
    };
    for (const product of ['apache_httpd', 'nginx', 'openssl'] as const) {
      for (const entry of vendorSnapshot().products[product])
        expect(known[product], `${product} ${entry.cve}`).toContain(entry.severity?.toLowerCase() ?? null);
    }
  });
});

describe('the committed vendor snapshot', () => {
  const cves = (product: VendorProduct, version: string) => vendorCves(product, version).map((m) => m.cve);

  it('gives Apache 2.4.49 the CVEs its team lists for it, the path traversals among them', () => {
    const found = cves('apache_httpd', '2.4.49');
    expect(found).toEqual(
      expect.arrayContaining(['CVE-2021-41773', 'CVE-2021-42013', 'CVE-2021-44790', 'CVE-2021-41524']),
    );
    const traversal = vendorCves('apache_httpd', '2.4.49').find((m) => m.cve === 'CVE-2021-41773')!;
    expect(traversal).toMatchObject({
      vendorSeverity: 'critical',
      severity: 'critical',
      fixedIn: '2.4.50',
      published: '2021-10-04',
    });
    // mod_proxy SSRF: 2.4.48 and earlier, fixed in 2.4.49.
    expect(found).not.toContain('CVE-2021-40438');
    expect(cves('apache_httpd', '2.4.48')).toContain('CVE-2021-40438');
    expect(cves('apache_httpd', '2.4.50')).toContain('CVE-2021-42013');
    expect(cves('apache_httpd', '2.4.50')).not.toContain('CVE-2021-41773');
  });

  it('gives the latest releases in the data nothing', () => {
    expect(cves('apache_httpd', '2.4.66')).toEqual([]);
    expect(cves('apache_httpd', '2.4.68')).toEqual([]);
    expect(cves('nginx', '1.31.4')).toEqual([]);
    expect(cves('nginx', '1.30.4')).toEqual([]);
    expect(cves('openssl', '3.6.3')).toEqual([]);
    expect(cves('openssl', '4.0.1')).toEqual([]);
  });

  it('finds Heartbleed in 1.0.1f, not in 1.0.1g, and in the -fips build a distribution ships', () => {
    expect(cves('openssl', '1.0.1f')).toContain('CVE-2014-0160');
    expect(cves('openssl', '1.0.1f-fips')).toContain('CVE-2014-0160');
    expect(cves('openssl', '1.0.1g')).not.toContain('CVE-2014-0160');
    expect(cves('openssl', '1.0.0t')).not.toContain('CVE-2014-0160');
  });

  it('gives nginx 1.18.0 the resolver CVE, fixed on lines it is not on', () => {
    const resolver = vendorCves('nginx', '1.18.0').find((m) => m.cve === 'CVE-2021-23017')!;
    expect(resolver).toMatchObject({
      vendorSeverity: 'medium',
      fixedIn: null,
      fixedReleases: ['1.20.1', '1.21.0'],
    });
    expect(vendorCves('nginx', '1.20.0').find((m) => m.cve === 'CVE-2021-23017')!.fixedIn).toBe('1.20.1');
    expect(cves('nginx', '1.20.1')).not.toContain('CVE-2021-23017');
  });

  it('records its sources, dates and what it covers', () => {
    const info = vendorSnapshotInfo();
    expect(info.date).toBe('2026-11-25');
    expect(info.products.apache_httpd.repository).toBe('apache/httpd-site');
    expect(info.products.nginx.repository).toBe('nginx/nginx.org');
    expect(info.products.openssl.repository).toBe('openssl/release-metadata');
    expect(vendorCveIds('apache_httpd')).toContain('CVE-2021-41773');
    expect(info.products.apache_httpd.cves).toBe(vendorCveIds('apache_httpd').length);
    for (const product of ['apache_httpd', 'nginx', 'openssl'] as const)
      expect(vendorSnapshot().source.products[product].notice.length).toBeGreaterThan(100);
  });
});

describe('summaries', () => {
  it('keep short text whole and cut long text after a sentence or a word', () => {
    expect(summarize('  One   line. ')).toBe('One line.');
    const long = `${'A sentence that is long enough. '.repeat(20)}`;
    const cut = summarize(long, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut.endsWith('.')).toBe(true);
    expect(summarize('word '.repeat(100), 50).endsWith('…')).toBe(true);
  });
});
