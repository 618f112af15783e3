import { describe, expect, it } from 'vitest';
import type { FindingFacts } from '../../../server/remediation/finding-facts.ts';
import {
  KNOWLEDGE_ENTRIES,
  knowledgeFor,
  knowledgeForCheck,
} from '../../../server/remediation/knowledge/index.ts';
import {
  CATEGORY_ENTRIES,
  knownVulnerability,
  severityEntry,
} from '../../../server/remediation/knowledge/generic.ts';
import { hasPlaybook } from '../../../server/remediation/playbooks/index.ts';
import { remediationFor, remediationSummary } from '../../../server/remediation/remediation.ts';

const finding = (over: Partial<FindingFacts>): FindingFacts => ({
  title: 'Finding',
  severity: 'medium',
  cve_ids: [],
  cwe_ids: [],
  ...over,
});

/** Findings as a scanner without our canonical check ids would report them. */
const RECOGNISED: Array<[string, Partial<FindingFacts>, string]> = [
  [
    'Redis without auth',
    { title: 'Redis accepts unauthenticated commands', affected_component: 'redis://10.0.0.5:6379' },
    'redis-no-auth',
  ],
  [
    'PostgreSQL trust',
    {
      title: 'PostgreSQL allows login without password (trust)',
      affected_component: 'postgresql://10.0.0.6:5432',
    },
    'postgres-trust-auth',
  ],
  [
    'MySQL exposed',
    {
      title: 'MySQL server exposed',
      category: 'exposed-service',
      affected_component: 'mysql://10.0.0.7:3306',
    },
    'mysql-exposed',
  ],
  [
    'anonymous MQTT',
    { title: 'MQTT broker allows anonymous clients', affected_component: 'mqtt://10.0.0.8:1883' },
    'mqtt-anonymous',
  ],
  [
    'NATS no auth',
    { title: 'NATS server without authentication', affected_component: 'nats://h:4222' },
    'nats-no-auth',
  ],
  [
    'AMQP guest',
    {
      title: 'RabbitMQ accepts guest/guest',
      category: 'default-credentials',
      affected_component: 'amqp://h:5672',
    },
    'amqp-default-guest',
  ],
  ['Memcached', { title: 'Memcached exposed', affected_component: 'tcp://h:11211' }, 'memcached-exposed'],
  [
    'MongoDB',
    { title: 'MongoDB without authentication', affected_component: 'tcp://h:27017' },
    'mongodb-no-auth',
  ],
  [
    'Elasticsearch',
    { title: 'Elasticsearch cluster open without authentication', affected_component: 'http://h:9200/' },
    'elasticsearch-no-auth',
  ],
  [
    'missing HSTS',
    { title: 'Missing Strict-Transport-Security header', affected_component: 'https://h:443/' },
    'https-missing-hsts',
  ],
  [
    'missing headers',
    { title: 'Missing Content-Security-Policy header', affected_component: 'https://h:443/' },
    'http-missing-security-headers',
  ],
  [
    'TLS 1.0',
    { title: 'TLS 1.0 enabled', category: 'tls', affected_component: 'https://h:443' },
    'tls-legacy-protocol',
  ],
  ['TLSv1.1', { title: 'Server accepts TLSv1.1', affected_component: 'tls://h:993' }, 'tls-legacy-protocol'],
  ['weak ciphers', { title: 'Weak cipher suites offered (3DES)', category: 'tls' }, 'tls-weak-cipher'],
  ['expired certificate', { title: 'Expired TLS certificate', category: 'tls' }, 'tls-certificate-expired'],
  [
    'self-signed certificate',
    { title: 'Self-signed certificate', category: 'tls' },
    'tls-certificate-self-signed',
  ],
  [
    '.git exposed',
    { title: 'Source control metadata exposed', affected_component: 'https://h:443/.git/config' },
    'git-config-exposed',
  ],
  [
    '.env exposed',
    { title: 'Environment file exposed', affected_component: 'https://h:443/.env' },
    'env-file-exposed',
  ],
  [
    'directory listing',
    { title: 'Directory listing enabled', affected_component: 'http://h:80/files/' },
    'directory-listing',
  ],
  [
    'SSH weak algorithms',
    { title: 'SSH server supports weak key exchange algorithms', affected_component: 'ssh://h:22' },
    'ssh-weak-algorithms',
  ],
  [
    'SSH outdated',
    { title: 'Outdated OpenSSH version', affected_component: 'ssh://h:22' },
    'ssh-outdated-version',
  ],
  [
    'FTP anonymous',
    { title: 'FTP anonymous login allowed', affected_component: 'ftp://h:21' },
    'ftp-anonymous-login',
  ],
  [
    'SMTP open relay',
    { title: 'SMTP server may be an open relay', affected_component: 'smtp://h:25' },
    'smtp-open-relay',
  ],
];

