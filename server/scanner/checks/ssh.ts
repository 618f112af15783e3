/**
 * SSH checks: the protocol version the server announces (SSH-1 is broken by design) and
 * the algorithms it offers in its KEXINIT (read after our identification line; no key
 * exchange, no authentication).
 */
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { parseKexInit, packetComplete, weakAlgorithms, type KexInit } from '../net/ssh-kex.ts';
import { urlHost } from '../net/target-address.ts';
import { targetOf, type Detection, type PhaseContext } from '../types.ts';
import type { Check } from '../check.ts';
import { connectService } from '../net/service-connect.ts';

const READ_TIMEOUT_MS = 5_000;
const CLIENT_ID = 'SSH-2.0-scanward_probe';

/** Reads the server's identification line and its KEXINIT; answers both. */
async function readKexInit(
  ctx: PhaseContext,
  service: ServiceIdentification,
): Promise<{ id: string; offer?: KexInit }> {
  const socket = await connectService(ctx, service, { timeoutMs: READ_TIMEOUT_MS });
  try {
    return await new Promise((resolve, reject) => {
      let data = Buffer.alloc(0);
      let id: string | undefined;
      let sentId = false;
      const finish = (): void => {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        const rest = id === undefined ? Buffer.alloc(0) : data;
        resolve({
          id: id ?? data.toString('latin1', 0, 255).split(/\r?\n/)[0] ?? '',
          offer: parseKexInit(rest),
        });
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      };
      const timer = setTimeout(finish, READ_TIMEOUT_MS);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]).subarray(0, 64 * 1024);
        // Lines before the identification line are allowed (RFC 4253 §4.2).
        while (id === undefined) {
          const end = data.indexOf('\n');
          if (end === -1) return;
          const line = data.toString('latin1', 0, end).replace(/\r$/, '');
          data = data.subarray(end + 1);
          if (line.startsWith('SSH-')) id = line;
        }
        if (!sentId) {
          sentId = true;
          socket.write(`${CLIENT_ID}\r\n`);
        }
        if (packetComplete(data)) finish();
      });
      socket.once('close', finish);
    });
  } finally {
    socket.destroy();
  }
}

function baseDetection(
  ctx: PhaseContext,
  service: ServiceIdentification,
): Pick<Detection, 'target' | 'affected_component' | 'port' | 'tool' | 'category' | 'cve_ids'> {
  return {
    target: targetOf(ctx.state, service.address),
    affected_component: componentUrl(service),
    port: service.port,
    tool: 'scanward-probe',
    category: 'weak-crypto',
    cve_ids: [],
  };
}

export const sshWeakAlgorithmsCheck: Check = {
  id: 'ssh-weak-algorithms',
  upstreamIds: [
    'ssh-weak-algo-supported',
    'ssh-weakkey-exchange-algo',
    'ssh-weak-mac-algo',
    'ssh-cbc-mode-ciphers',
  ],
  phase: 'vulnerability_scanning',
  quick: true,
  category: 'weak-crypto',
  cweIds: ['CWE-327'],
  appliesTo: (service) => service.service === 'ssh',
  run: async (ctx, service) => {
    const { id, offer } = await readKexInit(ctx, service);
    if (!offer) return [];
    const weak = weakAlgorithms(offer);
    if (weak.length === 0) return [];
    const worst = weak.some((w) => w.grade === 'none')
      ? 'none'
      : weak.some((w) => w.grade === 'broken')
        ? 'broken'
        : 'weak';
    const severity = worst === 'none' ? 'high' : worst === 'broken' ? 'medium' : 'low';
    const offered = [
      `identification: ${id}`,
      `kex: ${offer.kex.join(',')}`,
      `host key: ${offer.hostKey.join(',')}`,
      `ciphers: ${offer.ciphers.join(',')}`,
      `MACs: ${offer.macs.join(',')}`,
    ];
    return [
      {
        ...baseDetection(ctx, service),
        check_id: 'ssh-weak-algorithms',
        upstream_ids: sshWeakAlgorithmsCheck.upstreamIds,
        title: `SSH server offers weak algorithms (${[...new Set(weak.map((w) => w.name))].slice(0, 4).join(', ')}${weak.length > 4 ? ', …' : ''})`,
        severity,
        cvss_vector:
          severity === 'high'
            ? 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N'
            : severity === 'medium'
              ? 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N'
              : 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
        cwe_ids: ['CWE-327'],
        description:
          `${componentUrl(service)} (${id}) offers: ` +
          weak.map((w) => `${w.kind} ${w.name} (${w.why})`).join('; ') +
          '.',
        impact:
          'A client that also supports these algorithms can be made to use them; their weaknesses then expose ' +
          'the session to decryption, tampering or impersonation of the server.',
        evidence: {
          request: `TCP to ${urlHost(service.address)}:${service.port}, identification ${CLIENT_ID}, then the server's SSH_MSG_KEXINIT read (no key exchange)`,
          response: offered.join('\n'),
          screenshot_url: null,
        },
      },
    ];
  },
};

export const sshProtocolVersion1Check: Check = {
  id: 'ssh-protocol-version-1',
  upstreamIds: ['obsolete-ssh-version'],
  phase: 'vulnerability_scanning',
  quick: true,
  category: 'weak-crypto',
  cweIds: ['CWE-327'],
  appliesTo: (service) => service.service === 'ssh',
  run: async (ctx, service) => {
    const protocol = String(service.details?.ssh_protocol ?? '');
    if (!/^1\./.test(protocol)) return [];
    const both = protocol === '1.99';
    return [
      {
        ...baseDetection(ctx, service),
        check_id: 'ssh-protocol-version-1',
        upstream_ids: ['obsolete-ssh-version'],
        title: both
          ? 'SSH server still accepts protocol version 1'
          : 'SSH server speaks only protocol version 1',
        severity: 'high',
        cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
        cwe_ids: ['CWE-327'],
        description: `${componentUrl(service)} announces SSH protocol ${protocol} (${service.banner ?? ''}).`,
        impact:
          'SSH-1 has known design flaws (CRC-32 integrity, session key recovery, insertion attacks): sessions ' +
          'can be decrypted or hijacked.',
        evidence: {
          request: service.evidence.request,
          response: service.evidence.response || (service.banner ?? ''),
          screenshot_url: null,
        },
      },
    ];
  },
};

export const sshChecks: Check[] = [sshWeakAlgorithmsCheck, sshProtocolVersion1Check];
