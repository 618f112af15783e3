import type { FindingCategory } from '../../controls/mapping.ts';
import type { ComponentInfo } from '../component.ts';
import type { FindingFacts, Remediation } from '../finding-facts.ts';

/**
 * One piece of remediation knowledge: how to fix one kind of finding, what it lets
 * an attacker do, and (when one exists) the playbook that fixes it.
 *
 * Text may contain placeholders filled from the finding: `{host}`, `{port}`,
 * `{endpoint}` (host:port), `{path}`, `{component}` (the affected component),
 * `{service}` and `{cves}`. An unknown host reads "the host"; an unknown port falls
 * back to the entry's `defaultPort`.
 */
export interface KnowledgeEntry {
  /** The canonical check id this entry is written for. */
  id: string;
  /** Upstream template ids and other check ids that report the same weakness. */
  aliases: readonly string[];
  category: FindingCategory;
  /** CWEs typical of the weakness (used for references). */
  cwe_ids: readonly string[];
  defaultPort?: number;
  /** Recognises the weakness from a finding whose check id is not known here. */
  recognise?: (finding: FindingFacts, component: ComponentInfo) => boolean;
  remediation: Remediation;
  /** What the weakness gives an attacker, as a sentence that follows the component's name. */
  impact: string;
  /** How an attacker would use it, each a sentence with placeholders. */
  scenarios: readonly string[];
  playbookId?: string;
  /**
   * URL schemes of affected components the playbook can fix (a web-server playbook
   * cannot fix TLS on a mail server). A component without a scheme is given the benefit
   * of the doubt.
   */
  playbookSchemes?: readonly string[];
}

/** Case-insensitive test of the finding's title, description and template id. */
export function mentions(finding: FindingFacts, pattern: RegExp): boolean {
  return [finding.title, finding.template_id, finding.description].some(
    (text) => !!text && pattern.test(text),
  );
}

export function hasCwe(finding: FindingFacts, ...cwes: number[]): boolean {
  return finding.cwe_ids.some((id) => cwes.includes(Number(/(\d+)$/.exec(id)?.[1])));
}

/** The finding is about a service, by URL scheme, port or name. */
export function isService(
  finding: FindingFacts,
  component: ComponentInfo,
  schemes: readonly string[],
  ports: readonly number[],
  name: RegExp,
): boolean {
  return (
    (!!component.scheme && schemes.includes(component.scheme)) ||
    (!!component.port && ports.includes(component.port) && component.scheme === 'tcp') ||
    mentions(finding, name)
  );
}

/** The finding says, one way or another, that no credentials (or default ones) were needed. */
export function isMissingAuth(finding: FindingFacts): boolean {
  return (
    ['unauthenticated-access', 'default-credentials', 'exposed-service'].includes(finding.category ?? '') ||
    hasCwe(finding, 284, 287, 306, 521, 798, 1391, 1392) ||
    mentions(
      finding,
      /unauth|no[ -]?auth|without auth|anonymous|empty password|default (?:login|password|credential)|exposed|trust/i,
    )
  );
}

export const cwePage = (id: number): string => `https://cwe.mitre.org/data/definitions/${id}.html`;
