import type { FindingFacts, Remediation } from './finding-facts.ts';
import { knowledgeFor } from './knowledge/index.ts';
import { fill, placeholderValues } from './placeholders.ts';

const CVE_ID = /^CVE-\d{4}-\d{4,}$/i;
const MAX_CVE_REFERENCES = 5;
const MAX_CWE_REFERENCES = 3;

/**
 * The remediation object of the finding detail view, from the built-in knowledge
 * base, with the finding's host, port and CVEs filled in. References are the
 * entry's own plus the NVD page of each CVE and the MITRE page of each CWE.
 */
export function remediationFor(finding: FindingFacts): Remediation {
  const { entry } = knowledgeFor(finding);
  const values = placeholderValues(finding, entry);
  const base = entry.remediation;
  return {
    summary: fill(base.summary, values),
    steps: base.steps.map((step) => fill(step, values)),
    code_example: fill(base.code_example, values),
    references: dedupe([...findingReferences(finding), ...base.references]),
  };
}

/** The one-line remediation of the per-scan findings list. */
export function remediationSummary(finding: FindingFacts): string {
  return remediationFor(finding).summary;
}

function findingReferences(finding: FindingFacts): string[] {
  const cves = finding.cve_ids
    .map((id) => id.trim().toUpperCase())
    .filter((id) => CVE_ID.test(id))
    .slice(0, MAX_CVE_REFERENCES)
    .map((id) => `https://nvd.nist.gov/vuln/detail/${id}`);
  const cwes = finding.cwe_ids
    .map((id) => /^(?:CWE-)?(\d+)$/i.exec(id.trim())?.[1])
    .filter((n): n is string => !!n)
    .slice(0, MAX_CWE_REFERENCES)
    .map((n) => `https://cwe.mitre.org/data/definitions/${Number(n)}.html`);
  return [...cves, ...cwes];
}

function dedupe(urls: readonly string[]): string[] {
  return [...new Set(urls)];
}
