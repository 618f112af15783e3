/**
 * The Erlang port mapper (epmd) tells anyone who asks which Erlang nodes run on the host
 * and on which port each accepts distribution connections. A distribution port reachable
 * from the scanner means that whoever knows or guesses the node's cookie (often a default,
 * a weak generated value, or readable from a container image) can run any code on the node.
 * The check lists the nodes (from the identification's NAMES answer) and tries a plain TCP
 * connection to each distribution port; nothing is sent on it.
 */
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { targetOf } from '../types.ts';
import type { Check } from '../check.ts';
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

export const erlangDistributionCheck: Check = {
  id: 'erlang-distribution-exposed',
  upstreamIds: ['erlang-daemon'],
  phase: 'vulnerability_scanning',
  quick: true,
  category: 'exposed-service',
  cweIds: ['CWE-668', 'CWE-200'],
  appliesTo: (service) => service.service === 'epmd',
  run: async (ctx, service) => {
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
    return [
      {
        check_id: 'erlang-distribution-exposed',
        upstream_ids: ['erlang-daemon'],
        title: exposed
          ? `Erlang distribution reachable from the network (nodes ${reachable.map((n) => n.name).join(', ')})`
          : 'Erlang port mapper publishes the nodes of the host',
        severity: exposed ? 'high' : 'low',
        cvss_vector: exposed
          ? 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H'
          : 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
        target: targetOf(ctx.state, service.address),
        affected_component: componentUrl(service),
        port: service.port,
        tool: 'scanward-probe',
        category: 'exposed-service',
        cve_ids: [],
        cwe_ids: exposed ? ['CWE-668'] : ['CWE-200'],
        description:
          `The Erlang port mapper on ${host}:${service.port} lists ${nodes.length} node(s): ${names}.` +
          (exposed
            ? ` The distribution port of ${reachable.map((n) => n.name).join(', ')} accepts connections from the scanner.`
            : ' None of their distribution ports accepted a connection from the scanner.'),
        impact: exposed
          ? 'Erlang distribution has no authentication beyond the shared cookie: anyone who reaches the port and ' +
            'knows or guesses the cookie (a default, a weak generated value, or one copied from an image) runs ' +
            'arbitrary code as the node, for example the whole RabbitMQ or CouchDB server and its host account.'
          : 'Node names and ports help an attacker aim at the distribution ports from elsewhere.',
        evidence: {
          request: `epmd NAMES_REQ (\\x00\\x01n) to ${host}:${service.port}; then a TCP connection to each distribution port`,
          response: [service.banner ?? '', ...lines].join('\n'),
          screenshot_url: null,
        },
      },
    ];
  },
};
