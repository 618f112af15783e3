import {
  list,
  record,
  ReportError,
  severityOfScore,
  statedScore,
  text,
  type ImportedHost,
  type ImportedResult,
} from '../report.ts';

/**
 * nmap's XML output (`-oX`). Each open port of each host is an informational result (check
 * `nmap-open-port`, the service and version nmap identified as evidence), and each CVE the
 * `vulners` script lists for a port is a result of its own, rated by the CVSS score vulners
 * gives (check: the CVE id). Closed and filtered ports are not results. Each host with an open
 * port is also a host of the report (its address, its names, what nmap identified on each open
 * port), for the asset inventory.
 */
export const NMAP_XML_ARRAYS = new Set(['host', 'address', 'hostname', 'port', 'script']);

export function nmapResults(report: Record<string, unknown>): ImportedResult[] {
  return nmapReport(report).results;
}

export function nmapReport(report: Record<string, unknown>): {
  results: ImportedResult[];
  hosts: ImportedHost[];
} {
  const root = record(report['nmaprun']) ?? (report['nmaprun'] === '' ? {} : undefined);
  if (!root) throw new ReportError('the root element is not <nmaprun>');
  const args = text(root['@args'], 2048);
  const out: ImportedResult[] = [];
  const hosts: ImportedHost[] = [];
  list(root['host']).forEach((hostValue, h) => {
    const host = record(hostValue);
    if (!host) throw new ReportError(`<host> ${h + 1} is not an element`);
    const addresses = list(host['address']).map(record);
    const address =
      addresses.find((a) => a?.['@addrtype'] === 'ipv4' || a?.['@addrtype'] === 'ipv6') ?? addresses[0];
    const addr = text(address?.['@addr'], 256).trim();
    if (!addr) throw new ReportError(`<host> ${h + 1} has no <address addr="…">`);
    const names = list(record(host['hostnames'])?.['hostname'])
      .map((n) => text(record(n)?.['@name'], 256).trim())
      .filter(Boolean);
    const name = names[0] ?? '';
    const seen: ImportedHost = { address: addr, names, services: [] };
    const hostPart = addr.includes(':') ? `[${addr}]` : addr;
    for (const portValue of list(record(host['ports'])?.['port'])) {
      const port = record(portValue);
      const portId = Number(text(port?.['@portid'], 8));
      if (!port || !Number.isInteger(portId) || portId < 0 || portId > 65535)
        throw new ReportError(`<host> ${h + 1} (${addr}): a <port> has no portid of 0 to 65535`);
      if (text(record(port['state'])?.['@state'], 32) !== 'open') continue;
      const protocol = text(port['@protocol'], 16) || 'tcp';
      const service = record(port['service']);
      const serviceName = text(service?.['@name'], 64);
      const product = [service?.['@product'], service?.['@version'], service?.['@extrainfo']]
        .map((v) => text(v, 256))
        .filter(Boolean)
        .join(' ');
      const component = `${protocol}://${hostPart}:${portId}`;
      const request = `nmap ${args.replace(/^nmap\s+/, '')}`.trim();
      const label = `${protocol}/${portId}${serviceName ? ` (${serviceName}${product ? `: ${product}` : ''})` : ''}`;
      const scripts = list(port['script']).map(record);
      seen.services.push({
        port: portId,
        protocol: protocol === 'udp' ? 'udp' : 'tcp',
        service: serviceName || 'unknown',
        product: text(service?.['@product'], 256) || null,
        version: text(service?.['@version'], 256) || null,
        cpe: text(list(service?.['cpe'])[0], 256) || null,
        tls: text(service?.['@tunnel'], 16) === 'ssl' || /^(https|ssl)\b/.test(serviceName),
      });
      out.push({
        check_id: 'nmap-open-port',
        title: `Open port ${label}`,
        severity: 'info',
        cve_ids: [],
        cwe_ids: [],
        description: `nmap found ${protocol} port ${portId} open on ${addr}${name ? ` (${name})` : ''}.`,
        affected_component: component,
        port: portId,
        category: 'open-port',
        evidence: {
          request,
          response: [
            `${portId}/${protocol} open ${serviceName} ${product}`.trim(),
            ...scripts.map((s) => `${text(s?.['@id'], 128)}: ${text(s?.['@output'])}`),
          ].join('\n'),
        },
      });
      for (const script of scripts) {
        if (text(script?.['@id'], 64) !== 'vulners') continue;
        out.push(...vulnersResults(text(script?.['@output']), component, portId, label, request));
      }
    }
    if (seen.services.length > 0) hosts.push(seen);
  });
  return { results: out, hosts };
}

/** The vulners script's lines: `\tCVE-2018-15919\t5.0\thttps://vulners.com/cve/CVE-2018-15919`. */
function vulnersResults(
  output: string,
  component: string,
  port: number,
  label: string,
  request: string,
): ImportedResult[] {
  const out: ImportedResult[] = [];
  for (const m of output.matchAll(/(CVE-\d{4}-\d{4,})\s+(\d+(?:\.\d+)?)\s+(\S+)?/gi)) {
    const cve = m[1]!.toUpperCase();
    const score = Number(m[2]);
    out.push({
      check_id: cve,
      title: `${cve} in ${label}`,
      severity: severityOfScore(score),
      cvss_score: statedScore(score) ?? null,
      cve_ids: [cve],
      cwe_ids: [],
      description: `The vulners script lists ${cve} (CVSS ${m[2]}) for the software nmap identified on ${label}.`,
      remediation: {
        summary: 'Upgrade the service to a version that fixes the vulnerability.',
        references: m[3] && /^https?:\/\//.test(m[3]) ? [m[3]] : [],
      },
      affected_component: component,
      port,
      category: 'known-vulnerability',
      evidence: { request, response: m[0]!.trim() },
    });
  }
  return out;
}
