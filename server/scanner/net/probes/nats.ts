/**
 * NATS: the server greets every client with `INFO {json}`, which carries its name, version
 * and whether clients must authenticate. Nothing is sent.
 */
import { compact, firstLine, type BannerProtocol, type ProbeFinding } from './probe.ts';

const INFO = /^INFO\s+(\{.*\})\s*$/;

export const nats: BannerProtocol = {
  name: 'nats',
  recognize(banner) {
    const line = firstLine(banner, 8192);
    const match = INFO.exec(line);
    if (!match) return null;
    let info: Record<string, unknown>;
    try {
      info = JSON.parse(match[1] as string) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (typeof info.server_id !== 'string' && typeof info.version !== 'string') return null;
    const authRequired = info.auth_required === true;
    return compact<ProbeFinding>({
      service: 'nats',
      product: 'nats-server',
      version: typeof info.version === 'string' ? info.version : undefined,
      banner: line.length > 512 ? `${line.slice(0, 512)}…` : line,
      anonymousAccess: !authRequired,
      details: compact({
        server_name: stringOf(info.server_name),
        auth_required: authRequired,
        tls_required: info.tls_required === true,
        jetstream: info.jetstream === true,
        go: stringOf(info.go),
        proto: typeof info.proto === 'number' ? info.proto : undefined,
      }),
    });
  },
};

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
