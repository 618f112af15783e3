/**
 * The probe catalogue and the order probes are tried in on a port.
 *
 * 1. Server-speaks-first protocols are recognised from a passive wait for a greeting
 *    (SSH, FTP, SMTP, MySQL/MariaDB, NATS, IMAP, POP3). That wait comes first on ports where such a
 *    protocol is expected and on ports we know nothing about.
 * 2. On ports whose usual protocol is client-speaks-first (6379, 5432, 443, ...), that
 *    protocol's probe runs first, then the greeting wait.
 * 3. Then the generic probes, cheapest and most common first: HTTP, TLS, Redis, Memcached,
 *    PostgreSQL, MongoDB, AMQP, MQTT.
 *
 * Every step uses a new connection, as nmap's version detection does: a service that did
 * not understand one probe may have closed the connection or be waiting for more bytes.
 */
import { amqp } from './amqp.ts';
import { epmd, erlangDistribution } from './erlang.ts';
import { ftpOrSmtp } from './ftp-smtp.ts';
import { http } from './http.ts';
import { imap } from './imap.ts';
import { memcached } from './memcached.ts';
import { mongodb } from './mongodb.ts';
import { mqtt } from './mqtt.ts';
import { looksLikeMysqlPacket, mysql, mysqlPacketComplete } from './mysql.ts';
import { nats } from './nats.ts';
import { pop3 } from './pop3.ts';
import { postgresql } from './postgresql.ts';
import type { BannerProtocol, ClientFirstProbe } from './probe.ts';
import { redis } from './redis.ts';
import { ssh } from './ssh.ts';

export const BANNER_PROTOCOLS: readonly BannerProtocol[] = [ssh, ftpOrSmtp, mysql, nats, imap, pop3];

/** Generic order; `tls` marks where the TLS layer is tried on a port with no TLS hint. */
export const GENERIC_ORDER: readonly (ClientFirstProbe | 'tls')[] = [
  http,
  'tls',
  redis,
  memcached,
  postgresql,
  mongodb,
  amqp,
  mqtt,
];

export interface PortHint {
  /** The port usually speaks TLS from the first byte (HTTPS, SMTPS, MQTTS, ...). */
  tls?: boolean;
  /** A server-speaks-first protocol is expected: wait for its greeting first. */
  greeting?: boolean;
  /** Client-first probes to try first. */
  probes?: readonly ClientFirstProbe[];
}

const HTTP_PORTS = [
  80, 81, 591, 3000, 5000, 5601, 8000, 8008, 8080, 8081, 8082, 8222, 8888, 9000, 9090, 9200, 15672,
];
const HTTPS_PORTS = [443, 4443, 8443, 9443];

const HINTS = new Map<number, PortHint>([
  ...HTTP_PORTS.map((port): [number, PortHint] => [port, { probes: [http] }]),
  ...HTTPS_PORTS.map((port): [number, PortHint] => [port, { tls: true, probes: [http] }]),
  ...[21, 22, 25, 110, 143, 587, 2525, 2222, 3306, 4222].map((port): [number, PortHint] => [
    port,
    { greeting: true },
  ]),
  ...[465, 990, 993, 995].map((port): [number, PortHint] => [port, { tls: true, greeting: true }]),
  [5432, { probes: [postgresql] }],
  [5672, { probes: [amqp] }],
  [5671, { tls: true, probes: [amqp] }],
  [1883, { probes: [mqtt] }],
  [8883, { tls: true, probes: [mqtt] }],
  [6379, { probes: [redis] }],
  [6380, { tls: true, probes: [redis] }],
  [11211, { probes: [memcached] }],
  [4369, { probes: [epmd] }],
  [25672, { probes: [erlangDistribution] }],
  [27017, { probes: [mongodb] }],
  [27018, { probes: [mongodb] }],
  [27019, { probes: [mongodb] }],
]);

export function portHint(port: number): PortHint {
  return HINTS.get(port) ?? { greeting: true };
}

/** Enough of a greeting to judge it: a whole MySQL packet, or a whole line (not an SMTP/FTP `NNN-` continuation). */
export function greetingComplete(data: Buffer): boolean {
  if (looksLikeMysqlPacket(data)) return mysqlPacketComplete(data);
  const text = data.toString('latin1');
  if (!text.endsWith('\n')) return data.length >= 4096;
  const lines = text.split(/\r?\n/);
  return !/^\d{3}-/.test(lines.at(-2) ?? '');
}
