import PQueue from 'p-queue';
import { DEFAULT_PORTS } from '../check-registry.ts';
import { MAX_PORT, resolvePorts } from '../net/ports.ts';
import { isNmapAvailable, runNmapServiceScan, type NmapServiceResult } from '../net/nmap.ts';
import { mergeNmapResults } from '../net/nmap-merge.ts';
import { identifyService } from '../net/service-id.ts';
import { sweepTcpHosts } from '../net/tcp-scan.ts';
import { LIVENESS_PORTS, LIVENESS_TIMEOUT_MS } from './discovery.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { componentUrl } from '../net/services.ts';
import { describeService } from '../net/services.ts';
import {
  targetOf,
  type Coverage,
  type Detection,
  type Phase,
  type PhaseContext,
  type ScanHost,
  type ScanRecord,
} from '../types.ts';

/** Services identified at once within a scan (each is a few connections, mostly waiting). */
const IDENTIFY_CONCURRENCY = 32;

/**
 * How long identification waits for a silent service's greeting and for each probe's
 * answer: a hundred round trips of the path the sweep measured, between half a second
 * and the identification's own defaults (2 s and 3 s). A service on loopback or a LAN
 * that has said nothing in half a second is not about to; across the Internet the
 * defaults apply. Without this, two silent services (Erlang's epmd and distribution
 * ports) took 7 s of a 10 s scan of 127.0.0.1.
 */
export function identificationWaits(smoothedRttMs: number | undefined): {
  greetingWaitMs: number;
  replyWaitMs: number;
} {
  if (smoothedRttMs === undefined) return { greetingWaitMs: 2000, replyWaitMs: 3000 };
  const wait = Math.max(500, Math.ceil(100 * smoothedRttMs));
  return { greetingWaitMs: Math.min(2000, wait), replyWaitMs: Math.min(3000, wait) };
}

/** The informational finding every open service gets: visible, counted nowhere. */
export const OPEN_SERVICE_CHECK = 'open-service';

function openServiceDetection(target: string, service: ServiceIdentification): Detection {
  const name = describeService(service);
  return {
    check_id: OPEN_SERVICE_CHECK,
    title: `Open port ${service.port}/tcp: ${service.service === 'unknown' ? 'unidentified service' : name}`,
    severity: 'info',
    target,
    affected_component: componentUrl(service),
    port: service.port,
    tool: service.tool,
    category: 'open-port',
    cve_ids: [],
    cwe_ids: [],
    description:
      `Port ${service.port}/tcp on ${service.address} accepts connections` +
      (service.service === 'unknown' ? '; the service did not identify itself.' : ` and speaks ${name}.`) +
      (service.banner ? ` Banner: ${service.banner}` : ''),
    impact:
      'Informational: every reachable service is attack surface. Confirm it is meant to be reachable from here.',
    evidence: {
      request: service.evidence.request,
      response: service.evidence.response,
      screenshot_url: null,
    },
  };
}

/**
 * Orders open ports and services by their host's place in `hosts` (a range's own, numeric
 * order: 127.0.0.9 before 127.0.0.10), then by port.
 */
export function hostThenPort(
  hosts: readonly { address: string }[],
): (a: { address: string; port: number }, b: { address: string; port: number }) => number {
  const place = new Map(hosts.map((host, i) => [host.address, i]));
  return (a, b) => place.get(a.address)! - place.get(b.address)! || a.port - b.port;
}

/**
 * Finds open TCP ports on every live host (the scan's `ports`, or the default list: the
 * 1,000 most common with every port a check targets) in one sweep whose window all hosts
 * share, and identifies the service on each open port (never on a closed or filtered one).
 * Each open service gets an informational finding, and the `open-service` check covers the
 * ports swept, so a port that closes later resolves its finding.
 */
