/**
 * The scan scope policy every benchmark runs under: loopback only, enforced by
 * the product's own policy, so a mistyped address is refused rather than
 * scanned.
 */
import { ScopePolicy } from '../server/scans/scope.ts';

export const LOOPBACK_SCOPE = ['127.0.0.0/8', '::1', 'localhost'];

const policy = new ScopePolicy({ allow: LOOPBACK_SCOPE, deny: [] }, { maxCidrV4: 24, maxCidrV6: 120 });

/** `assertAllowed` for the scanner's network layer: throws for any address off loopback. */
export function assertLoopback(address: string): void {
  policy.assertAddressAllowed(address);
}
