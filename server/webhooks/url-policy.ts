import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { validationError } from '../errors.ts';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Whether an address is an ordinary public unicast address. Loopback, private,
 * link-local, carrier-grade NAT, multicast, documentation and other reserved
 * ranges are not; an IPv4-mapped IPv6 address is judged by its IPv4 part.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  return ip.range() === 'unicast';
}

/**
 * Checks a receiver URL: http or https, and (unless private targets are
 * allowed) a host whose every address is public. Returns the addresses checked,
 * so the delivery connects to exactly those (no DNS rebinding in between).
 */
export async function checkWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ url: URL; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('url', 'url: must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError('url', 'url: must use http or https');
  }
  if (url.username || url.password) throw validationError('url', 'url: must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw validationError('url', `url: the host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw validationError('url', `url: the host ${host} does not resolve`);
  if (!allowPrivate && !addresses.every(isPublicAddress)) {
    throw validationError(
      'url',
      'url: resolves to a loopback, private or reserved address; webhooks may only reach public addresses ' +
        '(operators can allow private receivers with SCANWARD_WEBHOOK_ALLOW_PRIVATE=true)',
    );
  }
  return { url, addresses };
}
