import { insufficientPermission } from '../errors.ts';
import type { Principal } from './principal.ts';

/** The families of domain events: `scan.*`, and the finding (`vulnerability.*`) events. */
export type EventFamily = 'scan' | 'finding';

/**
 * The event families a caller may read on the stream: both for a user's session; for an
 * API key (the route already required `read:scans`), the scan events, and the finding
 * events only with `read:findings`; 403 with neither.
 */
export function readableEventFamilies(principal: Principal): EventFamily[] {
  if (principal.via === 'bearer' || principal.permissions === undefined) return ['scan', 'finding'];
  const families: EventFamily[] = [];
  if (principal.permissions.has('read:scans')) families.push('scan');
  if (principal.permissions.has('read:findings')) families.push('finding');
  if (families.length === 0) throw insufficientPermission('the API key needs read:scans or read:findings');
  return families;
}
