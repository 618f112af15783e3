import type { Severity } from '../scoring/severity.ts';

/**
 * What a parsed report is, whatever tool wrote it: the tool, and its results, each one
 * weakness seen at one place. Pure data: import-report.ts turns each result into the
 * findings lifecycle's engine-neutral input.
 */

export const IMPORT_FORMATS = ['scanward', 'nuclei', 'zap', 'nmap', 'openvas'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportedResult {
  /** The producing tool's identifier of the check (`CVE-2018-15473`, `zap-10020`, `openvas-1.3.6.1.4.1.25623.1.0.105611`). */
  check_id: string;
  title: string;
  severity: Severity;
  cvss_vector?: string | null;
  /**
   * The CVSS base score the report states (OpenVAS CSV, nmap's vulners, nuclei's `cvss-score`):
   * the finding's score when the report gives no valid vector to compute one from.
   */
  cvss_score?: number | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact?: string;
  remediation?: { summary: string; references: string[] };
  /**
   * A URL with an explicit port (`https://host:443/path`, `tcp://host:22`), a bare host for
   * host-wide results, or '' for a result about the import's target as a whole.
   */
  affected_component: string;
  port?: number | null;
  category?: string | null;
  evidence: { request: string; response: string };
}

/** A host the report saw, with what answered on it (reports that say so: nmap), for the asset inventory. */
export interface ImportedHost {
  address: string;
  names: string[];
  services: {
    port: number;
    protocol: 'tcp' | 'udp';
    service: string;
    product: string | null;
    version: string | null;
    /** The CPE the report names, when it names one. */
    cpe?: string | null;
    tls: boolean;
  }[];
}

export interface ParsedReport {
  format: ImportFormat;
  /** The tool that produced the report (the scan's `tool`, the findings' `tool`). */
  tool: string;
  results: ImportedResult[];
  /** The hosts it saw and their open ports, where the format records them (nmap); absent otherwise. */
  hosts?: ImportedHost[];
}

/** A report that cannot be imported: the message names the line or element at fault. */
export class ReportError extends Error {
  override name = 'ReportError';
}

/** Longest text kept from one field of a report (evidence, descriptions). */
export const MAX_FIELD = 64 * 1024;

/**
 * A report's value as text, or '' when it is not text or a number. Never calls
 * toString on objects or arrays (a hostile, deeply nested value would recurse).
 * NUL and lone surrogates (PostgreSQL cannot store them) become U+FFFD; long text is cut.
 */
export function text(value: unknown, max = MAX_FIELD): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else if (typeof value === 'number' && Number.isFinite(value)) s = String(value);
  else return '';
  if (s.length > max) s = `${s.slice(0, max)}… (cut at ${max} characters)`;
  return s.replace(
    // eslint-disable-next-line no-control-regex
    /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/** A value that may be one item or a list, as a list (XML elements met once, JSON fields either way). */
export function list(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** A plain object, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 };

/**
 * A URL with its port written out (`https://a.example/x` → `https://a.example:443/x`), the
 * query and fragment dropped (the same weakness on one path is one finding). Text that is not
 * a URL is returned trimmed.
 */
export function componentUrl(raw: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port || String(DEFAULT_PORTS[scheme] ?? '');
  if (!url.hostname) return value;
  const host =
    url.hostname.includes(':') && !url.hostname.startsWith('[') ? `[${url.hostname}]` : url.hostname;
  // Special schemes always have a path ('/'); others (`tcp://h:22`) may have none.
  return `${scheme}://${host}${port ? `:${port}` : ''}${url.pathname}`;
}

/** The port of a component URL, when it names one. */
export function componentPort(component: string): number | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/:]*):(\d+)/i.exec(component);
  const port = match ? Number(match[1]) : NaN;
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** A stated CVSS base score, when it is one (0.0 to 10.0), to one decimal; undefined otherwise. */
export function statedScore(value: unknown): number | undefined {
  const score =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(score) && score >= 0 && score <= 10 ? Math.round(score * 10) / 10 : undefined;
}

/** Severity from a CVSS base score (CVSS v3 qualitative ratings; 0 is informational). */
export function severityOfScore(score: number): Severity {
  if (!(score > 0)) return 'info';
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

/** `CWE-79` from `79`, `cwe-79` or `CWE-79`; undefined for anything else (`nvd-cve-other`). */
export function cweId(value: unknown): string | undefined {
  const match = /^(?:cwe-)?(\d{1,5})$/i.exec(text(value, 32).trim());
  return match && Number(match[1]) > 0 ? `CWE-${Number(match[1])}` : undefined;
}

/** `CVE-2021-0001` from any case; undefined for anything else. */
export function cveId(value: unknown): string | undefined {
  const match = /^cve-(\d{4})-(\d{4,})$/i.exec(text(value, 64).trim());
  return match ? `CVE-${match[1]}-${match[2]}` : undefined;
}

/** The distinct defined values, in order. */
export function distinct<T>(values: readonly (T | undefined)[]): T[] {
  return [...new Set(values.filter((v): v is T => v !== undefined))];
}
