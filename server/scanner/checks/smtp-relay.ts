/**
 * SMTP open relay, probed without sending mail: after EHLO, a MAIL FROM an outside sender
 * and one RCPT TO an outside recipient, both in domains reserved for examples (RFC 2606),
 * so nothing could be delivered even by mistake. A server that accepts that recipient from
 * an unauthenticated client relays for anyone. The transaction is then reset and the
 * session closed: DATA is never sent.
 */
import type { Socket } from 'node:net';
import { isService } from '../net/service-rules.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { defineCheck, type PhaseContext } from '../check.ts';
import { connectService } from '../net/service-connect.ts';

const REPLY_TIMEOUT_MS = 5_000;
export const RELAY_SENDER = 'scanward-relay-test@example.com';
export const RELAY_RECIPIENT = 'relay-test@example.net';

/** A whole reply: its last line is `NNN text` (not a `NNN-` continuation). */
function wholeReply(text: string): boolean {
  const lines = text.split(/\r?\n/);
  return lines.at(-1) === '' && /^\d{3}(?: |$)/.test(lines.at(-2) ?? '');
}

/** Sends a command (or nothing, for the greeting) and reads the whole reply. */
function dialog(
  socket: Socket,
  signal: AbortSignal,
): (command?: string) => Promise<{ code: number; text: string }> {
  let buffer = '';
  let waiting: (() => void) | undefined;
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    waiting?.();
  });
  socket.once('close', () => {
    closed = true;
    waiting?.();
  });
  return async (command) => {
    if (command !== undefined) socket.write(`${command}\r\n`);
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    while (!wholeReply(buffer)) {
      signal.throwIfAborted();
      if (closed || Date.now() >= deadline) throw new Error('the SMTP server stopped answering');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      waiting = undefined;
    }
    const text = buffer.trim();
    buffer = '';
    return { code: Number(text.split(/\r?\n/).at(-1)?.slice(0, 3)), text: text.replace(/\r?\n/g, ' | ') };
  };
}

async function probeRelay(
  ctx: PhaseContext,
  service: ServiceIdentification,
): Promise<{ relays: boolean; transcript: string[]; commands: string[] } | undefined> {
  const socket = await connectService(ctx, service, {
    timeoutMs: REPLY_TIMEOUT_MS,
    ...(service.tls === true && { tls: { minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } }),
  });
  const say = dialog(socket, ctx.signal);
  const commands: string[] = [];
  const transcript: string[] = [];
  const step = async (command?: string): Promise<number> => {
    if (command) commands.push(command);
    const reply = await say(command);
    transcript.push(`${command?.split(':')[0] ?? 'greeting'} → ${reply.text}`);
    return reply.code;
  };
  try {
    if ((await step()) !== 220) return undefined;
    if ((await step('EHLO scanward.invalid')) !== 250 && (await step('HELO scanward.invalid')) !== 250)
      return undefined;
    if ((await step(`MAIL FROM:<${RELAY_SENDER}>`)) !== 250) return undefined;
    const rcpt = await step(`RCPT TO:<${RELAY_RECIPIENT}>`);
    await step('RSET').catch(() => 0);
    await step('QUIT').catch(() => 0);
    return { relays: rcpt === 250 || rcpt === 251, transcript, commands };
  } finally {
    socket.destroy();
  }
}

export const smtpOpenRelayCheck = defineCheck({
  meta: {
    id: 'smtp-open-relay',
    title: 'SMTP server is an open relay',
    severity: 'high',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:L/A:L',
    cweIds: ['CWE-284'],
    category: 'misconfiguration',
    remediation: 'smtp-open-relay',
    impact:
      'Spammers and phishers can send mail through the server under its reputation: it gets block-listed, ' +
      'and forged mail appears to come from the organization.',
    upstreamIds: ['smtp-open-relay'],
    tool: 'scanward-probe',
  },
  phase: 'vulnerability_scanning',
  quick: false,
  appliesTo: isService('smtp', [25, 465, 587, 2525]),
  detect: async (ctx, service) => {
    const result = await probeRelay(ctx, service);
    if (!result?.relays) return [];
    return [
      {
        description:
          `${componentUrl(service)} accepted a recipient in an outside domain (${RELAY_RECIPIENT}) for an outside sender ` +
          `(${RELAY_SENDER}) from a client that did not authenticate. No mail was sent: the transaction was reset ` +
          'before DATA.',
        evidence: {
          request: `SMTP to ${urlHost(service.address)}:${service.port}: ${result.commands.join(', ')} (DATA never sent)`,
          response: result.transcript.join('\n'),
        },
      },
    ];
  },
});
