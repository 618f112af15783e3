import { TRIAGED_AWAY, bySeverity, type Finding } from '../core/scan.ts';
import type { CompletedVerdict } from '../core/verdict.ts';
import { SRCROOT, pathSegment } from './sarif/locations.ts';
import { buildResult } from './sarif/results.ts';
import { buildRule, ruleIdOf } from './sarif/rules.ts';
import type { SarifLog, SarifRule, SarifRun } from './sarif/types.ts';

/**
 * SARIF 2.1.0 for GitHub code scanning, built from a verdict (`sarifReport`) or, underneath,
 * from findings and the run's description (`buildSarif`). Pure: the front ends write the file
 * and upload it. The builders: sarif/rules.ts, sarif/results.ts, sarif/locations.ts.
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

export type { SarifLevel, SarifLocation, SarifLog, SarifResult, SarifRule, SarifRun } from './sarif/types.ts';
export { LEVEL, ruleIdOf, securityScore } from './sarif/rules.ts';
export { locationPath } from './sarif/locations.ts';

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
  const run = buildRun(rules, results, options);
  return {
    log: { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] },
    omitted: ordered.length - kept.length,
    triaged: findings.length - active.length,
  };
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The run: the tool and its rules, the scan it describes, the commit it belongs to, the results. */
function buildRun(rules: SarifRule[], results: SarifRun['results'], options: SarifOptions): SarifRun {
  return {
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
}
