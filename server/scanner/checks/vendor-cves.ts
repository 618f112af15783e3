/**
 * Every CVE the vendor lists for an announced version of Apache HTTP Server, nginx or OpenSSL
 * (OpenSSL also when an Apache `Server` header names it): one finding per CVE, keyed by the CVE
 * on the service, so a KEV version match or a template's proof of the same CVE folds into it
 * (phases/correlation.ts) and `GET /findings?cve=` finds each. No request is sent: the version
 * is what the service announced during enumeration, judged against the committed vendor
 * snapshot (intel/vendor-cves.ts). Every CVE the snapshot holds for the product is recorded as
 * covered on the port, so an upgrade resolves what it fixed.
 */
import type { RemediationValue } from '../../findings/rows.ts';
import { DEFAULT_VECTOR_BY_SEVERITY } from '../../scoring/defaults.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import {
  comparableVersion,
  vendorCveIds,
  vendorCves,
  vendorSnapshotInfo,
  type VendorCve,
} from '../../intel/vendor-cves.ts';
import { compareVersions } from '../../intel/versions.ts';
import { softwareOf, type IdentifiedSoftware } from '../../intel/software.ts';
import { serviceRule } from '../net/service-rules.ts';
import { coverPort, defineCheck, type Found } from '../check.ts';

const TOOL = 'scanward-versions';
/** CWE-1395, Dependency on Vulnerable Third-Party Component: the vendors' records name no weakness class. */
const VENDOR_CVE_CWES = ['CWE-1395'];

/** The vendors publish a level, not a vector: each of our severities stands for one documented vector. */
export const VENDOR_CVE_VECTORS = DEFAULT_VECTOR_BY_SEVERITY;

/**
 * The release that fixes `match` for `version`: the first fixed one on its line, else the lowest
 * fixed release above it (a later line), else none stated.
 */
export function fixingRelease(match: VendorCve, version: string): string | null {
  if (match.fixedIn) return match.fixedIn;
  const plain = comparableVersion(version) ?? version;
  return match.fixedReleases.find((r) => (compareVersions(r, plain) ?? 0) > 0 && !/\*/.test(r)) ?? null;
}

function remediation(software: IdentifiedSoftware, match: VendorCve): RemediationValue {
  const fix = fixingRelease(match, software.version);
  const name = software.product.name;
  const summary = fix
    ? `Upgrade ${name} to ${fix} or later (the release that fixes ${match.cve} on the ${software.version} line).`
    : `Upgrade ${name} to a release the vendor lists as fixing ${match.cve}.`;
  const steps = [
    fix
      ? `Install ${name} ${fix} or a later release of a supported line.`
      : `Install a supported ${name} release that is not affected (see the advisory).`,
    ...(software.distribution
      ? [
          `${software.distribution} packages may carry the fix under the old version number: check the distribution's ` +
            `advisory for ${match.cve} before upgrading from source.`,
        ]
      : []),
    ...(match.note ? [match.note] : []),
    'Rescan: the finding is resolved when the service announces a version outside the affected range.',
  ];
  const references = [match.advisory, `https://www.cve.org/CVERecord?id=${match.cve}`].filter(
    (r): r is string => typeof r === 'string' && r.length > 0,
  );
  return { summary, steps, code_example: '', references };
}

export function vendorCveFound(
  service: ServiceIdentification,
  software: IdentifiedSoftware,
  match: VendorCve,
): Found {
  const name = software.product.name;
  const fix = fixingRelease(match, software.version);
  const data = vendorSnapshotInfo();
  const source = data.products[match.product];
  return {
    advisory: {
      id: match.cve,
      title: `${match.cve} in ${name} ${software.version}: ${match.title}`,
      severity: match.severity,
      cvssVector: VENDOR_CVE_VECTORS[match.severity],
      cweIds: VENDOR_CVE_CWES,
      cveIds: [match.cve],
    },
    description:
      `${componentUrl(service)} announces ${name} ${software.version}, which the vendor lists as affected by ` +
      `${match.cve} (${match.affectedRange}; vendor level ${match.vendorSeverity ?? 'none'}). ${match.summary}` +
      `${match.platforms.length > 0 ? ` The vendor limits it to ${match.platforms.join(', ')} builds.` : ''}` +
      ` Inferred from the version; not proven exploitable: ` +
      `${software.distribution ? `${software.distribution} packages` : 'distribution packages'} may carry ` +
      'backported fixes under the same version.',
    impact: match.summary || match.title,
    remediation: remediation(software, match),
    evidence: {
      request: 'service identification (enumeration)',
      response: [
        software.source,
        `affected (${match.cve}): ${name} ${match.affectedRange}`,
        `vendor level: ${match.vendorSeverity ?? 'none'} → ${match.severity}`,
        `fixed in: ${fix ?? 'not stated'}`,
        ...(match.advisory ? [`advisory: ${match.advisory}`] : []),
        `source: ${source.repository} @ ${source.commit} (${data.date}) ${match.source}`,
      ].join('\n'),
    },
  };
}

export const vendorCveCheck = defineCheck({
  meta: {
    id: 'vendor-cve-version',
    title: 'Vulnerability the vendor lists for the announced version',
    severity: 'high',
    cvssVector: VENDOR_CVE_VECTORS.high,
    cweIds: VENDOR_CVE_CWES,
    category: 'known-vulnerability',
    remediation: 'known-vulnerability',
    impact: 'The vendor lists this release as affected; the advisory says what an attacker gains.',
    tool: TOOL,
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: serviceRule(
    'a service that announced a product whose vendor advisories we carry',
    [],
    (service) => softwareOf(service).some((s) => s.product.vendor !== undefined),
  ),
  detect: async (ctx, service) => {
    const found: Found[] = [];
    for (const software of softwareOf(service)) {
      const vendor = software.product.vendor;
      if (!vendor) continue;
      for (const cve of vendorCveIds(vendor)) coverPort(ctx, service, cve);
      const platform = software.platform ? { platform: software.platform } : {};
      for (const match of vendorCves(vendor, software.version, platform)) {
        found.push(vendorCveFound(service, software, match));
      }
    }
    return found;
  },
});
