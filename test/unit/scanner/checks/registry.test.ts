import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FINDING_CATEGORIES } from '../../../../server/controls/mapping.ts';
import { knowledgeForCheck } from '../../../../server/remediation/knowledge/index.ts';
import { cvssScore } from '../../../../server/scoring/cvss.ts';
import { SEVERITIES } from '../../../../server/scoring/severity.ts';
import { MissingEvidenceError, type CheckVariant } from '../../../../server/scanner/check.ts';
import { BUILT_IN_CHECKS, CHECKS } from '../../../../server/scanner/check-registry.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

/**
 * The checks' table test: every registered built-in check (each made by `defineCheck`) declares
 * complete metadata once, and every detection it builds carries it. Per-check tests assert
 * behaviour (what is found, and the evidence), not the metadata again.
 */

/** Checks that judge a version whatever the port (software-versions.ts, vendor-cves.ts): they target no port of their own. */
const PORTLESS = new Set(['software-end-of-life', 'known-exploited-version', 'vendor-cve-version']);

/** Each check's own metadata and every variant's, as the detections built from them must show. */
const grades = BUILT_IN_CHECKS.flatMap((check) => [
  { check, variant: undefined as string | undefined, grade: check.meta as CheckVariant & { title: string } },
  ...Object.entries(check.meta.variants ?? {}).map(([variant, grade]) => ({
    check,
    variant,
    grade: grade as CheckVariant,
  })),
]);

const service = serviceAt('127.0.0.1', 8443, 'https', { tool: 'scanward-probe' });
const ctx = checkContext('127.0.0.1');

