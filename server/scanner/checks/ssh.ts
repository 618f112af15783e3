/**
 * SSH checks: the protocol version the server announces (SSH-1 is broken by design) and
 * the algorithms it offers in its KEXINIT (read after our identification line; no key
 * exchange, no authentication).
 */
import { isService } from '../net/service-rules.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { parseKexInit, packetComplete, weakAlgorithms, type KexInit } from '../net/ssh-kex.ts';
import { urlHost } from '../net/target-address.ts';
import { defineCheck, type DeclaredCheck, type PhaseContext } from '../check.ts';
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

const isSsh = isService('ssh', [22, 2222]);

export const sshWeakAlgorithmsCheck = defineCheck({
  meta: {
    id: 'ssh-weak-algorithms',
    title: 'SSH server offers weak algorithms',
    severity: 'medium',
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
    cweIds: ['CWE-327'],
    category: 'weak-crypto',
    remediation: 'ssh-weak-algorithms',
    impact:
      'A client that also supports these algorithms can be made to use them; their weaknesses then expose ' +
      'the session to decryption, tampering or impersonation of the server.',
    upstreamIds: [
      'ssh-weak-algo-supported',
      'ssh-weakkey-exchange-algo',
      'ssh-weak-mac-algo',
      'ssh-cbc-mode-ciphers',
    ],
    tool: 'scanward-probe',
    variants: {
      // An algorithm with no protection at all (the `none` cipher or MAC).
      none: { severity: 'high', cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N' },
      // Only algorithms that are weak, not broken.
      weak: { severity: 'low', cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N' },
    },
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: isSsh,
  detect: async (ctx, service) => {
    const { id, offer } = await readKexInit(ctx, service);
    if (!offer) return [];
    const weak = weakAlgorithms(offer);
    if (weak.length === 0) return [];
    const worst = weak.some((w) => w.grade === 'none')
      ? 'none'
      : weak.some((w) => w.grade === 'broken')
        ? 'broken'
        : 'weak';
    const offered = [
      `identification: ${id}`,
      `kex: ${offer.kex.join(',')}`,
      `host key: ${offer.hostKey.join(',')}`,
      `ciphers: ${offer.ciphers.join(',')}`,
      `MACs: ${offer.macs.join(',')}`,
    ];
    return [
      {
        ...(worst !== 'broken' && { variant: worst }),
        detail: `${[...new Set(weak.map((w) => w.name))].slice(0, 4).join(', ')}${weak.length > 4 ? ', …' : ''}`,
        description:
          `${componentUrl(service)} (${id}) offers: ` +
          weak.map((w) => `${w.kind} ${w.name} (${w.why})`).join('; ') +
          '.',
        evidence: {
          request: `TCP to ${urlHost(service.address)}:${service.port}, identification ${CLIENT_ID}, then the server's SSH_MSG_KEXINIT read (no key exchange)`,
          response: offered.join('\n'),
        },
      },
    ];
  },
});

export const sshProtocolVersion1Check = defineCheck({
  meta: {
    id: 'ssh-protocol-version-1',
    title: 'SSH server still accepts protocol version 1',
    severity: 'high',
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    cweIds: ['CWE-327'],
    category: 'weak-crypto',
    remediation: 'ssh-outdated-version',
    impact:
      'SSH-1 has known design flaws (CRC-32 integrity, session key recovery, insertion attacks): sessions ' +
      'can be decrypted or hijacked.',
    upstreamIds: ['obsolete-ssh-version'],
    tool: 'scanward-probe',
    variants: {
      only: {
        title: 'SSH server speaks only protocol version 1',
        severity: 'high',
        cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
      },
    },
  },
  phase: 'vulnerability_scanning',
  quick: true,
  appliesTo: isSsh,
  detect: async (_ctx, service) => {
    const protocol = String(service.details?.ssh_protocol ?? '');
    if (!/^1\./.test(protocol)) return [];
    return [
      {
        ...(protocol !== '1.99' && { variant: 'only' as const }),
        description: `${componentUrl(service)} announces SSH protocol ${protocol} (${service.banner ?? ''}).`,
        evidence: {
          request:
            service.evidence.request ||
            `TCP to ${urlHost(service.address)}:${service.port} (the server speaks first)`,
          response: service.evidence.response || (service.banner ?? ''),
        },
      },
    ];
  },
});

export const sshChecks: DeclaredCheck[] = [sshWeakAlgorithmsCheck, sshProtocolVersion1Check];
