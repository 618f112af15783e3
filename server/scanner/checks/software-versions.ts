/**
 * Software versions: end-of-life release cycles, versions behind their cycle's latest
 * release, and versions inside the affected range of a known-exploited vulnerability (CISA
 * KEV). No request is sent: each check reads the product and version the service revealed
 * during enumeration (intel/software.ts) and judges them against the committed
 * snapshots (intel/snapshots/).
 *
 * Check ids are per product (`software-end-of-life:php`) and per CVE (`CVE-2021-41773`), so
 * that Apache and the PHP behind it on one port stay two findings and a fixed version
 * resolves them: every product and CVE judged on a port is recorded as covered.
 */
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { serviceRule } from '../net/service-rules.ts';
import { tryCvssScore } from '../../scoring/cvss.ts';
import { severityRank, type Severity } from '../../scoring/severity.ts';
import { assessEndOfLife, type EolAssessment } from '../../intel/endoflife.ts';
import { describeRange, kevEntriesFor, kevMatches, type KevMatch } from '../../intel/kev.ts';
import { kevSnapshot, eolSnapshot } from '../../intel/snapshots.ts';
import { softwareOf, type IdentifiedSoftware } from '../../intel/software.ts';
import { coverPort, defineCheck, type DeclaredCheck, type Found } from '../check.ts';

const TOOL = 'scanward-versions';

/** Any service that revealed a product and version the intel snapshots know (on whatever port). */
const revealsSoftware = serviceRule(
  'a service that announced a known product and version',
  [],
  (service) => softwareOf(service).length > 0,
);

