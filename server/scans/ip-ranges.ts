import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Address ranges as inclusive integer intervals, so the scope policy can answer
 * "does this range lie wholly inside that set" with plain arithmetic, whatever
 * mix of CIDRs makes up the set.
 */

export type IpFamily = 4 | 6;

export interface IpRange {
  family: IpFamily;
  first: bigint;
  last: bigint;
}

const BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };

function toBigInt(bytes: number[]): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/** The literal address of an integer of the given family. */
export function addressAt(n: bigint, family: IpFamily): string {
  const bytes: number[] = [];
  for (let i = 0; i < BITS[family] / 8; i++) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * Parses a literal address strictly (dotted-quad IPv4 only, no zone ids); an
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) becomes the IPv4 address it
 * carries, so it cannot slip past an IPv4 rule. Undefined for anything else.
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isIP(text) === 0 || text.includes('%')) return undefined;
  return ipaddr.process(text);
}

export function familyOf(address: ipaddr.IPv4 | ipaddr.IPv6): IpFamily {
  return address.kind() === 'ipv4' ? 4 : 6;
}

/** The one-address range of a literal address; undefined when it is not one. */
export function addressRange(text: string): IpRange | undefined {
  const address = parseAddress(text);
  if (!address) return undefined;
  const value = toBigInt(address.toByteArray());
  return { family: familyOf(address), first: value, last: value };
}

/** The range of a network address and prefix length (host bits are ignored). */
export function cidrRange(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): IpRange {
  const family = familyOf(address);
  const hostBits = BigInt(BITS[family] - prefix);
  const value = toBigInt(address.toByteArray());
  const first = (value >> hostBits) << hostBits;
  return { family, first, last: first + (1n << hostBits) - 1n };
}

/** Parses `a.b.c.d/n` or `x::/n` strictly; undefined when it is not a CIDR. */
export function parseCidr(text: string): { address: ipaddr.IPv4 | ipaddr.IPv6; prefix: number } | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const host = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  const family = isIP(host);
  if (family === 0 || host.includes('%') || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > (family === 4 ? 32 : 128)) return undefined;
  return { address: ipaddr.parse(host), prefix };
}

/** A CIDR or a single address as a range; undefined for anything else. */
export function rangeOf(text: string): IpRange | undefined {
  const cidr = parseCidr(text);
  if (cidr) return cidrRange(cidr.address, cidr.prefix);
  return addressRange(text);
}

export function overlaps(a: IpRange, b: IpRange): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}

/** Whether every address of `range` lies in the union of `cover`. */
export function coveredBy(range: IpRange, cover: readonly IpRange[]): boolean {
  const pieces = cover
    .filter((c) => overlaps(c, range))
    .sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  let next = range.first;
  for (const piece of pieces) {
    if (piece.first > next) return false;
    if (piece.last >= next) next = piece.last + 1n;
    if (next > range.last) return true;
  }
  return next > range.last;
}

/** How many addresses a range holds. */
export function sizeOf(range: IpRange): bigint {
  return range.last - range.first + 1n;
}

/** The addresses of a range, in order, as literal strings (the runner walks a CIDR target with this). */
export function* addressesOf(range: IpRange): Generator<string> {
  for (let n = range.first; n <= range.last; n++) yield addressAt(n, range.family);
}
