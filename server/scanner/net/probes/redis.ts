/**
 * Redis (and Valkey): `PING`. `+PONG` means no authentication is required, and then
 * `INFO server` reveals the version. `-NOAUTH` means a password is required; `-DENIED`
 * means protected mode refuses remote clients. Only read-only commands are sent.
 */
import { compact, type ClientFirstProbe, type ProbeFinding } from './probe.ts';

export const redis: ClientFirstProbe = {
  name: 'redis',
  async run(session, context) {
    session.write('PING\r\n');
    const reply = firstReplyLine(await session.read(lineComplete, context.replyWaitMs));
    if (reply === '+PONG') {
      session.write('INFO server\r\n');
      const info = parseInfo(await session.read(bulkComplete, context.replyWaitMs));
      return fromInfo(info, reply);
    }
    if (/^-NOAUTH\b/.test(reply) || /^-ERR operation not permitted/.test(reply)) {
      return {
        service: 'redis',
        product: 'Redis',
        banner: reply,
        anonymousAccess: false,
        details: { auth_required: true },
      };
    }
    if (/^-DENIED\b/.test(reply)) {
      return {
        service: 'redis',
        product: 'Redis',
        banner: reply.slice(0, 200),
        anonymousAccess: false,
        details: { protected_mode: true },
      };
    }
    return null;
  },
};

function firstReplyLine(data: Buffer): string {
  return data.toString('latin1').split('\r\n', 1)[0] ?? '';
}

function lineComplete(data: Buffer): boolean {
  return data.includes('\r\n');
}

/** A RESP bulk string (`$<length>\r\n<bytes>\r\n`) received in full, or an error line. */
export function bulkComplete(data: Buffer): boolean {
  const headerEnd = data.indexOf('\r\n');
  if (headerEnd === -1) return false;
  if (data[0] !== 0x24 /* $ */) return true;
  const length = Number(data.toString('latin1', 1, headerEnd));
  return !Number.isFinite(length) || length < 0 || data.length >= headerEnd + 2 + length + 2;
}

/** `INFO` output (`key:value` lines, `#` section headers) as a map. */
export function parseInfo(data: Buffer): Map<string, string> {
  const info = new Map<string, string>();
  for (const line of data.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) info.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return info;
}

function fromInfo(info: Map<string, string>, reply: string): ProbeFinding {
  const valkey = info.get('server_name') === 'valkey' || info.has('valkey_version');
  const version = valkey
    ? (info.get('valkey_version') ?? info.get('redis_version'))
    : info.get('redis_version');
  return compact<ProbeFinding>({
    service: 'redis',
    product: valkey ? 'Valkey' : 'Redis',
    version,
    banner: version ? `${reply} (redis_version:${info.get('redis_version')})` : reply,
    anonymousAccess: true,
    details: compact({
      auth_required: false,
      redis_mode: info.get('redis_mode'),
      os: info.get('os'),
    }),
  });
}
