import { cweFamily, normalizeCategory } from '../../controls/mapping.ts';
import { describeComponent } from '../component.ts';
import type { FindingFacts } from '../finding-facts.ts';
import type { KnowledgeEntry } from './entry.ts';
import { DETECTION_DEPTH_ENTRIES } from './detection-depth.ts';
import { CATEGORY_ENTRIES, knownVulnerability, severityEntry } from './generic.ts';
import { SERVICE_ENTRIES } from './services.ts';
import { TLS_ENTRIES } from './tls.ts';
import { WEB_ENTRIES } from './web.ts';
import { WEB_HARDENING_ENTRIES } from './web-hardening.ts';
import { WEB_ATTACK_ENTRIES } from './web-attacks.ts';

export type { KnowledgeEntry } from './entry.ts';

/** Every specific entry, in the order heuristics are tried. */
export const KNOWLEDGE_ENTRIES: readonly KnowledgeEntry[] = [
  ...SERVICE_ENTRIES,
  ...WEB_ENTRIES,
  ...WEB_HARDENING_ENTRIES,
  ...WEB_ATTACK_ENTRIES,
  ...TLS_ENTRIES,
  ...DETECTION_DEPTH_ENTRIES,
];

const BY_CHECK_ID: ReadonlyMap<string, KnowledgeEntry> = new Map(
  [...KNOWLEDGE_ENTRIES, knownVulnerability].flatMap((entry) =>
    [entry.id, ...entry.aliases].map((id) => [id.toLowerCase(), entry] as const),
  ),
);

export type MatchedBy = 'check_id' | 'heuristic' | 'cve' | 'category' | 'cwe' | 'severity';

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  /** Which rule found the entry, most specific first. */
  matchedBy: MatchedBy;
}

/**
 * The knowledge that best fits a finding. Tried in order:
 * 1. the check id (`template_id`) or one of its upstream aliases;
 * 2. recognisers that read the component's scheme/port and the finding's text
 *    (only for findings without CVEs, which are about a version, not a setting);
 * 3. any CVE: the known-vulnerability entry;
 * 4. the category's entry; 5. the CWE family's category entry;
 * 6. advice shaped by severity alone.
 */
export function knowledgeFor(finding: FindingFacts): KnowledgeMatch {
  const byId = finding.template_id ? BY_CHECK_ID.get(finding.template_id.trim().toLowerCase()) : undefined;
  if (byId) return { entry: byId, matchedBy: 'check_id' };

  if (finding.cve_ids.length === 0) {
    const component = describeComponent(finding.affected_component, finding.target);
    const recognised = KNOWLEDGE_ENTRIES.find((entry) => entry.recognise?.(finding, component));
    if (recognised) return { entry: recognised, matchedBy: 'heuristic' };
  } else {
    return { entry: knownVulnerability, matchedBy: 'cve' };
  }

  const category = normalizeCategory(finding.category);
  const byCategory = category ? CATEGORY_ENTRIES[category] : undefined;
  if (byCategory) return { entry: byCategory, matchedBy: 'category' };

  for (const cwe of finding.cwe_ids) {
    const family = cweFamily(cwe);
    const byCwe = family ? CATEGORY_ENTRIES[family.category] : undefined;
    if (byCwe) return { entry: byCwe, matchedBy: 'cwe' };
  }

  return { entry: severityEntry(finding.severity), matchedBy: 'severity' };
}

/** The knowledge entry written for a canonical check id or upstream alias. */
export function knowledgeForCheck(checkId: string): KnowledgeEntry | undefined {
  return BY_CHECK_ID.get(checkId.trim().toLowerCase());
}
