import { describeComponent, type ComponentInfo } from './component.ts';
import type { FindingFacts } from './finding-facts.ts';
import type { KnowledgeEntry } from './knowledge/index.ts';

/** The values knowledge text placeholders (`{host}`, `{endpoint}`, …) stand for, for one finding. */
export interface PlaceholderValues {
  host: string;
  port: string;
  endpoint: string;
  path: string;
  component: string;
  service: string;
  cves: string;
  title: string;
  severity: string;
}

export function placeholderValues(
  finding: FindingFacts,
  entry: KnowledgeEntry,
  info?: ComponentInfo,
): PlaceholderValues {
  const c = info ?? describeComponent(finding.affected_component, finding.target);
  const host = c.host ?? finding.target ?? 'the host';
  const port = String(c.port ?? entry.defaultPort ?? '<port>');
  const endpoint = c.host ? `${c.host}${port === '<port>' ? '' : `:${port}`}` : c.endpoint;
  const cves =
    finding.cve_ids.length > 0 ? listOf(finding.cve_ids.slice(0, 5)) : 'the published vulnerabilities';
  return {
    host,
    port,
    endpoint,
    path: c.path ?? '/',
    component: finding.affected_component?.trim() || endpoint,
    service: c.service,
    cves,
    title: finding.title,
    severity: finding.severity,
  };
}

/** Replaces `{name}` placeholders; unknown names are left as written. */
export function fill(text: string, values: PlaceholderValues): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as keyof PlaceholderValues] : whole,
  );
}

/** "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
