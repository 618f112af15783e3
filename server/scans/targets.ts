import { domainToASCII } from 'node:url';
import { validationError } from '../errors.ts';
import {
  addressAt,
  cidrRange,
  familyOf,
  parseAddress,
  parseCidr,
  type IpFamily,
  type IpRange,
} from './ip-ranges.ts';

/**
 * What a scan may point at (decisions.md, "Scans"): a DNS name, an IPv4 or IPv6
 * address, or a CIDR range no larger than the configured ceiling. Parsing is
 * strict and purely syntactic; whether the target may be scanned is the scope
 * policy's question (scope.ts).
 */

export type ParsedTarget =
  | { kind: 'ip'; address: string; family: IpFamily }
  | { kind: 'cidr'; network: string; prefix: number; family: IpFamily; range: IpRange }
  | { kind: 'domain'; name: string };

export interface CidrCeiling {
  /** Smallest prefix length an IPv4 range may have (16 = at most a /16). */
  maxCidrV4: number;
  maxCidrV6: number;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The lower-case ASCII form of a DNS host name, or undefined when it is not one. */
export function normalizeHostName(text: string): string | undefined {
  const bare = text.endsWith('.') ? text.slice(0, -1) : text;
  if (bare === '' || /[\s/:@?#[\]\\%*]/.test(bare)) return undefined;
  const ascii = domainToASCII(bare).toLowerCase();
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // "10.1" or "1.2.3.999" look like addresses, not names: refuse rather than resolve them.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return undefined;
  return ascii;
}

const SHAPE_HINT =
  'must be a domain name, an IPv4 or IPv6 address, or a CIDR range (no scheme, port or path)';

/** Parses a scan target or throws 422 VALIDATION_ERROR naming `target`. */
export function parseTarget(text: string, ceiling: CidrCeiling, field = 'target'): ParsedTarget {
  const target = text.trim();
  if (target.includes('/')) {
    const cidr = parseCidr(target);
    if (!cidr) throw validationError(field, `target "${target}" ${SHAPE_HINT}`);
    const family = familyOf(cidr.address);
    const ceilingPrefix = family === 4 ? ceiling.maxCidrV4 : ceiling.maxCidrV6;
    if (cidr.prefix < ceilingPrefix) {
      throw validationError(
        field,
        `target range /${cidr.prefix} is larger than the largest allowed IPv${family} range, /${ceilingPrefix}`,
      );
    }
    const range = cidrRange(cidr.address, cidr.prefix);
    const network = `${addressAt(range.first, family)}/${cidr.prefix}`;
    return { kind: 'cidr', network, prefix: cidr.prefix, family, range };
  }
  const address = parseAddress(target);
  if (address) return { kind: 'ip', address: address.toString(), family: familyOf(address) };
  const name = normalizeHostName(target);
  if (!name) throw validationError(field, `target "${target}" ${SHAPE_HINT}`);
  return { kind: 'domain', name };
}
