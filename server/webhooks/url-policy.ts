import { lookup as dnsLookup } from 'node:dns/promises';
import { validationError } from '../errors.ts';
import { addressRange, parseAddress } from '../scans/ip-ranges.ts';
import { addressRefusal, refusalReason } from '../scans/address-policy.ts';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks a receiver URL: http or https, and a host whose every address may
 * receive, as the one address policy says (scans/address-policy.ts, which the
 * scan scope uses too): a public one, or with private receivers allowed any but
 * a link-local or cloud metadata address (never allowed), every IPv6 form that
 * carries an IPv4 address judged as that address too. Returns the
 * addresses checked, so the delivery connects to exactly those (no DNS
 * rebinding in between).
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
  // The URL parser has already written any IPv4 form (decimal, octal, hex, short) as a dotted quad.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (parseAddress(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw validationError('url', `url: the host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw validationError('url', `url: the host ${host} does not resolve`);
  for (const address of addresses) {
    const range = addressRange(address);
    const refusal = range ? addressRefusal(range, { purpose: 'webhook', allowPrivate }) : 'not-public';
    if (refusal === 'cloud-metadata' || refusal === 'link-local') {
      throw validationError(
        'url',
        `url: ${host === address ? host : `${host} resolves to ${address}, which`} may not receive webhooks (${refusalReason(refusal)}, refused even when private receivers are allowed)`,
      );
    }
    if (refusal) {
      throw validationError(
        'url',
        `url: ${host === address ? host : `${host} resolves to ${address}, which`} is not a public address; ` +
          'webhooks may only reach public unicast addresses ' +
          '(operators can allow private receivers with SCANWARD_WEBHOOK_ALLOW_PRIVATE=true)',
      );
    }
  }
  return { url, addresses };
}
