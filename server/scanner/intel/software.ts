/**
 * The software the scanner can name from what a service revealed (a banner, a `Server` or
 * `X-Powered-By` header, a protocol handshake), with where each product is found in the
 * end-of-life data (endoflife.date slug), how it is named in the KEV snapshot's version
 * ranges, and how its versions compare. Only what the service itself said is used: a
 * product without a version, or a version that is not a version, names nothing.
 */
import type { ServiceIdentification } from '../net/services.ts';
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
  /** Matches `ServiceIdentification.product` (from our probes or nmap). */
  productName?: RegExp;
}

export const SOFTWARE: readonly SoftwareProduct[] = [
  {
    key: 'apache-http-server',
    name: 'Apache HTTP Server',
    endoflife: 'apache-http-server',
    kevProducts: ['Apache HTTP Server'],
    scheme: 'dotted',
    productName: /^(apache|apache httpd|apache http server|httpd)$/i,
  },
  {
    key: 'nginx',
    name: 'nginx',
    endoflife: 'nginx',
    kevProducts: [],
    scheme: 'dotted',
    productName: /^nginx$/i,
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
}

/** `Server` headers whose product and version are separated by a space, not a slash. */
const SPACED_SERVER = /^(HFS|nostromo|nhttpd) (\d[\w.]*)/i;
const SERV_U_BANNER = /Serv-U FTP Server v(\d[\w.]*)/i;

function byName(name: string): SoftwareProduct | undefined {
  return SOFTWARE.find((p) => p.productName?.test(name.trim()));
}

/** Keeps only what reads as a version under the product's scheme. */
function named(product: SoftwareProduct | undefined, version: string | undefined, source: string) {
  if (!product || !version || !parseVersion(version, product.scheme)) return [];
  return [{ product, version, source }];
}

/** The named software on a service, with its version: the server itself, and PHP behind a web server. */
export function softwareOf(service: ServiceIdentification): IdentifiedSoftware[] {
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
  const poweredBy = typeof details.powered_by === 'string' ? details.powered_by : undefined;
  const php = poweredBy ? /\bPHP\/(\d[\w.]*)/i.exec(poweredBy) : null;
  if (php) found.push(...named(byName('PHP'), php[1], `X-Powered-By: ${poweredBy}`));
  return found;
}
