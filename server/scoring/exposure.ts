import ipaddr from 'ipaddr.js';

/**
 * Where a scanned target sits, judged from its address alone: `internal` for
 * loopback, private, link-local, unique-local and carrier-grade NAT addresses (or a
 * CIDR of one) and `localhost`; `internet` for any other IP address; `unknown` for
 * host names, whose addresses were not resolved here.
 */
export type Exposure = 'internet' | 'internal' | 'unknown';

const INTERNAL_RANGES = new Set([
  'loopback',
  'private',
  'linkLocal',
  'uniqueLocal',
  'carrierGradeNat',
  'unspecified',
]);

export function targetExposure(target: string | null | undefined): Exposure {
  if (!target) return 'unknown';
  const host = target
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/\/\d+$/, '');
  if (/^localhost$/i.test(host) || /\.localhost$/i.test(host)) return 'internal';
  if (!ipaddr.IPv4.isValidFourPartDecimal(host) && !ipaddr.IPv6.isValid(host)) return 'unknown';
  return INTERNAL_RANGES.has(ipaddr.process(host).range()) ? 'internal' : 'internet';
}
