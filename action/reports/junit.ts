import { TRIAGED_AWAY } from '../core/scan.ts';
import type { CompletedVerdict } from '../core/verdict.ts';
import { ruleIdOf } from './sarif.ts';

/**
 * A JUnit XML report of a completed scan, the test report format every CI
 * renders (GitLab `artifacts:reports:junit`, Jenkins `junit`, Azure
 * `PublishTestResults`, CircleCI `store_test_results`): one test case per
 * reported finding, failed when it failed the gate (at or above fail-on and
 * counted by the gate mode), skipped when the team triaged it as a false
 * positive or accepted, passed otherwise.
 */

export function renderJUnit(verdict: CompletedVerdict): string {
  const { scan, links, gate, reported } = verdict;
  const failing = new Set(gate.failing.map((f) => f.id));
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const f of reported) {
    const name = `[${f.severity}] ${f.title} on ${f.affected_component}`;
    const attrs = `classname="${xml(`scanward.${ruleIdOf(f)}`)}" name="${xml(name)}" time="0"`;
    const details = [
      `Finding ${f.id}: ${links.findingUrl(f.id)}`,
      `Severity: ${f.severity}${f.cvss_score ? ` (CVSS ${f.cvss_score.toFixed(1)})` : ''}`,
      `Status: ${f.status}${f.change ? `; change in this scan: ${f.change}` : ''}`,
      ...(f.cve_ids.length > 0 ? [`CVE: ${f.cve_ids.join(', ')}`] : []),
      ...(f.description ? ['', f.description] : []),
      ...(f.remediation ? ['', `Remediation: ${f.remediation}`] : []),
    ].join('\n');
    if (failing.has(f.id)) {
      failures++;
      cases.push(
        `    <testcase ${attrs}>\n      <failure message="${xml(`${f.severity} finding at or above fail-on (${gate.failOn})`)}" type="${xml(f.severity)}">${xml(details)}</failure>\n    </testcase>`,
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
  const tests = reported.length;
  const time = (durationSeconds(scan.started_at, scan.completed_at) ?? 0).toFixed(3);
  const suite = `Scanward scan of ${scan.target}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Scanward" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="${xml(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"${scan.started_at ? ` timestamp="${xml(scan.started_at)}"` : ''}>`,
    '    <properties>',
    `      <property name="scan_id" value="${xml(scan.id)}"/>`,
    `      <property name="scan_url" value="${xml(links.scanUrl)}"/>`,
    `      <property name="gate" value="${xml(gate.mode)}"/>`,
    `      <property name="fail_on" value="${xml(gate.failOn)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Seconds the scan ran, when both ends are known. */
function durationSeconds(startedAt?: string, completedAt?: string): number | undefined {
  const ms = (completedAt ? Date.parse(completedAt) : NaN) - (startedAt ? Date.parse(startedAt) : NaN);
  return Number.isFinite(ms) ? ms / 1000 : undefined;
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
