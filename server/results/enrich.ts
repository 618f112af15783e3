import { controlsForFinding } from '../controls/mapping.ts';
import { automationForFinding } from '../remediation/analysis.ts';
import { suggestedFindingPriority } from '../remediation/priority.ts';
import { remediationFor } from '../remediation/remediation.ts';
import type { KevCatalogue } from '../scoring/kev.ts';
import type { KevEntry } from '../intel/build-kev.ts';
import type { VendorCveEntry } from '../intel/build-vendor-cves.ts';
import { epssFor } from '../intel/epss.ts';
import { kevSnapshot, vendorSnapshot } from '../intel/snapshots.ts';
import { scoreOf, type FindingDetection } from '../findings/normalize.ts';

/**
 * Enrichment, the same for every source (docs/finding-lifecycle.md, "Enrichment"): what the
 * engine's threat-intelligence, correlation and remediation-planning phases add to a native
 * detection, added to any detection that lacks it, from the same bundled snapshots. Pure and
 * idempotent: a detection the engine already enriched comes out as it went in.
 *
 * - **KEV**: a CVE in the bundled KEV snapshot (intel/kev) or the configured CISA
 *   catalogue (SCANWARD_KEV_FILE) marks it `kev`;
 * - **EPSS**: the highest score of its CVEs in the committed snapshot (the finding's
 *   `epss_snapshot_date` is that snapshot's date);
 * - **vendor advisory data**: a CVE the vendor snapshot (Apache httpd, nginx, OpenSSL) lists
 *   gives a description where the source gave none, and its advisory as a reference;
 * - **CWE** and **CVSS** from the KEV record where the source gave none;
 * - remediation (the catalogue's, where the source gave none), compliance mapping, and the
 *   suggested priority remediation planning gives (the SLA due date follows from the severity
 *   when the finding is created, findings/sla.ts).
 */

export interface EnrichmentData {
  /** The configured CISA catalogue, when one is. */
  kevCatalogue?: KevCatalogue | undefined;
}

function kevByCve(): Map<string, KevEntry> {
  return new Map(kevSnapshot().entries.map((e) => [e.cve.toUpperCase(), e]));
}

function vendorByCve(): Map<string, VendorCveEntry> {
  const snapshot = vendorSnapshot();
  const out = new Map<string, VendorCveEntry>();
  for (const entries of Object.values(snapshot.products))
    for (const e of entries) out.set(e.cve.toUpperCase(), e);
  return out;
}

let indexes: { kev: Map<string, KevEntry>; vendor: Map<string, VendorCveEntry> } | undefined;

/** Every detection enriched (see the module comment). */
export function enrichDetections(
  detections: readonly FindingDetection[],
  data: EnrichmentData = {},
): FindingDetection[] {
  indexes ??= { kev: kevByCve(), vendor: vendorByCve() };
  return detections.map((d) => enrichOne(d, data, indexes!));
}

function enrichOne(
  d: FindingDetection,
  data: EnrichmentData,
  index: { kev: Map<string, KevEntry>; vendor: Map<string, VendorCveEntry> },
): FindingDetection {
  const cves = [...new Set(d.cve_ids.map((id) => id.trim().toUpperCase()).filter(Boolean))];
  const kevEntries = cves.map((c) => index.kev.get(c)).filter((e): e is KevEntry => e !== undefined);
  const vendor = cves.map((c) => index.vendor.get(c)).find((e) => e !== undefined);
  const kev = d.kev === true || kevEntries.length > 0 || cves.some((c) => data.kevCatalogue?.has(c) === true);
  const cweIds = d.cwe_ids.length > 0 ? d.cwe_ids : [...new Set(kevEntries.flatMap((e) => e.cwe))];
  const stated = scoreOf(d);
  const kevVector = kevEntries.find((e) => e.cvss_v3_vector)?.cvss_v3_vector ?? null;
  const cvssVector = stated.score > 0 ? (d.cvss_vector ?? null) : (d.cvss_vector ?? kevVector);
  const description =
    d.description.trim() || (vendor ? `${vendor.title}. ${vendor.summary}`.trim() : d.description);
  const epss = epssFor(cves)?.score ?? d.epss_score ?? null;
  const base: FindingDetection = {
    ...d,
    cve_ids: cves,
    cwe_ids: cweIds,
    cvss_vector: cvssVector,
    description,
    epss_score: epss,
    ...(kev && { kev: true }),
  };
  const references = vendor?.advisory ? [vendor.advisory] : [];
  const catalogue = base.remediation ?? remediationFor({ ...base, template_id: base.check_id });
  const remediation = catalogue && {
    ...catalogue,
    references: [...new Set([...catalogue.references, ...references])],
  };
  const mapping = controlsForFinding({
    category: base.category ?? null,
    cwe_ids: base.cwe_ids,
    cve_ids: base.cve_ids,
    severity: base.severity,
    target: base.target,
    in_kev: base.kev,
  });
  const enriched: FindingDetection = {
    ...base,
    ...(remediation && { remediation }),
    frameworks: base.frameworks && base.frameworks.length > 0 ? base.frameworks : mapping.frameworks,
  };
  if (enriched.planned) return enriched;
  const facts = {
    ...enriched,
    template_id: enriched.check_id,
    cvss_score: scoreOf(enriched).score,
  };
  const automation = automationForFinding(facts);
  const plan = enriched.remediation ?? { summary: '', steps: [], code_example: '', references: [] };
  const step = automation.automation_available
    ? `Automate the fix with the Ansible playbook ${automation.ansible_playbook_id} ` +
      `(GET /api/v1/playbooks/${automation.ansible_playbook_id}).`
    : undefined;
  return {
    ...enriched,
    planned: {
      priority: suggestedFindingPriority(facts),
      remediation: {
        ...plan,
        steps: step && !plan.steps.includes(step) ? [...plan.steps, step] : plan.steps,
      },
    },
  };
}
