import type { Severity } from '../scoring/severity.ts';

/**
 * What remediation and analysis need to know about a finding: a subset of the
 * finding's wire fields (snake_case, as in the interface), so a finding row or view
 * can be passed as it is.
 */
export interface FindingFacts {
  title: string;
  severity: Severity;
  /** The canonical check id (the finding's `template_id`). */
  template_id?: string | null;
  /** The check's finding category (see FINDING_CATEGORIES in controls/mapping.ts). */
  category?: string | null;
  cve_ids: readonly string[];
  cwe_ids: readonly string[];
  cvss_score?: number | null;
  cvss_vector?: string | null;
  epss_score?: number | null;
  target?: string | null;
  /** `redis://host:6379`, `https://host:443/path`, `tcp://host:port`, … */
  affected_component?: string | null;
  tool?: string | null;
  description?: string | null;
  evidence?: { request?: string | null; response?: string | null } | null;
}

/** The remediation object of the finding detail view. */
export interface Remediation {
  summary: string;
  steps: string[];
  code_example: string;
  /** URLs. */
  references: string[];
}
