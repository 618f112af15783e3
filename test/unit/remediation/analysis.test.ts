import { describe, expect, it } from 'vitest';
import {
  AiAnalysisSchema,
  analyzeFinding,
  automationForFinding,
} from '../../../server/remediation/analysis.ts';
import type { FindingFacts } from '../../../server/remediation/finding-facts.ts';
import { remediationPriority, suggestedFindingPriority } from '../../../server/remediation/priority.ts';
import type { KevEntry } from '../../../server/scoring/kev.ts';

const redis: FindingFacts = {
  title: 'Redis server without authentication',
  severity: 'high',
  template_id: 'exposed-redis',
  category: 'unauthenticated-access',
  cve_ids: [],
  cwe_ids: ['CWE-306'],
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  cvss_score: 9.8,
  epss_score: null,
  target: '10.20.30.40',
  affected_component: 'redis://10.20.30.40:6379',
  evidence: { request: 'INFO server', response: '# Server\r\nredis_version:7.2.4\r\nos:Linux 6.1.0 x86_64' },
};

const log4shell: FindingFacts = {
  title: 'Apache Log4j2 remote code execution',
  severity: 'critical',
  template_id: 'CVE-2021-44228',
  cve_ids: ['CVE-2021-44228'],
  cwe_ids: ['CWE-502'],
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
  epss_score: 0.9447,
  target: 'api.example.com',
  affected_component: 'https://api.example.com:8443/login',
};

const log4shellKev: KevEntry = {
  cveID: 'CVE-2021-44228',
  vendorProject: 'Apache',
  product: 'Log4j2',
  vulnerabilityName: 'Apache Log4j2 Remote Code Execution Vulnerability',
  dateAdded: '2021-12-10',
  shortDescription: 'JNDI features do not protect against attacker-controlled LDAP endpoints.',
  requiredAction: 'For all affected software assets, apply updates per vendor instructions.',
  dueDate: '2021-12-24',
  knownRansomwareCampaignUse: 'Known',
};

