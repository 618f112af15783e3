import type { Finding, Severity } from '../../core/scan.ts';
import { atOrAbove } from '../../core/scan.ts';
import { clip, markdownText, sentence, unique } from './text.ts';
import type { SarifLevel, SarifRule } from './types.ts';

/**
 * The rules of a SARIF run: one per `template_id` (the canonical check id), so GitHub groups
 * and filters alerts by check; `security-severity` is the highest CVSS score of the rule's
 * findings, which GitHub turns into its critical/high/medium/low.
 */

/** GitHub shows at most 10 tags of a rule (and rejects more than 20). */
const MAX_TAGS = 10;
/** GitHub's limit for rule descriptions. */
const MAX_DESCRIPTION = 1024;
const MAX_HELP = 20_000;

/** SARIF levels: GitHub shows error, warning and note. */
export const LEVEL: Record<Severity, SarifLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/** A score inside each GitHub band, for findings without a CVSS score. */
const SEVERITY_SCORE: Record<Severity, number> = { critical: 9.5, high: 8.0, medium: 5.5, low: 2.5, info: 0 };

/** The rule id of a finding: its canonical check id, or a slug of its title when the id is unknown. */
export function ruleIdOf(finding: Finding): string {
  if (finding.template_id && finding.template_id.trim() !== '') return finding.template_id.trim();
  const slug = finding.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `scanward/${slug || 'finding'}`;
}

/** The GitHub security-severity of one finding: its CVSS score, or a score inside its severity's band. */
export function securityScore(finding: Finding): number {
  if (finding.severity === 'info') return 0;
  const cvss = finding.cvss_score ?? 0;
  return cvss > 0 ? Math.min(10, cvss) : SEVERITY_SCORE[finding.severity];
}

export function buildRule(id: string, findings: Finding[]): SarifRule {
  const first = findings[0]!;
  const worst = findings.reduce((a, b) => (atOrAbove(a, b.severity) ? a : b));
  const score = Math.max(...findings.map(securityScore));
  const cves = unique(findings.flatMap((f) => f.cve_ids));
  const cwes = unique(findings.flatMap((f) => f.cwe_ids ?? []));
  const frameworks = unique(findings.flatMap((f) => f.frameworks ?? []));
  const remediation = first.remediation?.trim() || '';
  const description = first.description.trim() || first.title;

  const tags = unique([
    'security',
    'scanward',
    ...cwes.map(cweTag).filter((t): t is string => t !== undefined),
    ...frameworks.map((f) => `compliance/${f}`),
    ...(first.tool ? [`tool/${first.tool}`] : []),
  ]).slice(0, MAX_TAGS);

  return {
    id,
    name: ruleName(id),
    shortDescription: { text: sentence(clip(first.title, MAX_DESCRIPTION)) },
    fullDescription: { text: sentence(clip(description, MAX_DESCRIPTION)) },
    defaultConfiguration: { level: LEVEL[worst.severity] },
    help: {
      text: clip(helpText(remediation, cves, cwes), MAX_HELP),
      markdown: clip(helpMarkdown(first, remediation, cves, cwes), MAX_HELP),
    },
    properties: {
      tags,
      precision: 'high',
      ...(score > 0 ? { 'security-severity': score.toFixed(1) } : { 'problem.severity': 'recommendation' }),
    },
  };
}

/** `CWE-79` → `external/cwe/cwe-079`, the tag form GitHub recognises. */
function cweTag(cwe: string): string | undefined {
  const match = /^CWE-(\d+)$/i.exec(cwe.trim());
  return match ? `external/cwe/cwe-${match[1]!.padStart(3, '0')}` : undefined;
}

/** `redis-no-auth` → `RedisNoAuth`: SARIF rule names are readable identifiers. */
function ruleName(id: string): string {
  const words = id.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return (name || 'Finding').slice(0, 255);
}

function helpText(remediation: string, cves: string[], cwes: string[]): string {
  const parts = [
    remediation ? `Remediation: ${sentence(remediation)}` : 'See the finding in Scanward for remediation.',
  ];
  if (cves.length > 0) parts.push(`CVE: ${cves.join(', ')}.`);
  if (cwes.length > 0) parts.push(`CWE: ${cwes.join(', ')}.`);
  return parts.join('\n');
}

function helpMarkdown(first: Finding, remediation: string, cves: string[], cwes: string[]): string {
  const lines = [`## ${markdownText(first.title)}`, ''];
  if (first.description.trim()) lines.push(markdownText(first.description.trim()), '');
  lines.push(
    '### Remediation',
    '',
    remediation ? markdownText(remediation) : 'See the finding in Scanward.',
    '',
  );
  const refs = [
    ...cves.map((c) => `- [${c}](https://nvd.nist.gov/vuln/detail/${encodeURIComponent(c)})`),
    ...cwes.map((c) => {
      const n = /^CWE-(\d+)$/i.exec(c)?.[1];
      return n ? `- [${c}](https://cwe.mitre.org/data/definitions/${n}.html)` : `- ${markdownText(c)}`;
    }),
  ];
  if (refs.length > 0) lines.push('### References', '', ...refs, '');
  lines.push(`Detected by Scanward${first.tool ? ` (${markdownText(first.tool)})` : ''}.`);
  return lines.join('\n');
}
