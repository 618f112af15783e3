/**
 * Reads a finding's `affected_component` (`redis://10.0.0.5:6379`,
 * `https://shop.example:443/.git/config`, `tcp://[2001:db8::1]:8080`) into the parts
 * analysis text talks about.
 */

export interface ComponentInfo {
  scheme: string | undefined;
  /** Host as written in URLs (IPv6 in brackets). */
  host: string | undefined;
  port: number | undefined;
  /** Path for web findings (`/` when none), undefined otherwise. */
  path: string | undefined;
  /** "host:port", or the raw component when it cannot be parsed. */
  endpoint: string;
  /** Human name of the service: "Redis", "PostgreSQL", "web server", … */
  service: string;
  /** "Redis at 10.0.0.5:6379", "web server at https://shop.example:443/.git/config". */
  label: string;
}

const SERVICE_NAMES: Readonly<Record<string, string>> = {
  redis: 'Redis',
  rediss: 'Redis',
  postgresql: 'PostgreSQL',
  postgres: 'PostgreSQL',
  mysql: 'MySQL/MariaDB',
  mariadb: 'MariaDB',
  mongodb: 'MongoDB',
  memcached: 'Memcached',
  elasticsearch: 'Elasticsearch',
  amqp: 'AMQP broker',
  amqps: 'AMQP broker',
  mqtt: 'MQTT broker',
  mqtts: 'MQTT broker',
  nats: 'NATS server',
  epmd: 'Erlang port mapper',
  'erlang-dist': 'Erlang distribution port',
  ssh: 'SSH server',
  ftp: 'FTP server',
  smtp: 'SMTP server',
  smtps: 'SMTP server',
  imap: 'IMAP server',
  pop3: 'POP3 server',
  http: 'web server',
  https: 'web server',
  tls: 'TLS service',
  tcp: 'TCP service',
};

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ftp: 21, ssh: 22 };

export function describeComponent(
  component: string | null | undefined,
  target?: string | null,
): ComponentInfo {
  const raw = (component ?? '').trim();
  let url: URL | undefined;
  try {
    url = raw ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  const scheme = url?.protocol.replace(/:$/, '').toLowerCase() || undefined;
  const host = url?.hostname || target || undefined;
  const portText = url?.port;
  const port = portText ? Number(portText) : scheme ? DEFAULT_PORTS[scheme] : undefined;
  const web = scheme === 'http' || scheme === 'https';
  const path = web ? url?.pathname || '/' : undefined;
  const endpoint = host ? (port ? `${host}:${port}` : host) : raw || 'the affected host';
  const service = (scheme && SERVICE_NAMES[scheme]) || 'service';
  const label = web && url ? `${service} at ${raw}` : `${service} at ${endpoint}`;
  return { scheme, host, port, path, endpoint, service, label };
}
