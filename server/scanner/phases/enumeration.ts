import PQueue from 'p-queue';
import { MAX_PORT, resolvePorts } from '../net/ports.ts';
import { isNmapAvailable, runNmapServiceScan, type NmapServiceResult } from '../net/nmap.ts';
import { mergeNmapResults } from '../net/nmap-merge.ts';
import { identifyService } from '../net/service-id.ts';
import { scanTcpPorts } from '../net/tcp-scan.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { componentUrl } from '../net/services.ts';
import { describeService } from '../checks/exposed-services.ts';
import { targetOf, type Detection, type Phase, type PhaseContext } from '../types.ts';

/** Services identified at once within a scan. */
const IDENTIFY_CONCURRENCY = 8;
/** Hosts port-scanned at once (each scan adapts its own concurrency). */
const HOSTS_AT_ONCE = 4;

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
 * Finds open TCP ports on every live host (the scan's `ports`, or the 1,000
 * most common) and identifies the service on each. Each open service gets an
 * informational finding, and the `open-service` check covers the ports swept,
 * so a port that closes later resolves its finding.
 */
export const enumeration: Phase = {
  name: 'enumeration',
  weight: 40,
  async run(ctx: PhaseContext) {
    const ports = resolvePorts(ctx.scan.ports);
    const hosts = ctx.state.hosts;
    // Units: one per host port sweep (weighted by its ports) plus one per service identified later.
    ctx.progress.setTotal(hosts.length * ports.length);
    ctx.progress.tool('tcp-connect-scan');
    ctx.state.openPorts = [];

    const sweep = new PQueue({ concurrency: HOSTS_AT_ONCE });
    for (const host of hosts) {
      void sweep
        .add(
          async () => {
            let reported = 0;
            const result = await scanTcpPorts({
              address: host.address,
              ports,
              assertAllowed: ctx.assertAllowed,
              signal: ctx.signal,
              onProgress: (p) => {
                ctx.progress.advance(p.scanned - reported);
                reported = p.scanned;
              },
            });
            ctx.progress.advance(ports.length - reported);
            for (const port of result.openPorts) ctx.state.openPorts.push({ address: host.address, port });
          },
          { signal: ctx.signal },
        )
        .catch((err: unknown) => {
          if (!ctx.signal.aborted) ctx.log.warn({ err, address: host.address }, 'port scan failed');
        });
    }
    await sweep.onIdle();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.state.toolsUsed['tcp-connect-scan'] = ctx.state.openPorts.length;

    ctx.progress.tool('scanward-probe');
    ctx.progress.setTotal(hosts.length * ports.length + ctx.state.openPorts.length);
    const identify = new PQueue({ concurrency: IDENTIFY_CONCURRENCY });
    const services: ServiceIdentification[] = [];
    for (const open of ctx.state.openPorts) {
      void identify
        .add(
          async () => {
            services.push(
              await identifyService({
                address: open.address,
                port: open.port,
                assertAllowed: ctx.assertAllowed,
                signal: ctx.signal,
              }),
            );
            ctx.progress.advance();
          },
          { signal: ctx.signal },
        )
        .catch((err: unknown) => {
          if (!ctx.signal.aborted) ctx.log.warn({ err, ...open }, 'service identification failed');
        });
    }
    await identify.onIdle();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    services.sort((a, b) => a.address.localeCompare(b.address) || a.port - b.port);
    const opinions = await secondOpinion(ctx, services);
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
    // The sweep covered exactly these ports: an open-service finding on one of them that is gone now resolves.
    const everyPort = ports.length === MAX_PORT;
    for (const host of hosts) {
      if (everyPort) ctx.state.coverage.push({ target: host.target, check_id: OPEN_SERVICE_CHECK });
      else
        for (const port of ports)
          ctx.state.coverage.push({ target: host.target, check_id: OPEN_SERVICE_CHECK, port });
    }
  },
};

/** nmap may take this long per host before the scan goes on without it. */
const NMAP_TIMEOUT_MS = 60_000;
/** nmap processes at once within a scan. */
const NMAP_PROCESSES = 4;

/**
 * nmap's service scan of the ports our probes could not name or date, for
 * full and compliance scans when nmap is installed (and SCANWARD_NMAP is not
 * `off`). Never fails the scan: a host nmap could not scan simply gets no
 * second opinion.
 */
async function secondOpinion(
  ctx: PhaseContext,
  services: readonly ServiceIdentification[],
): Promise<Map<string, NmapServiceResult[]>> {
  const results = new Map<string, NmapServiceResult[]>();
  if (ctx.scan.scan_type === 'quick' || ctx.services.config.nmap === 'off') return results;
  const byHost = new Map<string, number[]>();
  for (const s of services) {
    if (s.service !== 'unknown' && s.version) continue;
    byHost.set(s.address, [...(byHost.get(s.address) ?? []), s.port]);
  }
  if (byHost.size === 0 || !(await isNmapAvailable())) return results;
  ctx.progress.tool('nmap');
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
              signal: ctx.signal,
              timeoutMs: NMAP_TIMEOUT_MS,
            }),
          );
        },
        { signal: ctx.signal },
      )
      .catch((err: unknown) => {
        if (!ctx.signal.aborted)
          ctx.log.warn({ err, address }, 'nmap service scan failed; going on without it');
      });
  }
  await queue.onIdle();
  return results;
}