describe('knowledgeFor', () => {
  it.each(RECOGNISED)('recognises %s from the finding alone', (_name, over, expected) => {
    const match = knowledgeFor(finding(over));
    expect(match.entry.id).toBe(expected);
    expect(match.matchedBy).toBe('heuristic');
  });

  it.each([
    ['exposed-redis', 'redis-no-auth'],
    ['unauth-psql', 'postgres-trust-auth'],
    ['pgsql-empty-password', 'postgres-trust-auth'],
    ['unauth-mqtt-broker', 'mqtt-anonymous'],
    ['git-config', 'git-config-exposed'],
    ['generic-env', 'env-file-exposed'],
    ['dir-listing', 'directory-listing'],
    ['http-missing-security-headers', 'http-missing-security-headers'],
    ['expired-ssl', 'tls-certificate-expired'],
    ['self-signed-ssl', 'tls-certificate-self-signed'],
    ['deprecated-tls', 'tls-legacy-protocol'],
    ['weak-cipher-suites', 'tls-weak-cipher'],
    ['mongodb-unauth', 'mongodb-no-auth'],
    ['memcached-stats', 'memcached-exposed'],
    ['ftp-anonymous-login', 'ftp-anonymous-login'],
    ['SSH-WEAK-ALGO-SUPPORTED', 'ssh-weak-algorithms'],
  ])('finds the entry for check id %s first', (templateId, expected) => {
    const match = knowledgeFor(finding({ template_id: templateId, title: 'anything at all' }));
    expect(match).toMatchObject({ matchedBy: 'check_id' });
    expect(match.entry.id).toBe(expected);
    expect(knowledgeForCheck(templateId)?.id).toBe(expected);
  });

  it('treats a finding with CVEs as a known vulnerability, even on a recognisable service', () => {
    const match = knowledgeFor(
      finding({
        title: 'Outdated OpenSSH (regreSSHion)',
        affected_component: 'ssh://h:22',
        cve_ids: ['CVE-2024-6387'],
      }),
    );
    expect(match).toEqual({ entry: knownVulnerability, matchedBy: 'cve' });
  });

  it('falls back to the category, then the CWE family, then the severity', () => {
    expect(knowledgeFor(finding({ title: 'Reflected XSS in search', category: 'injection' }))).toMatchObject({
      matchedBy: 'category',
      entry: { id: 'injection' },
    });
    expect(knowledgeFor(finding({ title: 'Stack trace in error page', cwe_ids: ['CWE-209'] }))).toMatchObject(
      {
        matchedBy: 'cwe',
        entry: { id: 'information-disclosure' },
      },
    );
    expect(knowledgeFor(finding({ title: 'Something odd', severity: 'high' }))).toMatchObject({
      matchedBy: 'severity',
      entry: { id: 'generic-high' },
    });
  });
});

describe('knowledge entries', () => {
  const all = [
    ...KNOWLEDGE_ENTRIES,
    knownVulnerability,
    ...Object.values(CATEGORY_ENTRIES),
    ...(['critical', 'high', 'medium', 'low', 'info'] as const).map(severityEntry),
  ];

  it('give actionable remediation with https references', () => {
    for (const entry of all) {
      const r = entry.remediation;
      expect(r.summary.length, entry.id).toBeGreaterThan(20);
      expect(r.steps.length, entry.id).toBeGreaterThanOrEqual(2);
      expect(r.code_example.trim().length, entry.id).toBeGreaterThan(0);
      expect(r.references.length, entry.id).toBeGreaterThan(0);
      for (const url of r.references) expect(url, entry.id).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
      expect(entry.scenarios.length, entry.id).toBeGreaterThan(0);
    }
  });

  it('have unique check ids and aliases', () => {
    const ids = [...KNOWLEDGE_ENTRIES, knownVulnerability].flatMap((e) =>
      [e.id, ...e.aliases].map((a) => a.toLowerCase()),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('only link playbooks that exist', () => {
    const linked = all.flatMap((e) => (e.playbookId ? [e.playbookId] : []));
    expect(new Set(linked)).toEqual(
      new Set([
        'pb_redis_requirepass',
        'pb_postgres_scram',
        'pb_web_security_headers',
        'pb_tls_disable_legacy',
      ]),
    );
    for (const id of linked) expect(hasPlaybook(id)).toBe(true);
  });
});

describe('remediationFor', () => {
  it('fills the finding host and port into the advice', () => {
    const r = remediationFor(
      finding({
        template_id: 'exposed-redis',
        target: '10.0.0.5',
        affected_component: 'redis://10.0.0.5:6380',
      }),
    );
    expect(r.summary).toContain('10.0.0.5:6380');
    expect(r.steps.join('\n')).toContain('Block port 6380/tcp on 10.0.0.5');
    expect(r.code_example).toContain('port 6380');
  });

  it('falls back to the default port and a neutral host when the component is unknown', () => {
    const r = remediationFor(finding({ template_id: 'exposed-redis' }));
    expect(r.steps.join('\n')).toContain('port 6379/tcp on the host');
  });

  it('never leaves a placeholder unfilled', () => {
    const samples = [
      ...RECOGNISED.map(([, over]) => finding(over)),
      finding({ cve_ids: ['CVE-2021-44228'] }),
    ];
    for (const f of samples) {
      const r = remediationFor(f);
      const text = [r.summary, ...r.steps, r.code_example].join('\n');
      expect(text, f.title).not.toMatch(
        /\{(host|port|endpoint|path|component|service|cves|title|severity)\}/,
      );
    }
  });

  it('links the NVD page of each CVE and the MITRE page of each CWE', () => {
    const r = remediationFor(finding({ cve_ids: ['CVE-2021-44228', 'not-a-cve'], cwe_ids: ['CWE-502'] }));
    expect(r.references).toContain('https://nvd.nist.gov/vuln/detail/CVE-2021-44228');
    expect(r.references).toContain('https://cwe.mitre.org/data/definitions/502.html');
    expect(r.references.filter((u) => u.includes('not-a-cve'))).toEqual([]);
    expect(r.summary).toContain('CVE-2021-44228');
    expect(new Set(r.references).size).toBe(r.references.length);
  });

  it('summarises in one line for the per-scan list', () => {
    expect(
      remediationSummary(
        finding({ template_id: 'deprecated-tls', affected_component: 'https://shop.example:443' }),
      ),
    ).toBe('Disable TLS 1.0 and 1.1 (and any SSL version) on shop.example:443; allow only TLS 1.2 and 1.3.');
  });
});
