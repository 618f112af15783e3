/**
 * The Erlang port mapper (epmd) tells anyone who asks which Erlang nodes run on the host
 * and on which port each accepts distribution connections. A distribution port reachable
 * from the scanner means that whoever knows or guesses the node's cookie (often a default,
 * a weak generated value, or readable from a container image) can run any code on the node.
 * The check lists the nodes (from the identification's NAMES answer) and tries a plain TCP
 * connection to each distribution port; nothing is sent on it.
 */
import { isService } from '../net/service-rules.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { defineCheck } from '../check.ts';
import { connectService, ServiceConnectError } from '../net/service-connect.ts';

/** Most nodes whose distribution port is tried. */
const MAX_NODES = 16;

function nodesOf(service: ServiceIdentification): { name: string; port: number }[] {
  const list = String(service.details?.epmd_nodes ?? '');
  return list
    .split(', ')
    .map((entry) => /^(.+):(\d{1,5})$/.exec(entry))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ name: match[1] as string, port: Number(match[2]) }))
    .filter((node) => node.port >= 1 && node.port <= 65535)
    .slice(0, MAX_NODES);
}

export const erlangDistributionCheck = defineCheck({
  meta: {
    id: 'erlang-distribution-exposed',
    title: 'Erlang distribution reachable from the network',
    severity: 'high',
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
    cweIds: ['CWE-668'],
    category: 'exposed-service',
    remediation: 'erlang-distribution-exposed',
    impact:
      'Erlang distribution has no authentication beyond the shared cookie: anyone who reaches the port and ' +
      'knows or guesses the cookie (a default, a weak generated value, or one copied from an image) runs ' +
      'arbitrary code as the node, for example the whole RabbitMQ or CouchDB server and its host account.',
    upstreamIds: ['erlang-daemon'],
    tool: 'scanward-probe',
    variants: {
      'names-only': {
        title: 'Erlang port mapper publishes the nodes of the host',
        severity: 'low',
        // Names and ports only help an attack aimed at the distribution ports from elsewhere.
        cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
        cweIds: ['CWE-200'],
      },
    },
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: isService('epmd', [4369]),
  // The distribution port epmd names: RabbitMQ's default.
  ports: [25672],
  detect: async (ctx, service) => {
    const nodes = nodesOf(service);
    if (nodes.length === 0) return [];
    const lines: string[] = [];
    const reachable: { name: string; port: number }[] = [];
    for (const node of nodes) {
      try {
        const socket = await connectService(ctx, { ...service, port: node.port }, { timeoutMs: 3000 });
        socket.destroy();
        reachable.push(node);
        lines.push(`node ${node.name}: distribution port ${node.port} accepts TCP connections`);
      } catch (error) {
        if (!(error instanceof ServiceConnectError)) throw error;
        lines.push(`node ${node.name}: distribution port ${node.port} not reachable (${error.code})`);
      }
    }
    const host = urlHost(service.address);
    const names = nodes.map((n) => `${n.name} (port ${n.port})`).join(', ');
    const exposed = reachable.length > 0;
    const evidence = {
      request: `epmd NAMES_REQ (\\x00\\x01n) to ${host}:${service.port}; then a TCP connection to each distribution port`,
      response: [service.banner ?? '', ...lines].join('\n'),
    };
    const listed = `The Erlang port mapper on ${host}:${service.port} lists ${nodes.length} node(s): ${names}.`;
    if (!exposed) {
      return [
        {
          variant: 'names-only' as const,
          description: `${listed} None of their distribution ports accepted a connection from the scanner.`,
          impact: 'Node names and ports help an attacker aim at the distribution ports from elsewhere.',
          evidence,
        },
      ];
    }
    return [
      {
        detail: `nodes ${reachable.map((n) => n.name).join(', ')}`,
        description: `${listed} The distribution port of ${reachable.map((n) => n.name).join(', ')} accepts connections from the scanner.`,
        evidence,
      },
    ];
  },
});
