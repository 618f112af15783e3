import type { ObservedEndOfLife, ObservedHost, ObservedService } from '../assets/inventory.ts';
import { assessEndOfLife } from '../intel/endoflife.ts';
import { softwareOf } from '../intel/software.ts';
import type { ServiceIdentification } from './net/services.ts';
import type { ScanState } from './types.ts';

/**
 * What a scan saw of its hosts, for the asset inventory (assets/inventory.ts): each host that
 * answered (an open port or an identified service), the name it was scanned as, and its
 * services as enumeration identified them, with the end-of-life state the endoflife.date
 * snapshot gives for the product and version the service announced (the judgement the
 * `software-end-of-life` check makes, kept per service rather than only as a finding).
 */
export function inventoryOf(state: ScanState, today = new Date().toISOString().slice(0, 10)): ObservedHost[] {
  const answered = new Set([
    ...state.openPorts.map((p) => p.address),
    ...state.services.map((s) => s.address),
  ]);
  const hosts: ObservedHost[] = [];
  for (const address of answered) {
    const names = state.hosts
      .filter((h) => h.address === address && h.target !== address)
      .map((h) => h.target);
    const identified = state.services.filter((s) => s.address === address);
    const services: ObservedService[] = identified.map((s) => observedService(s, today));
    for (const open of state.openPorts) {
      if (open.address !== address || services.some((s) => s.port === open.port)) continue;
      services.push({ port: open.port, protocol: 'tcp', service: 'unknown', tls: false });
    }
    hosts.push({ address, names, services });
  }
  return hosts;
}

/** One identified service as the inventory keeps it. */
export function observedService(
  service: ServiceIdentification,
  today = new Date().toISOString().slice(0, 10),
): ObservedService {
  const eol = endOfLifeOf(service, today);
  return {
    port: service.port,
    protocol: 'tcp',
    service: service.service,
    product: service.product ?? null,
    version: service.version ?? null,
    tls: service.tls === true || service.service === 'https',
    ...(eol ? { eol } : {}),
  };
}

/**
 * The end-of-life state of the software a service announced: `end_of_life` when any product
 * on it (Apache, or PHP behind it) is in a release cycle past its end, else `supported` when
 * the data knows the cycle, else undefined (unknown).
 */
export function endOfLifeOf(service: ServiceIdentification, today: string): ObservedEndOfLife | undefined {
  let supported: ObservedEndOfLife | undefined;
  for (const software of softwareOf(service)) {
    const assessment = assessEndOfLife(software, today);
    if (!assessment) continue;
    const eol = assessment.cycle.eol;
    const date = typeof eol === 'string' ? eol : null;
    const state = { product: software.product.name, cycle: assessment.cycle.cycle, date };
    if (assessment.endOfLife) return { status: 'end_of_life', ...state };
    supported ??= { status: 'supported', ...state };
  }
  return supported;
}

/** The end-of-life state of a product and version another tool identified (an imported nmap report). */
export function endOfLifeOfProduct(
  address: string,
  port: number,
  product: string | null,
  version: string | null,
  today = new Date().toISOString().slice(0, 10),
): ObservedEndOfLife | undefined {
  if (!product || !version) return undefined;
  return endOfLifeOf(
    {
      address,
      port,
      service: 'unknown',
      product,
      version,
      evidence: { request: '', response: '' },
      tool: 'nmap',
    },
    today,
  );
}
