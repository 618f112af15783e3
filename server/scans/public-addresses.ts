import { addressRange, coveredBy, overlaps, rangeOf, type IpRange } from './ip-ranges.ts';

/**
 * What "a public address" means, once for the whole service: the address policy
 * (`address-policy.ts`), which decides for the scan scope and webhook receivers, asks here.
 *
 * Public is unicast outside every range of IANA's special-purpose address registries
 * (RFC 6890 and its updates); for IPv6, only inside global unicast (2000::/3), so every form
 * that embeds an IPv4 address outside it is refused whatever the IPv4 address is:
 * IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, and the
 * unspecified, loopback, discard, unique-local, link-local and multicast ranges. Inside
 * 2000::/3, Teredo and the other 2001::/23 assignments, 6to4 (2002::/16) and the documentation
 * ranges are refused. An IPv4-mapped address (`::ffff:a.b.c.d`) is judged as the IPv4 address
 * it carries (`parseAddress` unwraps it).
 */

/** The IPv4 special-purpose registry, plus multicast and the reserved 240.0.0.0/4. */
const SPECIAL_PURPOSE_V4 = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.31.196.0/24', // AS112-v4
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // direct delegation AS112 service
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the limited broadcast address
].map((c) => rangeOf(c)!);

/** Public IPv6 is global unicast (2000::/3) minus the special-purpose ranges inside it. */
const GLOBAL_UNICAST_V6 = rangeOf('2000::/3')!;
const SPECIAL_PURPOSE_V6 = [
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, AMT, AS112, ORCHIDv2, drone ids
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  '2620:4f:8000::/48', // direct delegation AS112 service
  '3fff::/20', // documentation
].map((c) => rangeOf(c)!);

/** Whether every address of the range is public. */
export function isPublicRange(range: IpRange): boolean {
  if (range.family === 4) return !SPECIAL_PURPOSE_V4.some((r) => overlaps(r, range));
  return coveredBy(range, [GLOBAL_UNICAST_V6]) && !SPECIAL_PURPOSE_V6.some((r) => overlaps(r, range));
}

/** Whether a literal address is public; false for anything that is not a literal address. */
export function isPublicAddress(address: string): boolean {
  const range = addressRange(address);
  return range !== undefined && isPublicRange(range);
}
