import { addressRange } from '../scans/ip-ranges.ts';
import { scopePolicyFor } from '../scans/scope.ts';
import type { Config } from '../config.ts';
import type { ScanState } from './types.ts';

export class OutOfScopeError extends Error {
  constructor(address: string) {
    super(
      `refusing to connect to ${address}: it is not an address this scan checked against the scope policy`,
    );
    this.name = 'OutOfScopeError';
  }
}

/**
 * The connect-time half of the scope policy. Discovery checked the target once
 * (after DNS resolution) and recorded the addresses it may reach; every probe
 * asks this guard before connecting, and only those addresses pass — never an
 * address that a later DNS answer might point to. Deny lists, link-local ranges and
 * cloud metadata addresses (unless SCANWARD_SCAN_ALLOW names the exact address), in
 * any IPv6 form that carries them, are refused even then: the one address policy
 * decides (scans/address-policy.ts).
 */
export function createScopeGuard(config: Config, state: ScanState): (address: string) => void {
  const policy = scopePolicyFor(config);
  return (address) => {
    const range = addressRange(address);
    const checked = state.hosts.some((h) => h.address === address);
    if (!range || !checked || !policy.rangeAllowed(range, true)) throw new OutOfScopeError(address);
  };
}
