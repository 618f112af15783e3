import { nmapReport, NMAP_XML_ARRAYS } from './formats/nmap.ts';
import { nucleiResults } from './formats/nuclei.ts';
import { openvasCsvResults, openvasXmlResults, OPENVAS_XML_ARRAYS } from './formats/openvas.ts';
import { isScanwardFinding, scanwardItems, scanwardResults } from './formats/scanward.ts';
import { zapResults, ZAP_XML_ARRAYS } from './formats/zap.ts';
import { parseJson, parseJsonLines } from './json.ts';
import { record, ReportError, type ImportFormat, type ParsedReport } from './report.ts';
import { parseXml, scanXml } from './xml.ts';

/**
 * A report's bytes → its tool and results. Pure and synchronous: parse-worker.ts runs it
 * off the event loop for large reports. The format is detected when not given:
 *
 * - XML by its root element: `<OWASPZAPReport>` (zap), `<nmaprun>` (nmap), `<report>` (openvas);
 * - JSON: an array (or lines) of objects with `template-id`/`templateID` (nuclei), an object
 *   with a `site` array (ZAP's JSON report), finding objects with `template_id` and
 *   `affected_component` (scanward);
 * - CSV whose header names `NVT Name` (openvas).
 *
 * An empty report (no bytes but white space) has no results; its format must be given,
 * since nothing in it says which tool wrote it.
 */

const TOOL: Record<ImportFormat, string> = {
  scanward: 'scanward',
  nuclei: 'nuclei',
  zap: 'zap',
  nmap: 'nmap',
  openvas: 'openvas',
};

export function decodeReport(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
}

export function parseReport(bytes: Uint8Array, format: ImportFormat | undefined): ParsedReport {
  const source = decodeReport(bytes);
  const trimmed = source.trimStart();
  if (trimmed === '') {
    if (!format)
      throw new ReportError(
        'the report is empty: name its format (format=nuclei, zap, nmap, openvas or scanward)',
      );
    return { format, tool: TOOL[format], results: [] };
  }
  const first = trimmed[0];
  if (first === '<') return parseXmlReport(source, format);
  if (first === '[' || first === '{') return parseJsonReport(source, format);
  if (format === undefined || format === 'openvas') {
    if (/^\uFEFF?[^\n]*\bNVT Name\b/.test(trimmed) || format === 'openvas') {
      return {
        format: 'openvas',
        tool: 'openvas',
        results: openvasCsvResults(trimmed.replace(/^\uFEFF/, '')),
      };
    }
  }
  throw new ReportError(
    format
      ? `line 1: this is not a ${format} report (it is neither XML, JSON nor OpenVAS CSV)`
      : 'line 1: not a report this server reads (nuclei JSON/JSONL, ZAP XML/JSON, nmap XML, OpenVAS XML/CSV, Scanward JSON)',
  );
}

const XML_FORMATS: Record<string, ImportFormat> = {
  OWASPZAPReport: 'zap',
  nmaprun: 'nmap',
  report: 'openvas',
};

function parseXmlReport(source: string, format: ImportFormat | undefined): ParsedReport {
  // One linear pass before any parser: a DTD that could declare or fetch entities, a tag that
  // never closes and nesting past the bound are refused; it names the root element too.
  const { root } = scanXml(source);
  const detected = root ? XML_FORMATS[root] : undefined;
  if (!detected || (format && format !== detected)) {
    throw new ReportError(
      `the root element <${root ?? '?'}> is not ${format ? `a ${format} report's` : "a report's this server reads"} (<OWASPZAPReport>, <nmaprun> or <report>)`,
    );
  }
  if (detected === 'zap')
    return { format: 'zap', tool: 'zap', results: zapResults(parseXml(source, ZAP_XML_ARRAYS), 'xml') };
  if (detected === 'nmap')
    return { format: 'nmap', tool: 'nmap', ...nmapReport(parseXml(source, NMAP_XML_ARRAYS)) };
  return {
    format: 'openvas',
    tool: 'openvas',
    results: openvasXmlResults(parseXml(source, OPENVAS_XML_ARRAYS)),
  };
}

function isNucleiResult(value: unknown): boolean {
  const r = record(value);
  return r !== undefined && (typeof r['template-id'] === 'string' || typeof r['templateID'] === 'string');
}

function parseJsonReport(source: string, format: ImportFormat | undefined): ParsedReport {
  let document: unknown;
  try {
    document = parseJson(source);
  } catch (err) {
    // Not one JSON document: JSON Lines (nuclei's -jsonl), when more than one line holds text.
    if (format !== undefined && format !== 'nuclei') throw err;
    if (source.trimStart().startsWith('[') || source.trim().split('\n').length < 2) throw err;
    const lines = parseJsonLines(source);
    if (format === undefined && !lines.every(isNucleiResult))
      throw new ReportError('these JSON lines are not nuclei results (each needs a template-id)');
    return { format: 'nuclei', tool: 'nuclei', results: nucleiResults(lines) };
  }
  const detected = format ?? detectJson(document);
  switch (detected) {
    case 'nuclei':
      return {
        format: 'nuclei',
        tool: 'nuclei',
        results: nucleiResults(Array.isArray(document) ? document : [document]),
      };
    case 'zap': {
      const report = record(document);
      if (!report || !Array.isArray(report['site']))
        throw new ReportError('not a ZAP JSON report (it has no "site" array)');
      return { format: 'zap', tool: 'zap', results: zapResults(report, 'json') };
    }
    case 'scanward': {
      const items = scanwardItems(document);
      if (!items)
        throw new ReportError(
          'not Scanward findings (an array of findings, or an object with a "findings" array)',
        );
      return { format: 'scanward', tool: 'scanward', results: scanwardResults(items) };
    }
    default:
      throw new ReportError(
        `a ${detected ?? 'JSON'} report cannot be JSON here: nmap and OpenVAS reports are XML (or CSV for OpenVAS)`,
      );
  }
}

function detectJson(document: unknown): ImportFormat | undefined {
  const items = Array.isArray(document) ? document : [document];
  if (items.length === 0) {
    throw new ReportError('the report is an empty JSON array: name its format (format=nuclei or scanward)');
  }
  if (items.every(isNucleiResult)) return 'nuclei';
  if (!Array.isArray(document) && Array.isArray(record(document)?.['site'])) return 'zap';
  const findings = scanwardItems(document);
  if (findings && findings.length > 0 && findings.every(isScanwardFinding)) return 'scanward';
  if (findings && findings.length === 0) return 'scanward';
  throw new ReportError(
    'not a report this server reads: a JSON report must be nuclei results, a ZAP JSON report or Scanward findings',
  );
}
