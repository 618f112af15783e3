import type { Finding } from './responses.ts';
import { ruleIdOf } from './sarif.ts';
import { TRIAGED_AWAY, type GateResult } from './threshold.ts';

/**
 * A JUnit XML report of a completed scan, the test report format every CI
 * renders (GitLab `artifacts:reports:junit`, Jenkins `junit`, Azure
 * `PublishTestResults`, CircleCI `store_test_results`): one test case per
 * reported finding, failed when it failed the gate (at or above fail-on and
 * counted by the gate mode), skipped when the team triaged it as a false
 * positive or accepted, passed otherwise.
 */

export interface JUnitInput {
  scanId: string;
  target: string;
  scanUrl: string;
  /** Seconds the scan ran, when known. */
  seconds?: number | undefined;
  timestamp?: string | undefined;
  findings: readonly Finding[];
  gate: GateResult;
  findingUrl: (id: string) => string;
}

export function renderJUnit(input: JUnitInput): string {
  const failing = new Set(input.gate.failing.map((f) => f.id));
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const f of input.findings) {
    const name = `[${f.severity}] ${f.title} on ${f.affected_component}`;
    const attrs = `classname="${xml(`scanward.${ruleIdOf(f)}`)}" name="${xml(name)}" time="0"`;
    const details = [
      `Finding ${f.id}: ${input.findingUrl(f.id)}`,
      `Severity: ${f.severity}${f.cvss_score ? ` (CVSS ${f.cvss_score.toFixed(1)})` : ''}`,
      `Status: ${f.status}${f.change ? `; change in this scan: ${f.change}` : ''}`,
      ...(f.cve_ids.length > 0 ? [`CVE: ${f.cve_ids.join(', ')}`] : []),
      ...(f.description ? ['', f.description] : []),
      ...(f.remediation ? ['', `Remediation: ${f.remediation}`] : []),
    ].join('\n');
    if (failing.has(f.id)) {
      failures++;
      cases.push(
        `    <testcase ${attrs}>\n      <failure message="${xml(`${f.severity} finding at or above fail-on (${input.gate.failOn})`)}" type="${xml(f.severity)}">${xml(details)}</failure>\n    </testcase>`,
      );
    } else if (TRIAGED_AWAY.has(f.status)) {
      skipped++;
      cases.push(
        `    <testcase ${attrs}>\n      <skipped message="${xml(`triaged as ${f.status}`)}"/>\n    </testcase>`,
      );
    } else {
      cases.push(`    <testcase ${attrs}>\n      <system-out>${xml(details)}</system-out>\n    </testcase>`);
    }
  }
  const tests = input.findings.length;
  const time = (input.seconds ?? 0).toFixed(3);
  const suite = `Scanward scan of ${input.target}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Scanward" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="${xml(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"${input.timestamp ? ` timestamp="${xml(input.timestamp)}"` : ''}>`,
    '    <properties>',
    `      <property name="scan_id" value="${xml(input.scanId)}"/>`,
    `      <property name="scan_url" value="${xml(input.scanUrl)}"/>`,
    `      <property name="gate" value="${xml(input.gate.mode)}"/>`,
    `      <property name="fail_on" value="${xml(input.gate.failOn)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Text safe in XML content and attributes; characters XML 1.0 forbids are dropped. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
