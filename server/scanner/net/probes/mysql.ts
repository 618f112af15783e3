/**
 * MySQL and MariaDB: the server greets with an Initial Handshake packet (protocol 10)
 * carrying its version string, or with an error packet when this client may not connect
 * at all ("Host ... is not allowed"). Nothing is sent; no login is attempted.
 *
 * Packet: 3-byte little-endian payload length, 1-byte sequence id, payload.
 * Handshake v10 payload: 0x0a, server version (NUL-terminated), connection id (4),
 * auth data part 1 (8), filler (1), capability flags low (2), charset (1), status (2),
 * capability flags high (2), auth data length (1), reserved (10), auth data part 2,
 * auth plugin name (NUL-terminated).
 */
import { compact, type BannerProtocol, type ProbeFinding } from './probe.ts';

const HEADER_BYTES = 4;

export const mysql: BannerProtocol = {
  name: 'mysql',
  recognize(banner) {
    const payload = packetPayload(banner);
    if (!payload || payload.length < 2) return null;
    if (payload[0] === 0x0a) return fromHandshake(payload);
    if (payload[0] === 0xff) return fromError(payload);
    return null;
  },
};

/** A packet header with sequence id 0 and a handshake (0x0a) or error (0xff) payload. */
export function looksLikeMysqlPacket(data: Buffer): boolean {
  return (
    data.length >= 5 &&
    data[3] === 0 &&
    (data[4] === 0x0a || data[4] === 0xff) &&
    data.readUIntLE(0, 3) <= 1024
  );
}

/** Whether `data` holds a whole first packet (so a banner read can stop). */
export function mysqlPacketComplete(data: Buffer): boolean {
  return data.length >= HEADER_BYTES && data.length >= HEADER_BYTES + data.readUIntLE(0, 3);
}

function packetPayload(data: Buffer): Buffer | undefined {
  if (data.length < HEADER_BYTES + 1) return undefined;
  const length = data.readUIntLE(0, 3);
  if (data[3] !== 0 || length < 2 || length > 1024 || data.length < HEADER_BYTES + length) return undefined;
  return data.subarray(HEADER_BYTES, HEADER_BYTES + length);
}

function fromHandshake(payload: Buffer): ProbeFinding | null {
  const versionEnd = payload.indexOf(0, 1);
  if (versionEnd < 2) return null;
  const serverVersion = payload.toString('latin1', 1, versionEnd);
  if (!/^\d+\.\d+/.test(serverVersion)) return null;
  const { product, version } = productVersion(serverVersion);
  return compact<ProbeFinding>({
    service: 'mysql',
    product,
    version,
    banner: serverVersion,
    details: compact({
      server_version: serverVersion,
      protocol: 10,
      auth_plugin: authPlugin(payload, versionEnd + 1),
    }),
  });
}

/** MariaDB prefixes its version with `5.5.5-` for old clients: `5.5.5-10.11.6-MariaDB-0+deb12u1` is MariaDB 10.11.6. */
export function productVersion(serverVersion: string): { product: string; version?: string } {
  const mariadb = /(?:^5\.5\.5-)?(\d+\.\d+\.\d+)-MariaDB/i.exec(serverVersion);
  if (mariadb) return { product: 'MariaDB', version: mariadb[1] };
  const numeric = /^(\d+\.\d+\.\d+)/.exec(serverVersion);
  return { product: 'MySQL', version: numeric?.[1] };
}

function authPlugin(payload: Buffer, afterVersion: number): string | undefined {
  // connection id (4) + auth part 1 (8) + filler (1) + caps low (2) + charset (1) + status (2) + caps high (2)
  const authLengthAt = afterVersion + 4 + 8 + 1 + 2 + 1 + 2 + 2;
  if (payload.length <= authLengthAt + 11) return undefined;
  const authLength = payload[authLengthAt] as number;
  const pluginAt = authLengthAt + 1 + 10 + Math.max(13, authLength - 8);
  if (pluginAt >= payload.length) return undefined;
  const end = payload.indexOf(0, pluginAt);
  const name = payload.toString('latin1', pluginAt, end === -1 ? payload.length : end);
  return /^[a-z0-9_]+$/i.test(name) ? name : undefined;
}

function fromError(payload: Buffer): ProbeFinding | null {
  if (payload.length < 4) return null;
  const code = payload.readUInt16LE(1);
  const message = payload.toString('latin1', payload[3] === 0x23 ? 9 : 3);
  if (!/\b(MySQL|MariaDB)\b|not allowed to connect|Too many connections/i.test(message)) return null;
  return compact<ProbeFinding>({
    service: 'mysql',
    product: /MariaDB/i.test(message) ? 'MariaDB' : /MySQL/i.test(message) ? 'MySQL' : undefined,
    banner: message,
    details: { error_code: code, error: message },
  });
}
