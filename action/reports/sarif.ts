import { createHash } from 'node:crypto';
import type * as Sarif from 'sarif';
import { TRIAGED_AWAY, atOrAbove, bySeverity, type Finding, type Severity } from '../core/scan.ts';
import type { CompletedVerdict } from '../core/verdict.ts';

/**
 * SARIF 2.1.0 for GitHub code scanning, built from a verdict (`sarifReport`) or, underneath,
 * from findings and the run's description (`buildSarif`). Pure: the front ends write the file
 * and upload it.
 *
 * - One rule per `template_id` (the canonical check id), so GitHub groups and
 *   filters alerts by check; `security-severity` is the highest CVSS score of
 *   the rule's findings, which GitHub turns into its critical/high/medium/low.
 * - One result per finding. GitHub tracks alerts across runs by
 *   `partialFingerprints.primaryLocationLineHash` only, so that is derived
 *   from the Scanward finding id, which stays the same for the same weakness on
 *   the same component in every later scan (decisions.md "Findings").
 * - Network findings have no source file. GitHub requires a location and
 *   refuses URIs with a scheme such as `https://`, so each result is placed on
 *   a repository-relative path that names the component and does not exist in
 *   the repository: `scanward/<host>/<scheme>-<port>/<path>`. GitHub lists such
 *   alerts in the Security tab with that path, without a code snippet, and
 *   never annotates a pull request diff with them (docs/github-action.md).
 * - Findings triaged in Scanward as `false_positive` or `accepted` are left out:
 *   GitHub does not dismiss alerts from SARIF `suppressions`, so sending them
 *   would reopen what the team already decided on.
 */

export interface SarifOptions {
  scanId: string;
  target: string;
  scanType: string;
  /** The Scanward service version (from /api/health), or the Action's when the service does not say. */
  toolVersion: string;
  /** The tool's documentation, e.g. the service's `/docs` page. */
  informationUri: string;
  /** Where the scan can be read, e.g. `https://scanward.example.com/api/v1/scans/scan_…`. */
  scanUrl?: string | undefined;
  startedAt?: string | undefined;
  completedAt?: string | undefined;
  repository?: { uri: string; revisionId?: string | undefined; branch?: string | undefined } | undefined;
}

/** What only the front end knows: the repository and commit the analysis belongs to. */
export interface SarifContext {
  repository?: SarifOptions['repository'];
}

export interface SarifBuild {
  log: SarifLog;
  /** Findings left out because GitHub rejects more results per run. */
  omitted: number;
  /** Findings left out because they were triaged as false positive or accepted. */
  triaged: number;
}

/** GitHub rejects a run with more results than this. */
export const MAX_RESULTS = 25_000;
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

export interface SarifReport extends SarifBuild {
  /** The file's text, as written and uploaded. */
  text: string;
  /** Things the log should say (findings left out). */
  warnings: string[];
}

/** The SARIF of a completed scan: its reported findings (triaged ones are left out, see above). */
export function sarifReport(verdict: CompletedVerdict, context: SarifContext = {}): SarifReport {
  const { scan, links, tool } = verdict;
  const build = buildSarif(verdict.reported, {
    scanId: scan.id,
    target: scan.target,
    scanType: scan.scan_type,
    toolVersion: tool.version,
    informationUri: tool.informationUri,
    scanUrl: links.scanUrl,
    startedAt: scan.started_at,
    completedAt: scan.completed_at,
    repository: context.repository,
  });
  return {
    ...build,
    text: JSON.stringify(build.log, null, 2),
    warnings:
      build.omitted > 0
        ? [
            `${build.omitted} finding(s) left out of the SARIF file: GitHub accepts at most ${MAX_RESULTS.toLocaleString('en-US')} results.`,
          ]
        : [],
  };
}

export function buildSarif(findings: readonly Finding[], options: SarifOptions): SarifBuild {
  const active = findings.filter((f) => !TRIAGED_AWAY.has(f.status));
  const ordered = [...active].sort(bySeverity);
  const kept = ordered.slice(0, MAX_RESULTS);
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const members = new Map<string, Finding[]>();
  for (const finding of kept) {
    const id = ruleIdOf(finding);
    if (!ruleIndex.has(id)) {
      ruleIndex.set(id, ruleIndex.size);
      members.set(id, []);
    }
    members.get(id)!.push(finding);
  }
  for (const [id, list] of members) rules.push(buildRule(id, list));

  const results = kept.map((finding) => buildResult(finding, ruleIndex, options));
  const run: SarifRun = {
    tool: {
      driver: {
        name: 'Scanward',
        version: options.toolVersion,
        ...(SEMVER.test(options.toolVersion) ? { semanticVersion: options.toolVersion } : {}),
        informationUri: options.informationUri,
        rules,
      },
    },
    automationDetails: {
      // "category/run-id": one category per target, so scanning two targets for one
      // commit keeps both analyses instead of the second replacing the first.
      id: `scanward/${pathSegment(options.target)}/${options.scanId}`,
    },
    invocations: [
      {
        executionSuccessful: true,
        ...(options.startedAt ? { startTimeUtc: options.startedAt } : {}),
        ...(options.completedAt ? { endTimeUtc: options.completedAt } : {}),
      },
    ],
    ...(options.repository
      ? {
          versionControlProvenance: [
            {
              repositoryUri: options.repository.uri,
              mappedTo: { uriBaseId: SRCROOT },
              ...(options.repository.revisionId ? { revisionId: options.repository.revisionId } : {}),
              ...(options.repository.branch ? { branch: options.repository.branch } : {}),
            },
          ],
        }
      : {}),
    results,
    columnKind: 'utf16CodeUnits',
    properties: {
      scanId: options.scanId,
      target: options.target,
      scanType: options.scanType,
      ...(options.scanUrl ? { scanUrl: options.scanUrl } : {}),
    },
  };
  return {
    log: { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] },
    omitted: ordered.length - kept.length,
    triaged: findings.length - active.length,
  };
}

