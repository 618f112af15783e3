/**
 * The software the scanner can name from what a service revealed (a banner, a `Server` or
 * `X-Powered-By` header, a protocol handshake), with where each product is found in the
 * end-of-life data (endoflife.date slug), how it is named in the KEV snapshot's version
 * ranges, whose vendor CVE data covers it, and how its versions compare. Only what the
 * service itself said is used: a product without a version, or a version that is not a
 * version, names nothing. A `Server` header names every product token it carries
 * (`Apache/2.4.49 (Unix) OpenSSL/1.1.1k PHP/7.4.3` → Apache, OpenSSL, PHP), and its comments
 * say the platform (`Win64`) or the distribution (`Ubuntu`) where they do.
 */
import type { VendorProduct } from './build-vendor-cves.ts';
import { parseVersion, type VersionScheme } from './versions.ts';

export interface SoftwareProduct {
  key: string;
  /** The name findings use. */
  name: string;
  /** endoflife.date product slug. */
  endoflife?: string;
  /** Product names of the KEV snapshot's ranges that mean this software. */
  kevProducts: string[];
  scheme: VersionScheme;
  /** Matches `RevealedService.product` (from our probes or nmap) and `Server` header product tokens. */
  productName?: RegExp;
  /** The vendor CVE data that covers it (vendor-cves.ts). */
  vendor?: VendorProduct;
}

export const SOFTWARE: readonly SoftwareProduct[] = [
  {
    key: 'apache-http-server',
    name: 'Apache HTTP Server',
    endoflife: 'apache-http-server',
    kevProducts: ['Apache HTTP Server'],
    scheme: 'dotted',
    productName: /^(apache|apache httpd|apache http server|httpd)$/i,
    vendor: 'apache_httpd',
  },
  {
    key: 'nginx',
    name: 'nginx',
    endoflife: 'nginx',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^nginx$/i,
    vendor: 'nginx',
  },
  {
    key: 'openssl',
    name: 'OpenSSL',
    endoflife: 'openssl',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^openssl$/i,
    vendor: 'openssl',
  },
  {
    key: 'tomcat',
    name: 'Apache Tomcat',
    endoflife: 'tomcat',
    kevProducts: ['Apache Tomcat'],
    scheme: 'tomcat',
    productName: /^(apache tomcat|tomcat)$/i,
  },
  {
    key: 'php',
    name: 'PHP',
    endoflife: 'php',
    kevProducts: ['PHP'],
    scheme: 'dotted',
    productName: /^php$/i,
  },
  {
    key: 'mysql',
    name: 'MySQL',
    endoflife: 'mysql',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^mysql$/i,
  },
  {
    key: 'mariadb',
    name: 'MariaDB',
    endoflife: 'mariadb',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^mariadb$/i,
  },
  {
    key: 'postgresql',
    name: 'PostgreSQL',
    endoflife: 'postgresql',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^postgresql$/i,
  },
  {
    key: 'redis',
    name: 'Redis',
    endoflife: 'redis',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^redis( key-value store)?$/i,
  },
  {
    key: 'valkey',
    name: 'Valkey',
    endoflife: 'valkey',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^valkey$/i,
  },
  {
    key: 'mongodb',
    name: 'MongoDB',
    endoflife: 'mongodb',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^mongodb$/i,
  },
  {
    key: 'elasticsearch',
    name: 'Elasticsearch',
    endoflife: 'elasticsearch',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^elasticsearch$/i,
  },
  {
    key: 'opensearch',
    name: 'OpenSearch',
    endoflife: 'opensearch',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^opensearch$/i,
  },
  {
    key: 'rabbitmq',
    name: 'RabbitMQ',
    endoflife: 'rabbitmq',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^rabbitmq$/i,
  },
  {
    key: 'memcached',
    name: 'Memcached',
    endoflife: 'memcached',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^memcached$/i,
  },
  { key: 'exim', name: 'Exim', endoflife: 'exim', kevProducts: [], scheme: 'dotted', productName: /^exim$/i },
  {
    key: 'postfix',
    name: 'Postfix',
    endoflife: 'postfix',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^postfix$/i,
  },
  {
    key: 'proftpd',
    name: 'ProFTPD',
    endoflife: 'proftpd',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^proftpd$/i,
  },
  {
    key: 'haproxy',
    name: 'HAProxy',
    endoflife: 'haproxy',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^haproxy$/i,
  },
  {
    key: 'squid',
    name: 'Squid',
    endoflife: 'squid',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^squid$/i,
  },
  {
    key: 'caddy',
    name: 'Caddy',
    endoflife: 'caddy',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^caddy$/i,
  },
  {
    key: 'jenkins',
    name: 'Jenkins',
    endoflife: 'jenkins',
    kevProducts: ['Jenkins'],
    scheme: 'dotted',
    productName: /^jenkins$/i,
  },
  {
    key: 'grafana',
    name: 'Grafana',
    endoflife: 'grafana',
    kevProducts: ['Grafana'],
    scheme: 'dotted',
    productName: /^grafana$/i,
  },
  {
    key: 'kibana',
    name: 'Kibana',
    endoflife: 'kibana',
    kevProducts: ['Kibana'],
    scheme: 'dotted',
    productName: /^kibana$/i,
  },
  {
    key: 'solr',
    name: 'Apache Solr',
    endoflife: 'solr',
    kevProducts: ['Apache Solr'],
    scheme: 'dotted',
    productName: /^(apache )?solr$/i,
  },
  {
    key: 'openfire',
    name: 'Openfire',
    kevProducts: ['Openfire'],
    scheme: 'dotted',
    productName: /^openfire$/i,
  },
  {
    key: 'nostromo',
    name: 'nostromo nhttpd',
    kevProducts: ['nostromo nhttpd'],
    scheme: 'dotted',
    productName: /^(nostromo|nhttpd)$/i,
  },
  {
    key: 'rejetto-hfs',
    name: 'Rejetto HTTP File Server',
    kevProducts: ['Rejetto HTTP File Server'],
    scheme: 'dotted',
    productName: /^(hfs|rejetto http file server)$/i,
  },
  {
    key: 'serv-u',
    name: 'SolarWinds Serv-U',
    kevProducts: ['SolarWinds Serv-U'],
    scheme: 'dotted',
    productName: /^(serv-u|solarwinds serv-u)$/i,
  },
];

