/**
 * Folds nmap's opinion into what our own probes identified. Our probes speak
 * first: nmap fills in only what they left open (an unidentified service, a
 * missing product or version), and only from answers nmap actually saw
 * (`method="probed"`), never from its port-number guesses.
 */
import type { NmapServiceResult } from './nmap.ts';
import type { ServiceIdentification, ServiceName } from './services.ts';

/** nmap's service names that mean one of ours (nmap calls MQTT, NATS and AMQP by these names too). */
const NMAP_NAMES: Record<string, ServiceName> = {
  http: 'http',
  'http-proxy': 'http',
  'http-alt': 'http',
  https: 'https',
  'https-alt': 'https',
  ssh: 'ssh',
  ftp: 'ftp',
  smtp: 'smtp',
  submission: 'smtp',
  imap: 'imap',
  pop3: 'pop3',
  redis: 'redis',
  postgresql: 'postgresql',
  mysql: 'mysql',
  amqp: 'amqp',
  mqtt: 'mqtt',
  nats: 'nats',
  memcached: 'memcached',
  mongodb: 'mongodb',
  mongod: 'mongodb',
  elasticsearch: 'elasticsearch',
  epmd: 'epmd',
};

/** Our name for what nmap saw on a port, if it is one of ours. */
export function serviceNameFromNmap(result: NmapServiceResult): ServiceName | undefined {
  const name = NMAP_NAMES[result.service];
  if (!name) return undefined;
  if (name === 'http' && result.tunnel === 'ssl') return 'https';
  return name;
}

/**
 * Updates `services` in place with what nmap learned and answers how many
 * services it added to (the `nmap` entry of the scan's tools).
 */
export function mergeNmapResults(
  services: ServiceIdentification[],
  results: readonly NmapServiceResult[],
): number {
  let improved = 0;
  for (const result of results) {
    if (result.state !== 'open' || result.method !== 'probed') continue;
    const service = services.find((s) => s.port === result.port);
    if (!service) continue;
    let changed = false;
    if (service.service === 'unknown') {
      const name = serviceNameFromNmap(result);
      if (name) {
        service.service = name;
        service.tool = 'nmap';
        changed = true;
      }
    }
    const sameService = service.service === serviceNameFromNmap(result);
    if (sameService && !service.product && result.product) {
      service.product = result.product;
      changed = true;
    }
    if (sameService && !service.version && result.version) {
      service.version = result.version;
      changed = true;
    }
    if (changed) {
      service.details = {
        ...service.details,
        nmap_service: result.service,
        ...(result.cpe?.length ? { nmap_cpe: result.cpe.join(' ') } : {}),
      };
      improved += 1;
    }
  }
  return improved;
}