function evidence(software: IdentifiedSoftware, lines: string[]): Found['evidence'] {
  return {
    request: 'service identification (enumeration)',
    response: [software.source, ...lines].join('\n'),
  };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function eolSource(): string {
  const { products } = eolSnapshot().source;
  return `endoflife.date @ ${products.commit} (${products.date})`;
}

function versionLine(software: IdentifiedSoftware, assessment: EolAssessment): string {
  return `${software.product.name} ${software.version}${assessment.cpe ? ` (${assessment.cpe})` : ''}`;
}

function behindText(assessment: EolAssessment): string {
  const behind = assessment.behind;
  if (!behind) return '';
  const months = behind.months === undefined ? '' : `, ${behind.months} month(s) older`;
  return (
    `It is ${behind.releases} release(s) behind the cycle's latest, ${behind.latest}` +
    `${behind.latestDate ? ` (${behind.latestDate})` : ''}${months}.`
  );
}

export function endOfLifeFound(
  service: ServiceIdentification,
  software: IdentifiedSoftware,
  assessment: EolAssessment,
): Found<'outdated'> {
  const { cycle } = assessment;
  const ended =
    assessment.endOfLife === true
      ? 'has reached its end of life'
      : `reached its end of life on ${assessment.endOfLife}`;
  return {
    instance: software.product.key,
    detail: `${software.product.name} ${software.version}, ${cycle.cycle} cycle`,
    description:
      `${componentUrl(service)} runs ${versionLine(software, assessment)}. Its ${cycle.cycle} release cycle ${ended} ` +
      `and receives no security fixes. ${behindText(assessment)}`.trim(),
    evidence: evidence(software, [
      `release cycle ${cycle.cycle}: end of life ${cycle.eol === true ? 'yes' : cycle.eol}, latest ${cycle.latest ?? 'unknown'}`,
      `source: ${eolSource()}`,
      ...(assessment.cpe ? [`cpe: ${assessment.cpe}`] : []),
    ]),
  };
}

export function outdatedFound(
  service: ServiceIdentification,
  software: IdentifiedSoftware,
  assessment: EolAssessment,
): Found<'outdated'> {
  const behind = assessment.behind as NonNullable<EolAssessment['behind']>;
  return {
    variant: 'outdated',
    instance: software.product.key,
    detail: `${software.product.name} ${software.version}, ${behind.releases} release(s) behind ${behind.latest}`,
    description:
      `${componentUrl(service)} runs ${versionLine(software, assessment)}, in the supported ` +
      `${assessment.cycle.cycle} release cycle. ${behindText(assessment)} The version was read from what the ` +
      'service announced; a distribution package may carry backported fixes under the same version.',
    impact:
      'Security fixes released in this cycle since this version are likely missing; attackers read the same ' +
      'changelogs.',
    evidence: evidence(software, [
      `latest in cycle ${assessment.cycle.cycle}: ${behind.latest}${behind.latestDate ? ` (${behind.latestDate})` : ''}`,
      ...(behind.releasedOn ? [`${software.version} released ${behind.releasedOn}`] : []),
      `source: ${eolSource()}`,
      ...(assessment.cpe ? [`cpe: ${assessment.cpe}`] : []),
    ]),
  };
}

function kevSeverity(vector: string | null): Severity {
  const rating = tryCvssScore(vector)?.rating;
  const fromScore: Severity = rating === undefined || rating === 'none' ? 'high' : rating;
  // Known exploitation in the wild raises urgency: never below high.
  return severityRank(fromScore) > severityRank('high') ? fromScore : 'high';
}

export function kevFound(
  service: ServiceIdentification,
  software: IdentifiedSoftware,
  { entry, range }: KevMatch,
): Found {
  const conditions = entry.conditions.length > 0 ? ` The record notes: ${entry.conditions.join(' ')}` : '';
  return {
    advisory: {
      id: entry.cve,
      title: `${entry.cve} (known exploited) in ${software.product.name} ${software.version}: ${entry.name}`,
      severity: kevSeverity(entry.cvss_v3_vector),
      cvssVector: entry.cvss_v3_vector,
      cweIds: entry.cwe,
      cveIds: [entry.cve],
      kev: true,
    },
    priority: entry.ransomware || (tryCvssScore(entry.cvss_v3_vector)?.baseScore ?? 0) >= 9 ? 'p1' : 'p2',
    description:
      `${componentUrl(service)} announces ${software.product.name} ${software.version}, inside the range the CVE ` +
      `record gives as affected by ${entry.cve} (${range.product} ${describeRange(range)}). CISA lists ${entry.cve} ` +
      `as exploited in the wild since ${entry.kev_date_added}` +
      `${entry.ransomware ? ', including in ransomware campaigns' : ''}. Version in the affected range; not proven ` +
      'exploitable: the version comes from what the service announced, and distributions backport fixes without ' +
      `changing it.${conditions}`,
    impact:
      `If the service is vulnerable, ${entry.name.replace(/ Vulnerability$/i, '').toLowerCase()} is being used by ` +
      'attackers today; known-exploited vulnerabilities are the first ones to fix.',
    evidence: {
      request: 'service identification (enumeration)',
      response: [
        software.source,
        `affected (${entry.cve}): ${range.product} ${describeRange(range)}`,
        `CISA KEV: added ${entry.kev_date_added}${entry.ransomware ? ', known ransomware use' : ''}`,
        `source: ${entry.source}`,
      ].join('\n'),
    },
  };
}

export const endOfLifeCheck = defineCheck({
  meta: {
    id: 'software-end-of-life',
    title: 'End-of-life software',
    severity: 'high',
    // No fixes will come for what is found next: a network attacker needs only the next published flaw.
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
    cweIds: ['CWE-1104'],
    category: 'outdated-software',
    remediation: 'known-vulnerability',
    impact:
      'Vulnerabilities found in this release cycle from now on stay unfixed; published exploits for them can be ' +
      'used against this service indefinitely.',
    tool: TOOL,
    variants: {
      outdated: {
        id: 'software-outdated',
        title: 'Outdated software',
        severity: 'medium',
        // Fixes published since this version are missing; whether one of them matters here is not known.
        cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L',
      },
    },
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: revealsSoftware,
  detect: async (ctx, service) => {
    const found: Found<'outdated'>[] = [];
    for (const software of softwareOf(service)) {
      const assessment = assessEndOfLife(software, today());
      if (!assessment) continue;
      coverPort(ctx, service, `software-end-of-life:${software.product.key}`);
      coverPort(ctx, service, `software-outdated:${software.product.key}`);
      if (assessment.endOfLife) found.push(endOfLifeFound(service, software, assessment));
      else if (assessment.behind) found.push(outdatedFound(service, software, assessment));
    }
    return found;
  },
});

export const knownExploitedVersionCheck = defineCheck({
  meta: {
    id: 'known-exploited-version',
    title: 'Known-exploited vulnerability in the announced version',
    severity: 'high',
    // Where the CVE record gives no vector: a network attacker, a published exploit, details unknown.
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
    // Where the record names no weakness: a dependency on a vulnerable component.
    cweIds: ['CWE-1395'],
    category: 'known-vulnerability',
    remediation: 'known-vulnerability',
    impact:
      'Known-exploited vulnerabilities are being used by attackers today; they are the first ones to fix.',
    tool: TOOL,
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: serviceRule(
    'a service that announced a product with known-exploited vulnerabilities',
    [],
    (service) => softwareOf(service).some((s) => s.product.kevProducts.length > 0),
  ),
  detect: async (ctx, service) => {
    const found: Found[] = [];
    for (const software of softwareOf(service)) {
      for (const entry of kevEntriesFor(software)) coverPort(ctx, service, entry.cve);
      for (const match of kevMatches(software, kevSnapshot())) found.push(kevFound(service, software, match));
    }
    return found;
  },
});

export const softwareVersionChecks: DeclaredCheck[] = [endOfLifeCheck, knownExploitedVersionCheck];
