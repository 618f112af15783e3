import type { Severity } from '../../scoring/severity.ts';
import {
  componentPort,
  componentUrl,
  cweId,
  list,
  record,
  ReportError,
  text,
  type ImportedResult,
} from '../report.ts';

/**
 * OWASP ZAP's XML report (`OWASPZAPReport`, ZAP 2.x, the traditional and "plus" forms) and
 * its JSON report (the same fields; `site` and `instances` are arrays, attributes are
 * `@name`, `@host`, …). One result per alert and instance URL: the same alert on two pages
 * is two findings, on one page with two parameters one (the evidence names the first).
 * `riskcode` 0–3 is info, low, medium, high; an alert of confidence 0 (ZAP's "false
 * positive") is not imported.
 */
const RISK: Record<string, Severity> = { '0': 'info', '1': 'low', '2': 'medium', '3': 'high' };

/** The elements of the XML report that are lists even when they occur once. */
export const ZAP_XML_ARRAYS = new Set(['site', 'alertitem', 'instance']);

export function zapResults(report: Record<string, unknown>, where: 'xml' | 'json'): ImportedResult[] {
  const root =
    where === 'xml'
      ? (record(report['OWASPZAPReport']) ?? (report['OWASPZAPReport'] === '' ? {} : undefined))
      : report;
  if (!root) throw new ReportError('the root element is not <OWASPZAPReport>');
  const out: ImportedResult[] = [];
  list(root['site']).forEach((siteValue, s) => {
    const site = record(siteValue);
    if (!site) throw new ReportError(`<site> ${s + 1} is not an element`);
    const siteName = text(site['@name'], 2048);
    const alertsNode = site['alerts'];
    const alerts = where === 'xml' ? list(record(alertsNode)?.['alertitem']) : list(alertsNode);
    alerts.forEach((alertValue, a) => {
      const where_ = `<site name="${siteName}"> <alertitem> ${a + 1}`;
      const alert = record(alertValue);
      if (!alert) throw new ReportError(`${where_} is not an element`);
      out.push(...zapAlert(alert, siteName, where_, where));
    });
  });
  return out;
}

function zapAlert(
  alert: Record<string, unknown>,
  siteName: string,
  at: string,
  where: 'xml' | 'json',
): ImportedResult[] {
  const pluginId = text(alert['pluginid'], 32).trim();
  const ref = text(alert['alertRef'], 64).trim() || pluginId;
  const risk = text(alert['riskcode'], 4).trim();
  const name = text(alert['name'] ?? alert['alert'], 512).trim();
  if (!pluginId) throw new ReportError(`${at} has no <pluginid>`);
  if (!(risk in RISK)) throw new ReportError(`${at} (${pluginId}) has no <riskcode> of 0 to 3`);
  if (text(alert['confidence'], 4).trim() === '0') return [];
  const instances =
    where === 'xml' ? list(record(alert['instances'])?.['instance']) : list(alert['instances']);
  const description = html(text(alert['desc']));
  const solution = html(text(alert['solution']));
  const references = html(text(alert['reference']))
    .split(/\s+/)
    .filter((ref) => /^https?:\/\//i.test(ref));
  const cwe = cweId(alert['cweid']);
  const otherInfo = html(text(alert['otherinfo']));
  const base = {
    check_id: `zap-${ref}`,
    title: name || `ZAP alert ${ref}`,
    severity: RISK[risk]!,
    cvss_vector: null,
    cve_ids: [],
    cwe_ids: cwe ? [cwe] : [],
    description,
    impact: '',
    remediation: { summary: solution, references },
    category: null,
  };
  const seen = new Map<string, ImportedResult>();
  const places = instances.length > 0 ? instances : [{ uri: siteName }];
  for (const value of places) {
    const instance = record(value) ?? {};
    const uri = text(instance['uri'], 4096).trim() || siteName;
    const component = componentUrl(uri);
    if (seen.has(component)) continue;
    const method = text(instance['method'], 32) || 'GET';
    const param = text(instance['param'], 1024);
    const attack = text(instance['attack'], 4096);
    const request =
      [text(instance['requestheader']), text(instance['requestbody'])].filter(Boolean).join('\n') ||
      [`${method} ${uri}`, param ? `parameter: ${param}` : '', attack ? `attack: ${attack}` : '']
        .filter(Boolean)
        .join('\n');
    const response =
      [text(instance['responseheader']), text(instance['responsebody'])].filter(Boolean).join('\n') ||
      [text(instance['evidence']), html(text(instance['otherinfo'])) || otherInfo].filter(Boolean).join('\n');
    seen.set(component, {
      ...base,
      affected_component: component,
      port: componentPort(component),
      evidence: { request, response },
    });
  }
  return [...seen.values()];
}

/** ZAP's descriptions are HTML paragraphs: the text, one paragraph a line. */
function html(value: string): string {
  return value
    .replace(/<\/p>\s*<p>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
