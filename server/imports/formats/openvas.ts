import type { Severity } from '../../scoring/severity.ts';
import {
  cveId,
  distinct,
  list,
  record,
  ReportError,
  severityOfScore,
  statedScore,
  text,
  type ImportedResult,
} from '../report.ts';

/**
 * OpenVAS / Greenbone reports: the XML report (GMP `<report>`, results under
 * `report/report/results` or `report/results`) and the CSV export ("CSV Results": a header
 * row naming `IP`, `Port`, `Severity`, `NVT Name`, `NVT OID`, …). One result per NVT,
 * host and port; Greenbone's threat levels High/Medium/Low are kept (`Critical` too, from
 * newer versions), `Log` is informational. The check id is `openvas-<NVT OID>`.
 */
const THREAT: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  log: 'info',
  debug: 'info',
  'false positive': 'info',
};

export const OPENVAS_XML_ARRAYS = new Set(['result', 'ref', 'severity']);

interface OpenVasRow {
  host: string;
  hostname: string;
  port: string;
  threat: string;
  score: string;
  vector: string;
  name: string;
  oid: string;
  cves: string[];
  summary: string;
  insight: string;
  impact: string;
  solution: string;
  detection: string;
  result: string;
  references: string[];
  where: string;
}

function toResult(row: OpenVasRow): ImportedResult {
  if (!row.host) throw new ReportError(`${row.where}: has no host (IP)`);
  if (!row.name && !row.oid) throw new ReportError(`${row.where}: has no NVT name or OID`);
  const threat = THREAT[row.threat.trim().toLowerCase()];
  const score = Number(row.score);
  const severity = threat ?? (Number.isFinite(score) ? severityOfScore(score) : undefined);
  if (!severity) throw new ReportError(`${row.where}: has no severity (threat level or CVSS score)`);
  // `22/tcp` names a port; `general/tcp` and `general/icmp` name the host.
  const portMatch = /^(\d{1,5})\/([a-z]+)$/i.exec(row.port.trim());
  const port = portMatch ? Number(portMatch[1]) : null;
  const host = row.host.includes(':') ? `[${row.host}]` : row.host;
  const component = portMatch ? `${portMatch[2]!.toLowerCase()}://${host}:${port}` : row.host;
  return {
    check_id: `openvas-${row.oid || row.name}`,
    title: row.name || `NVT ${row.oid}`,
    severity,
    cvss_vector: row.vector || null,
    cvss_score: statedScore(row.score) ?? null,
    cve_ids: row.cves,
    cwe_ids: [],
    description: [row.summary, row.insight].filter(Boolean).join('\n\n'),
    impact: row.impact,
    remediation: { summary: row.solution, references: row.references },
    affected_component: component,
    port,
    category: row.cves.length > 0 ? 'known-vulnerability' : null,
    evidence: {
      request: row.detection || `OpenVAS NVT ${row.oid}`,
      response: row.result,
    },
  };
}

// --- XML

export function openvasXmlResults(report: Record<string, unknown>): ImportedResult[] {
  const outer = record(report['report']) ?? (report['report'] === '' ? {} : undefined);
  if (!outer) throw new ReportError('the root element is not <report>');
  const inner = record(outer['report']) ?? outer;
  const results = list(record(inner['results'])?.['result']);
  return results.map((value, i) => {
    const r = record(value);
    const where = `<result> ${i + 1}${r?.['@id'] ? ` (id ${text(r['@id'], 64)})` : ''}`;
    if (!r) throw new ReportError(`${where} is not an element`);
    const nvt = record(r['nvt']) ?? {};
    const tags = tagMap(text(nvt['tags']));
    const refs = list(record(nvt['refs'])?.['ref']).map(record);
    const hostNode = r['host'];
    const hostRecord = record(hostNode);
    const severities = list(record(nvt['severities'])?.['severity']).map(record);
    return toResult({
      host: text(hostRecord ? hostRecord['#text'] : hostNode, 256).trim(),
      hostname: text(hostRecord?.['hostname'], 256),
      port: text(r['port'], 64),
      threat: text(r['threat'], 32),
      score: text(r['severity'], 16) || text(nvt['cvss_base'], 16),
      vector:
        tags.get('cvss_base_vector') ||
        text(severities.find((s) => /^CVSS:/.test(text(s?.['value'], 256)))?.['value'], 256),
      name: text(nvt['name'] ?? r['name'], 512).trim(),
      oid: text(nvt['@oid'], 128).trim(),
      cves: distinct(refs.filter((ref) => ref?.['@type'] === 'cve').map((ref) => cveId(ref?.['@id']))),
      summary: tags.get('summary') ?? '',
      insight: tags.get('insight') ?? '',
      impact: tags.get('impact') ?? '',
      solution: tags.get('solution') ?? '',
      detection: tags.get('vuldetect') ?? '',
      result: text(r['description']),
      references: refs
        .filter((ref) => ref?.['@type'] === 'url')
        .map((ref) => text(ref?.['@id'], 2048))
        .filter(Boolean),
      where,
    });
  });
}

/** An NVT's `tags`: `summary=…|insight=…|solution=…`. */
function tagMap(tags: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of tags.split('|')) {
    const eq = part.indexOf('=');
    if (eq > 0) map.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return map;
}

// --- CSV

/** RFC 4180 records, each with the line it starts on (quoted fields may span lines). */
export function csvRecords(source: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let sawAny = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      sawAny = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      sawAny = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      if (sawAny || field !== '') {
        fields.push(field);
        out.push({ line: start, fields });
      }
      fields = [];
      field = '';
      sawAny = false;
      line++;
      start = line;
    } else {
      field += c;
      sawAny = true;
    }
  }
  if (quoted) throw new ReportError(`line ${start}: a quoted field is never closed`);
  if (sawAny || field !== '') {
    fields.push(field);
    out.push({ line: start, fields });
  }
  return out;
}

const REQUIRED_COLUMNS = ['IP', 'Severity', 'NVT Name'];

export function openvasCsvResults(source: string): ImportedResult[] {
  const records = csvRecords(source);
  const header = records.shift();
  if (!header) return [];
  const columns = new Map(header.fields.map((name, i) => [name.trim(), i]));
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.has(c));
  if (missing.length > 0)
    throw new ReportError(
      `line ${header.line}: the header has no ${missing.map((c) => `"${c}"`).join(', ')} column`,
    );
  return records.map(({ line, fields }) => {
    if (fields.length !== header.fields.length)
      throw new ReportError(
        `line ${line}: ${fields.length} fields where the header names ${header.fields.length}`,
      );
    const get = (name: string, max?: number) => {
      const i = columns.get(name);
      return i === undefined ? '' : text(fields[i], max).trim();
    };
    const protocol = get('Port Protocol', 16);
    const portNumber = get('Port', 8);
    return toResult({
      host: get('IP', 256),
      hostname: get('Hostname', 256),
      port: portNumber ? `${portNumber}/${protocol || 'tcp'}` : 'general',
      threat: get('Severity', 32),
      score: get('CVSS', 16),
      vector: '',
      name: get('NVT Name', 512),
      oid: get('NVT OID', 128),
      cves: distinct(
        get('CVEs')
          .split(/[,\s]+/)
          .map(cveId),
      ),
      summary: get('Summary'),
      insight: get('Vulnerability Insight'),
      impact: get('Impact'),
      solution: get('Solution'),
      detection: get('Vulnerability Detection Method'),
      result: get('Specific Result'),
      references: get('Other References')
        .split(/[,\s]+/)
        .filter((ref) => /^https?:\/\//i.test(ref)),
      where: `line ${line}`,
    });
  });
}