describe('analyzeFinding', () => {
  it('writes an analysis that names the finding, its service, host and port', () => {
    const a = analyzeFinding(redis);
    expect(a.risk_assessment).toContain('Redis server without authentication');
    expect(a.risk_assessment).toContain('Redis at 10.20.30.40:6379');
    expect(a.attack_scenarios.join(' ')).toContain('10.20.30.40:6379');
    expect(a.recommended_actions.join(' ')).toContain('6379/tcp on 10.20.30.40');
  });

  it('explains the CVSS vector and quotes the evidence', () => {
    const a = analyzeFinding(redis);
    expect(a.risk_assessment).toContain('CVSS 3.1 base score is 9.8');
    expect(a.risk_assessment).toContain(
      'over the network, without any privileges and without user interaction',
    );
    expect(a.risk_assessment).toContain('redis_version:7.2.4');
  });

  it('is deterministic', () => {
    expect(analyzeFinding(redis)).toEqual(analyzeFinding(structuredClone(redis)));
  });

  it('differs between findings instead of repeating boilerplate', () => {
    const other = analyzeFinding({
      ...redis,
      target: '10.9.9.9',
      affected_component: 'redis://10.9.9.9:6390',
    });
    expect(other.risk_assessment).not.toBe(analyzeFinding(redis).risk_assessment);
    const tls = analyzeFinding({
      title: 'TLS 1.0 enabled',
      severity: 'medium',
      template_id: 'deprecated-tls',
      cve_ids: [],
      cwe_ids: [],
      affected_component: 'https://shop.example:443',
    });
    expect(tls.attack_scenarios).not.toEqual(analyzeFinding(redis).attack_scenarios);
    expect(tls.risk_assessment).toContain('TLS 1.0 or 1.1');
  });

  it('links the playbook only when automation is available', () => {
    expect(analyzeFinding(redis)).toMatchObject({
      automation_available: true,
      ansible_playbook_id: 'pb_redis_requirepass',
    });
    const pg = analyzeFinding({
      ...redis,
      template_id: 'unauth-psql',
      affected_component: 'postgresql://db:5432',
    });
    expect(pg.ansible_playbook_id).toBe('pb_postgres_scram');
    const headers = analyzeFinding({
      ...redis,
      template_id: 'http-missing-security-headers',
      affected_component: 'https://h:443/',
    });
    expect(headers.ansible_playbook_id).toBe('pb_web_security_headers');
    const tls = analyzeFinding({
      ...redis,
      template_id: 'weak-cipher-suites',
      affected_component: 'https://h:443',
    });
    expect(tls.ansible_playbook_id).toBe('pb_tls_disable_legacy');

    const mysql = analyzeFinding({
      ...redis,
      template_id: 'mysql-empty-password',
      affected_component: 'mysql://h:3306',
    });
    expect(mysql.automation_available).toBe(false);
    expect(mysql).not.toHaveProperty('ansible_playbook_id');
    expect(mysql.recommended_actions.join(' ')).not.toContain('playbook');
  });

  it('does not offer a web-server playbook for a component it cannot fix', () => {
    const onMail = analyzeFinding({
      ...redis,
      template_id: 'deprecated-tls',
      affected_component: 'smtp://mail.example:25',
    });
    expect(onMail.automation_available).toBe(false);
    expect(onMail).not.toHaveProperty('ansible_playbook_id');
    const onWeb = analyzeFinding({
      ...redis,
      template_id: 'deprecated-tls',
      affected_component: 'https://www.example:443',
    });
    expect(onWeb.ansible_playbook_id).toBe('pb_tls_disable_legacy');
    expect(
      automationForFinding({ ...redis, template_id: 'deprecated-tls', affected_component: 'smtp://m:25' }),
    ).toEqual({
      automation_available: false,
    });
    expect(automationForFinding(redis)).toEqual({
      automation_available: true,
      ansible_playbook_id: 'pb_redis_requirepass',
    });
  });

  it('puts known exploitation, ransomware use, EPSS and CISA deadline in the assessment', () => {
    const a = analyzeFinding(log4shell, { kevEntries: [log4shellKev] });
    expect(a.remediation_priority).toBe('immediate');
    expect(a.risk_assessment).toContain("CISA's Known Exploited Vulnerabilities catalogue since 2021-12-10");
    expect(a.risk_assessment).toContain('ransomware');
    expect(a.risk_assessment).toContain('94.5%');
    expect(a.attack_scenarios[0]).toContain('CVE-2021-44228');
    expect(a.recommended_actions).toContain(
      'For CVE-2021-44228, CISA requires: For all affected software assets, apply updates per vendor instructions.',
    );
    expect(a.recommended_actions[0]).toMatch(/^Now: restrict access to api\.example\.com:8443/);
  });

  it('masks secrets found in the evidence', () => {
    const a = analyzeFinding({
      title: 'Environment file exposed',
      severity: 'high',
      template_id: 'generic-env',
      cve_ids: [],
      cwe_ids: [],
      affected_component: 'https://shop.example:443/.env',
      evidence: {
        request: 'GET /.env',
        response: 'APP_ENV=production\nDB_PASSWORD=hunter2-very-secret\nAPP_KEY=base64:abc',
      },
    });
    expect(a.risk_assessment).toContain('APP_ENV=production');
    expect(a.risk_assessment).not.toContain('hunter2');
    expect(a.risk_assessment).not.toContain('base64:abc');
  });

  it('always produces an object that satisfies the ai_analysis schema', () => {
    const samples: FindingFacts[] = [
      redis,
      log4shell,
      { title: 'Open port', severity: 'info', category: 'open-port', cve_ids: [], cwe_ids: [] },
      { title: 'Mystery', severity: 'low', cve_ids: [], cwe_ids: [], affected_component: 'not a url' },
    ];
    for (const f of samples) {
      const a = analyzeFinding(f);
      expect(AiAnalysisSchema.safeParse(a).success, f.title).toBe(true);
      expect(a.attack_scenarios.length).toBeGreaterThan(0);
      expect(a.recommended_actions.length).toBeGreaterThan(0);
      expect(a.recommended_actions.length).toBeLessThanOrEqual(9);
    }
  });
});

describe('remediationPriority', () => {
  const base: FindingFacts = { title: 't', severity: 'medium', cve_ids: [], cwe_ids: [], target: '10.0.0.1' };

  it.each([
    ['critical', { severity: 'critical' }, 'immediate'],
    ['high on an internal address', { severity: 'high' }, 'high'],
    [
      'high without authentication on a public address',
      { severity: 'high', category: 'unauthenticated-access', target: '198.51.100.4' },
      'immediate',
    ],
    ['high with EPSS 0.6', { severity: 'high', epss_score: 0.6 }, 'immediate'],
    ['medium with EPSS 0.2', { severity: 'medium', epss_score: 0.2 }, 'high'],
    ['medium with EPSS 0.01', { severity: 'medium', epss_score: 0.01 }, 'medium'],
    [
      'medium default credentials on a public address',
      { category: 'default-credentials', target: '198.51.100.4' },
      'high',
    ],
    ['low', { severity: 'low' }, 'low'],
    ['info', { severity: 'info' }, 'low'],
  ] as const)('rates %s as %s', (_name, over, expected) => {
    expect(remediationPriority({ ...base, ...over }).priority).toBe(expected);
  });

  it('makes anything in CISA KEV immediate, whatever its severity', () => {
    const decision = remediationPriority({ ...base, severity: 'low' }, { kevEntries: [log4shellKev] });
    expect(decision).toEqual({
      priority: 'immediate',
      reason: "CVE-2021-44228 is in CISA's Known Exploited Vulnerabilities catalogue",
    });
  });

  it('suggests the matching finding priority', () => {
    expect(suggestedFindingPriority({ ...base, severity: 'critical' })).toBe('p1');
    expect(suggestedFindingPriority({ ...base, severity: 'high' })).toBe('p2');
    expect(suggestedFindingPriority({ ...base, severity: 'medium' })).toBe('p3');
    expect(suggestedFindingPriority({ ...base, severity: 'info' })).toBe('p4');
  });
});
