import type { Principal } from './principal.ts';

/**
 * Whether a caller who reached a route by another permission (the overview, by
 * `read:findings`) may also see scans there: a person's session always, an API key only
 * with `read:scans`.
 */
export function maySeeScans(principal: Principal): boolean {
  return !principal.permissions || principal.permissions.has('read:scans');
}
