/**
 * nmap as an optional second opinion on services. When `nmap` is on PATH, a TCP connect
 * scan with version detection is run on one literal address:
 *
 *   nmap -sT -sV -Pn -n --unprivileged -T4 -p <ports> -oX - <address>
 *
 * `-sT --unprivileged`: plain connect() only, never raw packets, even as root. `-Pn`: no
 * host discovery. `-n`: no DNS lookups of any kind. The XML report is parsed into one
 * entry per port. Without nmap nothing else in the scanner changes.
 */
import { spawn } from 'node:child_process';
import { XMLParser } from 'fast-xml-parser';
import { formatPortSpec } from './ports.ts';
import { approveTarget, type AssertAllowed } from './target-address.ts';

export interface NmapServiceResult {
  port: number;
  protocol: string;
  /** `open`, `closed`, `filtered`, ... as nmap reports it. */
  state: string;
  /** nmap's service name (its own vocabulary, e.g. `mysql`, `amqp`, `vrml-multi-use`). */
  service: string;
  /** `ssl` when nmap found the service inside TLS. */
  tunnel?: string;
  product?: string;
  version?: string;
  extraInfo?: string;
  /** How nmap decided: `probed` (it saw an answer) or `table` (a guess from the port number). */
  method?: string;
  /** nmap's confidence, 0-10. */
  confidence?: number;
  cpe?: string[];
  tool: 'nmap';
}

export interface NmapScanOptions {
  address: string;
  ports: readonly number[];
  assertAllowed: AssertAllowed;
  signal?: AbortSignal;
  /** Kill nmap after this long (default 5 minutes). */
  timeoutMs?: number;
  /** The nmap executable (default `nmap`, looked up on PATH). */
  command?: string;
}

export class NmapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NmapError';
  }
}

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const KILL_GRACE_MS = 1000;

let availability: Promise<boolean> | undefined;

/** Whether `nmap --version` runs (checked once per process). */
export function isNmapAvailable(command = 'nmap'): Promise<boolean> {
  if (command !== 'nmap') return probeNmap(command);
  availability ??= probeNmap(command);
  return availability;
}

function probeNmap(command: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, ['--version'], { stdio: 'ignore', timeout: 5000 });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export function nmapArguments(address: string, family: 4 | 6, ports: readonly number[]): string[] {
  return [
    '-sT',
    '--unprivileged',
    '-sV',
    '-Pn',
    '-n',
    '-T4',
    ...(family === 6 ? ['-6'] : []),
    '-p',
    formatPortSpec(ports),
    '-oX',
    '-',
    address,
  ];
}

/** Runs nmap's connect scan with version detection; rejects with `NmapError`, or the abort reason. */
export async function runNmapServiceScan(options: NmapScanOptions): Promise<NmapServiceResult[]> {
  const family = await approveTarget(options.address, options.assertAllowed, options.signal);
  if (options.ports.length === 0) return [];
  const xml = await runNmap(
    options.command ?? 'nmap',
    nmapArguments(options.address, family, options.ports),
    options,
  );
  return parseNmapXml(xml);
}

function runNmap(command: string, args: string[], options: NmapScanOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let outputBytes = 0;
    let failure: unknown;
    let killTimer: NodeJS.Timeout | undefined;

    const stop = (reason: unknown): void => {
      if (failure !== undefined || child.exitCode !== null) return;
      failure = reason;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    };
    const onAbort = (): void => stop(options.signal?.reason);
    const timeout = setTimeout(
      () => stop(new NmapError(`nmap did not finish within ${options.timeoutMs ?? 300_000} ms`)),
      options.timeoutMs ?? 300_000,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > MAX_OUTPUT_BYTES) stop(new NmapError('nmap wrote more output than expected'));
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64) stderr.push(chunk);
    });
    child.once('error', (error) => {
      failure ??= new NmapError(`could not run ${command}: ${error.message}`);
    });
    child.once('close', (code) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) reject(failure);
      else if (code !== 0) {
        reject(new NmapError(`nmap exited with ${code}: ${Buffer.concat(stderr).toString('utf8').trim()}`));
      } else resolve(Buffer.concat(stdout).toString('utf8'));
    });
  });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  processEntities: true,
  isArray: (name) => ['host', 'port', 'cpe'].includes(name),
});

interface XmlService {
  name?: string;
  tunnel?: string;
  product?: string;
  version?: string;
  extrainfo?: string;
  method?: string;
  conf?: string;
  cpe?: (string | { '#text'?: string })[];
}

interface XmlPort {
  protocol?: string;
  portid?: string;
  state?: { state?: string };
  service?: XmlService;
}

interface XmlHost {
  ports?: { port?: XmlPort[] };
}

/** The per-port results of an nmap XML report (`-oX`), over all hosts in it. */
export function parseNmapXml(xml: string): NmapServiceResult[] {
  let document: { nmaprun?: { host?: XmlHost[] } };
  try {
    document = parser.parse(xml) as typeof document;
  } catch (error) {
    throw new NmapError(`nmap XML could not be parsed: ${(error as Error).message}`);
  }
  if (!document.nmaprun) throw new NmapError('not an nmap XML report (no <nmaprun>)');
  const results: NmapServiceResult[] = [];
  for (const host of document.nmaprun.host ?? []) {
    for (const port of host.ports?.port ?? []) {
      const number = Number(port.portid);
      if (!Number.isInteger(number)) continue;
      const service = port.service;
      const cpe = (service?.cpe ?? [])
        .map((entry) => (typeof entry === 'string' ? entry : entry['#text']))
        .filter((entry): entry is string => typeof entry === 'string');
      results.push({
        port: number,
        protocol: port.protocol ?? 'tcp',
        state: port.state?.state ?? 'unknown',
        service: service?.name ?? 'unknown',
        ...(service?.tunnel && { tunnel: service.tunnel }),
        ...(service?.product && { product: service.product }),
        ...(service?.version && { version: service.version }),
        ...(service?.extrainfo && { extraInfo: service.extrainfo }),
        ...(service?.method && { method: service.method }),
        ...(service?.conf !== undefined && { confidence: Number(service.conf) }),
        ...(cpe.length > 0 && { cpe }),
        tool: 'nmap',
      });
    }
  }
  return results.sort((a, b) => a.port - b.port);
}
