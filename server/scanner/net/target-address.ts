/**
 * The network layer only ever connects to a literal IP address that the caller's scope
 * policy has approved: it never resolves names, so what was checked is what is reached.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The scan scope policy, passed in by the caller: throws when `address` may not be scanned. */
export type AssertAllowed = (address: string) => void | Promise<void>;

/** A scan target that is not a literal IPv4 or IPv6 address. */
export class TargetAddressError extends Error {
  constructor(readonly address: string) {
    super(`"${address}" is not an IP address; the scanner connects to literal addresses only (no DNS)`);
    this.name = 'TargetAddressError';
  }
}

export type IpFamily = 4 | 6;

/** The family of a literal IP address; throws `TargetAddressError` for names and anything else. */
export function ipFamily(address: string): IpFamily {
  const family = typeof address === 'string' ? isIP(address) : 0;
  if (family !== 4 && family !== 6) throw new TargetAddressError(String(address));
  return family;
}

/**
 * Validates `address` as an IP literal, honours an already aborted signal, then asks the
 * scope policy. Every entry point calls this before opening its first connection.
 */
export async function approveTarget(
  address: string,
  assertAllowed: AssertAllowed,
  signal?: AbortSignal,
): Promise<IpFamily> {
  const family = ipFamily(address);
  signal?.throwIfAborted();
  await assertAllowed(address);
  signal?.throwIfAborted();
  return family;
}

/** Whether two literal addresses name the same host (`::1` and `0:0:0:0:0:0:0:1` do). */
export function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return ipaddr.process(a).toNormalizedString() === ipaddr.process(b).toNormalizedString();
  } catch {
    return false;
  }
}

/** The host part of a URL for an address: IPv6 in brackets. */
export function urlHost(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}