export interface IdentifiedSoftware {
  product: SoftwareProduct;
  version: string;
  /** Where the name and version were read, for the evidence: `Server: Apache/2.4.49`. */
  source: string;
  /** The platform the `Server` header's comments name (`Win64` → windows, `Unix`/`Ubuntu` → unix). */
  platform?: ServerPlatform;
  /** The distribution they name (`Ubuntu`, `Debian`, `CentOS`, `Red Hat`): its packages may carry backported fixes. */
  distribution?: string;
}

export type ServerPlatform = 'windows' | 'unix';

/** One product token of a `Server` header, with the comments that follow it. */
export interface ServerProductToken {
  name: string;
  version?: string;
  comments: string[];
}

/**
 * The product tokens of a `Server` header (RFC 9110 §10.2.4: `product[/version]` separated by
 * spaces, each optionally followed by `(comments)`): `Apache/2.4.49 (Unix) OpenSSL/1.1.1k
 * mod_fcgid/2.3.9` → Apache 2.4.49 (Unix), OpenSSL 1.1.1k, mod_fcgid 2.3.9.
 */
export function parseServerHeader(header: string): ServerProductToken[] {
  const tokens: ServerProductToken[] = [];
  let rest = header.trim().slice(0, 1024);
  while (rest.length > 0) {
    if (rest.startsWith('(')) {
      let depth = 0;
      let end = 0;
      for (; end < rest.length; end++) {
        if (rest[end] === '(') depth++;
        else if (rest[end] === ')' && --depth === 0) break;
      }
      const comment = rest.slice(1, end).trim();
      if (comment) tokens.at(-1)?.comments.push(comment);
      rest = rest.slice(end + 1).trimStart();
      continue;
    }
    const word = /^[^\s(]+/.exec(rest)?.[0] ?? rest;
    rest = rest.slice(word.length).trimStart();
    const slash = word.indexOf('/');
    const name = slash === -1 ? word : word.slice(0, slash);
    const version = slash === -1 ? undefined : word.slice(slash + 1);
    if (name) tokens.push({ name, ...(version && { version }), comments: [] });
  }
  return tokens;
}

const WINDOWS = /^win(32|64)$|windows/i;
const DISTRIBUTIONS: [RegExp, string][] = [
  [/ubuntu/i, 'Ubuntu'],
  [/debian|raspbian/i, 'Debian'],
  [/centos/i, 'CentOS'],
  [/red ?hat|rhel/i, 'Red Hat'],
  [/fedora/i, 'Fedora'],
  [/almalinux/i, 'AlmaLinux'],
  [/rocky/i, 'Rocky Linux'],
  [/amazon/i, 'Amazon Linux'],
  [/suse/i, 'SUSE'],
  [/alpine/i, 'Alpine'],
  [/gentoo/i, 'Gentoo'],
];
const UNIX = /^(unix|linux|.*bsd|darwin)$/i;

/** The platform and distribution a `Server` header's comments name, when they name one. */
export function serverPlatform(header: string): { platform?: ServerPlatform; distribution?: string } {
  for (const comment of parseServerHeader(header).flatMap((t) => t.comments)) {
    for (const part of comment.split(/[;,]\s*/)) {
      if (WINDOWS.test(part.trim())) return { platform: 'windows' };
      const distribution = DISTRIBUTIONS.find(([pattern]) => pattern.test(part))?.[1];
      if (distribution) return { platform: 'unix', distribution };
      if (UNIX.test(part.trim())) return { platform: 'unix' };
    }
  }
  return {};
}

/** `Server` headers whose product and version are separated by a space, not a slash. */
const SPACED_SERVER = /^(HFS|nostromo|nhttpd) (\d[\w.]*)/i;
const SERV_U_BANNER = /Serv-U FTP Server v(\d[\w.]*)/i;

function byName(name: string): SoftwareProduct | undefined {
  return SOFTWARE.find((p) => p.productName?.test(name.trim()));
}

/** Keeps only what reads as a version under the product's scheme. */
function named(
  product: SoftwareProduct | undefined,
  version: string | undefined,
  source: string,
): IdentifiedSoftware[] {
  if (!product || !version || !parseVersion(version, product.scheme)) return [];
  return [{ product, version, source }];
}

/**
 * What a service revealed about itself, as the scanner's probes identify it
 * (structurally the scanner's `ServiceIdentification`; intel/ sits below the scanner).
 */
export interface RevealedService {
  service: string;
  product?: string | undefined;
  version?: string | undefined;
  banner?: string | undefined;
  details?: Record<string, string | number | boolean> | undefined;
}

/** The named software on a service, with its version: the server itself, and PHP behind a web server. */
export function softwareOf(service: RevealedService): IdentifiedSoftware[] {
  const found: IdentifiedSoftware[] = [];
  const details = service.details ?? {};
  const server = typeof details.server === 'string' ? details.server : undefined;
  if (service.product) {
    const source = server
      ? `Server: ${server}`
      : (service.banner ?? `${service.product} ${service.version ?? ''}`);
    found.push(...named(byName(service.product), service.version, source.trim()));
  }
  if (found.length === 0 && server) {
    const spaced = SPACED_SERVER.exec(server);
    if (spaced) found.push(...named(byName(spaced[1] as string), spaced[2], `Server: ${server}`));
  }
  if (found.length === 0 && service.service === 'ftp' && service.banner) {
    const servU = SERV_U_BANNER.exec(service.banner);
    if (servU) found.push(...named(byName('Serv-U'), servU[1], service.banner));
  }
  if (server) {
    // The other products the header names: OpenSSL and PHP behind Apache, and the like.
    for (const token of parseServerHeader(server)) {
      const product = byName(token.name);
      if (product && !found.some((f) => f.product.key === product.key))
        found.push(...named(product, token.version, `Server: ${server}`));
    }
  }
  const poweredBy = typeof details.powered_by === 'string' ? details.powered_by : undefined;
  const php = poweredBy ? /\bPHP\/(\d[\w.]*)/i.exec(poweredBy) : null;
  if (php && !found.some((f) => f.product.key === 'php'))
    found.push(...named(byName('PHP'), php[1], `X-Powered-By: ${poweredBy}`));
  const where = server ? serverPlatform(server) : {};
  return found.map((f) => ({ ...f, ...where }));
}