export const enumeration: Phase = {
  name: 'enumeration',
  weight: 40,
  async run(ctx: PhaseContext) {
    const started = performance.now();
    const ports = resolvePorts(ctx.scan.ports, DEFAULT_PORTS);
    const hosts = ctx.state.hosts;
    // Hosts of a range are knocked on first; hosts named or resolved from a name are up.
    const knock = hosts.some((h) => h.alive === undefined);
    // Units: every host's ports (a host found down counts all of its own), then one per service.
    ctx.progress.setTotal(hosts.length * ports.length);
    ctx.progress.tool('tcp-connect-scan');
    ctx.state.openPorts = [];
    const byAddress = new Map(hosts.map((h) => [h.address, h]));
    const inHostOrder = hostThenPort(hosts);

    const identify = new PQueue({ concurrency: IDENTIFY_CONCURRENCY });
    const services: ServiceIdentification[] = [];
    const identifyPort = (address: string, port: number, rttMs: number | undefined) => {
      void identify
        .add(
          async () => {
            services.push(
              await identifyService({
                address,
                port,
                assertAllowed: ctx.assertAllowed,
                signal: ctx.signal,
                ...identificationWaits(rttMs),
              }),
            );
            ctx.progress.advance();
          },
          { signal: ctx.signal },
        )
        .catch((err: unknown) => {
          if (!ctx.signal.aborted) ctx.log.warn({ err, address, port }, 'service identification failed');
        });
    };

    let reported = 0;
    let opened = 0;
    const sweep = sweepTcpHosts({
      addresses: (function* () {
        for (const host of hosts) yield host.address;
      })(),
      ports,
      assertAllowed: ctx.assertAllowed,
      signal: ctx.signal,
      lanes: Math.max(1, ctx.services.config.scanThreads),
      threads: ctx.services.config.scanThreads > 0,
      ...(knock ? { liveness: { ports: LIVENESS_PORTS, timeoutMs: LIVENESS_TIMEOUT_MS } } : {}),
      onProgress: ({ done }) => {
        ctx.progress.advance(done - reported);
        reported = done;
      },
      // Each service is identified as soon as its port is found open, while the sweep goes on.
      onOpenPort: ({ address, port, smoothedRttMs }) => {
        opened++;
        ctx.progress.setTotal(hosts.length * ports.length + opened);
        ctx.state.openPorts.push({ address, port });
        identifyPort(address, port, smoothedRttMs);
      },
      onHostDone: (result) => {
        byAddress.get(result.address)!.alive = result.alive;
        if (result.refused !== undefined)
          ctx.log.warn({ err: result.refused, address: result.address }, 'port scan refused');
      },
    });
    let summary;
    try {
      summary = await sweep;
    } catch (err) {
      identify.clear();
      throw err;
    }
    ctx.log.info({ ...summary }, 'port sweep finished');
    // Found in the order the lanes answered.
    ctx.state.openPorts.sort(inHostOrder);
    if (knock) {
      ctx.state.hosts = hosts.filter((h) => h.alive);
      ctx.state.notes.push(`${ctx.state.hosts.length} of ${hosts.length} addresses answered`);
    }
    ctx.state.toolsUsed['tcp-connect-scan'] = ctx.state.openPorts.length;

    ctx.progress.tool('scanward-probe');
    await identify.onIdle();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    services.sort(inHostOrder);
    const opinions = await secondOpinion(ctx, services, secondOpinionBudget(performance.now() - started));
    let improved = 0;
    for (const [address, results] of opinions) {
      improved += mergeNmapResults(
        services.filter((s) => s.address === address),
        results,
      );
    }
    if (opinions.size > 0) {
      ctx.state.toolsUsed['nmap'] = improved;
      ctx.state.notes.push(`nmap: asked about ${opinions.size} host(s), added to ${improved} service(s)`);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.state.services = services;
    ctx.state.toolsUsed['scanward-probe'] = services.filter((s) => s.tool === 'scanward-probe').length;

    for (const service of services) {
      ctx.state.detections.push(openServiceDetection(targetOf(ctx.state, service.address), service));
    }
    // What the sweep covered follows from the hosts and the scan's ports (sweepCoverage), so it is
    // not kept in the state the runner saves after every phase.
  },
};

/**
 * What the sweep covered: exactly the scan's ports on every live host, so an
 * open-service finding on one of them that is gone now resolves when the scan
 * completes. One entry per host, the ports as ranges (not one per host and port).
 */
export function sweepCoverage(scan: Pick<ScanRecord, 'ports'>, hosts: readonly ScanHost[]): Coverage[] {
  const ports = resolvePorts(scan.ports, DEFAULT_PORTS);
  const portRanges = ports.length === MAX_PORT ? undefined : rangesOf(ports);
  return hosts.map((host) =>
    portRanges
      ? { target: host.target, check_id: OPEN_SERVICE_CHECK, port_ranges: portRanges }
      : { target: host.target, check_id: OPEN_SERVICE_CHECK },
  );
}

/** Ports as inclusive ranges, ascending: 1,2,3,5 → [1,3],[5,5]. */
export function rangesOf(ports: readonly number[]): [number, number][] {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const port of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && port === last[1] + 1) last[1] = port;
    else ranges.push([port, port]);
  }
  return ranges;
}

/** The longest nmap may take over a scan's hosts before the scan goes on without it. */
const NMAP_MAX_MS = 60_000;
/**
 * The least time nmap gets: enough for it to start and read a service that greets or answers
 * its first probes (under a second on loopback, a few seconds on a busy machine); what takes
 * longer is nmap waiting out its probes on a silent service.
 */
