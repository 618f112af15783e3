import { coveredBy, overlaps, rangeOf, type IpRange } from './ip-ranges.ts';
import { isPublicRange } from './public-addresses.ts';

/**
 * The one address policy: which addresses a webhook may be delivered to and a scan may
 * connect to. Webhooks (`webhooks/url-policy.ts`), the scan scope (`scope.ts`) and the
 * engine's connect-time guard (`scanner/scope-guard.ts`) all ask `addressRefusal`.
 *
 * 1. Normalise: an IPv6 address that carries an IPv4 address is judged as that IPv4 address
 *    too (and as itself): IPv4-mapped `::ffff:a.b.c.d` (parseAddress unwraps it before
 *    anything else), IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` (so
 *    `::a9fe:a9fe`), NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16` and Teredo
 *    `2001::/32` (its server and its obfuscated client address). The address is refused when
 *    either form is.
 * 2. Link-local ranges (169.254.0.0/16, fe80::/10) and the known cloud metadata addresses
 *    (ALWAYS_REFUSED) are refused for webhooks whatever SCANWARD_WEBHOOK_ALLOW_PRIVATE says,
 *    and kept out of a scan's scope unless SCANWARD_SCAN_ALLOW names that exact address.
 * 3. Then the rules of each use: a webhook needs a public address (public-addresses.ts)
 *    unless private receivers are allowed; a scan's address must not be denied, and must lie
 *    inside SCANWARD_SCAN_ALLOW (or be public when it is unset) unless an allowed name vouches
 *    for it.
 */

/** Why an address is refused. */
export type AddressRefusal = 'cloud-metadata' | 'link-local' | 'not-public' | 'denied' | 'outside-scope';

/** Where cloud instances and containers fetch credentials and configuration. */
export const CLOUD_METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle …
  '169.254.170.2', // AWS ECS task credentials
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
  '192.0.0.192', // Oracle Cloud (OCI) legacy metadata
] as const;

const LINK_LOCAL = ['169.254.0.0/16', 'fe80::/10'].map((c) => rangeOf(c)!);
const CLOUD_METADATA = CLOUD_METADATA_ADDRESSES.map((a) => rangeOf(a)!);

export type AddressRule =
  | { purpose: 'webhook'; allowPrivate: boolean }
  | {
      purpose: 'scan';
      /** SCANWARD_SCAN_ALLOW's ranges; undefined: public addresses only. */
      allow: readonly IpRange[] | undefined;
      /** SCANWARD_SCAN_ALLOW's `public` entry: public addresses too, beside what it lists. */
      allowPublic?: boolean;
      deny: readonly IpRange[];
      /** An allowed domain suffix vouches for the address (it still must not be denied or special). */
      byName: boolean;
    };

const V4 = (n: bigint): IpRange => ({ family: 4, first: n, last: n });
const MASK32 = 0xffffffffn;

/** The IPv6 prefixes that carry an IPv4 address, with where it sits. */
const EMBEDDING: Array<{ range: IpRange; v4: (v: bigint) => bigint[] }> = [
  // IPv4-compatible ::a.b.c.d (not :: and ::1, which are IPv6's own).
  { range: { family: 6, first: 2n, last: MASK32 }, v4: (v) => [v & MASK32] },
  // IPv4-mapped ::ffff:a.b.c.d (when it reaches here as a range) and IPv4-translated ::ffff:0:a.b.c.d.
  { range: rangeOf('::ffff:0:0/96')!, v4: (v) => [v & MASK32] },
  { range: rangeOf('::ffff:0:0:0/96')!, v4: (v) => [v & MASK32] },
  // NAT64, well-known prefix (RFC 6052): the last 32 bits.
  { range: rangeOf('64:ff9b::/96')!, v4: (v) => [v & MASK32] },
  // NAT64, local-use prefix 64:ff9b:1::/48 (RFC 8215): a /48 prefix puts the IPv4 address in
  // bits 48-63 and 72-87 (RFC 6052 §2.2); the last 32 bits are judged too.
  {
    range: rangeOf('64:ff9b:1::/48')!,
    v4: (v) => [(((v >> 64n) & 0xffffn) << 16n) | ((v >> 40n) & 0xffffn), v & MASK32],
  },
  // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  { range: rangeOf('2002::/16')!, v4: (v) => [(v >> 80n) & MASK32] },
  // Teredo: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server's address and the client's, inverted.
  { range: rangeOf('2001::/32')!, v4: (v) => [(v >> 64n) & MASK32, ~v & MASK32] },
];

/**
 * The IPv4 addresses an IPv6 address carries (none for an IPv4 address or an IPv6 address
 * outside the embedding prefixes). Undefined for a range of more than one address inside
 * one of those prefixes, which cannot be judged address by address here.
 */
export function embeddedIpv4(range: IpRange): IpRange[] | undefined {
  if (range.family === 4) return [];
  const out: IpRange[] = [];
  for (const prefix of EMBEDDING) {
    if (!overlaps(prefix.range, range)) continue;
    if (range.first !== range.last) return undefined;
    out.push(...prefix.v4(range.first).map(V4));
  }
  return out;
}

/** Link-local or cloud metadata, the two refusals no general allowance lifts. */
function specialRefusal(range: IpRange): AddressRefusal | undefined {
  if (CLOUD_METADATA.some((m) => overlaps(m, range))) return 'cloud-metadata';
  if (LINK_LOCAL.some((l) => overlaps(l, range))) return 'link-local';
  return undefined;
}

/** Whether SCANWARD_SCAN_ALLOW names exactly this one address. */
function namedExactly(range: IpRange, allow: readonly IpRange[] | undefined): boolean {
  return (
    range.first === range.last &&
    (allow ?? []).some((a) => a.family === range.family && a.first === range.first && a.last === range.last)
  );
}

function judge(range: IpRange, rule: AddressRule): AddressRefusal | undefined {
  const special = specialRefusal(range);
  if (rule.purpose === 'webhook') {
    if (special) return special;
    return rule.allowPrivate || isPublicRange(range) ? undefined : 'not-public';
  }
  if (rule.deny.some((d) => overlaps(d, range))) return 'denied';
  if (special && !namedExactly(range, rule.allow)) return special;
  if (rule.byName) return undefined;
  if (rule.allow) {
    return coveredBy(range, rule.allow) || (rule.allowPublic === true && isPublicRange(range))
      ? undefined
      : 'outside-scope';
  }
  return isPublicRange(range) ? undefined : 'not-public';
}

/**
 * Why the address (or every address of the range) may not be reached under `rule`, or
 * undefined when it may. Each IPv4 address an IPv6 address carries is judged as well.
 */
export function addressRefusal(range: IpRange, rule: AddressRule): AddressRefusal | undefined {
  const embedded = embeddedIpv4(range);
  if (embedded === undefined) return rule.purpose === 'scan' && !rule.byName ? 'outside-scope' : 'not-public';
  for (const form of [...embedded, range]) {
    const refusal = judge(form, rule);
    if (refusal) return refusal;
  }
  return undefined;
}

/** What a refusal means, for messages (webhooks and scans word the rest themselves). */
export function refusalReason(refusal: AddressRefusal): string {
  switch (refusal) {
    case 'cloud-metadata':
      return 'a cloud metadata address';
    case 'link-local':
      return 'a link-local address';
    case 'not-public':
      return 'not a public address';
    case 'denied':
      return 'excluded by SCANWARD_SCAN_DENY';
    case 'outside-scope':
      return 'outside SCANWARD_SCAN_ALLOW';
  }
}
