import { insufficientPermission } from '../errors.ts';
import type { Principal } from '../http/principal.ts';
import { FINDING_EVENTS, SCAN_EVENTS, type DomainEventType } from './outbox.ts';

/**
 * The event types a caller may read on the stream: all of them for a user's
 * session; for an API key (the route already required `read:scans`), the scan
 * events, and the finding events only with `read:findings`; 403 with neither.
 */
export function streamTypesFor(principal: Principal): DomainEventType[] {
  if (principal.via === 'bearer' || principal.permissions === undefined)
    return [...SCAN_EVENTS, ...FINDING_EVENTS];
  const types: DomainEventType[] = [];
  if (principal.permissions.has('read:scans')) types.push(...SCAN_EVENTS);
  if (principal.permissions.has('read:findings')) types.push(...FINDING_EVENTS);
  if (types.length === 0) throw insufficientPermission('the API key needs read:scans or read:findings');
  return types;
}