const NMAP_MIN_MS = 8_000;
/** nmap processes at once within a scan. */
const NMAP_PROCESSES = 4;

/**
 * How long the second opinion may take: as long as the sweep and our identification took
 * before it, within [NMAP_MIN_MS, NMAP_MAX_MS]. So nmap never takes the larger part of the
 * enumeration (beyond the floor), however long its probes would wait.
 */
export function secondOpinionBudget(enumerationMs: number): number {
  return Math.min(NMAP_MAX_MS, Math.max(NMAP_MIN_MS, Math.ceil(enumerationMs)));
}

/**
 * Services nmap's version detection cannot improve on and only waits out: the Erlang
 * distribution port answers none of its probes, so `nmap -sV -T4` on it runs into the 60 s
 * timeout (measured on this project's CI machine, RabbitMQ's 25672), while our probes name it
 * from epmd and its own handshake. epmd itself states no version to anyone: nmap's answer is
 * the name alone ("Erlang Port Mapper Daemon") after several seconds of probes, where ours
 * already read the name and the nodes it maps (once both ports joined the default list, a full
 * scan of a /24 spent 8 of its 14 s on that wait).
 */
const NMAP_ADDS_NOTHING: ReadonlySet<string> = new Set(['erlang-dist', 'epmd']);

/**
 * Services whose protocol our own probes established from the protocol's own answer, where
 * nmap's version detection gets the same answer to its HTTP request ours did and then waits out
 * its other probes: HTTP, plain or inside TLS (nmap's TLS probe only wraps the same requests).
 * An HTTP server that sends no `Server` header gives nmap nothing more to date it by; a full scan
 * of such an HTTPS service spent 22 of its 24 s waiting for nmap before this.
 */
const IDENTIFIED_BY_OUR_PROBES: ReadonlySet<string> = new Set(['http', 'https']);

/** The ports, per host, worth nmap's second opinion: those our probes could not name or date. */
export function secondOpinionPorts(services: readonly ServiceIdentification[]): Map<string, number[]> {
  const byHost = new Map<string, number[]>();
  for (const s of services) {
    if (s.service !== 'unknown') {
      if (s.version || NMAP_ADDS_NOTHING.has(s.service)) continue;
      if (s.tool === 'scanward-probe' && IDENTIFIED_BY_OUR_PROBES.has(s.service)) continue;
    }
    byHost.set(s.address, [...(byHost.get(s.address) ?? []), s.port]);
  }
  return byHost;
}

/**
 * nmap's service scan of the ports our probes could not name or date, for
 * full and compliance scans when nmap is installed (and SCANWARD_NMAP is not
 * `off`), within `budgetMs` for all hosts together (a few nmap processes at a
 * time). Never fails the scan: a host nmap could not scan, or did not finish
 * within the budget, simply gets no second opinion, and a note says so.
 */
async function secondOpinion(
  ctx: PhaseContext,
  services: readonly ServiceIdentification[],
  budgetMs: number,
): Promise<Map<string, NmapServiceResult[]>> {
  const results = new Map<string, NmapServiceResult[]>();
  if (ctx.scan.scan_type === 'quick' || ctx.services.config.nmap === 'off') return results;
  const byHost = secondOpinionPorts(services);
  if (byHost.size === 0 || !(await isNmapAvailable())) return results;
  ctx.progress.tool('nmap');
  const budget = AbortSignal.timeout(budgetMs);
  const signal = AbortSignal.any([ctx.signal, budget]);
  let cut = 0;
  // A range scan may have many hosts: a few nmap processes at a time.
  const queue = new PQueue({ concurrency: NMAP_PROCESSES });
  for (const [address, ports] of byHost) {
    void queue
      .add(
        async () => {
          results.set(
            address,
            await runNmapServiceScan({
              address,
              ports,
              assertAllowed: ctx.assertAllowed,
              signal,
              timeoutMs: NMAP_MAX_MS,
            }),
          );
        },
        { signal },
      )
      .catch((err: unknown) => {
        if (ctx.signal.aborted) return;
        if (budget.aborted) cut += 1;
        else ctx.log.warn({ err, address }, 'nmap service scan failed; going on without it');
      });
  }
  await queue.onIdle();
  if (cut > 0) {
    ctx.log.info(
      { hosts: cut, budgetMs },
      'nmap did not finish within its share of the scan; going on without it',
    );
    ctx.state.notes.push(
      `nmap: stopped after ${Math.round(budgetMs / 1000)} s (its bound: as long as the sweep and identification took, ` +
        `at least ${NMAP_MIN_MS / 1000} s), no second opinion on ${cut} host(s)`,
    );
  }
  return results;
}
