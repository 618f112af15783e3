import { isSeverity } from '../../scoring/severity.ts';
import {
  componentPort,
  componentUrl,
  cveId,
  cweId,
  distinct,
  list,
  record,
  ReportError,
  statedScore,
  text,
  type ImportedResult,
} from '../report.ts';

/**
 * nuclei's JSON output (`-json-export`: an array; `-jsonl`/`-json`: one result per line).
 * Each result names its template (`template-id`, older `templateID`), the template's `info`
 * (name, severity, description, remediation, reference, classification with CVE, CWE and the
 * CVSS vector) and where it matched (`matched-at`, older `matched`), with the request and
 * response when nuclei kept them (`-irr`), or a curl command and extracted results.
 */
export function nucleiResults(items: readonly unknown[]): ImportedResult[] {
  return items.map((item, index) => nucleiResult(item, index + 1));
}

function nucleiResult(item: unknown, n: number): ImportedResult {
  const r = record(item);
  const templateId = text(r?.['template-id'] ?? r?.['templateID'], 256).trim();
  if (!r || !templateId) throw new ReportError(`result ${n}: not a nuclei result (it has no template-id)`);
  const info = record(r['info']) ?? {};
  const classification = record(info['classification']) ?? {};
  const matcher = text(r['matcher-name'], 256).trim();
  const matchedAt = text(r['matched-at'] ?? r['matched'] ?? r['url'] ?? r['host'], 4096).trim();
  const declared = text(info['severity'], 32).toLowerCase();
  const references = list(info['reference']).flatMap((ref) =>
    text(ref, 2048)
      .split('\n')
      .map((line) => line.replace(/^\s*-\s*/, '').trim())
      .filter((line) => /^https?:\/\//i.test(line)),
  );
  // A result without a place (a DNS template's, say) is about the import's target: '' says so.
  const component = matchedAt && nucleiComponent(matchedAt, text(r['type'], 32), text(r['scheme'], 16));
  const extracted = list(r['extracted-results'])
    .map((v) => text(v, 4096))
    .filter(Boolean);
  const remediation = text(info['remediation']);
  return {
    check_id: matcher ? `${templateId}:${matcher}` : templateId,
    title: text(info['name'], 512).trim() || templateId,
    severity: isSeverity(declared) ? declared : 'info',
    cvss_vector: text(classification['cvss-metrics'], 256) || null,
    cvss_score: statedScore(classification['cvss-score']) ?? null,
    cve_ids: distinct(list(classification['cve-id']).map(cveId)),
    cwe_ids: distinct(list(classification['cwe-id']).map(cweId)),
    description: text(info['description']),
    impact: text(info['impact']),
    ...(remediation || references.length > 0 ? { remediation: { summary: remediation, references } } : {}),
    affected_component: component,
    port: componentPort(component) ?? portOf(r['port']),
    category: null,
    evidence: {
      request:
        text(r['request']) || text(r['curl-command']) || `${text(r['type'], 32) || 'match'} ${matchedAt}`,
      response:
        text(r['response']) ||
        [extracted.join('\n'), text(r['matched-line'])].filter(Boolean).join('\n') ||
        `matched by ${templateId}${matcher ? ` (${matcher})` : ''}`,
    },
  };
}

function portOf(value: unknown): number | null {
  const port = Number(text(value, 8));
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** `https://a.example/x` keeps its scheme (port written out); `host:22` of a network template becomes `tcp://host:22`. */
function nucleiComponent(matchedAt: string, type: string, scheme: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(matchedAt)) return componentUrl(matchedAt);
  if (type === 'http' && scheme) return componentUrl(`${scheme}://${matchedAt}`);
  return componentUrl(`${type === 'dns' ? 'dns' : 'tcp'}://${matchedAt}`);
}
