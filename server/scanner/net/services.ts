/**
 * The services the scanner names, and what it identified on a port. A service name is also
 * the URL scheme of the port's `affected_component` (`redis://127.0.0.1:6379`); a port whose
 * service is unknown is `tcp://host:port`.
 */
import { urlHost } from './target-address.ts';

export const SERVICE_NAMES = [
  'http',
  'https',
  'ssh',
  'ftp',
  'smtp',
  'imap',
  'pop3',
  'redis',
  'postgresql',
  'mysql',
  'amqp',
  'mqtt',
  'nats',
  'memcached',
  'mongodb',
  'elasticsearch',
  'epmd',
  'erlang-dist',
  'unknown',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceEvidence {
  /** What the probe sent, as text (non-printable bytes as `\xNN`). */
  request: string;
  /** What the service answered, as text. */
  response: string;
}

export type ServiceDetails = Record<string, string | number | boolean>;

export interface ServiceIdentification {
  address: string;
  port: number;
  service: ServiceName;
  product?: string;
  /** Only what the service itself revealed; never inferred. */
  version?: string;
  /** The first line(s) the service sent of its own accord, or its identifying answer. */
  banner?: string;
  /** The service spoke TLS (its protocol was identified inside the TLS session). */
  tls?: boolean;
  /**
   * Whether the service let an unauthenticated client in, where the probe could tell
   * without credentials: Redis PING without NOAUTH, PostgreSQL trust, MQTT CONNACK 0,
   * NATS without auth_required, MongoDB listDatabases, Elasticsearch 200 on `/`.
   */
  anonymousAccess?: boolean;
  /** Protocol facts worth keeping (auth methods, TLS certificate, HTTP status, ...). */
  details?: ServiceDetails;
  evidence: ServiceEvidence;
  /** The tool that named the service: our own probes, or nmap where only it could tell. */
  tool: 'scanward-probe' | 'nmap';
}

/** The `affected_component` URL of a service: `<service>://host:port`, `tcp://host:port` when unknown. */
export function componentUrl(
  identification: Pick<ServiceIdentification, 'address' | 'port' | 'service'>,
): string {
  const scheme = identification.service === 'unknown' ? 'tcp' : identification.service;
  return `${scheme}://${urlHost(identification.address)}:${identification.port}`;
}

/** The product (or service) and version, as enumeration notes and logs name a service. */
export function describeService(service: ServiceIdentification): string {
  const name = service.product ?? service.service;
  return service.version ? `${name} ${service.version}` : name;
}
