/**
 * Named rules over identified services, in the manner of nmap's `shortport`: a check says
 * `appliesTo: isHttp` rather than writing the test again, and every rule carries the ports
 * where such services usually listen, so the scan's default port list (check-registry.ts)
 * covers every service a check targets.
 *
 * Built-in checks (checks/) and the template checks (templates/) both use them; they sit here,
 * under both, beside the service names they test (services.ts).
 */
import { isTlsService } from './http-exchange.ts';
import type { ServiceIdentification, ServiceName } from './services.ts';
import { startTlsOf } from './starttls.ts';

export interface ServiceRule {
  /** What the rule accepts, in words (docs/checks.md's table, error messages). */
  readonly description: string;
  /** The ports such services usually listen on: scanned by default. */
  readonly ports: readonly number[];
  matches(service: ServiceIdentification): boolean;
}

export function serviceRule(
  description: string,
  ports: readonly number[],
  matches: (service: ServiceIdentification) => boolean,
): ServiceRule {
  return Object.freeze({ description, ports: Object.freeze([...ports]), matches });
}

/** A service identified as `name` (the service's URL scheme), usually on `ports`. */
export function isService(name: ServiceName, ports: readonly number[]): ServiceRule {
  return serviceRule(name, ports, (service) => service.service === name);
}

/** `rule`, narrowed by a further test (a product, a page title); the ports are the rule's unless given. */
export function narrowed(
  rule: ServiceRule,
  description: string,
  test: (service: ServiceIdentification) => boolean,
  ports: readonly number[] = rule.ports,
): ServiceRule {
  return serviceRule(`${rule.description}, ${description}`, ports, (s) => rule.matches(s) && test(s));
}

/** Any service, on any port (the template checks that pick their own services). */
export const anyService = serviceRule('any service', [], () => true);

/** Ports where plain HTTP is usual (nmap's `shortport.http` and the identification hints). */
const HTTP_PORTS = [80, 81, 3000, 5000, 8000, 8008, 8080, 8081, 8888, 9000, 9090];
/** Ports where HTTPS is usual. */
const HTTPS_PORTS = [443, 4443, 8443, 9443];

/** HTTP or HTTPS: the web checks. */
export const isHttp = serviceRule('HTTP or HTTPS', [...HTTP_PORTS, ...HTTPS_PORTS], (service) =>
  ['http', 'https'].includes(service.service),
);

/** HTTPS: HTTP inside TLS. */
export const isHttps = narrowed(isHttp, 'inside TLS', isTlsService, HTTPS_PORTS);

/** A service identified inside TLS (HTTPS, SMTPS, IMAPS, AMQPS, MQTTS, Redis over TLS, …). */
export const speaksTls = serviceRule(
  'inside TLS',
  [...HTTPS_PORTS, 465, 636, 990, 993, 995, 5671, 6380, 8883],
  isTlsService,
);

/**
 * TLS from the first byte, or offered by an in-band upgrade (STARTTLS of SMTP, IMAP, POP3 and
 * FTP, PostgreSQL's SSLRequest): the TLS checks.
 */
export const isTls = serviceRule(
  'inside TLS, or after an in-band upgrade (STARTTLS, SSLRequest)',
  [...speaksTls.ports, 21, 25, 110, 143, 587, 5432],
  (service) => service.service === 'https' || service.tls === true || startTlsOf(service) !== undefined,
);