/** Locations are relative to the repository root, as GitHub reads them. */
const SRCROOT = '%SRCROOT%';

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

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

function buildRule(id: string, findings: Finding[]): SarifRule {
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

function buildResult(finding: Finding, ruleIndex: Map<string, number>, options: SarifOptions): SarifResult {
  const ruleId = ruleIdOf(finding);
  const cves = finding.cve_ids.length > 0 ? ` (${finding.cve_ids.join(', ')})` : '';
  const score = finding.cvss_score && finding.cvss_score > 0 ? `, CVSS ${finding.cvss_score.toFixed(1)}` : '';
  return {
    ruleId,
    ruleIndex: ruleIndex.get(ruleId)!,
    level: LEVEL[finding.severity],
    message: {
      text: `${stripPeriod(finding.title)}${cves} on ${finding.affected_component}. Severity ${finding.severity}${score}.`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: {
            uri: locationPath(finding.affected_component, finding.target ?? options.target),
            uriBaseId: SRCROOT,
          },
          region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 },
        },
        message: { text: `Network location ${finding.affected_component}.` },
      },
    ],
    partialFingerprints: {
      primaryLocationLineHash: `${createHash('sha256').update(finding.id).digest('hex').slice(0, 16)}:1`,
      'scanwardFindingId/v1': finding.id,
    },
    properties: {
      findingId: finding.id,
      severity: finding.severity,
      status: finding.status,
      affectedComponent: finding.affected_component,
      ...(finding.cvss_score !== null ? { cvssScore: finding.cvss_score } : {}),
      ...(finding.cve_ids.length > 0 ? { cveIds: finding.cve_ids } : {}),
      ...(finding.tool ? { detectedBy: finding.tool } : {}),
    },
  };
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21' };
const MAX_SEGMENTS = 8;
const MAX_SEGMENT_LENGTH = 64;

/**
 * The repository-relative path a network finding is placed on:
 * `https://app.example.com:443/admin/login?x=1` → `scanward/app.example.com/https-443/admin/login`,
 * `redis://[::1]:6379` → `scanward/__1/redis-6379`. Query strings and fragments
 * are left out (they vary between runs); a component that is not a URL is kept
 * as one segment under the target.
 */
export function locationPath(component: string, target: string): string {
  let url: URL | undefined;
  try {
    url = new URL(component);
  } catch {
    url = undefined;
  }
  if (!url || !url.hostname) return `scanward/${pathSegment(target)}/${pathSegment(component)}`;
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port || DEFAULT_PORTS[scheme];
  const service = port ? `${scheme}-${port}` : scheme;
  const segments = url.pathname
    .split('/')
    .map((s) => pathSegment(safeDecode(s)))
    .filter((s) => s !== '' && s !== '_' && s !== '.' && s !== '..')
    .slice(0, MAX_SEGMENTS);
  return ['scanward', pathSegment(url.hostname.replace(/^\[|\]$/g, '')), service, ...segments].join('/');
}

/** One path segment of letters, digits and `._~-`, everything else `_`, at most 64 characters. */
function pathSegment(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, MAX_SEGMENT_LENGTH);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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

/** Text placed in Markdown: no raw HTML. */
function markdownText(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.trim() !== ''))];
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function stripPeriod(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

/** Ends the text with a period, as SARIF messages should. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

// What this module writes: the @types/sarif shapes, with the fields it always sets made required.
export type SarifLevel = Extract<Sarif.Result.level, 'error' | 'warning' | 'note'>;

export interface SarifLog extends Sarif.Log {
  runs: SarifRun[];
}

export interface SarifRun extends Sarif.Run {
  tool: { driver: Sarif.ToolComponent & { version: string; informationUri: string; rules: SarifRule[] } };
  automationDetails: Sarif.RunAutomationDetails & { id: string };
  invocations: Sarif.Invocation[];
  results: SarifResult[];
  columnKind: 'utf16CodeUnits';
  properties: Sarif.PropertyBag;
}

export interface SarifRule extends Sarif.ReportingDescriptor {
  name: string;
  shortDescription: Sarif.MultiformatMessageString;
  fullDescription: Sarif.MultiformatMessageString;
  defaultConfiguration: Sarif.ReportingConfiguration & { level: SarifLevel };
  help: Sarif.MultiformatMessageString & { markdown: string };
  properties: Sarif.PropertyBag & { tags: string[] };
}

export interface SarifLocation extends Sarif.Location {
  physicalLocation: Sarif.PhysicalLocation & {
    artifactLocation: Sarif.ArtifactLocation & { uri: string; uriBaseId: string };
    region: Sarif.Region;
  };
  message: Sarif.Message & { text: string };
}

export interface SarifResult extends Sarif.Result {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: Sarif.Message & { text: string };
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: Sarif.PropertyBag;
}