describe('the checks table', () => {
  it('holds every built-in check, each id once, each registered', () => {
    const ids = BUILT_IN_CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(30);
    for (const check of BUILT_IN_CHECKS) expect(CHECKS).toContain(check);
  });

  it.each(BUILT_IN_CHECKS.map((check) => [check.id, check] as const))(
    '%s declares complete metadata',
    (_id, check) => {
      const { meta } = check;
      expect(meta.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(meta.title.trim().length).toBeGreaterThan(10);
      expect(meta.impact.trim().length).toBeGreaterThan(20);
      expect(SEVERITIES).toContain(meta.severity);
      expect(FINDING_CATEGORIES).toContain(meta.category);
      expect(meta.cweIds.length).toBeGreaterThan(0);
      for (const cwe of check.cweIds) expect(cwe).toMatch(/^CWE-\d+$/);
      // The remediation entry is one written for the weakness, not a fallback by severity.
      const entry = knowledgeForCheck(meta.remediation);
      expect(entry, `remediation ${meta.remediation}`).toBeDefined();
      expect(entry?.remediation.steps.length).toBeGreaterThan(0);
      // The ports it targets are real ports, all in the default list (ports.test.ts).
      for (const port of check.ports) expect(port >= 1 && port <= 65535).toBe(true);
      if (!PORTLESS.has(check.id)) expect(check.ports.length, 'ports').toBeGreaterThan(0);
      expect(check.rule.description.length).toBeGreaterThan(0);
    },
  );

  it.each(grades.map((g) => [`${g.check.id}${g.variant ? ` (${g.variant})` : ''}`, g] as const))(
    '%s: its CVSS vector scores to its severity',
    (_name, { grade }) => {
      const score = cvssScore(grade.cvssVector);
      expect(grade.cvssVector).toMatch(/^CVSS:3\.1\//);
      expect(score.rating, `${grade.cvssVector} = ${score.baseScore}`).toBe(grade.severity);
      for (const cwe of grade.cweIds ?? []) expect(cwe).toMatch(/^CWE-\d+$/);
    },
  );

  it.each(grades.map((g) => [`${g.check.id}${g.variant ? ` (${g.variant})` : ''}`, g] as const))(
    '%s: the detections it builds carry its metadata',
    (_name, { check, variant, grade }) => {
      const { meta } = check;
      const detection = check.detection(ctx, service, {
        ...(variant !== undefined && { variant }),
        detail: 'a detail',
        path: '/a-path',
        description: 'What was seen.',
        evidence: { request: 'GET /a-path', response: 'HTTP/1.1 200 OK' },
      });
      expect(detection).toMatchObject({
        check_id: grade.id ?? meta.id,
        title: `${grade.title ?? meta.title} (a detail)`,
        severity: grade.severity,
        cvss_vector: grade.cvssVector,
        category: meta.category,
        cwe_ids: [...(grade.cweIds ?? meta.cweIds)],
        upstream_ids: [...(meta.upstreamIds ?? [])],
        cve_ids: [],
        impact: meta.impact,
        target: '127.0.0.1',
        affected_component: 'https://127.0.0.1:8443/a-path',
        port: 8443,
        tool: meta.tool ?? 'scanward-probe',
        evidence: { request: 'GET /a-path', response: 'HTTP/1.1 200 OK', screenshot_url: null },
      });
      const entry = knowledgeForCheck(meta.remediation);
      expect(detection.remediation?.steps.length).toBe(entry?.remediation.steps.length);
      expect(detection.remediation?.summary.length).toBeGreaterThan(0);
      expect(detection.remediation?.summary).not.toMatch(/\{(host|port|endpoint|component)\}/);
    },
  );

  it.each(BUILT_IN_CHECKS.map((check) => [check.id, check] as const))(
    '%s refuses to build a detection without the exchange that proves it',
    (_id, check) => {
      for (const evidence of [
        { request: '', response: 'an answer' },
        { request: 'a request', response: '  ' },
      ]) {
        expect(() => check.detection(ctx, service, { description: 'What was seen.', evidence })).toThrow(
          MissingEvidenceError,
        );
      }
    },
  );

  it('fills an advisory finding (a KEV record) from the record, and the gaps from the check', () => {
    const check = BUILT_IN_CHECKS.find((c) => c.id === 'known-exploited-version');
    if (!check) throw new Error('known-exploited-version is not registered');
    const detection = check.detection(ctx, service, {
      advisory: {
        id: 'CVE-2021-41773',
        title: 'CVE-2021-41773 (known exploited) in Apache HTTP Server 2.4.49: path traversal',
        severity: 'high',
        cvssVector: null,
        cweIds: [],
        cveIds: ['CVE-2021-41773'],
        kev: true,
      },
      description: 'What was seen.',
      evidence: { request: 'service identification (enumeration)', response: 'Server: Apache/2.4.49' },
    });
    expect(detection).toMatchObject({
      check_id: 'CVE-2021-41773',
      upstream_ids: ['CVE-2021-41773'],
      cve_ids: ['CVE-2021-41773'],
      kev: true,
      cvss_vector: check.meta.cvssVector,
      cwe_ids: [...check.meta.cweIds],
      category: 'known-vulnerability',
    });
  });
});

/** The network-service, credential and TLS checks of docs/checks.md. */
const DOCUMENTED = [
  'mysql-empty-root-password',
  'postgresql-default-password',
  'rabbitmq-default-guest-amqp',
  'rabbitmq-default-guest-management',
  'ftp-anonymous-login',
  'erlang-distribution-exposed',
  'ssh-weak-algorithms',
  'ssh-protocol-version-1',
  'smtp-open-relay',
  'tls-weak-cipher',
  'tls-certificate-weak-key',
  'tls-certificate-not-yet-valid',
  'tls-certificate-hostname-mismatch',
  'tls-certificate-chain-incomplete',
];

describe('docs/checks.md', () => {
  it('lists every built-in check', async () => {
    const doc = await readFile(new URL('../../../../docs/checks.md', import.meta.url), 'utf8');
    for (const id of new Set([...DOCUMENTED, ...BUILT_IN_CHECKS.map((check) => check.id)])) {
      expect(doc, id).toContain(`\`${id}\``);
    }
  });
});
