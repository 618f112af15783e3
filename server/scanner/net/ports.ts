/**
 * The `ports` value of a scan: `"80"`, `"1-1024"`, `"22,80,443"`, `"1-65535"` and any
 * comma-separated mix of single ports and inclusive ranges, with spaces allowed around
 * every number, dash and comma.
 */
import { TOP_TCP_PORTS } from './top-tcp-ports.ts';

export const MIN_PORT = 1;
export const MAX_PORT = 65535;

/**
 * Ports of services a vulnerability scanner must not miss that nmap's frequency
 * list ranks below its top 1,000 (they are rarely open on the internet at large,
 * and dangerous when they are) and no check declares yet: control planes and brokers
 * that a template or a later check looks at. The ports the checks target are added by
 * the check registry (`DEFAULT_PORTS` in check-registry.ts), so a check cannot forget its own.
 */
export const SERVICE_PORTS: readonly number[] = Object.freeze([
  8222, // NATS monitoring
  9300, // Elasticsearch transport
  5601, // Kibana
  2375, // Docker API (plain)
  2376, // Docker API (TLS)
  2379, // etcd
  6443, // Kubernetes API
  10250, // kubelet
  9092, // Kafka
]);

/** How many ports a scan sweeps by default: nmap's `--top-ports 1000`, for the same time. */
export const DEFAULT_PORT_COUNT = 1000;

/**
 * The default of every scan type: {@link DEFAULT_PORT_COUNT} TCP ports, nmap's most
 * frequently open ones (most frequent first), with its least frequent few giving way to
 * `targeted` (the ports the checks declare) and {@link SERVICE_PORTS}, which come after
 * them in ascending order.
 */
export function defaultPortList(targeted: readonly number[]): readonly number[] {
  const top = new Set(TOP_TCP_PORTS);
  const extra = [...new Set([...targeted, ...SERVICE_PORTS])]
    .filter((port) => !top.has(port))
    .sort((a, b) => a - b);
  if (extra.length > DEFAULT_PORT_COUNT / 10) {
    throw new Error(`${extra.length} ports outside nmap's top 1,000 would crowd out too many common ones`);
  }
  return Object.freeze([...TOP_TCP_PORTS.slice(0, DEFAULT_PORT_COUNT - extra.length), ...extra]);
}

/** A `ports` value that is not a valid port list; the API answers it with 422 `VALIDATION_ERROR`. */
export class PortSpecError extends Error {
  readonly field = 'ports';

  constructor(message: string) {
    super(message);
    this.name = 'PortSpecError';
  }
}

const NUMBER = /^\d+$/;
const RANGE = /^(\d+)\s*-\s*(\d+)$/;

/** Parses a ports spec into the ascending, de-duplicated list of ports it names. */
export function parsePortSpec(spec: string): number[] {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new PortSpecError('ports must list at least one port, e.g. "80", "1-1024" or "22,80,443"');
  }
  const selected = new Uint8Array(MAX_PORT + 1);
  for (const rawEntry of spec.split(',')) {
    const entry = rawEntry.trim();
    if (entry === '') {
      throw new PortSpecError(`ports "${spec}" has an empty entry between commas`);
    }
    const range = RANGE.exec(entry);
    if (range) {
      const first = toPort(range[1] ?? '', entry);
      const last = toPort(range[2] ?? '', entry);
      if (first > last) {
        throw new PortSpecError(`ports range "${entry}" is reversed; write it as "${last}-${first}"`);
      }
      selected.fill(1, first, last + 1);
    } else if (NUMBER.test(entry)) {
      selected[toPort(entry, entry)] = 1;
    } else {
      throw new PortSpecError(
        `ports entry "${entry}" is not a port number or a range like "1-1024" (ports are ${MIN_PORT}-${MAX_PORT})`,
      );
    }
  }
  const ports: number[] = [];
  for (let port = MIN_PORT; port <= MAX_PORT; port++) if (selected[port]) ports.push(port);
  return ports;
}

/** The ports of a scan: the parsed spec, or the default list when the scan names none. */
export function resolvePorts(
  spec: string | null | undefined,
  defaults: readonly number[],
): readonly number[] {
  return spec === null || spec === undefined ? defaults : parsePortSpec(spec);
}

/** The shortest spec naming exactly these ports, with runs written as ranges (`"22,80-82,443"`). */
export function formatPortSpec(ports: Iterable<number>): string {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    const first = sorted[i] as number;
    let last = first;
    while (i + 1 < sorted.length && sorted[i + 1] === last + 1) last = sorted[++i] as number;
    parts.push(first === last ? String(first) : `${first}-${last}`);
    i++;
  }
  return parts.join(',');
}

function toPort(digits: string, entry: string): number {
  const port = digits.length > 5 ? Infinity : Number(digits);
  if (port < MIN_PORT || port > MAX_PORT) {
    throw new PortSpecError(`ports entry "${entry}" is out of range: ports are ${MIN_PORT}-${MAX_PORT}`);
  }
  return port;
}
